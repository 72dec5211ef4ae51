package session

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/tool"
)

// TestAppendText: a file appended to line by line holds every line once,
// and the copies of its record (a view of the state, a clone, a copied
// file, File) keep their own text when the original and they are appended
// to afterwards: the room appendText grows in is never shared.
func TestAppendText(t *testing.T) {
	st := NewState(Config{})
	c := &tool.Call{Cwd: "/home/u/p", Home: "/home/u"}
	add := func(st *State, p, text string) {
		st.apply(c, &tool.Effect{Kind: tool.WriteFile, Path: p, Text: text, Known: true, Append: true})
	}
	// written whole first (known), then appended to
	st.apply(c, &tool.Effect{Kind: tool.WriteFile, Path: "/home/u/p/log", Text: "", Known: true})
	var want strings.Builder
	for i := range 100 {
		line := strings.Repeat(string(rune('a'+i%26)), i%7+1) + "\n"
		add(st, "/home/u/p/log", line)
		want.WriteString(line)
	}
	if f, _ := st.File("/home/u/p/log"); f.Text != want.String() || !f.Known {
		t.Fatalf("appended text %q (known %v), want %q", f.Text, f.Known, want.String())
	}
	view, clone := st.fileView(), st.clone()
	st.apply(c, &tool.Effect{Kind: tool.CopyFile, Src: "/home/u/p/log", Path: "/home/u/p/copy"})
	got, _ := st.File("/home/u/p/log")
	add(st, "/home/u/p/log", "original\n")
	add(view, "/home/u/p/log", "view\n")
	add(clone, "/home/u/p/log", "clone\n")
	add(st, "/home/u/p/copy", "copy\n")
	base := want.String()
	for _, x := range []struct {
		st   *State
		p    string
		want string
	}{
		{st, "/home/u/p/log", base + "original\n"},
		{view, "/home/u/p/log", base + "view\n"},
		{clone, "/home/u/p/log", base + "clone\n"},
		{st, "/home/u/p/copy", base + "copy\n"},
	} {
		if f, _ := x.st.File(x.p); f.Text != x.want {
			t.Errorf("%s: %q, want %q", x.p, f.Text[len(base):], x.want[len(base):])
		}
	}
	if got.Text != base {
		t.Errorf("a text File returned before later appends changed to %q", got.Text[len(base):])
	}
	// at MaxFileBytes the text is cut, and no longer known whole
	small := NewState(Config{MaxFileBytes: 64})
	small.apply(c, &tool.Effect{Kind: tool.WriteFile, Path: "/home/u/p/big", Text: "", Known: true})
	for range 40 {
		add(small, "/home/u/p/big", "0123456789\n")
	}
	if f, _ := small.File("/home/u/p/big"); len(f.Text) != 64 || !f.Truncated || f.Known || f.Text != strings.Repeat("0123456789\n", 6)[:64] {
		t.Errorf("cut text %q (truncated %v, known %v)", f.Text, f.Truncated, f.Known)
	}
}
