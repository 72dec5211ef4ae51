package sql

import (
	"errors"
	"strings"
	"testing"
)

// tok renders a token as kind:text for comparison.
func tok(t token) string {
	return [...]string{"?", "id", "qid", "str", "num", "param", "p", "op", "meta"}[t.kind] + ":" + t.text
}

func lexed(src string, d dialect) (string, error) {
	toks, _, err := lex(src, d)
	var out []string
	for _, t := range toks {
		out = append(out, tok(t))
	}
	return strings.Join(out, " "), err
}

func TestLex(t *testing.T) {
	for _, c := range []struct {
		src, std, my string // my "" means the same as std
	}{
		{"SELECT 1;", "id:SELECT num:1 p:;", ""},
		{"select a.b, \"C\"\"d\" from `t`", "id:select id:a p:. id:b p:, qid:\"C\"\"d\" id:from qid:`t`", "id:select id:a p:. id:b p:, str:\"C\"\"d\" id:from qid:`t`"},
		{"'it''s' E'a\\'b' e'x'", "str:'it''s' str:E'a\\'b' str:e'x'", ""},
		{"x -- DROP\ny", "id:x id:y", ""},
		{"x /* a /* b */ c */ y", "id:x id:y", "id:x id:c op:* op:/ id:y"},
		{"$$ a; b $$ $t$ $$ $t$ $1 $", "str:$$ a; b $$ str:$t$ $$ $t$ param:$1 op:$", "id:$$ id:a p:; id:b id:$$ id:$t$ id:$$ id:$t$ id:$1 id:$"},
		{"a$b 1.5e3 .5 0xff 1_000", "id:a$b num:1.5e3 num:.5 num:0xff num:1_000", ""},
		{"a<>b>=c!=d =-1", "id:a op:<> id:b op:>= id:c op:!= id:d op:= op:- num:1", ""},
		{"SELECT 1 # x\n", "id:SELECT num:1 op:# id:x", "id:SELECT num:1"},
		{"SELECT 1--1\n", "id:SELECT num:1", "id:SELECT num:1 op:- op:- num:1"},
		{"1 /*!50000 DROP */ 2", "num:1 num:2", "num:1 id:DROP num:2"},
		{"'a\\'", "str:'a\\'", ""}, // MySQL: unterminated
		{"SELECT 1 \\gexec\nSELECT 2", "id:SELECT num:1 meta:\\gexec id:SELECT num:2", ""},
		{"\\x on \\dt\\\\SELECT 1", "meta:\\x on  meta:\\dt id:SELECT num:1", ""},
		{"\\copy t to 'a\\b'\nSELECT", "meta:\\copy t to 'a\\b' id:SELECT", ""},
		{"SELECT 1;\n  .shell ls\nx.y", "id:SELECT num:1 p:; meta:.shell ls id:x p:. id:y", ""},
		{"x .5", "id:x num:.5", ""},
		{"ünïcode_näme", "id:ünïcode_näme", ""},
	} {
		std, _ := lexed(c.src, standard)
		if std != c.std {
			t.Errorf("%q standard:\n got %s\nwant %s", c.src, std, c.std)
		}
		want := c.my
		if want == "" {
			want = c.std
		}
		if c.src == "'a\\'" {
			continue
		}
		if my, err := lexed(c.src, mysqlish); my != want || err != nil {
			t.Errorf("%q mysql:\n got %s (%v)\nwant %s", c.src, my, err, want)
		}
	}
}

func TestLexAmbiguous(t *testing.T) {
	for src, want := range map[string]bool{
		"SELECT 'a' -- x":       false,
		"SELECT 'a\\b'":         true,
		`SELECT "a\b"`:          true,
		"SELECT E'a\\b'":        false,
		"SELECT 1 # 2":          true,
		"SELECT 1 --x":          true,
		"SELECT 1 /* a */":      false,
		"SELECT 1 /* /* */ */":  true,
		"SELECT 1 /*! x */":     true,
		"SELECT $$x$$":          true,
		"SELECT $1":             false,
		"SELECT 1 -- a\n-- b\n": false,
	} {
		if _, amb, _ := lex(src, standard); amb != want {
			t.Errorf("%q: ambiguous %v, want %v", src, amb, want)
		}
	}
}

