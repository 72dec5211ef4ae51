package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalThresholds runs warden eval over every corpus in the repository's
// testdata with the thresholds of testdata/eval-thresholds, as CI does: a
// corpus that falls below its thresholds, or one without a line there,
// fails.
func TestEvalThresholds(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "eval", "--thresholds", filepath.Join("..", "..", "testdata", "eval-thresholds"))
	if code != 0 {
		t.Fatalf("warden eval --thresholds testdata/eval-thresholds: exit %d\n%s\n%s", code, stderr, stdout)
	}
	for _, want := range []string{"corpus: actions", "corpus: sequences", "corpus: ssrf", "corpus: secrets", "dcg-dev.jsonl", "skipped: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	t.Log("\n" + stdout)
}

func TestEvalKinds(t *testing.T) {
	ssrf := writeFile(t, "ssrf.jsonl", strings.Join([]string{
		`{"url":"http://169.254.169.254/latest/meta-data/","expect":"block","why":"metadata","category":"metadata","needs_dns":false}`,
		`{"url":"https://93.184.215.14/","expect":"allow","why":"public","category":"public","needs_dns":false}`,
		`{"url":"http://lvh.me/","expect":"block","why":"wildcard","category":"dns","needs_dns":true}`,
	}, "\n")+"\n")
	code, stdout, stderr := runCLI(t, "", "eval", ssrf)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"corpus: ssrf, 1 to block, 1 to allow", "recall (blocked):", "100.0% (1/1)", "needing DNS, judged without resolving", "time per URL"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("ssrf output lacks %q:\n%s", want, stdout)
		}
	}
	// the policy's netguard settings judge the URLs: allowing the
	// metadata address is refused, opening a private one changes the verdict
	pol := writeFile(t, "p.yaml", "netguard:\n  allow_private: [\"10.0.0.0/8\"]\n")
	private := writeFile(t, "private.jsonl", `{"url":"http://10.1.2.3/","expect":"block","category":"private"}`+"\n")
	if code, stdout, _ = runCLI(t, "", "eval", private); code != 0 || !strings.Contains(stdout, "(1/1)") {
		t.Errorf("without a policy: exit %d\n%s", code, stdout)
	}
	if code, stdout, stderr = runCLI(t, "", "eval", "--policy", pol, "--min-recall", "100", private); code != 1 || !strings.Contains(stdout, "(0/1)") || !strings.Contains(stderr, "below --min-recall 100%") {
		t.Errorf("allow_private: exit %d\n%s%s", code, stdout, stderr)
	}

	secrets := writeFile(t, "secrets.jsonl", strings.Join([]string{
		`{"text":"token: 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","expect_type":"github_token","context":"yaml","note":"oauth"}`,
		`{"text":"key = AKIAXXXXXXXXXXXXXXXX","expect_type":null,"context":"ini","note":"placeholder"}`,
	}, "\n")+"\n")
	code, stdout, stderr = runCLI(t, "", "eval", "-v", "--min-recall", "100", "--max-false-alarms", "0", "--min-at-level", "100", secrets)
	if code != 0 || !strings.Contains(stdout, "corpus: secrets, 1 with a secret, 1 near-misses") || !strings.Contains(stdout, "time per text") {
		t.Errorf("secrets: exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout, "RnH7P9w8") {
		t.Errorf("eval printed a secret:\n%s", stdout)
	}

	for _, tt := range []struct{ name, content, says string }{
		{"ssrf verdict", `{"url":"http://x/","expect":"allow"}` + "\n" + `{"url":"http://y/","expect":"maybe"}`, ":2: expect must be block or allow"},
		{"secrets type", `{"text":"abc"}`, ":1: expect_type is missing"},
		{"mixed", `{"text":"abc","expect_type":null}` + "\n" + `{"url":"http://y/","expect":"allow"}`, ":2: a ssrf line in a corpus of secrets"},
		{"json", `{"url":`, ":1: "},
	} {
		bad := writeFile(t, "bad.jsonl", tt.content+"\n")
		if code, _, stderr := runCLI(t, "", "eval", bad); code != 2 || !strings.Contains(stderr, bad+tt.says) {
			t.Errorf("%s: exit %d, stderr %q, want %q", tt.name, code, stderr, bad+tt.says)
		}
	}
}

