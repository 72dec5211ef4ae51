package code

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/tool"
)

// corpusCodes returns the Python codes of the repository's labeled corpus.
func corpusCodes(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, a := range corpus.Actions(tb, "../../testdata/actions.jsonl") {
		if code, ok := a.Arguments["code"].(string); ok && strings.EqualFold(a.Tool, "python") {
			out = append(out, code)
		}
	}
	if len(out) == 0 {
		tb.Fatal("corpus: no python rows")
	}
	return out
}

func FuzzCode(f *testing.F) {
	for _, c := range corpusCodes(f) {
		f.Add(c)
	}
	for _, s := range []string{
		"f'{f\"{f'{x}'}\"}'", "x = '''", "((((((((((", "!rm -rf {d}", "%%bash\nls", "lambda: (yield)",
		"for x in y:\n  if a:\n    p = 1\n  elif b:\n    p = 2\n  else:\n    p = 3\nshutil.rmtree(p)",
		"a = 'x'\nfor i in range(99):\n    a = a + a\nos.system(a)", "def f(x): return f(x)\nf(1)",
		"import base64; exec(base64.b64decode('ZXhlYyhiYXNlNjQuYjY0ZGVjb2RlKCdaWGhsWXlnbmVDY3AnKSk='))",
		"import shutil\nshutil.rmtree(target / nul)\ny = path + n", "f = open(base, 'w')\nf.write(env)\nos.chmod(f, n)\nexec(open(target).read())",
		"try:\n  x = 1\nexcept E as e:\n  x = 2\nelse:\n  del x\nglobal y\ndef g():\n  global x, y\n  y = x",
		"import requests\nrequests.post(base, files={'a': open(nul)}, data=[open('a')])\nos.chdir(nul)\n%cd {x}",
	} {
		f.Add(s)
	}
	prior := &tool.Prior{PyVars: map[string]tool.PyValue{
		"target": {Text: "build", Known: true}, "n": {Text: "16", Known: true}, "base": {Text: "http://10.0.0.1", Known: true},
		"x": {}, "env": {Sensitive: "environment"}, "os": {}, "path": {Text: "/home/user", Known: true}, "nul": {Text: "a\x00b", Known: true},
	}}
	f.Fuzz(func(t *testing.T, src string) {
		for _, c := range []*tool.Call{py(src), inSession(src, prior.PyVars)} {
			fuzzOne(t, c, src)
		}
	})
}

func fuzzOne(t *testing.T, c *tool.Call, src string) {
	start := time.Now()
	fs, err := Preparer{}.Prepare(context.Background(), c)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v on %d bytes", d, len(src))
	}
	if c.Prior == nil && len(c.Effects) > 0 {
		t.Errorf("effects outside a session")
	}
	checkEffects(t, c)
	if len(fs) > maxFindings+1 {
		t.Errorf("%d findings", len(fs))
	}
	for _, f := range fs {
		if f.Analyzer != Name || !strings.HasPrefix(f.Rule, "code.") || f.Reason == "" || !f.Level.Valid() {
			t.Errorf("malformed finding %+v", f)
		}
		if strings.Contains(f.Reason+f.Resource, dyn) || !utf8.ValidString(f.Reason+f.Resource) {
			t.Errorf("unknown marker or invalid text in %+v", f)
		}
	}
	for _, s := range append(append(append([]string(nil), c.Shell...), c.SQL...), c.URLs...) {
		if strings.Contains(s, dyn) || !utf8.ValidString(s) {
			t.Errorf("unknown marker or invalid text in added %q", s)
		}
	}
}
