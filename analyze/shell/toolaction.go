package shell

import (
	"maps"
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// ToolAction reads what a tool warden has no catalog entry for does
// beyond its verb (ToolVerb), so that an MCP server's tool is judged as
// the command line or the request that does the same is:
//   - it switches off a control that watches or protects (its name or its
//     server names a defense — monitor, alert, audit, pagerduty,
//     guardduty … — and its verb disrupts, silences or stops it:
//     mute_monitor, pagerduty disable_service; or its arguments turn the
//     control off: enabled: false, status: "disabled" to such a tool):
//     high, as cli.impair_defense and http.impair_defenses are;
//   - it moves money through a payment provider (create_refund,
//     create_payout, capture_payment on stripe, square, paypal …): high,
//     as cloud.money_movement is;
//   - it grants credentials or access to someone (iam_create_access_key,
//     add_ssh_key, create_deploy_key): high, as cloud.iam_grant is;
//   - it purges everything it holds (purge_everything: true, purge_all:
//     true on a purge): high, as a CDN purge of everything is.
//
// It returns the level, the rule and the reason (0, "", "" when none of
// these holds).
func ToolAction(name string, args map[string]any) (risk.Level, string, string) {
	toks := nameTokens(name)
	verb := "" // the first verb of the name
	for _, t := range toks {
		if k, ok := verbWords[t]; ok && k != wordNoun && k != wordNounVerb {
			verb = t
			break
		}
		if disarmVerbs[t] {
			verb = t
			break
		}
	}
	defense := ""
	for _, t := range toks {
		if defenseWords.has(t) {
			defense = t
			break
		}
	}
	if defense != "" {
		if verb != "" && quietVerbs[verb] && !slices.Contains(toks, "all") && !allArgument(args) {
			// one monitor muted, one alert silenced: on-call practice, and
			// time-boxed (medium, as one silence through the API or amtool)
			return risk.Medium, RuleImpairDefense, "Tool " + name + " " + verb + "s a " + defense + ": what it would report goes unseen until the silence ends"
		}
		if verb != "" && (verbWords[verb] == wordDisrupt || disarmVerbs[verb]) {
			return risk.High, RuleImpairDefense, "Tool " + name + " " + verb + "s a " + defense + " control: what it would catch goes unseen until someone turns it back on"
		}
		if arg := offArgument(args); arg != "" {
			return risk.High, RuleImpairDefense, "Tool " + name + " is given " + arg + ", which turns a " + defense + " control off: what it would catch goes unseen"
		}
	}
	if money := moneyTool(toks); money != "" {
		return risk.High, ruleMoneyMovement, "Tool " + name + " " + money + " through a payment provider, which cannot be taken back"
	}
	if grant := grantTool(toks); grant != "" {
		return risk.High, ruleIAMGrant, "Tool " + name + " " + grant + ": whoever holds it gets in without the agent's owner"
	}
	if slices.Contains(toks, "purge") {
		for _, k := range slices.Sorted(maps.Keys(args)) {
			if b, ok := args[k].(bool); ok && b {
				switch normKey(k) {
				case "purgeeverything", "purgeall", "everything", "all":
					return risk.High, ruleCDNPurge, "Tool " + name + " is given " + k + ": true, which purges everything it caches: every request goes to the origin at once"
				}
			}
		}
	}
	// what its arguments mean, whatever it is called: access granted,
	// a thing made public, a protection off, every document changed
	return argMeaning(name, toks, args)
}

// The rules of ToolAction's findings: those of the same effects on the
// command line.
const (
	RuleImpairDefense = "cli.impair_defense"
	ruleMoneyMovement = webapi.RuleMoney
	ruleIAMGrant      = "cloud.iam_grant"
	ruleCDNPurge      = "cloud.cdn_purge"
)

// allArgument reports an argument that widens a tool's act to everything
// (all: true, scope: "*").
func allArgument(args map[string]any) bool {
	for k, v := range args {
		switch key := normKey(k); x := v.(type) {
		case bool:
			if x && (key == "all" || key == "everything" || key == "global") {
				return true
			}
		case string:
			if x == "*" || strings.EqualFold(x, "all") {
				return true
			}
		}
	}
	return false
}

// offArgument returns the argument, as "key: value", that switches what
// a tool acts on off as a request body's field does (webapi.TurnsOff:
// enabled false, paused true, status "disabled"); "" when none does.
func offArgument(args map[string]any) string {
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v := ""
		switch x := args[k].(type) {
		case bool:
			v = "false"
			if x {
				v = "true"
			}
		case string:
			v = strings.ToLower(x)
		default:
			continue
		}
		if webapi.TurnsOff(normKey(k), v) {
			return k + ": " + v
		}
	}
	return ""
}

// paymentServers name payment providers as MCP servers and tools do.
var paymentServers = map[string]bool{"stripe": true, "square": true, "paypal": true, "braintree": true, "adyen": true,
	"razorpay": true, "mollie": true, "gocardless": true, "wise": true, "paystack": true, "checkout": true, "payment": true,
	"payments": true, "billing": true, "revolut": true, "dwolla": true}

// moneyNouns name an act that moves money.
var moneyNouns = map[string]string{"refund": "refunds a payment", "refunds": "refunds a payment", "payout": "pays money out",
	"payouts": "pays money out", "transfer": "transfers money", "transfers": "transfers money", "charge": "charges a customer",
	"capture": "captures a payment", "topup": "tops up a balance"}

// moneyTool returns what a tool whose name has tokens toks does with
// money, or "": a payment provider's tool that creates a refund, payout,
// transfer or charge (not one that lists or reads them).
func moneyTool(toks []string) string {
	server, what, reads := false, "", false
	for _, t := range toks {
		server = server || paymentServers[t]
		if w, ok := moneyNouns[t]; ok && what == "" {
			what = w
		}
		if k, ok := verbWords[t]; ok && k == wordBenign && t != "create" && t != "add" && t != "new" {
			reads = true // list_refunds, get_payout, update_transfer
		}
	}
	if !server || what == "" || reads {
		return ""
	}
	return what
}

// grantNouns name credentials or access a tool may hand out.
var grantNouns = map[string]string{"accesskey": "creates an access key", "sshkey": "adds an SSH key", "deploykey": "adds a deploy key",
	"gpgkey": "adds a GPG key", "loginprofile": "creates a console password", "apikey": "creates an API key",
	"servicaccountkey": "creates a service account key", "serviceaccountkey": "creates a service account key"}

// grantTool returns what a tool whose name has tokens toks grants, or
// "": it creates or adds (create, add, upload, put) credentials named by
// two adjacent tokens (access key, ssh key, deploy key …).
func grantTool(toks []string) string {
	creates := false
	for _, t := range toks {
		switch t {
		case "create", "add", "upload", "put", "new", "generate", "import":
			creates = true
		}
	}
	if !creates {
		return ""
	}
	for i := 0; i+1 < len(toks); i++ {
		if w, ok := grantNouns[toks[i]+toks[i+1]]; ok {
			return w
		}
		if i+2 < len(toks) {
			if w, ok := grantNouns[toks[i]+toks[i+1]+toks[i+2]]; ok {
				return w
			}
		}
	}
	return ""
}
