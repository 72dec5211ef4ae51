package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/hostile"
	"github.com/agentwarden/warden/risk"
)

var (
	fuzzOnce sync.Once
	fuzzEng  *warden.Engine
	fuzzErr  error
)

// fuzzEngine is the engine warden assess builds with no flags, made once.
func fuzzEngine(t *testing.T) *warden.Engine {
	fuzzOnce.Do(func() {
		f := engineFlags{cwd: "/home/user/project", home: "/home/user"}
		fuzzEng, fuzzErr = f.engine()
	})
	if fuzzErr != nil {
		t.Fatal(fuzzErr)
	}
	return fuzzEng
}

// FuzzAssess feeds arbitrary bytes to warden assess as one input line and
// checks that exactly one valid JSON answer comes back, with a valid level
// and decision, unknown with an error whenever the line is not a valid action.
func FuzzAssess(f *testing.F) {
	for _, s := range []string{
		``,
		`{"tool":"Bash","arguments":{"command":"rm -rf ~"}}`,
		`{"tool":"shell","arguments":{"command":["bash","-lc","git push --force"],"workdir":"/home/user/project"}}`,
		`{"action":"code","code":"import subprocess; subprocess.run(['rm', '-rf', '/home/user/data'])"}`,
		`{"name":"execute_bash","arguments":"{\"command\":\"ls\",\"security_risk\":\"HIGH\"}"}`,
		`{"tool":"mcp__postgres__query","arguments":{"sql":"DROP TABLE users"}}`,
		`{"tool":"apply_patch","arguments":{"input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`,
		`{"tool":"deploy","arguments":{"x":[1,{"y":"z"}]},"annotations":{"readOnlyHint":false}}`,
		`{not json`,
		`[]`,
		`null`,
		`{"arguments":{}}`,
		`{"tool":"Bash","arguments":42}`,
		`{"tool":"Bash","arguments":true}`,
		`{"tool":"Bash","arguments":"ls"}`,
		`{"tool":"Bash","arguments":{"command":"` + strings.Repeat("a", 10<<20) + `"}}`,
		`{"tool":"x","arguments":{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}}`,
		`{"tool":"x","arguments":` + strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat("}", 10000) + `}`,
		"{\"tool\":\"Bash\",\"arguments\":{\"command\":\"\xff\xfe\"}}",
		"{\"tool\":\"Bash\",\"arguments\":{\"command\":\"ls\x00\"}}",
		`{"tool":"Bash","arguments":{"command":"ls\u0000"}}`,
		`{"tool":"Bash","arguments":{"command":"\ud800"}}`,
		"\r",
	} {
		f.Add([]byte(s))
	}
	for _, in := range hostile.Inputs() { // the bombs, the short ones (minimizing a long one that costs milliseconds takes minutes)
		if len(in.Script) <= 2<<10 {
			line, _ := json.Marshal(map[string]any{"tool": "Bash", "arguments": map[string]any{"command": in.Script}})
			f.Add(line)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		eng := fuzzEngine(t)
		line := bytes.ReplaceAll(in, []byte("\n"), []byte(" ")) // one input line
		cmd := &cobra.Command{}
		cmd.SetContext(context.Background())
		var out bytes.Buffer
		if err := assessStream(cmd, eng, bytes.NewReader(append(line, '\n')), &out); err != nil {
			t.Fatalf("assessStream: %v", err)
		}
		got := out.Bytes()
		if bytes.Count(got, []byte("\n")) != 1 || !bytes.HasSuffix(got, []byte("\n")) {
			t.Fatalf("want exactly one output line, got %q", got)
		}
		if !json.Valid(got) {
			t.Fatalf("output is not valid JSON: %q", got)
		}
		var res struct {
			Level    risk.Level `json:"level"`
			Decision string     `json:"decision"`
			Error    string     `json:"error"`
			Unknown  bool       `json:"unknown"`
		}
		if err := json.Unmarshal(got, &res); err != nil {
			t.Fatalf("output %q: %v", got, err)
		}
		if res.Decision != "allow" && res.Decision != "ask" && res.Decision != "deny" {
			t.Fatalf("decision %q", res.Decision)
		}
		// What assess read: the line without a CR before its newline.
		_, perr := risk.ParseAction(bytes.TrimSuffix(line, []byte("\r")), eng.Limits())
		switch {
		case perr != nil && (res.Level != risk.Unknown || !res.Unknown || res.Error == ""):
			t.Fatalf("invalid action (%v) answered with level %v, unknown %v, error %q", perr, res.Level, res.Unknown, res.Error)
		case perr == nil && res.Error != "":
			t.Fatalf("valid action answered with error %q", res.Error)
		}
	})
}
