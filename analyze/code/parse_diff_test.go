package code

import (
	"fmt"
	"github.com/agentwarden/warden/internal/corpus"
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwarden/warden/paths"
)

// diffTexts returns the texts the differential tests parse: every string
// of the repository's JSONL corpora (code, commands, whatever: a parser
// must agree with its reference on any text) and every string literal of
// this package's tests.
func diffTexts(tb testing.TB) []string {
	tb.Helper()
	var out []string
	out = append(out, corpus.Strings(tb, "../../testdata")...)
	tests, _ := filepath.Glob("*_test.go")
	fset := gotoken.NewFileSet()
	for _, name := range tests {
		f, err := goparser.ParseFile(fset, name, nil, 0)
		if err != nil {
			tb.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					out = append(out, s)
				}
			}
			return true
		})
	}
	if len(out) < 1000 {
		tb.Fatalf("only %d texts", len(out))
	}
	return out
}

// sameParse fails when the parser and its reference disagree on src.
func sameParse(t *testing.T, src string) {
	t.Helper()
	lines, _, _ := tokenize(src)
	got, want := parseTokens(lines, tokenCount(lines)), refParse(lines)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parse differs from the reference on %q", src)
	}
}

func TestParseReference(t *testing.T) {
	texts := diffTexts(t)
	deep := []string{
		strings.Repeat("(", 300) + "x" + strings.Repeat(")", 300),
		strings.Repeat("-", 300) + "x", strings.Repeat("not ", 300) + "x",
		"x" + strings.Repeat(" ** x", 300), "x" + strings.Repeat(" + x", 300),
		strings.Repeat("f(", 300) + strings.Repeat(")", 300), strings.Repeat("[", 300),
		strings.Repeat("lambda: ", 300) + "x", strings.Repeat("x if y else ", 300) + "z",
		strings.Repeat("a.b[", 200) + strings.Repeat("]", 200),
		"a | b ^ c & d << e >> f + g - h * i / j // k % l @ m ** n",
		"a < b == c >= d <= e != f <> g in h not in i is j is not k",
		"not a and b or c and not d or -e < ~f",
	}
	for k := 90; k <= 110; k++ {
		for _, unit := range []string{"(", "-", "not ", "f(", "[", "{", "x + (", "a if b else (", "x ** -"} {
			deep = append(deep, strings.Repeat(unit, k)+"y")
		}
	}
	for _, src := range append(texts, deep...) {
		sameParse(t, src)
	}
}

func FuzzParseReference(f *testing.F) {
	for _, c := range corpusCodes(f) {
		f.Add(c)
	}
	for _, s := range []string{"a + b * c ** -d", "not x in y is not z", "f(*a, **k, x=1)[1:2, ::3].b"} {
		f.Add(s)
	}
	f.Fuzz(sameParse)
}

// sameStrings fails when scanString and its reference disagree on a
// string literal of src.
func sameStrings(t *testing.T, src string) {
	t.Helper()
	lines, _, _ := tokenize(src)
	for _, ln := range lines {
		for _, tok := range ln.toks {
			if tok.kind != tString {
				continue
			}
			q := tok.pos + strings.IndexAny(tok.text, `'"`)
			a, b := &lexer{src: src}, &lexer{src: src}
			got, want := a.scanString(tok.pos, q, 0), b.refScanString(tok.pos, q, 0)
			if !reflect.DeepEqual(got, want) || a.i != b.i || !reflect.DeepEqual(a.err, b.err) {
				t.Fatalf("scanString differs from the reference at %d of %q:\n%+v %+v\n%+v %+v", tok.pos, src, got, got.str, want, want.str)
			}
		}
	}
}

func TestScanStringReference(t *testing.T) {
	for _, src := range append(diffTexts(t), `'a\`, `r'a\`, `f'{x`, `f'a{{b}}c}d{e!r:>{w}}'`, `b'\x00\n\
'`, `'''a
b\'''`, `f'''{x
}'''`, `rb'\'`, `f'{'`, "'a\nb'") {
		sameStrings(t, src)
	}
}

func FuzzScanStringReference(f *testing.F) {
	for _, s := range []string{`'a\nb'`, `f'{x!r}{{'`, `r'\''`, `b'\xff'`, `f"{f'{y}'}" '''x'''`} {
		f.Add(s)
	}
	f.Fuzz(sameStrings)
}

func TestValidText(t *testing.T) {
	for _, s := range []string{"", "ascii only", "caf\u00e9 \u2603", "a\xffb", "\xed\xa0\x80", "\uFFFD", "x\xc3", strings.Repeat("é", 40) + "\x80"} {
		if got, want := validText(s), strings.ToValidUTF8(s, "\uFFFD"); got != want {
			t.Errorf("validText(%q) = %q, want %q", s, got, want)
		}
	}
}

// refOpLen is opLen as it was before its test of the second character.
func refOpLen(s string) int {
	if len(s) >= 3 {
		switch s[:3] {
		case "**=", "//=", ">>=", "<<=", "...":
			return 3
		}
	}
	if len(s) >= 2 {
		switch s[:2] {
		case "**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":=", "<>":
			return 2
		}
	}
	return 1
}

func TestOpLen(t *testing.T) {
	const ops = "+-*/%@&|^~<>,:;.=!()[]{}a"
	for _, a := range ops {
		for _, b := range ops {
			for _, c := range ops {
				for _, s := range []string{string(a), string(a) + string(b), string(a) + string(b) + string(c)} {
					if got, want := opLen(s), refOpLen(s); got != want {
						t.Errorf("opLen(%q) = %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}

func TestWhere(t *testing.T) {
	classes := []paths.Class{paths.Class(255)}
	for c := range classText {
		classes = append(classes, c)
	}
	for _, c := range classes {
		for _, r := range []string{"file:/etc/passwd", "/tmp/%s x", "", "file:", "s3://b/k"} {
			want := fmt.Sprintf("%s (%s)", strings.TrimPrefix(r, "file:"), classText[c])
			if got := where(target{resource: r}, c); got != want {
				t.Errorf("where(%q, %v) = %q, want %q", r, c, got, want)
			}
		}
	}
}
