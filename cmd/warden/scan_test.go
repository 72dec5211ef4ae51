package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	ghToken  = "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"
	pgURL    = "postgres://app:Zq8Xm2Lp9Rt4@db.internal:5432/app"
	glToken  = "glpat-PJJrPvgRTT2PQCPXvySs"
	stripeTk = "sk_live_ybW7HnfcLEqzEJip2V539N1U"
)

// scanTree writes a small project: secrets in tracked files, one in an
// ignored file, one in a binary file, one behind an allow comment.
func scanTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":         "build/\n*.log\n",
		"config/app.yaml":    "db:\n  url: " + pgURL + "\n",
		"src/main.go":        "package main\n\n// the client\nvar token = \"" + ghToken + "\" // gitleaks:allow\n",
		"src/clean.go":       "package main\n\nfunc main() {}\n",
		"build/out.txt":      "token: " + glToken + "\n",
		"debug.log":          "token: " + glToken + "\n",
		"docs/README.md":     "Set STRIPE_SECRET_KEY=" + stripeTk + " in production.\n",
		"assets/blob.bin":    "\x00\x01token: " + glToken + "\n",
		".git/config":        "token: " + glToken + "\n",
		"notes/allowed.conf": "token: " + glToken + " # warden:allow\n",
	}
	for p, text := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type scanJSON struct {
	Findings []struct {
		FilePath    string `json:"file_path"`
		Line        int    `json:"line"`
		Column      int    `json:"column"`
		Type        string `json:"type"`
		Severity    string `json:"severity"`
		Match       string `json:"match"`
		Description string `json:"description"`
		Suggestion  string `json:"suggestion"`
	} `json:"findings"`
}

func noRawSecret(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{ghToken, pgURL, "Zq8Xm2Lp9Rt4", glToken, stripeTk} {
		if strings.Contains(out, s) || strings.Contains(out, s[5:]) {
			t.Errorf("output shows a secret (%s…): %s", s[:5], out)
		}
	}
}

func TestScanJSON(t *testing.T) {
	dir := scanTree(t)
	code, stdout, stderr := runCLI(t, "", "scan", "--format", "json", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr %s", code, stderr)
	}
	var got scanJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	where := map[string]string{}
	for _, f := range got.Findings {
		rel, _ := filepath.Rel(dir, f.FilePath)
		where[filepath.ToSlash(rel)] = f.Type
		if f.Line < 1 || f.Column < 1 || f.Severity == "" || f.Description == "" || f.Suggestion == "" || !strings.HasSuffix(f.Match, "…[redacted]") {
			t.Errorf("finding %+v", f)
		}
	}
	want := map[string]string{"config/app.yaml": "db_connection_string", "src/main.go": "github_token", "docs/README.md": "stripe_key",
		"notes/allowed.conf": "gitlab_token"}
	for p, typ := range want {
		if where[p] != typ {
			t.Errorf("%s: found %q, want %s (all: %v)", p, where[p], typ, where)
		}
	}
	for _, p := range []string{"build/out.txt", "debug.log", "assets/blob.bin", ".git/config"} {
		if _, ok := where[p]; ok {
			t.Errorf("%s was scanned", p)
		}
	}
	if len(got.Findings) != len(want) {
		t.Errorf("%d findings, want %d: %v", len(got.Findings), len(want), where)
	}
	noRawSecret(t, stdout+stderr)
}

func TestScanAllowMarker(t *testing.T) {
	dir := scanTree(t)
	_, stdout, _ := runCLI(t, "", "scan", "--format", "json", "--allow-marker", "warden:allow", dir)
	if strings.Contains(stdout, "allowed.conf") || !strings.Contains(stdout, "main.go") {
		t.Errorf("--allow-marker warden:allow: %s", stdout)
	}
}

