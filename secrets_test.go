package warden_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/internal/corpus"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/tool"
)

// TestNoSecretSurvives feeds every secret of testdata/secrets.jsonl
// through the engine in every place an action carries text (a command
// line, a file written, code, a URL, an MCP tool's arguments, a tool's
// output) and checks that no assessment, decision or session history
// shows it, and that each is flagged as a hard-coded secret.
func TestNoSecretSurvives(t *testing.T) {
	eng := corpusEngine(t)
	ctx := context.Background()
	texts, rawsOf := secretTexts(t)
	for i, text := range texts {
		raws := rawsOf[i]
		id := fmt.Sprintf("s%d", i+1)
		actions := []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": "echo " + shellQuote(text) + " >> config.txt"}},
			{Tool: "Write", Arguments: map[string]any{"file_path": "/home/user/project/settings.py", "content": text}},
			{Tool: "python", Arguments: map[string]any{"code": "cfg = " + fmt.Sprintf("%q", text)}},
			{Tool: "WebFetch", Arguments: map[string]any{"url": "https://x.example/c?v=" + strings.ReplaceAll(text, " ", "+"), "prompt": "ok"}},
			{Tool: "mcp__notes__save_note", Arguments: map[string]any{"text": text}},
		}
		for _, a := range actions {
			a.SessionID = id
			checkHidden(t, eng, a, raws...)
		}
		fs, err := eng.Observe(ctx, risk.Action{Tool: "Bash", SessionID: id, Arguments: map[string]any{"command": "cat config.txt"}}, text)
		if err != nil {
			t.Fatal(err)
		}
		st := mustSession(t, eng, id)
		hist, _ := json.Marshal(st.History())
		reads := fmt.Sprint(st.Reads())
		obs, _ := json.Marshal(fs)
		for _, raw := range raws {
			for what, s := range map[string]string{"history": string(hist), "reads": reads, "observation": string(obs)} {
				if strings.Contains(s, raw) {
					t.Errorf("the session's %s shows the secret %q: %s", what, raw, s)
				}
			}
		}
		if len(fs) == 0 {
			t.Errorf("the output %q is not seen as sensitive", text)
		}
	}
}

// secretTexts returns the texts of testdata/secrets.jsonl that hold a
// secret, each with the raw secrets the detector finds in it.
func secretTexts(t *testing.T) (texts []string, raws [][]string) {
	t.Helper()
	for _, s := range corpus.Secrets(t, "testdata/secrets.jsonl", secrets.Default().Values) {
		texts, raws = append(texts, s.Text), append(raws, s.Raws)
	}
	return texts, raws
}

