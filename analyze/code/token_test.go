package code

import (
	"strings"
	"testing"
)

// strs returns the decoded string literals of src, f-strings rendered with
// their fields in braces.
func strs(src string) []string {
	lines, _, _ := tokenize(src)
	var out []string
	for _, ln := range lines {
		for _, t := range ln.toks {
			if t.kind != tString {
				continue
			}
			if !t.str.fmt {
				out = append(out, t.str.value)
				continue
			}
			var b strings.Builder
			for _, p := range t.str.parts {
				if p.expr {
					b.WriteString("{" + p.text + "}")
				} else {
					b.WriteString(p.text)
				}
			}
			out = append(out, b.String())
		}
	}
	return out
}

func TestStrings(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`'a' "b"`, []string{"a", "b"}},
		{`'it\'s' "say \"hi\""`, []string{"it's", `say "hi"`}},
		{`'\x72\x6d \055rf'`, []string{"rm -rf"}},
		{`'\u0072m' b'\u0072m'`, []string{"rm", `\u0072m`}},
		{`'\N{SOLIDUS}'`, []string{"/"}},
		{`r'\n\'' R"\d"`, []string{`\n\'`, `\d`}},
		{`rb'\x00' BR"\\"`, []string{`\x00`, `\\`}},
		{`u'x' U"y"`, []string{"x", "y"}},
		{"'''a\n'b'\n\"c\"'''", []string{"a\n'b'\n\"c\""}},
		{`"""x""" ''''''`, []string{"x", ""}},
		{"'a\\\nb'", []string{"ab"}},
		{`f'rm {d} -{x!r:>{w}}' F"{{literal}}"`, []string{"rm {d} -{x}", "{literal}"}},
		{`f'{a["k"]}' rf'\d{n}'`, []string{`{a["k"]}`, `\d{n}`}},
		{`f"{x=}"`, []string{"{x}"}},
		{`f'{f"{inner}"}'`, []string{`{f"{inner}"}`}},
		{`f'{ {"a": 1}["a"] }'`, []string{`{ {"a": 1}["a"] }`}},
	}
	for _, tt := range tests {
		got := strs(tt.src)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: got %q, want %q", tt.src, got, tt.want)
		}
	}
}

func TestLogicalLines(t *testing.T) {
	tests := []struct {
		src   string
		lines []string // tokens joined by spaces, with the indent first
	}{
		{"x = 1\ny = 2", []string{"0 x = 1", "0 y = 2"}},
		{"# comment\n\n   # indented comment\nx", []string{"0 x"}},
		{"f(1,\n  2)\n", []string{"0 f ( 1 , 2 )"}},
		{"x = 1 + \\\n    2", []string{"0 x = 1 + 2"}},
		{"if a:\n    b\n\tc", []string{"0 if a :", "4 b", "8 c"}},
		{"x = 'a#b'  # c", []string{"0 x = 'a#b'"}},
		{"a **= 2; b //= 3 -> x := y ... != <>", []string{"0 a **= 2 ; b //= 3 -> x := y ... != <>"}},
		{"0x1F 1_000 1e-5 3.14j .5 0o17", []string{"0 0x1F 1_000 1e-5 3.14j .5 0o17"}},
		{"!ls -la\nx = !pwd\n%pip install x", []string{"0 ls -la", "0 x = pwd", "0 pip install x"}},
		{"\ufeffx\r\ny", []string{"0 x", "0 y"}},
		{"naïve = 1", []string{"0 naïve = 1"}},
	}
	for _, tt := range tests {
		lines, _, err := tokenize(tt.src)
		if err != nil {
			t.Errorf("%q: unexpected error %v", tt.src, err)
		}
		var got []string
		for _, ln := range lines {
			var b strings.Builder
			b.WriteString(itoa(ln.indent))
			for _, tok := range ln.toks {
				b.WriteString(" " + tok.text)
			}
			got = append(got, b.String())
		}
		if strings.Join(got, "\n") != strings.Join(tt.lines, "\n") {
			t.Errorf("%q:\ngot  %q\nwant %q", tt.src, got, tt.lines)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func TestCellMagic(t *testing.T) {
	_, cell, err := tokenize("%%bash\nrm -rf ~\n")
	if err != nil || cell == nil || cell.head != "bash" || cell.body != "rm -rf ~\n" {
		t.Fatalf("got %+v, %v", cell, err)
	}
	lines, cell, err := tokenize("%%time\nx = 1\n")
	if err != nil || cell != nil || len(lines) != 1 {
		t.Fatalf("%%%%time: the cell is Python: got %v lines, cell %+v, %v", len(lines), cell, err)
	}
}

func TestTokenizeErrors(t *testing.T) {
	for _, src := range []string{
		"print('hello",
		"x = '''never closed",
		"f(1, 2",
		"x = 1)",
		"a = [1, 2}",
		"x = $y",
		"x = `y`",
		"f'{x'",
		"f'{'",
		"a = \\ b",
		"x = 1 ?",
		"y = 2\n%%bash\nls",
		strings.Repeat("f'{", 20),
	} {
		_, _, err := tokenize(src)
		if err == nil {
			t.Errorf("%q: no error", src)
		}
	}
}

func TestTokenizeValid(t *testing.T) {
	// Valid Python (checked with python3 -c 'compile(src, "x", "exec")')
	// must tokenize without error.
	for _, src := range []string{
		"print(f'{x!r:>{width}}')",
		"x = f'{a}' f\"{b}\" 'c'",
		"s = '''\n# not a comment\n'''",
		"d = {'a': [1, (2, 3)], **e}",
		"@decorator(arg)\ndef f(a: int = 1, *args, b=2, **kw) -> None:\n    return a",
		"async def f():\n    async with a as b:\n        await c",
		"match cmd:\n    case [\"rm\", *rest]:\n        pass\n    case _:\n        pass",
		"lambda x, *, y=1: x + y",
		"x = [i for i in range(3) if i]",
		"if (n := len(a)) > 10: pass",
		"print('a', end='')  # trailing comment",
		"x = 1 if a else 2",
		"class A(B, metaclass=M):\n    x: int = 1",
		"try:\n    pass\nexcept (A, B) as e:\n    raise\nfinally:\n    pass",
		"r'\\'' + b'\\xff'",
		"x = a[1:2, ::3]",
		"def f[T](x: T) -> T: return x",
		"x = 'a' \\\n    'b'",
		"\t\tx = 1\n",
	} {
		if _, _, err := tokenize(src); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