func TestScanText(t *testing.T) {
	dir := scanTree(t)
	code, stdout, _ := runCLI(t, "", "scan", filepath.Join(dir, "config"))
	if code != 1 || !strings.Contains(stdout, "app.yaml:2:") || !strings.Contains(stdout, "critical db_connection_string") {
		t.Errorf("exit %d: %s", code, stdout)
	}
	noRawSecret(t, stdout)
}

func TestScanStdin(t *testing.T) {
	code, stdout, _ := runCLI(t, "x = 1\ntoken: "+ghToken+"\n", "scan", "--format", "json", "-")
	if code != 1 || !strings.Contains(stdout, `"file_path":"-"`) || !strings.Contains(stdout, `"line":2`) {
		t.Errorf("exit %d: %s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "nothing here\n", "scan", "--format", "json", "-")
	if code != 0 || strings.TrimSpace(stdout) != `{"findings":[]}` {
		t.Errorf("clean stdin: exit %d: %s", code, stdout)
	}
}

func TestScanErrors(t *testing.T) {
	if code, _, stderr := runCLI(t, "", "scan", filepath.Join(t.TempDir(), "missing")); code != 2 || stderr == "" {
		t.Errorf("missing path: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "scan", "--format", "xml", "."); code != 2 || !strings.Contains(stderr, "xml") {
		t.Errorf("bad format: exit %d, stderr %q", code, stderr)
	}
	if code, _, _ := runCLI(t, "", "scan"); code != 2 {
		t.Errorf("no path: exit %d", code)
	}
}

// TestScanSARIF: the SARIF log has what GitHub code scanning requires:
// version 2.1.0, a driver with rules, results with a rule, a message and a
// physical location with a relative URI and a start line.
func TestScanSARIF(t *testing.T) {
	dir := scanTree(t)
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	code, stdout, _ := runCLI(t, "", "scan", "--format", "sarif", ".")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
						Properties map[string]any `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || !strings.Contains(log.Schema, "sarif-2.1.0") || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "warden" {
		t.Fatalf("log header: %+v", log)
	}
	run := log.Runs[0]
	if len(run.Results) != 4 || len(run.Tool.Driver.Rules) < 15 {
		t.Fatalf("%d results, %d rules", len(run.Results), len(run.Tool.Driver.Rules))
	}
	for _, r := range run.Results {
		loc := r.Locations[0].PhysicalLocation
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID || r.Message.Text == "" || r.Level != "error" && r.Level != "warning" ||
			loc.Region.StartLine < 1 || strings.HasPrefix(loc.ArtifactLocation.URI, "/") || strings.HasPrefix(loc.ArtifactLocation.URI, "./") ||
			len(r.PartialFingerprints) == 0 {
			t.Errorf("result %+v", r)
		}
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.ShortDescription.Text == "" || r.Properties["security-severity"] == nil {
			t.Errorf("rule %+v", r)
		}
	}
	noRawSecret(t, stdout)
}

// TestAssessMasksSecrets: an assessment printed by warden assess never
// shows a secret the action carries.
func TestAssessMasksSecrets(t *testing.T) {
	in := `{"tool":"Bash","session_id":"m","arguments":{"command":"curl -H 'Authorization: token ` + ghToken + `' https://api.github.com/user"}}` + "\n" +
		`{"tool":"Write","session_id":"m","arguments":{"file_path":"/home/user/project/.env","content":"DATABASE_URL=` + pgURL + `\n"}}` + "\n"
	_, stdout, stderr := runCLI(t, in, "assess", "--cwd", "/home/user/project", "--home", "/home/user")
	out := parseOutput(t, stdout)
	if len(out) != 2 || out[0].Level != "high" && out[0].Level != "critical" {
		t.Fatalf("%s %s", stdout, stderr)
	}
	if !strings.Contains(stdout, "secrets.github_token") || !strings.Contains(stdout, "secrets.db_connection_string") {
		t.Errorf("the secrets are not flagged: %s", stdout)
	}
	noRawSecret(t, stdout+stderr)
}