// checkHidden checks a through eng: its assessment and decision show none
// of the raw secrets, and a secrets.* finding flags it.
func checkHidden(t *testing.T, eng *warden.Engine, a risk.Action, raws ...string) {
	t.Helper()
	as, d, err := eng.Check(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(struct {
		A risk.Assessment
		D risk.Decision
	}{as, d})
	for _, raw := range raws {
		if strings.Contains(string(out), raw) {
			t.Errorf("%s %v: the assessment shows the secret %q:\n%s", a.Tool, a.Arguments, raw, out)
		}
	}
	if !hasPrefix(as, "secrets.") {
		t.Errorf("%s %v: not flagged as a hard-coded secret: %v", a.Tool, a.Arguments, as.Findings)
	}
}

func hasPrefix(as risk.Assessment, prefix string) bool {
	for _, f := range as.Findings {
		if strings.HasPrefix(f.Rule, prefix) {
			return true
		}
	}
	return false
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// echoAnalyzer repeats the call's text in its finding, as an analyzer
// that quotes what it judged does.
type echoAnalyzer struct{}

func (echoAnalyzer) Name() string { return "echo" }
func (echoAnalyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	return []risk.Finding{{Analyzer: "echo", Rule: "echo.text", Level: risk.High,
		Reason: "judged: " + strings.Join(c.Shell, "; "), Resource: "cmd:" + strings.Join(c.Shell, " ")}}, nil
}

// Masking is the engine's own step: an engine whose analyzers leave the
// secrets analyzer out still never shows a raw secret.
func TestMaskingWithoutSecretsAnalyzer(t *testing.T) {
	eng, err := warden.New(warden.WithAnalyzers(echoAnalyzer{}), warden.WithHome("/home/user"), warden.WithCwd("/home/user/project"))
	if err != nil {
		t.Fatal(err)
	}
	const key = "sk_live_" + "ybW7HnfcLEqzEJip2V539N1U"
	a := risk.Action{Tool: "Bash", SessionID: "m", Arguments: map[string]any{"command": "export STRIPE_KEY=" + key + " && ./deploy.sh"}}
	as, d, err := eng.Check(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(as.Findings, func(f risk.Finding) bool { return strings.HasPrefix(f.Reason, "judged: export STRIPE_KEY=") }) {
		t.Fatalf("the echo analyzer's finding is missing: %+v", as.Findings)
	}
	st := mustSession(t, eng, "m")
	hist, _ := json.Marshal(st.History())
	out, _ := json.Marshal(struct {
		A risk.Assessment
		D risk.Decision
	}{as, d})
	for what, s := range map[string]string{"assessment": string(out), "history": string(hist)} {
		if strings.Contains(s, key) || strings.Contains(s, key[8:]) {
			t.Errorf("the %s shows the secret: %s", what, s)
		}
	}
}

// TestNoPasswordSurvives: URL passwords (any scheme, any length) and
// passwords given to programs on the command line are found and masked
// in every place an action carries them: a command line, a fetched URL,
// a file written, an MCP tool's arguments. No assessment, decision or
// session history shows them, and each is flagged as a hard-coded secret.
func TestNoPasswordSurvives(t *testing.T) {
	type pw struct{ text, secret string }
	urls := []pw{
		{"https://admin:S3cr3tPw@example.com/x", "S3cr3tPw"},
		{"postgres://u:pw@h/db", ":pw@"},
		{"ftp://backup:Zq8p!Lm2@files.internal/dump.tgz", "Zq8p!Lm2"},
		{"https://ci:Zq@8pLm2@git.internal/org/repo.git", "8pLm2"},
		{"mongodb+srv://svc:Hk3mW9qL2z@cluster0.mongodb.net/app", "Hk3mW9qL2z"},
		{"http://admin:Kx8mZq2p@169.254.169.254/latest/meta-data/", "Kx8mZq2p"},
		{"https://deploy:aVeryLongPassw0rdOfManyChars@example.com/", "Passw0rdOfManyChars"},
	}
	commands := []pw{
		{"curl -u bob:Tr0ub4dor3 https://api.example.org/v1", "Tr0ub4dor3"},
		{"curl --user 'ops:p@ss w0rd' https://x.internal", "p@ss w0rd"},
		{"mysql -uroot -pHx82kLm shop", "Hx82kLm"},
		{"mysqldump --user=app --password=Q7v9xLm2 shop > dump.sql", "Q7v9xLm2"},
		{"sshpass -p Wq8zR3nP ssh deploy@10.0.0.5", "Wq8zR3nP"},
		{"PGPASSWORD=Zq8pLm2x psql -h db -U app", "Zq8pLm2x"},
		{"export MYSQL_PWD=s3cr3t!; mysql -uroot", "s3cr3t!"},
		{"redis-cli -h cache -a Kp2mX9qz GET k", "Kp2mX9qz"},
		{"smbclient //fs/share -U corp/jane%Winter2024x", "Winter2024x"},
		{"docker login -u ci -p Zx9mKq2L registry.internal", "Zx9mKq2L"},
		{"openssl rsa -in k.pem -passin pass:Kx8mZq2p -out plain.pem", "Kx8mZq2p"},
		{"htpasswd -cb .htpasswd admin Zx9mKq2L", "Zx9mKq2L"},
		{"wget --user=ci --password=Zx9mKq2L https://files.internal/a.tgz", "Zx9mKq2L"},
		{"deploytool push --api-key=Zx9mKq2LwP4t build/", "Zx9mKq2LwP4t"},
	}
	eng := corpusEngine(t)
	check := func(id string, a risk.Action, secret string) {
		t.Helper()
		a.SessionID = id
		checkHidden(t, eng, a, secret)
		st := mustSession(t, eng, id)
		hist, _ := json.Marshal(st.History())
		if strings.Contains(string(hist), secret) {
			t.Errorf("%s %v: the session's history shows the password %q: %s", a.Tool, a.Arguments, secret, hist)
		}
	}
	for i, u := range urls {
		id := fmt.Sprintf("u%d", i)
		for _, a := range []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": "curl -fsSL " + shellQuote(u.text) + " -o out"}},
			{Tool: "WebFetch", Arguments: map[string]any{"url": u.text, "prompt": "summarize"}},
			{Tool: "Write", Arguments: map[string]any{"file_path": "/home/user/project/.env", "content": "REMOTE=" + u.text + "\n"}},
			{Tool: "mcp__fetch__fetch", Arguments: map[string]any{"url": u.text}},
		} {
			check(id, a, u.secret)
		}
	}
	for i, c := range commands {
		id := fmt.Sprintf("c%d", i)
		for _, a := range []risk.Action{
			{Tool: "Bash", Arguments: map[string]any{"command": c.text}},
			{Tool: "Bash", Arguments: map[string]any{"command": "cd /srv && " + c.text}},
			{Tool: "Write", Arguments: map[string]any{"file_path": "/home/user/project/deploy.sh", "content": "#!/bin/sh\nset -e\n" + c.text + "\n"}},
			{Tool: "mcp__shell__run", Arguments: map[string]any{"command": c.text}},
		} {
			check(id, a, c.secret)
		}
	}
}
