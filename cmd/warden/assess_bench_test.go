package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkAssessLines runs warden assess (in process, one engine) over
// distinct actions made from testdata/actions.jsonl: the per-line cost of
// bench/perline.sh without the process start.
func BenchmarkAssessLines(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "actions.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	var base []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			b.Fatal(err)
		}
		base = append(base, map[string]any{"tool": m["tool"], "arguments": m["arguments"]})
	}
	var in strings.Builder
	const n = 2000
	for i := range n {
		a := base[i%len(base)]
		args := map[string]any{}
		for k, v := range a["arguments"].(map[string]any) {
			args[k] = v
		}
		if cmd, ok := args["command"].(string); ok {
			args["command"] = fmt.Sprintf("%s # %d", cmd, i)
		}
		line, _ := json.Marshal(map[string]any{"tool": a["tool"], "arguments": args})
		in.Write(append(line, '\n'))
	}
	input := in.String()
	b.ResetTimer()
	for range b.N {
		var stderr strings.Builder
		code := run([]string{"assess", "--home", "/home/user", "--cwd", "/home/user/project"}, strings.NewReader(input), discard{}, &stderr)
		if code != 0 {
			b.Fatal(stderr.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n)/1e3, "µs/line")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
