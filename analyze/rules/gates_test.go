package rules

import (
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
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
		proven := covers(re.Simplify(), kws)
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
