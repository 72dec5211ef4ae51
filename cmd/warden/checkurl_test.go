package main

import (
	"encoding/json"
	"strings"
	"testing"
)

type urlLine struct {
	URL      string `json:"url"`
	Allowed  bool   `json:"allowed"`
	Reason   string `json:"reason"`
	Category string `json:"category"`
}

func urlLines(t *testing.T, stdout string) []urlLine {
	t.Helper()
	var out []urlLine
	for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var u urlLine
		if err := json.Unmarshal([]byte(l), &u); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if u.Reason == "" {
			t.Errorf("line %q has no reason", l)
		}
		out = append(out, u)
	}
	return out
}

func TestCheckURL(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "check-url", "https://example.com/", "http://0x7f000001/", "http://[::ffff:a9fe:a9fe]/latest/")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a URL is blocked); stderr %s", code, stderr)
	}
	got := urlLines(t, stdout)
	want := []urlLine{
		{URL: "https://example.com/", Allowed: true},
		{URL: "http://0x7f000001/", Category: "loopback"},
		{URL: "http://[::ffff:a9fe:a9fe]/latest/", Category: "metadata"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(got), len(want), stdout)
	}
	for i := range want {
		if got[i].URL != want[i].URL || got[i].Allowed != want[i].Allowed || got[i].Category != want[i].Category {
			t.Errorf("line %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}

	code, stdout, _ = runCLI(t, "", "check-url", "https://example.com/", "http://8.8.8.8/")
	if code != 0 || len(urlLines(t, stdout)) != 2 {
		t.Errorf("all allowed: exit %d, output %s", code, stdout)
	}
}

func TestCheckURLStdin(t *testing.T) {
	in := "http://localhost:6379/\n\n  https://pkg.go.dev/net/netip  \nfile:///etc/passwd\n"
	code, stdout, _ := runCLI(t, in, "check-url", "-")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	got := urlLines(t, stdout)
	if len(got) != 3 || got[0].Category != "loopback" || !got[1].Allowed || got[1].URL != "https://pkg.go.dev/net/netip" || got[2].Category != "scheme" {
		t.Errorf("stdin lines: %+v", got)
	}
}

func TestCheckURLConfig(t *testing.T) {
	code, stdout, _ := runCLI(t, "", "check-url", "--allow-host", "*.example.com", "--allow-private", "localhost",
		"--block", "8.8.4.0/24", "https://api.example.com/", "https://github.com/", "http://localhost:3000/", "http://8.8.4.4/")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	got := urlLines(t, stdout)
	want := []string{"", "not_allowed", "not_allowed", "extra_blocked"} // localhost: private allowed, yet not in allowed hosts
	for i, w := range want {
		if got[i].Category != w || got[i].Allowed != (w == "") {
			t.Errorf("%s: %+v, want category %q", got[i].URL, got[i], w)
		}
	}
}

func TestCheckURLErrors(t *testing.T) {
	for _, args := range [][]string{
		{"check-url"},
		{"check-url", "--allow-host", "a.*.com", "https://example.com"},
		{"check-url", "--block", "10.0.0.0/40", "https://example.com"},
		{"check-url", "--scheme", "ht tp", "https://example.com"},
	} {
		code, stdout, stderr := runCLI(t, "", args...)
		if code != 2 || stdout != "" || stderr == "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2, nothing, an error", args, code, stdout, stderr)
		}
	}
}

// check-url never prints a URL's password back: not in the URL it
// echoes, not in the reason, not in an error, whatever the password's
// length or the URL's shape.
func TestCheckURLMasksPasswords(t *testing.T) {
	urls := map[string]string{
		"https://admin:S3cr3tPw@169.254.169.254/latest/": "S3cr3tPw",
		"http://admin:pw@[::1":                           ":pw@",
		"https://ops:Zq@8pLm2@10.0.0.1/x":                "Zq@8pLm2",
		"ftp://u:Kx8mZq2pWq8zR3nPtZ@files.internal/":     "8mZq2pWq8zR3nPtZ",
		"https://docs.example.com:Kx8mZq2p@10.0.0.1/":    "Kx8mZq2p",
	}
	for u, secret := range urls {
		_, stdout, stderr := runCLI(t, "", "check-url", u)
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%s: the password shows: %s%s", u, stdout, stderr)
		}
		if !strings.Contains(stdout, "[redacted]") && !strings.Contains(stdout, `"url"`) {
			t.Errorf("%s: no line: %s%s", u, stdout, stderr)
		}
	}
	_, stdout, stderr := runCLI(t, "", "check-url", "--allow-host", "https://u:Kx8mZq2p@h/", "https://example.com/")
	if strings.Contains(stdout+stderr, "Kx8mZq2p") {
		t.Errorf("an error shows the password: %s%s", stdout, stderr)
	}
}

// TestAssessMasksPasswords: warden assess flags URL passwords and
// command-line passwords and never prints them, in any field.
func TestAssessMasksPasswords(t *testing.T) {
	cases := map[string]string{
		`{"tool":"Bash","arguments":{"command":"curl https://admin:S3cr3tPw@example.com/x"}}`:      "S3cr3tPw",
		`{"tool":"Bash","arguments":{"command":"psql postgres://u:pw@h/db -c 'select 1'"}}`:        ":pw@",
		`{"tool":"WebFetch","arguments":{"url":"https://ci:Zq@8pLm2@10.0.0.1/x","prompt":"read"}}`: "8pLm2",
		`{"tool":"Bash","arguments":{"command":"curl -u bob:Tr0ub4dor3 https://api.example.org"}}`: "Tr0ub4dor3",
		`{"tool":"Bash","arguments":{"command":"mysql -uroot -pHx82kLm shop"}}`:                    "Hx82kLm",
		`{"tool":"Bash","arguments":{"command":"PGPASSWORD=Zq8pLm2x psql -h db"}}`:                 "Zq8pLm2x",
		`{"tool":"Bash","arguments":{"command":"sshpass -p Wq8zR3nP ssh deploy@10.0.0.5"}}`:        "Wq8zR3nP",
	}
	for in, secret := range cases {
		_, stdout, stderr := runCLI(t, in+"\n", "assess", "--cwd", "/home/user/project", "--home", "/home/user")
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%s: the password shows: %s%s", in, stdout, stderr)
		}
		if !strings.Contains(stdout, `"secrets.`) {
			t.Errorf("%s: not flagged: %s%s", in, stdout, stderr)
		}
	}
}
