package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// goldenCorpora turns each corpus of the repository's testdata into the
// input of warden assess: the action corpora as they are, the
// conversations as one session per case, the secrets as files written,
// the SSRF URLs as fetches and the migrated rule samples as commands.
var goldenCorpora = map[string]func(line map[string]any) []map[string]any{
	"actions.jsonl":          func(l map[string]any) []map[string]any { return []map[string]any{l} },
	"classes.jsonl":          func(l map[string]any) []map[string]any { return []map[string]any{l} },
	"peers/dcg-dev.jsonl":    func(l map[string]any) []map[string]any { return []map[string]any{l} },
	"sequences.jsonl":        steps,
	"session_chains.jsonl":   steps,
	"migrated_samples.jsonl": func(l map[string]any) []map[string]any { return []map[string]any{bash(l["command"])} },
	"secrets.jsonl":          func(l map[string]any) []map[string]any { return []map[string]any{write(l["text"])} },
	"ssrf.jsonl":             func(l map[string]any) []map[string]any { return []map[string]any{fetch(l["url"])} },
}

// corpusCases reads the corpus testdata/name and returns, for each of its
// cases, the assess input lines convert makes of it.
func corpusCases(t testing.TB, name string, convert func(map[string]any) []map[string]any) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var cases [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var lines []string
		for _, a := range convert(m) {
			b, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, string(b))
		}
		cases = append(cases, lines)
	}
	return cases
}

func steps(l map[string]any) []map[string]any {
	var out []map[string]any
	for _, s := range l["steps"].([]any) {
		step := s.(map[string]any)
		step["session_id"] = l["id"]
		out = append(out, step)
	}
	return out
}

func bash(cmd any) map[string]any {
	return map[string]any{"tool": "Bash", "arguments": map[string]any{"command": cmd}}
}

func write(text any) map[string]any {
	return map[string]any{"tool": "Write", "arguments": map[string]any{"file_path": "/home/user/project/notes.txt", "content": text}}
}

func fetch(url any) map[string]any {
	return map[string]any{"tool": "WebFetch", "arguments": map[string]any{"url": url, "prompt": "summarize"}}
}

// TestGolden runs warden assess over every corpus in testdata and compares
// its output, byte for byte, with testdata/golden (go test -run TestGolden
// -update rewrites them: name the intended change in the commit).
func TestGolden(t *testing.T) {
	for name, convert := range goldenCorpora {
		t.Run(name, func(t *testing.T) {
			var in strings.Builder
			for _, lines := range corpusCases(t, name, convert) {
				for _, l := range lines {
					in.WriteString(l + "\n")
				}
			}
			code, stdout, stderr := runCLI(t, in.String(), "assess", "--home", "/home/user", "--cwd", "/home/user/project")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			file := filepath.Join("testdata", "golden", name)
			if *updateGolden {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(stdout), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if stdout == string(want) {
				return
			}
			got, wantLines := strings.Split(stdout, "\n"), strings.Split(string(want), "\n")
			shown := 0
			for i := 0; i < max(len(got), len(wantLines)) && shown < 5; i++ {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(wantLines) {
					w = wantLines[i]
				}
				if g != w {
					shown++
					t.Errorf("line %d:\n got  %s\n want %s", i+1, g, w)
				}
			}
			t.Errorf("output differs from %s (go test -run TestGolden -update rewrites it; name the change in the commit)", file)
		})
	}
}
