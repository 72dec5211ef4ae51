package policy_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLayers(t *testing.T) {
	dir := t.TempDir()
	org := write(t, filepath.Join(dir, "etc/warden/policy.yaml"), `
disable_bypass: true
mode: plan
deny: ["Bash(git push * --force*)"]
`)
	user := write(t, filepath.Join(dir, "home/.config/warden/policy.yaml"), `
mode: acceptEdits
disable_bypass: false            # cannot weaken the organization's
confirmation: {threshold: medium}
allow: ["Bash(go test:*)"]
netguard: {allow_private: [localhost]}
`)
	project := write(t, filepath.Join(dir, "repo/.warden/policy.yaml"), `
confirmation: {confirm_unknown: false}
allow: ["Bash(git push * --force*)", "Edit(/src/**)"]
netguard: {allow_private: [db.internal]}
`)
	explicit := write(t, filepath.Join(dir, "extra.yaml"), "mode: bypassPermissions\n")

	p, err := policy.Load(policy.Sources{Org: org, User: user, Project: project, Explicit: explicit})
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != policy.ModeBypassPermissions || !p.DisableBypass {
		t.Errorf("mode %s, disable_bypass %v: the explicit mode applies, the organization's disable_bypass stays", p.Mode, p.DisableBypass)
	}
	cr, ok := p.Confirm.(policy.ConfirmRisky)
	if !ok || cr.Threshold() != risk.Medium || cr.ConfirmUnknown() {
		t.Errorf("confirmation %#v: the user's threshold and the project's confirm_unknown both apply", p.Confirm)
	}
	if got := strings.Join(p.Netguard.AllowPrivate, ","); got != "localhost,db.internal" {
		t.Errorf("allow_private %s", got)
	}
	if len(p.Deny) != 1 || !p.Deny[0].Org || len(p.Allow) != 3 {
		t.Errorf("deny %v, allow %v", p.Deny, p.Allow)
	}
	if o := p.Origins["confirmation"]; !strings.HasPrefix(o, project+":2:") {
		t.Errorf("confirmation comes from %q", o)
	}
	if o := p.Origins["disable_bypass"]; !strings.HasPrefix(o, org+":2:") {
		t.Errorf("disable_bypass comes from %q", o)
	}

	// the organization's deny rule wins over the project's allow rule,
	// even in bypass mode (which disable_bypass refused anyway)
	c := normalize(`{"tool":"Bash","arguments":{"command":"git push origin main --force"}}`)
	if d := p.Decide(&risk.Assessment{Level: risk.Low, Reversible: true}, c); d.Verdict != risk.Deny || !strings.Contains(d.Reasons[0], org) {
		t.Errorf("force push: %+v", d)
	}
	// "/src/**" of the project layer is anchored at the project's root
	c = normalize(`{"tool":"Edit","arguments":{"file_path":"` + filepath.Join(dir, "repo/src/a.go") + `","old_string":"a","new_string":"b"}}`)
	c.Cwd = filepath.Join(dir, "repo/sub")
	if d := p.Decide(&risk.Assessment{Level: risk.High, Reversible: true}, c); d.Verdict != risk.Allow {
		t.Errorf("project-anchored edit: %+v", d)
	}

	var out bytes.Buffer
	if err := p.Show(&out); err != nil {
		t.Fatal(err)
	}
	shown := out.String()
	for _, want := range []string{"mode: bypassPermissions # " + explicit + ":1:7", "disable_bypass: true # " + org, "(the organization's",
		"- Bash(git push * --force*) # " + org, "threshold: medium", "# layer project: " + project, "allow_private: [localhost, db.internal]"} {
		if !strings.Contains(shown, want) {
			t.Errorf("policy show lacks %q:\n%s", want, shown)
		}
	}
	// what show prints loads back as the same policy
	back, err := policy.Parse("shown.yaml", out.Bytes())
	if err != nil {
		t.Fatalf("show's output does not load: %v\n%s", err, shown)
	}
	if back.Mode != p.Mode || back.DisableBypass != p.DisableBypass || len(back.Deny) != len(p.Deny) || len(back.Allow) != len(p.Allow) || back.Confirm != p.Confirm {
		t.Errorf("show's output loads as another policy: %+v", back)
	}
}

func TestLoadMissingLayers(t *testing.T) {
	dir := t.TempDir()
	// the user's and the project's files are looked for; the default
	// organization file may be missing (it is on this machine, or it loads)
	p, err := policy.Load(policy.Sources{User: filepath.Join(dir, "no.yaml"), Project: filepath.Join(dir, "nop/.warden/policy.yaml")})
	if err != nil || p.Mode != policy.ModeDefault || len(p.Layers) != 0 {
		t.Errorf("missing layer files: %+v %v", p, err)
	}
	if _, err := os.Stat(policy.DefaultOrgFile); errors.Is(err, os.ErrNotExist) {
		if _, err := policy.Load(policy.Sources{Org: policy.DefaultOrgFile}); err != nil {
			t.Errorf("a missing default organization file: %v", err)
		}
	}
	// a named file that cannot be read stops: the organization's
	// ($WARDEN_ORG_POLICY), the explicit one (--policy), a directory
	for _, src := range []policy.Sources{
		{Org: filepath.Join(dir, "none.yaml")},
		{Explicit: filepath.Join(dir, "none.yaml")},
		{Org: dir},
	} {
		_, err := policy.Load(src)
		name := src.Org + src.Explicit
		if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "cannot be read") {
			t.Errorf("%+v: %v, want an error naming the file", src, err)
		}
	}
	bad := write(t, filepath.Join(dir, "bad.yaml"), "allow:\n  - 'Bash(npm test'\n")
	if _, err := policy.Load(policy.Sources{Project: bad}); err == nil || !strings.HasPrefix(err.Error(), bad+":2:5: ") {
		t.Errorf("an invalid project file: %v", err)
	}
}