func TestLexErrors(t *testing.T) {
	for _, c := range []struct {
		src       string
		d         dialect
		line, col int
		msg       string
	}{
		{"SELECT 'x", standard, 1, 8, "unterminated quoted string"},
		{"SELECT 1;\n  E'x\\'", standard, 2, 3, "unterminated quoted string"},
		{`SELECT "x`, standard, 1, 8, "unterminated quoted identifier"},
		{`SELECT "x`, mysqlish, 1, 8, "unterminated quoted string"},
		{"SELECT `x", standard, 1, 8, "unterminated quoted identifier"},
		{"/* a /* b */", standard, 1, 1, "unterminated block comment"},
		{"/* a", mysqlish, 1, 1, "unterminated block comment"},
		{"x /*! y", mysqlish, 1, 8, "unterminated /*! comment"},
		{"SELECT $f$ x $g$", standard, 1, 8, msgDollar},
		{"'it\\'s", mysqlish, 1, 1, "unterminated quoted string"},
	} {
		toks, _, err := lex(c.src, c.d)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a *SyntaxError", c.src, err)
			continue
		}
		if se.Line != c.line || se.Col != c.col || se.Msg != c.msg {
			t.Errorf("%q: %d:%d %q, want %d:%d %q", c.src, se.Line, se.Col, se.Msg, c.line, c.col, c.msg)
		}
		if !strings.HasPrefix(se.Error(), "sql: ") {
			t.Errorf("%q: error text %q", c.src, se.Error())
		}
		for _, tk := range toks {
			if tk.pos >= se.Offset {
				t.Errorf("%q: token %s after the error offset %d", c.src, tok(tk), se.Offset)
			}
		}
	}
}

func TestTokenValue(t *testing.T) {
	for _, c := range []struct {
		src  string
		d    dialect
		want string
	}{
		{"'it''s'", standard, "it's"},
		{`'a\nb'`, standard, `a\nb`},
		{`E'a\nb\'c'`, standard, "a\nb'c"},
		{`'a\'b'`, mysqlish, "a'b"},
		{`"a\"b"`, mysqlish, `a"b`},
		{`"My ""T"""`, standard, `My "T"`},
		{"`a``b`", standard, "a`b"},
		{"$$ x 'y' $$", standard, " x 'y' "},
		{"$fn$body$fn$", standard, "body"},
	} {
		toks, _, err := lex(c.src, c.d)
		if err != nil || len(toks) != 1 {
			t.Errorf("%q: %v %v", c.src, toks, err)
			continue
		}
		if got := toks[0].value(); got != c.want {
			t.Errorf("%q: value %q, want %q", c.src, got, c.want)
		}
	}
}

// TestLexLinear checks that pathological inputs stay cheap: many quotes,
// backslashes, nested comment openers and dollar signs.
func TestLexLinear(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("'\\", 50000),
		strings.Repeat("/*", 50000),
		strings.Repeat("$a", 50000),
		strings.Repeat("''", 50000),
		strings.Repeat("(", 50000) + "DELETE FROM t WHERE " + strings.Repeat("a OR (", 5000),
		strings.Repeat("(DELETE FROM t WHERE x IN ", 2000),
		strings.Repeat("DELETE FROM t WHERE 1=1 OR ", 5000),
		strings.Repeat("\\x\n", 20000),
		strings.Repeat("\\x ", 50000),
		strings.Repeat("\\\\", 50000),
		strings.Repeat("PREPARE p AS ", 20000) + "DELETE FROM t",
		strings.Repeat("WITH a AS (SELECT 1) ", 20000) + "DELETE FROM t",
		strings.Repeat("EXPLAIN ANALYZE ", 20000) + "DELETE FROM t",
		strings.Repeat("BEGIN IF x THEN ", 20000) + "DELETE FROM t",
	} {
		_ = Analyze(src) // a quadratic path would time the test out
	}
}
