package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Lines returns the lines of every JSONL corpus under dir (dir/*.jsonl),
// file by file, in order.
func Lines(tb testing.TB, dir string) [][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpora under %s: %v", dir, err)
	}
	var out [][]byte
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			tb.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			out = append(out, slices.Clone(sc.Bytes()))
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
	}
	return out
}

// Strings returns every string value of the corpora under dir (not the
// keys of objects), each once, in the order of the lines and, within an
// object, of its sorted keys. A line that is not JSON fails tb.
func Strings(tb testing.TB, dir string) []string {
	tb.Helper()
	seen := map[string]bool{}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k])
			}
		}
	}
	for _, line := range Lines(tb, dir) {
		var v any
		if err := json.Unmarshal(line, &v); err != nil {
			tb.Fatalf("%s: a corpus line is not JSON: %v", dir, err)
		}
		walk(v)
	}
	return out
}
