package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// confirmRisky builds the ConfirmRisky a test expects.
func confirmRisky(t *testing.T, th risk.Level, cu bool) policy.ConfirmRisky {
	t.Helper()
	p, err := policy.NewConfirmRisky(th, cu)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		mode      policy.Mode
		disable   bool
		confirm   policy.ConfirmationPolicy
	}{
		{"empty", "", policy.ModeDefault, false, policy.DefaultConfirmRisky()},
		{"comments only", "# nothing here\n\n", policy.ModeDefault, false, policy.DefaultConfirmRisky()},
		{
			name: "every key",
			src: `# warden policy
mode: plan
disable_bypass: true
confirmation:
  policy: confirm_risky
  threshold: medium
  confirm_unknown: false
`,
			mode: policy.ModePlan, disable: true, confirm: confirmRisky(t, risk.Medium, false),
		},
		{"threshold in any case", "confirmation:\n  threshold: LOW\n", policy.ModeDefault, false, confirmRisky(t, risk.Low, true)},
		{"confirm_unknown alone", "confirmation:\n  confirm_unknown: false\n", policy.ModeDefault, false, confirmRisky(t, risk.High, false)},
		{"always_confirm", "confirmation:\n  policy: always_confirm\n", policy.ModeDefault, false, policy.AlwaysConfirm{}},
		{"never_confirm", "confirmation: {policy: never_confirm}\n", policy.ModeDefault, false, policy.NeverConfirm{}},
		{"mode spelled with a dash", "mode: accept-edits\n", policy.ModeAcceptEdits, false, policy.DefaultConfirmRisky()},
		{"bypass", "mode: bypassPermissions\n", policy.ModeBypassPermissions, false, policy.DefaultConfirmRisky()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := policy.Parse("policy.yaml", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if p.Mode != tt.mode || p.DisableBypass != tt.disable {
				t.Errorf("mode %q, disable_bypass %v; want %q, %v", p.Mode, p.DisableBypass, tt.mode, tt.disable)
			}
			if p.Confirm != tt.confirm {
				t.Errorf("Confirm = %#v, want %#v", p.Confirm, tt.confirm)
			}
		})
	}
}

// position matches the "file:line:col: " prefix of a policy error.
var position = regexp.MustCompile(`^policy\.yaml:(\d+):(\d+): `)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		at        string // "line:col" the error must start with; "" = only the file name
		says      string
		is        error
	}{
		{"unknown key", "mode: plan\nmoed: plan\n", "2:1", `"moed"`, nil},
		{"unknown nested key", "confirmation:\n  policy: confirm_risky\n  treshold: high\n", "3:3", `"treshold"`, nil},
		{"bad mode", "mode: yolo\n", "1:7", `unknown mode "yolo"`, nil},
		{"bad mode later in the file", "# c\ndisable_bypass: false\nmode:   Yolo\n", "3:9", `unknown mode "Yolo"`, nil},
		{"threshold unknown", "confirmation:\n  threshold: unknown\n", "2:", "cannot be unknown", policy.ErrUnknownThreshold},
		{"threshold UNKNOWN", "confirmation:\n  policy: confirm_risky\n  threshold: UNKNOWN\n", "2:", "cannot be unknown", policy.ErrUnknownThreshold},
		{"bad threshold", "confirmation:\n  threshold: severe\n", "2:", `"severe"`, nil},
		{"bad policy name", "confirmation:\n  policy: sometimes\n", "2:", `"sometimes"`, nil},
		{"not a mapping", "- mode: plan\n", "1:1", "mapping", nil},
		{"syntax error", "mode: [plan\n", "", "policy.yaml", nil},
		{"wrong type", "disable_bypass: maybe\n", "", "maybe", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := policy.Parse("policy.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", p)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "policy.yaml:") {
				t.Errorf("error %q does not start with the file name", msg)
			}
			if tt.at != "" && !strings.HasPrefix(msg, "policy.yaml:"+tt.at) {
				t.Errorf("error %q, want it to start with policy.yaml:%s", msg, tt.at)
			}
			if tt.at != "" && !position.MatchString(msg) {
				t.Errorf("error %q has no file:line:col: prefix", msg)
			}
			if !strings.Contains(msg, tt.says) {
				t.Errorf("error %q does not say %s", msg, tt.says)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", msg, tt.is)
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	if err := os.WriteFile(good, []byte("mode: dontAsk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := policy.LoadFile(good)
	if err != nil || p.Mode != policy.ModeDontAsk {
		t.Errorf("LoadFile(good) = %+v, %v", p, err)
	}

	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("\nmode: sometimes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = policy.LoadFile(bad)
	if err == nil || !strings.HasPrefix(err.Error(), bad+":2:7: ") {
		t.Errorf("LoadFile(bad) error = %v, want it to start with %s:2:7: ", err, bad)
	}

	if _, err := policy.LoadFile(filepath.Join(dir, "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadFile(missing) error = %v, want ErrNotExist", err)
	}
}

// FuzzParse checks that Parse never panics and returns either an error
// that names the file or a usable policy.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "mode: plan\n", "mode: yolo\n", "moed: plan\n", "- a\n", "mode: [\n",
		"mode: dontAsk\ndisable_bypass: true\nconfirmation:\n  policy: confirm_risky\n  threshold: medium\n  confirm_unknown: false\n",
		"confirmation:\n  threshold: unknown\n", "confirmation: 5\n", "confirmation:\n  treshold: high\n",
		"mode: &a plan\nx: *a\n", "? [a]\n: b\n", "mode: !!binary aGk=\n",
		"deny: ['Bash(git push * --force*)', 'Read(~/.ssh/**)']\nallow: [{rule: Bash, if: 'session.env != \"prod\"'}]\n",
		"ask: [{if: 'action.hosts.exists(h, h.endsWith(\".x\"))', reason: r}]\nnetguard: {allow_private: [localhost]}\n",
		"allow: [{rule: 'Bash(npm test'}]\n", "deny: [{if: 'action.class == 1'}]\n", "mcp: {trust_annotations: [github]}\njudge: {provider: x}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := policy.Parse("p.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "p.yaml:") {
				t.Fatalf("error %q does not start with the file name", err)
			}
			return
		}
		if p == nil || p.Confirm == nil {
			t.Fatalf("Parse = %+v, nil", p)
		}
		if _, err := policy.ParseMode(string(p.Mode)); err != nil {
			t.Fatalf("accepted mode %q: %v", p.Mode, err)
		}
		if c, ok := p.Confirm.(policy.ConfirmRisky); ok && c.Threshold() == risk.Unknown {
			t.Fatal("accepted an unknown threshold")
		}
	})
}
