package tool

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestListRooms checks that the lists a call takes from its rooms (Shell,
// strs, code1, content1) stay apart: changing one, in place or by an
// append, leaves every other list of the call as it was, on calls that
// fill several lists, and lists of one and of more.
func TestListRooms(t *testing.T) {
	actions := []risk.Action{
		{Tool: "Grep", Arguments: map[string]any{"pattern": "TODO", "path": "src", "glob": "*.go"}},
		{Tool: "WebFetch", Arguments: map[string]any{"url": "https://example.com/x", "prompt": "summarize"}},
		{Tool: "read_many_files", Arguments: map[string]any{"paths": []any{"a", "b", "c"}, "include": []any{"*.md"}}},
		{Tool: "MultiEdit", Arguments: map[string]any{"file_path": "/w/a.go", "edits": []any{
			map[string]any{"old_string": "a", "new_string": "b"}, map[string]any{"old_string": "c", "new_string": "d"}}}},
		{Tool: "Edit", Arguments: map[string]any{"file_path": "/w/a.go", "old_string": "a", "new_string": "b"}},
		{Tool: "python", Arguments: map[string]any{"code": "print(1)", "script": "print(2)"}},
		{Tool: "apply_patch", Arguments: map[string]any{"input": "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Add File: b.txt\n+y\n*** End Patch"}},
		{Tool: "str_replace_editor", Arguments: map[string]any{"command": "create", "path": "/w/x.sh", "file_text": "ls"}},
		{Tool: "Bash", Arguments: map[string]any{"command": "ls", "extra": "text it does not take"}},
		{Tool: "mcp__postgres__query", Arguments: map[string]any{"sql": "select 1"}},
		{Tool: "mcp__other__write_file", Arguments: map[string]any{"path": "/w/x", "content": "y", "url": "https://example.com"}},
	}
	lists := func(c *Call) []any {
		return []any{&c.Shell, &c.Code, &c.SQL, &c.URLs, &c.Paths, &c.Content, &c.Text}
	}
	snapshot := func(c *Call) []any {
		var out []any
		for _, l := range lists(c) {
			switch l := l.(type) {
			case *[]string:
				out = append(out, slices.Clone(*l))
			case *[]Code:
				out = append(out, slices.Clone(*l))
			case *[]Content:
				out = append(out, slices.Clone(*l))
			}
		}
		return out
	}
	filled := 0
	for _, a := range actions {
		want := snapshot(Normalize(&a, "/w", "/home/u"))
		n := 0
		for _, l := range want {
			if reflect.ValueOf(l).Len() > 0 {
				n++
			}
		}
		if n > 1 {
			filled++
		}
		for i := range want {
			c := Normalize(&a, "/w", "/home/u")
			switch l := lists(c)[i].(type) {
			case *[]string:
				if len(*l) > 0 {
					(*l)[0] = "changed"
				}
				*l = append(*l, "added")
			case *[]Code:
				if len(*l) > 0 {
					(*l)[0] = Code{Text: "changed"}
				}
				*l = append(*l, Code{Text: "added"})
			case *[]Content:
				if len(*l) > 0 {
					(*l)[0] = Content{Text: "changed"}
				}
				*l = append(*l, Content{Text: "added"})
			}
			got := snapshot(c)
			for j := range want {
				if j != i && !reflect.DeepEqual(got[j], want[j]) {
					t.Errorf("%s: changing list %d changed list %d: %v, want %v", a.Tool, i, j, got[j], want[j])
				}
			}
		}
	}
	if filled < 5 {
		t.Fatalf("only %d actions fill more than one list: the test compares little", filled)
	}
}

// TestLowered holds lowered to strings.ToLower on names short and long,
// ASCII and not.
func TestLowered(t *testing.T) {
	for _, s := range []string{"", "read", "Read", "READ_FILE", "mcp__X__Y", "Ä", "İstanbul", "ReadÉ", strings.Repeat("Ab", 16), strings.Repeat("Ab", 17), "a\x80b", "@[`{"} {
		var buf [32]byte
		if got, want := string(lowered(&buf, s)), strings.ToLower(s); got != want {
			t.Errorf("lowered(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzLowered holds lowered to strings.ToLower on any name.
func FuzzLowered(f *testing.F) {
	for _, s := range []string{"", "Read", "WebFetch", "İ", strings.Repeat("Z", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf [32]byte
		if got, want := string(lowered(&buf, s)), strings.ToLower(s); got != want {
			t.Errorf("lowered(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestSQLTextsRoom checks the facts of SQLTexts, the first in the call's
// room, as they are added beyond it: each is found by its text, as given.
func TestSQLTextsRoom(t *testing.T) {
	c := Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "psql -c 'select 1'"}}, "/w", "/h")
	texts := []string{"select 1", "drop table t", "select 1", "delete from u", "update v set a = 1"}
	for i, s := range texts {
		c.AddSQLText(SQLText{Text: s, PersonalData: strconv.Itoa(i)})
	}
	if len(c.SQLTexts) != 4 {
		t.Fatalf("%d facts, want 4 (one text given twice)", len(c.SQLTexts))
	}
	for i, s := range texts {
		want := strconv.Itoa(i)
		if i == 2 {
			want = "0" // the first fact of a text stays
		}
		if f, ok := c.SQLText(s); !ok || f.PersonalData != want {
			t.Errorf("SQLText(%q) = %+v, %v; want the fact added %s", s, f, ok, want)
		}
	}
}

// TestNormalizeZeroed: NormalizeZeroed into a zero Call makes what
// NormalizeInto makes over a Call that held another action's reading.
func TestNormalizeZeroed(t *testing.T) {
	actions := []risk.Action{
		{Tool: "Bash", Arguments: map[string]any{"command": "cd /tmp && ls | wc -l", "description": "x"}},
		{Tool: "shell", Arguments: map[string]any{"command": []any{"bash", "-lc", "rm -rf ~"}, "workdir": "/w"}},
		{Tool: "MultiEdit", Arguments: map[string]any{"file_path": "/w/a.go", "edits": []any{
			map[string]any{"old_string": "a", "new_string": "b"}, map[string]any{"old_string": "c", "new_string": "d"}}}},
		{Tool: "python", Arguments: map[string]any{"code": "print(1)", "script": "print(2)"}},
		{Tool: "Bash", Arguments: map[string]any{"command": "ls", "extra": "text it does not take"}},
		{Tool: "mcp__postgres__query", Arguments: map[string]any{"sql": "select 1"}},
		{Tool: "mcp__other__write_file", Arguments: map[string]any{"path": "/w/x", "content": "y", "url": "https://example.com"}},
		{Tool: "nosuch", Arguments: map[string]any{"a": []any{"b", map[string]any{"c": "d"}}}},
		{Tool: "Read", Arguments: map[string]any{}},
	}
	for _, a := range actions {
		checkNormalizeZeroed(t, a, actions)
	}
}

// checkNormalizeZeroed fails t when NormalizeZeroed of a differs from
// NormalizeInto of a over a Call that held each of others.
func checkNormalizeZeroed(t *testing.T, a risk.Action, others []risk.Action) {
	t.Helper()
	var fresh Call
	NormalizeZeroed(&fresh, &a, "/home/user/project", "/home/user")
	for _, o := range others {
		var dirty Call
		NormalizeInto(&dirty, &o, "/srv", "/root")
		dirty.Effects = append(dirty.Effects, Effect{})
		dirty.Secrets = append(dirty.Secrets, "s")
		NormalizeInto(&dirty, &a, "/home/user/project", "/home/user")
		if !reflect.DeepEqual(&fresh, &dirty) {
			t.Fatalf("%+v after %+v:\nNormalizeZeroed %+v\nNormalizeInto   %+v", a, o, fresh, dirty)
		}
	}
	if n := Normalize(&a, "/home/user/project", "/home/user"); !reflect.DeepEqual(n, &fresh) {
		t.Fatalf("%+v: Normalize %+v, NormalizeZeroed %+v", a, n, fresh)
	}
}
