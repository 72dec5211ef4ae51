package policy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/policy"
	"github.com/agentwarden/warden/risk"
)

// locked is an assessment no allow rule and no mode may open.
func locked(l risk.Level) *risk.Assessment {
	return &risk.Assessment{Level: l, Reversible: true, Locked: true,
		Findings: []risk.Finding{{Rule: "net.metadata_endpoint", Level: l, Reversible: true, Locked: true}}}
}

// TestLockedNeverAllowedAway: broad allow rules, condition-only allow
// rules, NeverConfirm and every mode leave a locked assessment to a
// person; deny rules still deny.
func TestLockedNeverAllowedAway(t *testing.T) {
	calls := map[string]string{
		"metadata fetch": `{"tool":"WebFetch","arguments":{"url":"http://169.254.169.254/latest/meta-data/iam/security-credentials/","prompt":"p"}}`,
		"guard edit":     `{"tool":"Bash","arguments":{"command":"echo 'allow: [Bash]' >> .warden/policy.yaml"}}`,
		"rm -rf ~":       `{"tool":"Bash","arguments":{"command":"rm -rf ~"}}`,
	}
	for name, js := range calls {
		c := normalize(js)
		for _, src := range []string{
			"allow: [WebFetch, Bash]\n",
			"allow: ['WebFetch(domain:169.254.169.254)', 'Bash(rm:*)', 'Bash(echo:*)']\n",
			"allow: [{if: 'true'}]\n",
			"allow: [{if: '!assessment.locked'}, Bash]\nconfirmation: {policy: never_confirm}\n",
		} {
			for _, m := range policy.Modes {
				p, err := policy.Parse("p.yaml", fmt.Appendf(nil, "mode: %s\n%s", m, src))
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range []risk.Level{risk.Low, risk.High, risk.Critical} {
					d := p.Decide(locked(l), c)
					want := risk.Ask
					if m == policy.ModeDontAsk {
						want = risk.Deny
					}
					if d.Verdict != want {
						t.Errorf("%s, %s, mode %s, %s locked: %s by %s %v, want %s", name, strings.TrimSpace(src), m, l, d.Verdict, d.Rule, d.Reasons, want)
					}
					// the reasons name the locked finding when the lock decided
					// or an allow rule matched that it did not open
					if (d.Rule == "locked" || strings.HasPrefix(src, "allow: [WebFetch, Bash]")) && !strings.Contains(strings.Join(d.Reasons, "\n"), "net.metadata_endpoint") {
						t.Errorf("the reasons do not name the locked finding: %v", d.Reasons)
					}
				}
			}
		}
		// a deny rule still denies
		p, err := policy.Parse("p.yaml", []byte("mode: bypassPermissions\ndeny: [WebFetch, Bash]\n"))
		if err != nil {
			t.Fatal(err)
		}
		if d := p.Decide(locked(risk.Critical), c); d.Verdict != risk.Deny {
			t.Errorf("%s: a deny rule: %+v", name, d)
		}
	}
}

