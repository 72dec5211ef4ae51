package jsonenc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodingJSON is what encoding/json writes for v, HTML escaping off.
func encodingJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var seeds = []string{
	"", "plain", `"quoted" \back\slash/`, "<html> & 'x'", "\b\f\n\r\t\x00\x01\x1f\x7f",
	"é€😀", "\u2028\u2029 \u2027\u202a", "\xff\xfe", "a\xc3", "\xed\xa0\x80", "\xef\xbf\xbd", "tail\xe2\x80",
}

func TestString(t *testing.T) {
	for _, s := range seeds {
		if got, want := string(String(nil, s)), encodingJSON(t, s); got != want {
			t.Errorf("String(%q) = %s, encoding/json %s", s, got, want)
		}
	}
	for _, l := range [][]string{nil, {}, {"a"}, {"a", "b\n"}} {
		if got, want := string(Strings(nil, l)), encodingJSON(t, l); got != want {
			t.Errorf("Strings(%q) = %s, encoding/json %s", l, got, want)
		}
	}
	for _, b := range []bool{false, true} {
		if got, want := string(Bool(nil, b)), encodingJSON(t, b); got != want {
			t.Errorf("Bool(%v) = %s, encoding/json %s", b, got, want)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(String([]byte("x"), s)), "x"+encodingJSON(t, s); got != want {
			t.Fatalf("String(%q) = %s, encoding/json %s", s, got, want)
		}
	})
}

// plainSlowly is Plain byte by byte.
func plainSlowly(s string, i int) int {
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

func TestPlain(t *testing.T) {
	// every byte at every place of a word, and beside another
	for b := range 256 {
		for at := range 20 {
			s := []byte("abcdefghijklmnopqrst")
			s[at] = byte(b)
			for from := range 3 {
				if got, want := Plain(string(s), from), plainSlowly(string(s), from); got != want {
					t.Fatalf("Plain(%q, %d) = %d, want %d", s, from, got, want)
				}
				if got, want := Plain(s, from), plainSlowly(string(s), from); got != want {
					t.Fatalf("Plain([]byte %q, %d) = %d, want %d", s, from, got, want)
				}
			}
		}
	}
	// two bytes that are not plain (or are, about them) at every two
	// places of strings of every length about a word's or two, from
	// every place: what one marks about the other (see special8), before
	// from or after it, in a whole word or in the tail read again
	some := []byte{0, 0x1f, ' ', '!', '"', '#', '[', '\\', ']', 0x7f, 0x80, 0xc3, 0xff}
	for n := range 19 {
		for at1 := range n {
			for at2 := at1; at2 < n; at2++ {
				for _, b1 := range some {
					for _, b2 := range some {
						s := []byte("abcdefghijklmnopqrst"[:n])
						s[at1], s[at2] = b1, b2
						for from := range n + 1 {
							if got, want := Plain(s, from), plainSlowly(string(s), from); got != want {
								t.Fatalf("Plain(%q, %d) = %d, want %d", s, from, got, want)
							}
						}
					}
				}
			}
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range seeds {
		f.Add(s, 0)
	}
	f.Add("0123456789abcdef\x1f", 1)
	f.Fuzz(func(t *testing.T, s string, from int) {
		if from < 0 || from > len(s) {
			return
		}
		if got, want := Plain(s, from), plainSlowly(s, from); got != want {
			t.Fatalf("Plain(%q, %d) = %d, want %d", s, from, got, want)
		}
	})
}

func BenchmarkString(b *testing.B) {
	texts := []string{
		"rm -rf ./build && make -j8 all # rebuild everything from scratch",
		"deletes files recursively; they cannot be recovered from the trash",
		"/home/user/project/src/internal/handlers/user_handler.go",
		"short",
		"a \"quoted\" word and a tab\there, then ünïcödé text after it",
	}
	var dst []byte
	for range b.N {
		for _, s := range texts {
			dst = String(dst[:0], s)
		}
	}
}

func TestEscapeHTML(t *testing.T) {
	for _, c := range []struct {
		in    string
		start int
		want  string
	}{
		{`{"a":"<b>&"}`, 0, `{"a":"\u003cb\u003e\u0026"}`},
		{`<kept>{"a":"x&y"}`, 6, `<kept>{"a":"x\u0026y"}`},
		{`{"a":"plain"}`, 0, `{"a":"plain"}`},
	} {
		if got := string(EscapeHTML([]byte(c.in), c.start)); got != c.want {
			t.Errorf("EscapeHTML(%q, %d) = %q, want %q", c.in, c.start, got, c.want)
		}
	}
	if got := string(OptString([]byte("{"), `"a":`, "")); got != "{" {
		t.Errorf("OptString of \"\" = %q, want nothing written", got)
	}
	if got := string(OptString([]byte("{"), `"a":`, "x")); got != `{"a":"x"` {
		t.Errorf("OptString = %q", got)
	}
}
