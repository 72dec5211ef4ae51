package rules

import (
	"context"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// unprovedGates are the built-in rules whose keywords covers cannot show
// to be held by every match of the pattern (its analysis is
// conservative), each with why the gate is still sound, as read by a
// person. A keyword list that misses an alternative of its pattern makes
// that alternative fire only when a keyword happens to be elsewhere in
// the text (killall mdatp was safe while mdatp was not a keyword): a new
// rule whose gate cannot be proven must be reviewed and listed here.
var unprovedGates = map[string]string{
	"cmd.credential_file_access":  "every alternative writes /.NAME after the home prefix; the keywords are those names with their dot",
	"exfil.credential_file":       "both alternatives hold a credential path of the list above; its keywords are those paths' names",
	"exfil.environment":           "env|printenv|set|export -p piped on, or os.environ: keywords 'env', 'set |', 'export -p', 'os.environ' (printenv holds env)",
	"net.sweep":                   "a for loop: 'for ' (the resolved lines the shell preparer adds normalise the blank)",
	"net.upload_file":             "curl uploads hold @, -T or --upload-file, wget --post-file",
	"sec.firewall_or_mac_disable": "each alternative starts with a listed program name (ufw, iptables, nft, systemctl … firewalld|ufw|apparmor|nftables|iptables, setenforce, aa-teardown, aa-disable, spctl, csrutil, pfctl, netsh)",
	"persist.git_config_hooks":    "git config (the resolved line the shell preparer adds normalises the blanks)",
	"db.tautology":                "a tautology needs 'where ' or 'or '",
	"pkg.install_from_url":        "pip|npm|yarn|pnpm|gem install|add, or go install|get … insecure",
	"db.orm_bulk_delete":          "each alternative holds one of the keywords: the method or chain it names (objects.all, session.query, drop_all, deleteMany, sync({force: true}) …)",
}

// TestKeywordGatesSound checks every built-in rule's keyword gate: covers
// proves it, or a person did (unprovedGates). An entry whose gate is now
// proven is stale.
func TestKeywordGatesSound(t *testing.T) {
	rs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		if r.Pattern == "" || len(r.Keywords) == 0 {
			continue
		}
		names = append(names, r.Name)
		re, err := syntax.Parse("(?i)"+r.Pattern, syntax.Perl)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		kws := make([]string, len(r.Keywords))
		for i, k := range r.Keywords {
			kws[i] = strings.ToLower(k)
		}
		proven := required(re.Simplify(), kws) != nil
		why, listed := unprovedGates[r.Name]
		switch {
		case !proven && !listed:
			t.Errorf("%s: no analysis shows that every match of its pattern holds one of its keywords %q: add the keywords its alternatives need, or review it and list it in unprovedGates", r.Name, r.Keywords)
		case proven && listed:
			t.Errorf("%s: its gate is proven now; drop it from unprovedGates (%s)", r.Name, why)
		}
	}
	for name := range unprovedGates {
		if !slices.Contains(names, name) {
			t.Errorf("unprovedGates lists %s, which is no keyword-gated built-in rule", name)
		}
	}
}

// TestCommandRulesState holds each command rule, as Analyze runs it (the
// scripts' commands read once per call, the texts gated by the keyword
// scan's hits), to its Funcs entry (each keyword looked for in each text),
// and each func with a gate (funcGates), run only on scripts the scan
// finds a string of the gate in, to the func alone, with the work each
// charges, on every action the differential test assesses and on texts
// written to slip past the scan: keywords in upper case, at a text's
// edges, split by a SQL comment (which the SQL texts lose before either
// looks), in scripts that do not parse.
func TestCommandRulesState(t *testing.T) {
	a := newAssessor(t)
	acts := corpusActions(t)
	for _, s := range []string{
		"SUDO su -", "x = 'PIP INSTALL requests'", "sudo", "su", "run0", "git COMMIT -m x", "pnpm i x", "yarn",
		"sudo su -; ((", "if then sudo -i", "sudo -i )", "npm i left-pad (", "su\n", " su ", "SU -",
		"select 1 -- sudo su -\n", "select 'sudo -i' /* doas sh */", "update t set a = 'pip install x'",
		"os.system('sudo make install')", "subprocess.run(['doas', 'sh'])", "git push --force origin main",
		"npm i lodsh", "yarn add lodsh", "pip3 install numpyy", "PIP INSTALL reqeusts", "npm\ti lodsh", "pnpm i reakt;",
	} {
		acts = append(acts,
			risk.Action{Tool: "Bash", Arguments: map[string]any{"command": s}},
			risk.Action{Tool: "python", Arguments: map[string]any{"code": s}},
			risk.Action{Tool: "query", Arguments: map[string]any{"sql": s}},
			risk.Action{Tool: "custom_tool", Arguments: map[string]any{"input": s}})
	}
	checked := 0
	for i, r := range a.rules {
		if r.cmd == nil && !r.fgate {
			continue
		}
		checked++
		fired := 0
		for k := range acts {
			for _, work := range []int64{0, 300, 3000} {
				c1, c2 := prepare(t, &acts[k], work), prepare(t, &acts[k], work)
				st := a.idx.newScanState()
				got, _, err := r.run(c1, st, i)
				want := r.Func(c2)
				if err != nil || got != want || c1.Work.Used() != c2.Work.Used() {
					t.Fatalf("%s on %v (work %d): %v %v, charged %d; Func %v, charged %d", r.Name, acts[k], work, got, err, c1.Work.Used(), want, c2.Work.Used())
				}
				if got {
					fired++
				}
			}
		}
		if fired == 0 {
			t.Errorf("%s fired on no action", r.Name)
		}
	}
	if checked != len(commandRules)+len(funcGates) {
		t.Errorf("%d rules of the pack are command rules or funcs with a gate, want %d", checked, len(commandRules)+len(funcGates))
	}
}

// A func rule with keywords runs its func only when a text it reads holds
// one: never on other calls, always on those.
func TestFuncGate(t *testing.T) {
	calls := 0
	r := Rule{Name: "t.gated", Level: risk.High, Reason: "r", Keywords: []string{"zebra"}, On: []Target{OnCommand},
		Func: func(*tool.Call) bool { calls++; return true }}
	a, err := New(WithRules([]Rule{r}))
	if err != nil {
		t.Fatal(err)
	}
	call := func(cmd string) *tool.Call {
		return tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": cmd}}, SampleCwd, SampleHome)
	}
	if fs, _ := a.Analyze(context.Background(), call("ls -la")); len(fs) != 0 || calls != 0 {
		t.Errorf("without its keyword: %d findings, func ran %d times", len(fs), calls)
	}
	if fs, _ := a.Analyze(context.Background(), call("echo ZEBRA")); len(fs) != 1 || calls != 1 {
		t.Errorf("with its keyword: %d findings, func ran %d times", len(fs), calls)
	}
}

// res.growth_loop's keywords are held by every loop head growthLoop reads.
func TestGrowthLoopGate(t *testing.T) {
	rs, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rs, func(r Rule) bool { return r.Name == "res.growth_loop" })
	if i < 0 {
		t.Fatal("no res.growth_loop")
	}
	for _, h := range slices.Concat(endlessHeads, pyHeads, jsHeads) {
		if !slices.ContainsFunc(rs[i].Keywords, func(k string) bool { return strings.Contains(strings.ToLower(h), k) }) {
			t.Errorf("loop head %q holds none of res.growth_loop's keywords %q: the gate drops it", h, rs[i].Keywords)
		}
	}
}