func TestFindSources(t *testing.T) {
	dir := t.TempDir()
	proj := write(t, filepath.Join(dir, "repo/.warden/policy.yaml"), "mode: plan\n")
	sub := filepath.Join(dir, "repo/a/b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("WARDEN_ORG_POLICY", filepath.Join(dir, "org.yaml"))
	s := policy.FindSources(sub, filepath.Join(dir, "home"))
	if s.Project != proj || s.User != filepath.Join(dir, "home/.config/warden/policy.yaml") || s.Org != filepath.Join(dir, "org.yaml") {
		t.Errorf("sources %+v", s)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	if s := policy.FindSources(dir, ""); s.User != filepath.Join(dir, "xdg/warden/policy.yaml") || s.Project != "" {
		t.Errorf("sources %+v", s)
	}
}

func TestApprovals(t *testing.T) {
	for js, want := range map[string]string{
		`{"tool":"Bash","arguments":{"command":"go test ./..."}}`:                               "Bash(go test ./...)",
		`{"tool":"Bash","arguments":{"command":"g''o  vet ./..."}}`:                             "Bash(go vet ./...)",
		`{"tool":"Bash","arguments":{"command":"go test ./... && rm -rf ~"}}`:                   "",
		`{"tool":"Bash","arguments":{"command":"ls *.go"}}`:                                     "",
		`{"tool":"Bash","arguments":{"command":"go test $PKG"}}`:                                "",
		`{"tool":"Bash","arguments":{"command":"sudo make install"}}`:                           "",
		`{"tool":"Bash","arguments":{"command":"make > log"}}`:                                  "",
		`{"tool":"Edit","arguments":{"file_path":"main.go","old_string":"a","new_string":"b"}}`: "Edit(//home/user/project/main.go)",
		`{"tool":"Read","arguments":{"file_path":"/etc/hosts"}}`:                                "Read(//etc/hosts)",
		`{"tool":"WebFetch","arguments":{"url":"https://Docs.Example.com/a","prompt":"p"}}`:     "WebFetch(domain:docs.example.com)",
		`{"tool":"mcp__github__get_issue","arguments":{"n":1}}`:                                 "mcp__github__get_issue",
		`{"tool":"WebSearch","arguments":{"query":"go"}}`:                                       "WebSearch",
	} {
		got, err := policy.SuggestRule(normalize(js))
		if got != want || (err != nil) != (want == "") {
			t.Errorf("%s: %q, %v; want %q", js, got, err, want)
			continue
		}
		if want == "" {
			continue
		}
		// the rule allows the call it was made from
		p, err := policy.Parse("p.yaml", []byte("allow: ["+strconvQuote(want)+"]\n"))
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if d := p.Decide(&risk.Assessment{Level: risk.High, Reversible: true}, normalize(js)); d.Verdict != risk.Allow {
			t.Errorf("%s does not allow %s: %+v", want, js, d)
		}
	}
}

func TestAppendAllow(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, ".warden/policy.yaml")
	if err := policy.AppendAllow(f, "Bash(go test ./...)"); err != nil {
		t.Fatal(err)
	}
	write(t, f, "# the team's policy\nmode: default   # keep\nallow:\n  - Bash(npm test:*)\n")
	for _, r := range []string{"Bash(go test ./...)", "Bash(go test ./...)", "WebFetch(domain:pkg.go.dev)"} {
		if err := policy.AppendAllow(f, r); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(f)
	s := string(data)
	if !strings.Contains(s, "# the team's policy") || !strings.Contains(s, "# keep") || strings.Count(s, "go test ./...") != 1 {
		t.Errorf("the file lost its content or repeats the rule:\n%s", s)
	}
	p, err := policy.LoadFile(f)
	if err != nil || len(p.Allow) != 3 {
		t.Fatalf("%v %+v\n%s", err, p, s)
	}
	if err := policy.AppendAllow(f, "Bash(npm test"); err == nil {
		t.Error("an invalid rule was written")
	}
	bad := write(t, filepath.Join(dir, "bad/.warden/policy.yaml"), "mode: yolo\n")
	if err := policy.AppendAllow(bad, "Bash(ls)"); err == nil {
		t.Error("an invalid file was changed")
	}
	if data, _ := os.ReadFile(bad); string(data) != "mode: yolo\n" {
		t.Errorf("the invalid file changed: %q", data)
	}
}

func strconvQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
