package txtar

import (
	"reflect"
	"testing"
)

func TestParseFormat(t *testing.T) {
	const data = "a comment\n-- args --\nhook claude-code\n-- stdin --\n{\"x\":1}\n-- empty --\n-- dir/f.yaml --\nk: v\n"
	a := Parse(data)
	if a.Comment != "a comment\n" || a.Files["args"] != "hook claude-code\n" || a.Files["empty"] != "" || a.Files["dir/f.yaml"] != "k: v\n" {
		t.Errorf("Parse = %#v", a)
	}
	if want := []string{"args", "stdin", "empty", "dir/f.yaml"}; !reflect.DeepEqual(a.Order, want) {
		t.Errorf("Order = %q, want %q", a.Order, want)
	}
	if got := a.Format(); got != data {
		t.Errorf("Format = %q, want %q", got, data)
	}
	if a := Parse("no files"); a.Comment != "no files" || len(a.Files) != 0 {
		t.Errorf("Parse without files = %#v", a)
	}
}
