package inline

import (
	"strconv"
	"strings"
)

// kind is a token's kind.
type kind uint8

const (
	tIdent kind = iota // a name: system, FileUtils, rm_rf, $x, @a
	tStr               // a string literal (parts)
	tNum               // a number
	tPunct             // one operator character or ::, ->, =>
	tExec              // a string that runs as a command: `…`, qx(), %x()
)

// part is a piece of a string: literal text, or an interpolation computed
// at run time (Env names the environment variable it reads, when it is one:
// "$ENV{HOME}", "#{ENV['HOME']}", "${process.env.HOME}").
type part struct {
	text string
	dyn  bool
	env  string
}

type token struct {
	k     kind
	text  string // ident, number or punctuation
	parts []part // tStr, tExec
}

// syntax describes a language's lexical conventions.
type syntax struct {
	hash      bool // # starts a line comment
	slash     bool // // and /* */ comments
	dashdash  bool // -- starts a line comment (lua)
	dq        bool // "…" interpolates ($x, ${x}, #{x})
	ruby      bool // #{…} interpolation, %q %Q %w %x literals
	perl      bool // q qq qw qx literals, $x @x interpolation
	tick      int  // `…`: 0 none, 1 runs a command, 2 a JS template string
	dollarVar bool // $name is one identifier (perl, php, awk fields)
	escapes   bool // every string reads escapes (JavaScript, awk), not only interpolating ones
}

var syntaxes = map[string]syntax{
	"perl": {hash: true, dq: true, perl: true, tick: 1, dollarVar: true},
	"ruby": {hash: true, dq: true, ruby: true, tick: 1},
	"php":  {hash: true, slash: true, dq: true, tick: 1, dollarVar: true},
	"js":   {slash: true, tick: 2, escapes: true},
	"awk":  {hash: true, dollarVar: true, escapes: true},
	"lua":  {dashdash: true},
	"ex":   {},
}

// maxTokens bounds the tokens read from one program.
const maxTokens = 1 << 16

// lex splits src into tokens. It never fails: an unterminated string runs
// to the end of the text.
func lex(src string, sx syntax) []token {
	out := make([]token, 0, min(len(src)/4+4, maxTokens)) // code runs about a token to four bytes
	i := 0
	n := len(src)
	for i < n && len(out) < maxTokens {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '\n':
			out = append(out, token{k: tPunct, text: "\n"})
			i++
		case sx.hash && c == '#':
			for i < n && src[i] != '\n' {
				i++
			}
		case sx.slash && c == '/' && i+1 < n && src[i+1] == '/':
			for i < n && src[i] != '\n' {
				i++
			}
		case sx.slash && c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = n
			} else {
				i += j + 4
			}
		case sx.dashdash && c == '-' && i+1 < n && src[i+1] == '-':
			for i < n && src[i] != '\n' {
				i++
			}
		case c == '\'':
			t, j := quoted(src, i+1, '\'', sx, false)
			out = append(out, t)
			i = j
		case c == '"':
			t, j := quoted(src, i+1, '"', sx, sx.dq)
			out = append(out, t)
			i = j
		case c == '`' && sx.tick != 0:
			t, j := quoted(src, i+1, '`', sx, true)
			if sx.tick == 1 {
				t.k = tExec
			}
			out = append(out, t)
			i = j
		case sx.ruby && c == '%' && i+2 < n && strings.IndexByte("qQwWxi", src[i+1]) >= 0 && !isWord(src[i+2]) && src[i+2] != ' ':
			open := src[i+2]
			t, j := quoted(src, i+3, closer(open), sx, src[i+1] != 'q' && src[i+1] != 'w')
			if src[i+1] == 'x' {
				t.k = tExec
			}
			out = append(out, t)
			i = j
		case isWordStart(c) || sx.dollarVar && (c == '$' || c == '@') && i+1 < n && (isWordStart(src[i+1]) || src[i+1] == '{'):
			j := i + 1
			for j < n && isWord(src[j]) {
				j++
			}
			w := src[i:j]
			if sx.perl && j < n && (w == "q" || w == "qq" || w == "qw" || w == "qx") {
				k := j
				for k < n && src[k] == ' ' {
					k++
				}
				if k < n && !isWord(src[k]) && strings.IndexByte(",;=)", src[k]) < 0 {
					t, e := quoted(src, k+1, closer(src[k]), sx, w == "qq" || w == "qx")
					if w == "qx" {
						t.k = tExec
					}
					out = append(out, t)
					i = e
					continue
				}
			}
			if c >= '0' && c <= '9' {
				out = append(out, token{k: tNum, text: w})
			} else {
				out = append(out, token{k: tIdent, text: w})
			}
			i = j
		default:
			if i+1 < n {
				if two := src[i : i+2]; two == "::" || two == "->" || two == "=>" || two == ">>" || two == "&&" || two == "||" {
					out = append(out, token{k: tPunct, text: two})
					i += 2
					continue
				}
			}
			out = append(out, token{k: tPunct, text: src[i : i+1]}) // string(c), without allocating it
			i++
		}
	}
	return out
}

func isWordStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9'
}

func isWord(c byte) bool { return isWordStart(c) }

// closer is the delimiter that closes a quote-like literal opened by c.
func closer(c byte) byte {
	switch c {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '<':
		return '>'
	}
	return c
}

// quoted reads a string from i (just past its opening quote) to the
// closing quote q, and returns it with the index past the closing quote.
// With interp, $name, ${…}, #{…} (ruby) and JS ${…} (sx.tick == 2 and
// q == '`') are run-time pieces.
func quoted(src string, i int, q byte, sx syntax, interp bool) (token, int) {
	t := token{k: tStr}
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			t.parts = append(t.parts, part{text: b.String()})
			b.Reset()
		}
	}
	open := byte(0)
	switch q {
	case ')':
		open = '('
	case ']':
		open = '['
	case '}':
		open = '{'
	case '>':
		open = '<'
	}
	depth := 0
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case c == '\\' && i+1 < n:
			e := src[i+1]
			if !interp && !sx.escapes && e != q && e != '\\' {
				b.WriteByte(c) // single quotes keep other backslashes
				b.WriteByte(e)
				i += 2
				continue
			}
			i = unescape(&b, src, i+1)
		case open != 0 && c == open:
			depth++
			b.WriteByte(c)
			i++
		case c == q && depth > 0:
			depth--
			b.WriteByte(c)
			i++
		case c == q:
			flush()
			return t, i + 1
		case interp && (c == '$' && i+1 < n && (src[i+1] == '{' || isWordStart(src[i+1]) && !(src[i+1] >= '0' && src[i+1] <= '9')) && (sx.dollarVar || sx.tick == 2 && q == '`' && src[i+1] == '{')) ||
			interp && sx.ruby && c == '#' && i+1 < n && src[i+1] == '{':
			flush()
			j := i + 1
			if c == '#' || src[j] == '{' {
				// to the matching brace
				d := 0
				for j < n {
					if src[j] == '{' {
						d++
					} else if src[j] == '}' {
						d--
						if d == 0 {
							j++
							break
						}
					}
					j++
				}
			} else {
				for j < n && isWord(src[j]) {
					j++
				}
				// $ENV{HOME}, $h{key}, $a[0], $o->{x}
				if j < n && (src[j] == '{' || src[j] == '[') {
					cl := closer(src[j])
					if k := strings.IndexByte(src[j:], cl); k > 0 {
						j += k + 1
					}
				}
			}
			t.parts = append(t.parts, part{dyn: true, env: envOf(src[i:min(j, n)])})
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	flush()
	return t, n
}

// unescape writes the character the escape at src[i] (just past the
// backslash) stands for and returns the index after it: \n \t \r \0,
// \xHH, \uHHHH and \u{H…}, and any other character as itself.
func unescape(b *strings.Builder, src string, i int) int {
	e := src[i]
	switch e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '0':
		b.WriteByte(0)
	case 'x', 'u':
		digits, j := 2, i+1
		if e == 'u' {
			digits = 4
			if j < len(src) && src[j] == '{' {
				if k := strings.IndexByte(src[j:], '}'); k > 1 && k <= 7 {
					if v, err := strconv.ParseUint(src[j+1:j+k], 16, 32); err == nil {
						b.WriteRune(rune(v))
						return j + k + 1
					}
				}
			}
		}
		if j+digits <= len(src) {
			if v, err := strconv.ParseUint(src[j:j+digits], 16, 32); err == nil {
				b.WriteRune(rune(v))
				return j + digits
			}
		}
		b.WriteByte(e)
	default:
		b.WriteByte(e)
	}
	return i + 1
}

// envOf names the environment variable an interpolation reads, or "".
func envOf(expr string) string {
	e := strings.NewReplacer("'", "", "\"", "", " ", "").Replace(expr)
	for _, pre := range []string{"$ENV{", "#{ENV[", "${process.env.", "{$_SERVER[", "{$_ENV[", "${Deno.env.get("} {
		if rest, ok := strings.CutPrefix(e, pre); ok {
			name := strings.TrimRight(rest, "}])")
			if name != "" && strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == "" {
				return name
			}
		}
	}
	switch e {
	case "#{Dir.home}", "${os.homedir()}", "${require(os).homedir()}":
		return "HOME"
	}
	return ""
}