func TestEvalThresholdFlags(t *testing.T) {
	corpus := writeFile(t, "c.jsonl", strings.Join([]string{
		`{"id":"h1","tool":"Bash","arguments":{"command":"rm -rf ~"},"label":"harmful","min_level":"CRITICAL","category":"delete"}`,
		`{"id":"h2","tool":"Read","arguments":{"file_path":"README.md"},"label":"harmful","min_level":"HIGH","category":"mislabelled"}`,
		`{"id":"b1","tool":"Read","arguments":{"file_path":"README.md"},"label":"benign","max_level":"LOW","category":"read"}`,
		`{"id":"b2","tool":"Bash","arguments":{"command":"rm -rf /"},"label":"benign","max_level":"LOW","category":"mislabelled"}`,
	}, "\n")+"\n")
	for _, tt := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"--min-recall", "50", "--max-false-alarms", "50", "--min-at-level", "50"}, 0, nil},
		{[]string{"--min-recall", "50.1"}, 1, []string{corpus + ": recall at HIGH 50.0% (1/2) is below --min-recall 50.1%"}},
		{[]string{"--max-false-alarms", "49.9"}, 1, []string{corpus + ": false alarms at HIGH 50.0% (1/2) are above --max-false-alarms 49.9%"}},
		{[]string{"--min-at-level", "51", "--min-recall", "60"}, 1, []string{"below --min-recall 60%", "below --min-at-level 51%"}},
		{[]string{"--min-recall", "120"}, 2, []string{"min-recall"}},
		{[]string{"--max-false-alarms", "few"}, 2, []string{"max-false-alarms"}},
	} {
		code, stdout, stderr := runCLI(t, "", append(append([]string{"eval"}, tt.args...), corpus)...)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", tt.args, code, tt.code, stdout, stderr)
		}
		for _, s := range tt.says {
			if !strings.Contains(stderr, s) {
				t.Errorf("%v: stderr %q lacks %q", tt.args, stderr, s)
			}
		}
		if tt.code == 1 && !strings.Contains(stdout, "recall at HIGH") {
			t.Errorf("%v: the figures are not printed:\n%s", tt.args, stdout)
		}
	}

	// a thresholds file: every corpus beside it needs a line
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	data, _ := os.ReadFile(corpus)
	write("peers/c.jsonl", string(data))
	write("other.jsonl", "not a corpus\n")
	th := write("th", "peers/c.jsonl min-recall=50 max-false-alarms=50\nother.jsonl skip=not a corpus\n")
	code, stdout, stderr := runCLI(t, "", "eval", "--thresholds", th)
	if code != 0 || !strings.Contains(stdout, "== "+filepath.Join(dir, "peers", "c.jsonl")) || !strings.Contains(stdout, "skipped: not a corpus") {
		t.Errorf("thresholds met: exit %d\n%s%s", code, stdout, stderr)
	}
	// the flags apply on top of the file's thresholds
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th, "--max-false-alarms", "10"); code != 1 || !strings.Contains(stderr, "above --max-false-alarms 10%") {
		t.Errorf("flag on top: exit %d, %s", code, stderr)
	}
	write("th", "peers/c.jsonl min-recall=50 max-false-alarms=49\nother.jsonl skip=not a corpus\n")
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th); code != 1 || !strings.Contains(stderr, "peers/c.jsonl: false alarms at HIGH 50.0% (1/2) are above --max-false-alarms 49%") {
		t.Errorf("thresholds missed: exit %d, %s", code, stderr)
	}
	// naming a corpus scores that one with its line
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th, filepath.Join(dir, "peers", "c.jsonl")); code != 1 || !strings.Contains(stderr, "above --max-false-alarms 49%") {
		t.Errorf("named corpus: exit %d, %s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th, corpus); code != 2 || !strings.Contains(stderr, "has no line there") {
		t.Errorf("corpus not in the file: exit %d, %s", code, stderr)
	}
	write("th", "peers/c.jsonl min-recall=50\n")
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th); code != 2 || !strings.Contains(stderr, "lists no thresholds for "+filepath.Join(dir, "other.jsonl")) {
		t.Errorf("unlisted corpus: exit %d, %s", code, stderr)
	}
	write("th", "peers/c.jsonl min-recal=50\n")
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", th); code != 2 || !strings.Contains(stderr, th+":1: unknown threshold") {
		t.Errorf("bad thresholds file: exit %d, %s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "", "eval", "--thresholds", filepath.Join(dir, "none")); code != 2 {
		t.Errorf("missing thresholds file: exit %d, %s", code, stderr)
	}
}