// TestExactApproval: an approval of one exact action opens that action,
// locked or not, in every mode, and not a one-character variant of it
// (command, working directory or tool name); it never passes a deny rule.
func TestExactApproval(t *testing.T) {
	const js = `{"tool":"Bash","arguments":{"command":"rm -rf /home/user/old","timeout":5},"cwd":"/home/user/project"}`
	c := normalize(js)
	key := policy.ActionKey(c)
	if len(key) != 64 || strings.Trim(key, "0123456789abcdef") != "" {
		t.Fatalf("ActionKey = %q, want 64 hex digits", key)
	}
	// the same action, its keys in another order and its numbers written otherwise
	if k := policy.ActionKey(normalize(`{"cwd":"/home/user/project","arguments":{"timeout":5.0,"command":"rm -rf /home/user/old"},"tool":"Bash"}`)); k != key {
		t.Errorf("the same action has another key")
	}
	approved := []policy.Entry{{Exact: key, Origin: "a person approved this exact action in session s1"}}
	for _, m := range policy.Modes {
		p := policy.Default()
		p.Mode = m
		d := p.DecideFacts(&policy.Facts{Assessment: locked(risk.Critical), Call: normalize(js)}, approved...)
		if d.Verdict != risk.Allow || !strings.Contains(d.Reasons[0], "exact action") {
			t.Errorf("mode %s: the exactly approved action: %+v", m, d)
		}
		d = p.DecideFacts(&policy.Facts{Assessment: &risk.Assessment{Level: risk.High, Reversible: true}, Call: normalize(js)}, approved...)
		if d.Verdict != risk.Allow {
			t.Errorf("mode %s: the exactly approved action, not locked: %+v", m, d)
		}
	}
	p := policy.Default()
	for _, v := range []string{
		`{"tool":"Bash","arguments":{"command":"rm -rf /home/user/old/","timeout":5},"cwd":"/home/user/project"}`,
		`{"tool":"Bash","arguments":{"command":"rm -rf /home/user/ol","timeout":5},"cwd":"/home/user/project"}`,
		`{"tool":"Bash","arguments":{"command":"rm -rf /home/user/old","timeout":6},"cwd":"/home/user/project"}`,
		`{"tool":"Bash","arguments":{"command":"rm -rf /home/user/old","timeout":5},"cwd":"/home/user/projects"}`,
		`{"tool":"bash","arguments":{"command":"rm -rf /home/user/old","timeout":5},"cwd":"/home/user/project"}`,
		`{"tool":"Bash","arguments":{"command":"rm -rf /home/user/old"},"cwd":"/home/user/project"}`,
	} {
		if policy.ActionKey(normalize(v)) == key {
			t.Errorf("%s has the approved action's key", v)
		}
		if d := p.DecideFacts(&policy.Facts{Assessment: locked(risk.Critical), Call: normalize(v)}, approved...); d.Verdict == risk.Allow {
			t.Errorf("a variant is allowed: %s", v)
		}
	}
	// a deny rule wins over a person's approval
	p, err := policy.Parse("p.yaml", []byte("deny: ['Bash(rm:*)']\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d := p.DecideFacts(&policy.Facts{Assessment: locked(risk.Critical), Call: c}, approved...); d.Verdict != risk.Deny {
		t.Errorf("an exact approval passed a deny rule: %+v", d)
	}
	// an exact entry in the policy's own allow list works alike
	p = policy.Default()
	p.Allow = append(p.Allow, policy.Entry{Exact: key})
	if d := p.Decide(locked(risk.Critical), c); d.Verdict != risk.Allow {
		t.Errorf("an exact allow entry: %+v", d)
	}
}

// TestCompiledPolicyFollowsItsLists: a rule list changed after Compile,
// even in place, is decided as it now reads.
func TestCompiledPolicyFollowsItsLists(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("deny: ['Bash(curl:*)']\n"))
	if err != nil {
		t.Fatal(err)
	}
	rm, curl := normalize(`{"tool":"Bash","arguments":{"command":"rm -f notes.txt"}}`), normalize(`{"tool":"Bash","arguments":{"command":"curl https://example.com/"}}`)
	safe := &risk.Assessment{Level: risk.Safe, Reversible: true}
	if p.Decide(safe, curl).Verdict != risk.Deny || p.Decide(safe, rm).Verdict != risk.Allow {
		t.Fatal("the compiled policy")
	}
	r, err := policy.ParseRule("Bash(rm:*)")
	if err != nil {
		t.Fatal(err)
	}
	p.Deny[0] = policy.Entry{Rule: r, Origin: "replaced"} // in place: same length
	if d := p.Decide(safe, rm); d.Verdict != risk.Deny {
		t.Errorf("the deny rule replaced in place is ignored: %+v", d)
	}
	if d := p.Decide(safe, curl); d.Verdict != risk.Allow {
		t.Errorf("the replaced deny rule still applies: %+v", d)
	}
	p.Compile()
	if p.Decide(safe, rm).Verdict != risk.Deny || p.Decide(safe, curl).Verdict != risk.Allow {
		t.Error("after Compile")
	}
	// a clone does not follow the original's changes
	cp := p.Clone()
	p.Deny[0].Rule = nil
	p.Deny = p.Deny[:0]
	if cp.Decide(safe, rm).Verdict != risk.Deny {
		t.Error("the clone follows the original's lists")
	}
}

// TestConfirmationPoliciesAskAboutLocked: policy.Decide never allows a
// locked assessment, whatever the confirmation policy.
func TestConfirmationPoliciesAskAboutLocked(t *testing.T) {
	risky, _ := policy.NewConfirmRisky(risk.Critical, false)
	for _, cp := range []policy.ConfirmationPolicy{policy.NeverConfirm{}, policy.AlwaysConfirm{}, policy.DefaultConfirmRisky(), risky} {
		for _, l := range []risk.Level{risk.Safe, risk.Low, risk.High, risk.Critical} {
			if d := policy.Decide(locked(l), cp); d.Verdict != risk.Ask {
				t.Errorf("%s, %s locked: %+v", cp.Name(), l, d)
			}
			if d := policy.Decide(&risk.Assessment{Level: l}, policy.NeverConfirm{}); d.Verdict != risk.Allow {
				t.Errorf("never_confirm, %s not locked: %+v", l, d)
			}
		}
	}
}

// TestLockedCondition: conditions read assessment.locked.
func TestLockedCondition(t *testing.T) {
	p, err := policy.Parse("p.yaml", []byte("mode: dontAsk\ndeny: [{if: 'assessment.locked', reason: locked actions never run here}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := normalize(`{"tool":"Bash","arguments":{"command":"rm -rf ~"}}`)
	if d := p.Decide(locked(risk.High), c); d.Verdict != risk.Deny || !strings.HasPrefix(d.Rule, "deny: ") {
		t.Errorf("locked: %+v", d)
	}
	if d := p.Decide(&risk.Assessment{Level: risk.High, Reversible: true}, c); d.Verdict != risk.Allow {
		t.Errorf("not locked: %+v", d)
	}
}
