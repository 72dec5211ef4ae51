package secrets

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestRuleSamples: every rule finds its match samples, with its type, and
// finds nothing in its no_match samples.
func TestRuleSamples(t *testing.T) {
	rules := yamlRules(t) // the samples; d runs the built-in rules generated from them
	d := Default()
	for _, r := range rules {
		for _, s := range r.Match {
			fs := d.ScanString("", s)
			found := false
			for _, f := range fs {
				found = found || f.Type == r.Type
			}
			if !found {
				t.Errorf("%s: does not find %s in %q (found %v)", r.ID, r.Type, s, types(fs))
			}
		}
		for _, s := range r.NoMatch {
			if fs := d.ScanString("", s); len(fs) > 0 {
				t.Errorf("%s: finds %v in %q", r.ID, types(fs), s)
			}
		}
	}
}

func types(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Type+"/"+f.Rule)
	}
	return out
}

// corpusCase is one line of testdata/secrets.jsonl.
type corpusCase struct {
	Text       string  `json:"text"`
	ExpectType *string `json:"expect_type"`
	Context    string  `json:"context"`
	Note       string  `json:"note"`
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	f, err := os.Open("../testdata/secrets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// TestCorpus: every secret of the corpus is found with its type, no
// near-miss is flagged.
func TestCorpus(t *testing.T) {
	found, secrets, flagged, benign := 0, 0, 0, 0
	for _, c := range loadCorpus(t) {
		fs := Default().ScanString("", c.Text)
		if c.ExpectType == nil {
			benign++
			if len(fs) > 0 {
				flagged++
				t.Errorf("near-miss flagged as %v: %q (%s)", types(fs), c.Text, c.Note)
			}
			continue
		}
		secrets++
		ok := false
		for _, f := range fs {
			ok = ok || f.Type == *c.ExpectType
		}
		if ok {
			found++
		} else {
			t.Errorf("%s not found in %q (%s); found %v", *c.ExpectType, c.Text, c.Note, types(fs))
		}
	}
	t.Logf("recall %d/%d, false positives %d/%d", found, secrets, flagged, benign)
}

func TestFindingShape(t *testing.T) {
	text := "line one\n  héllo token: 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\n"
	fs := Default().ScanString("a/b.yaml", text)
	if len(fs) != 1 {
		t.Fatalf("findings %v", types(fs))
	}
	f := fs[0]
	if f.FilePath != "a/b.yaml" || f.Line != 2 || f.Column != 16 || f.Severity != Critical || f.Match != "gho_…[redacted]" ||
		f.Description == "" || f.Suggestion == "" || text[f.Start:f.End] != "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" {
		t.Errorf("finding %+v", f)
	}
	b, _ := json.Marshal(f)
	for _, k := range []string{"file_path", "line", "column", "type", "severity", "match", "description", "suggestion"} {
		if !strings.Contains(string(b), `"`+k+`"`) {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
	if strings.Contains(string(b), "RnH7P9w8") {
		t.Errorf("the JSON holds the secret: %s", b)
	}
}

func TestEncodedSecrets(t *testing.T) {
	for _, text := range []string{
		"cfg=Z2hvX1JuSDdQOXc4QUdIR1Z1eFdMRHF5cTRHRzZzamFOdjFmWUF2Zw==", // base64 of the gho_ token
		"x := \"" + hex.EncodeToString([]byte("glpat-PJJrPvgRTT2PQCPXvySs")) + "\"",
		"u=mongodb%2Bsrv%3A%2F%2Fadmin%3A2KXNtMkUaMnvCyuZ%40cluster0.ab1cd.mongodb.net%2Fprod",
	} {
		if fs := Default().ScanString("", text); len(fs) == 0 {
			t.Errorf("nothing found in %q", text)
		}
	}
	for _, text := range []string{
		"sum: 8e5e7e5ab8b370d6c329ec480221332ada57f0ab8e5e7e5ab8b370d6c329ec48",
		"ThisIsAVeryLongIdentifierNameWithoutAnyDigitsInIt",
		"aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBwbGFpbiB0ZXh0IG5vdGhpbmcgc2VjcmV0",
	} {
		if fs := Default().ScanString("", text); len(fs) > 0 {
			t.Errorf("found %v in %q", types(fs), text)
		}
	}
}

func TestAllowMarker(t *testing.T) {
	line := "token: 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 # gitleaks:allow warden:allow"
	if len(Default().ScanString("", line)) != 1 {
		t.Errorf("an allow comment silenced the default detector")
	}
	d, err := New(nil, WithAllowMarker("warden:allow"))
	if err != nil {
		t.Fatal(err)
	}
	if fs := d.ScanString("", line); len(fs) != 0 {
		t.Errorf("the configured marker was not honoured: %v", types(fs))
	}
}

func TestRedact(t *testing.T) {
	for _, c := range loadCorpus(t) {
		if c.ExpectType == nil {
			if got := Redact(c.Text); got != c.Text {
				t.Errorf("a near-miss was changed: %q → %q", c.Text, got)
			}
			continue
		}
		got := Redact(c.Text)
		for _, f := range Default().ScanString("", c.Text) {
			secret := c.Text[f.Start:f.End]
			if strings.Contains(got, secret[min(4, len(secret)):]) {
				t.Errorf("Redact left the secret in %q", got)
			}
		}
	}
}

func TestMask(t *testing.T) {
	for in, want := range map[string]string{"AKIAYPWWS2K2QQDBI6S7": "AKIA…[redacted]", "abc": "…[redacted]", "héllo wörld": "…[redacted]", "a long sécret of many words": "a lo…[redacted]"} {
		if got := Mask(in); got != want {
			t.Errorf("Mask(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCLIGrammarSamples: every entry of cli.yaml finds a command-line
// password in each of its match samples, at the password, and nothing in
// its no_match samples.
func TestCLIGrammarSamples(t *testing.T) {
	g := yamlCLI(t)
	type set struct {
		what           string
		match, noMatch []string
	}
	sets := []set{{"env", g.Env.Match, g.Env.NoMatch}, {"generic", g.Generic.Match, g.Generic.NoMatch}}
	for _, c := range g.Commands {
		sets = append(sets, set{strings.Join(c.Names, ","), c.Match, c.NoMatch})
	}
	n := 0
	for _, s := range sets {
		for _, m := range s.match {
			n++
			found := false
			for _, f := range Default().ScanString("", m) {
				found = found || f.Type == "command_line_password"
			}
			if !found {
				t.Errorf("%s: no command-line password in %q (found %v)", s.what, m, types(Default().ScanString("", m)))
			}
		}
		for _, m := range s.noMatch {
			if fs := Default().ScanString("", m); len(fs) > 0 {
				t.Errorf("%s: finds %v in %q", s.what, types(fs), m)
			}
		}
	}
	if n < 30 {
		t.Errorf("only %d samples", n)
	}
}

// TestCLIPasswordSpan: the span found is the password itself, also when
// quoted or attached, so that masking it leaves the command readable.
func TestCLIPasswordSpan(t *testing.T) {
	for text, want := range map[string]string{
		"curl -u bob:Tr0ub4dor3 https://x.internal":           "Tr0ub4dor3",
		"mysql -uroot -pHx82kLm shop":                         "Hx82kLm",
		`mariadb -p's3cr3t!' -h db`:                           "s3cr3t!",
		`sshpass -p "Wq8 zR3nP" ssh host`:                     "Wq8 zR3nP",
		"PGPASSWORD=Zq8pLm2x psql":                            "Zq8pLm2x",
		"openssl rsa -passin pass:Kx8mZq2p -in k.pem":         "Kx8mZq2p",
		"smbclient //fs/s -U corp/jane%Winter2024x":           "Winter2024x",
		"htpasswd -cb .htpasswd admin Zx9mKq2L > /dev/null":   "Zx9mKq2L",
		"mysql -uroot -pHx82kLm shop; sshpass -p Wq8zR3nPq x": "Hx82kLm",
		"cd /srv && wget --password=Zx9mKq2L https://f/a.tgz": "Zx9mKq2L",
		"sh -c 'mysql -pHx82kLm shop' && echo ok":             "Hx82kLm",
		"mysql mysql mysql -pHx82kLm":                         "Hx82kLm",
	} {
		fs := Default().ScanString("", text)
		if len(fs) == 0 || text[fs[0].Start:fs[0].End] != want {
			t.Errorf("%q: found %v, want the span %q", text, types(fs), want)
		}
	}
}

func TestMaskURLPasswords(t *testing.T) {
	for in, want := range map[string]string{
		"url:https://admin:pw@host/x":                        "url:https://admin:…[redacted]@host/x",
		"fetch postgres://u:Zq8pLm2x@h/db and ftp://a@b/c":   "fetch postgres://u:…[redacted]@h/db and ftp://a@b/c",
		"https://user:Zq@8pLm2@host.internal/p?mail=a@b":     "https://user:…[redacted]@host.internal/p?mail=a@b",
		`{"url":"http://a:b@[::1]:80/"}`:                     `{"url":"http://a:…[redacted]@[::1]:80/"}`,
		"https://host/x@y":                                   "https://host/x@y",
		"no url here":                                        "no url here",
		"https://u:…[redacted]@h":                            "https://u:…[redacted]@h",
		"https://u:aVeryLongPasswordOfManyChars1@h":          "https://u:aVer…[redacted]@h",
		"git clone https://ci:tok(en)1@git.internal/r.git ;": "git clone https://ci:…[redacted]@git.internal/r.git ;",
	} {
		if got := MaskURLPasswords(in); got != want {
			t.Errorf("MaskURLPasswords(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCLIContinuedLines: a command continued on the next line (backslash)
// or in a CRLF file is read whole.
func TestCLIContinuedLines(t *testing.T) {
	for _, text := range []string{
		"curl -sS \\\n  -u bob:Tr0ub4dor3 \\\n  https://x.internal\n",
		"mysql -uroot -pHx82kLm shop\r\nexit\r\n",
		"curl https://x.internal \\\r\n -u bob:Tr0ub4dor3\r\n",
	} {
		found := false
		for _, f := range Default().ScanString("", text) {
			found = found || f.Type == "command_line_password"
		}
		if !found {
			t.Errorf("no command-line password in %q", text)
		}
	}
}

// TestLocalDefaultPassword: a default password (or the user's own name)
// given to a service on this machine is no secret; the same password to
// another host, one chosen at run time, or a real-looking password to
// localhost still is.
func TestLocalDefaultPassword(t *testing.T) {
	secret := []string{
		"PGPASSWORD=postgres psql -h db.prod.example.com -U postgres",
		"PGPASSWORD=Zq8pLm2x psql -h localhost -U app",
		"PGHOST=db.prod PGPASSWORD=postgres psql -U postgres",
		"PGPASSWORD=postgres psql -h $DBHOST -U postgres",
		"export PGPASSWORD=postgres",
		"redis-cli -h 10.0.0.5 -a redis ping",
		"curl -u admin:admin https://api.example.org",
		"docker login -u admin -p admin",
		"sshpass -p Wq8zR3nP ssh root@localhost",
		"mysql -uroot -pHx82kLm -h 127.0.0.1 shop",
		"PGPASSWORD=Postgres psql postgresql://postgres@db.example.com:5432/app",
	}
	benign := []string{
		"PGPASSWORD=postgres psql -h localhost -U postgres -d app_test -c 'SELECT count(*) FROM users;'",
		"PGPASSWORD=postgres psql -U postgres app_test",
		"PGPASSWORD=app psql -h 127.0.0.1 -U app app_test",
		"PGPASSWORD=postgres psql -h /var/run/postgresql -U postgres",
		"PGPASSWORD=Postgres psql postgresql://postgres@localhost:5432/app",
		"MYSQL_PWD=root mysql -uroot -h localhost",
		"redis-cli -a redis ping",
		"curl -u admin:admin http://localhost:8080/api",
		"mongosh --host localhost -u admin -p admin",
	}
	for _, text := range secret {
		if fs := Default().ScanString("", text); len(fs) == 0 {
			t.Errorf("%q: no finding, want command_line_password", text)
		}
	}
	for _, text := range benign {
		if fs := Default().ScanString("", text); len(fs) != 0 {
			t.Errorf("%q: found %v, want none", text, types(fs))
		}
	}
}
