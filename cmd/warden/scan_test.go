package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
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

func utf16Bytes(s string, big, bom bool) []byte {
	var out []byte
	if bom {
		if big {
			out = append(out, 0xFE, 0xFF)
		} else {
			out = append(out, 0xFF, 0xFE)
		}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestScanEncodings: UTF-16 (both orders, with and without a byte order
// mark), UTF-8 with a byte order mark and text with a stray NUL byte are
// decoded and scanned, named or met while walking; the secret is found
// at its line and column.
func TestScanEncodings(t *testing.T) {
	text := "x = 1\nname: é\ntoken: " + ghToken + "\n"
	files := map[string][]byte{
		"le.txt":     utf16Bytes(text, false, true),
		"be.txt":     utf16Bytes(text, true, true),
		"le-nobom.c": utf16Bytes(text, false, false),
		"be-nobom.c": utf16Bytes(text, true, false),
		"bom8.txt":   append([]byte{0xEF, 0xBB, 0xBF}, text...),
		"nul.txt":    append([]byte(strings.Repeat("filler line\n", 20)+"\x00\n"), text...),
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range files {
		code, stdout, stderr := runCLI(t, "", "scan", "--format", "json", filepath.Join(dir, name))
		var got scanJSON
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatalf("%s: %v: %s", name, err, stdout)
		}
		wantLine := 3
		if name == "nul.txt" {
			wantLine = 24
		}
		if code != 1 || len(got.Findings) != 1 || got.Findings[0].Type != "github_token" || got.Findings[0].Line != wantLine || got.Findings[0].Column != 8 {
			t.Errorf("%s: exit %d, findings %+v, stderr %s", name, code, got.Findings, stderr)
		}
		noRawSecret(t, stdout+stderr)
	}
	code, stdout, stderr := runCLI(t, "", "scan", dir)
	if code != 1 || strings.Count(stdout, "github_token") != len(files) || stderr != "" {
		t.Errorf("walked: exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}

// TestScanNeverSilent: a file named that is not scanned (binary) is
// reported on stderr with why, and the exit status is 2 even when other
// paths have findings, which are still printed; a missing path among good
// ones likewise; binary files met while walking are counted in a summary
// without failing.
func TestScanNeverSilent(t *testing.T) {
	dir := t.TempDir()
	bin := append([]byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 4000)...)
	bin = append(bin, "token: "+ghToken+"\n"...)
	for name, data := range map[string][]byte{"app.bin": bin, "sub/app.bin": bin, "sub/conf.yaml": []byte("url: " + pgURL + "\n")} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "missing.txt")
	code, stdout, stderr := runCLI(t, "", "scan", filepath.Join(dir, "app.bin"), missing, filepath.Join(dir, "sub"))
	if code != 2 {
		t.Errorf("exit %d, want 2 (a named path was not scanned)", code)
	}
	if !strings.Contains(stdout, "conf.yaml:1:") {
		t.Errorf("the other paths' findings are not printed: %s", stdout)
	}
	for _, want := range []string{"app.bin: not scanned: binary", "missing.txt: not scanned: no such file", "1 file(s) met while walking were not scanned: 1 binary"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
	// walking only: the skipped binary is summed up, findings decide
	code, _, stderr = runCLI(t, "", "scan", filepath.Join(dir, "sub"))
	if code != 1 || !strings.Contains(stderr, "1 binary") {
		t.Errorf("walked binary: exit %d, stderr %s", code, stderr)
	}
	code, _, stderr = runCLI(t, "", "scan", missing)
	if code != 2 || !strings.Contains(stderr, "missing.txt") {
		t.Errorf("missing alone: exit %d, stderr %s", code, stderr)
	}
	// a file named, clean, and a missing one: 2, not 0
	clean := filepath.Join(dir, "clean.txt")
	os.WriteFile(clean, []byte("nothing\n"), 0o644)
	if code, _, _ := runCLI(t, "", "scan", clean, missing); code != 2 {
		t.Errorf("clean + missing: exit %d, want 2", code)
	}
}

// TestScanLargeFile: a file larger than --max-file-bytes is scanned in
// overlapping chunks: secrets on either side of a chunk's edge, and across
// it, are found once each, at their line and column.
func TestScanLargeFile(t *testing.T) {
	const chunk = 1 << 20
	var b strings.Builder
	line := strings.Repeat("a", 63) + "\n"
	for b.Len() < chunk-30 {
		b.WriteString(line)
	}
	lines := strings.Count(b.String(), "\n")
	b.WriteString("token: " + ghToken + "\n") // across the first chunk's edge
	for b.Len() < 2*chunk+chunk/2 {
		b.WriteString(line)
	}
	lines2 := strings.Count(b.String(), "\n")
	b.WriteString(strings.Repeat("y", 3*chunk) + " token: " + ghToken + "\n") // a line longer than a chunk
	path := filepath.Join(t.TempDir(), "big.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "scan", "--format", "json", "--max-file-bytes", fmt.Sprint(chunk), path)
	var got scanJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s %s", err, stdout, stderr)
	}
	if code != 1 || len(got.Findings) != 2 {
		t.Fatalf("exit %d, findings %+v, stderr %s", code, got.Findings, stderr)
	}
	if f := got.Findings[0]; f.Line != lines+1 || f.Column != 8 {
		t.Errorf("first: line %d col %d, want %d:8", f.Line, f.Column, lines+1)
	}
	if f := got.Findings[1]; f.Line != lines2+1 || f.Column != 3*chunk+9 {
		t.Errorf("second: line %d col %d, want %d:%d", f.Line, f.Column, lines2+1, 3*chunk+9)
	}
}

func TestDecodeText(t *testing.T) {
	for _, c := range []struct {
		in   []byte
		want string
		why  string
	}{
		{[]byte("plain"), "plain", ""},
		{utf16Bytes("hé\nllo", false, true), "hé\nllo", ""},
		{utf16Bytes("hé\nllo", true, true), "hé\nllo", ""},
		{utf16Bytes("hello world", false, false), "hello world", ""},
		{utf16Bytes("hello world", true, false), "hello world", ""},
		{[]byte("\xEF\xBB\xBFbom"), "bom", ""},
		{append([]byte(strings.Repeat("text ", 40)), 0), strings.Repeat("text ", 40) + "\x00", ""},
		{[]byte{0x89, 'P', 'N', 'G', 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0}, "", "binary"},
	} {
		got, why := decodeText(c.in)
		if string(got) != c.want || why != c.why {
			t.Errorf("decodeText(%q) = %q, %q; want %q, %q", c.in, got, why, c.want, c.why)
		}
	}
}

// FuzzDecodeText: any bytes decode without a panic; text that is valid
// UTF-8 without NUL bytes or a byte order mark is scanned as it is.
func FuzzDecodeText(f *testing.F) {
	f.Add([]byte("plain text"))
	f.Add(utf16Bytes("token: x\n", false, true))
	f.Add(utf16Bytes("token: x\n", true, false))
	f.Add([]byte{0xFF, 0xFE, 0x00})
	f.Add([]byte{0xFE, 0xFF, 0xD8, 0x00})
	f.Fuzz(func(t *testing.T, data []byte) {
		text, why := decodeText(data)
		if why == "" && text == nil && len(data) > 3 {
			t.Fatalf("no text and no reason for %q", data)
		}
		if utf8.Valid(data) && !bytes.ContainsRune(data, 0) && !bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) && (why != "" || !bytes.Equal(text, data)) {
			t.Fatalf("plain text changed: %q → %q, %q", data, text, why)
		}
	})
}
