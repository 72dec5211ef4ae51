package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestToolAction: an unknown tool that switches a control off, moves
// money, grants access or purges everything is high under the rule the
// command line gives the same effect; its look-alikes are not.
func TestToolAction(t *testing.T) {
	for _, c := range []struct {
		name string
		args map[string]any
		rule string // "" when none may fire
	}{
		{"datadog.mute_all_monitors", nil, RuleImpairDefense},
		{"datadog.mute_monitor", map[string]any{"scope": "*"}, RuleImpairDefense},
		{"pagerduty.disable_service", map[string]any{"service_id": "P1"}, RuleImpairDefense},
		{"sentry.snooze_alert_rule", nil, "medium"},
		{"aws.guardduty_stop_monitoring_members", nil, RuleImpairDefense},
		{"grafana.update_alert_rule", map[string]any{"uid": "x", "isPaused": true, "paused": true}, RuleImpairDefense},
		{"opsgenie.update_integration", map[string]any{"enabled": false}, RuleImpairDefense},
		{"security.set_scanner_state", map[string]any{"state": "disabled"}, RuleImpairDefense},
		{"stripe.create_refund", map[string]any{"payment_intent": "pi_1"}, ruleMoneyMovement},
		{"paypal.create_payout", nil, ruleMoneyMovement},
		{"square.capture_payment", nil, ruleMoneyMovement},
		{"aws.iam_create_access_key", map[string]any{"user_name": "bob"}, ruleIAMGrant},
		{"github.add_ssh_key", nil, ruleIAMGrant},
		{"gitlab.create_deploy_key", nil, ruleIAMGrant},
		{"gcp.create_service_account_key", nil, ruleIAMGrant},
		{"cloudflare.purge_cache", map[string]any{"purge_everything": true}, ruleCDNPurge},
		{"fastly.purge", map[string]any{"all": true}, ruleCDNPurge},

		{"datadog.mute_monitor", map[string]any{"monitor_id": 1}, "medium"}, // one monitor, as one silence
		{"mcp__datadog__mute_monitor", nil, "medium"},
		{"datadog.get_monitor", nil, ""},
		{"datadog.create_monitor", map[string]any{"enabled": true}, ""},
		{"unleash.disable_feature", map[string]any{"name": "x"}, ""},
		{"jira.update_issue", map[string]any{"status": "disabled"}, ""},
		{"stripe.list_refunds", nil, ""},
		{"stripe.get_payout", nil, ""},
		{"bank.create_transfer", nil, ""}, // no payment provider named
		{"github.list_ssh_keys", nil, ""},
		{"aws.iam_list_access_keys", nil, ""},
		{"cloudflare.purge_cache", map[string]any{"files": []any{"https://x.example/a.css"}}, ""},
		{"notes.create_note", map[string]any{"title": "refund policy"}, ""},
	} {
		l, rule, why := ToolAction(c.name, c.args)
		if c.rule == "medium" {
			if l != risk.Medium || rule != RuleImpairDefense {
				t.Errorf("%s %v: %s %s (%s), want medium %s", c.name, c.args, l, rule, why, RuleImpairDefense)
			}
			continue
		}
		switch {
		case c.rule == "" && l > risk.Safe:
			t.Errorf("%s %v: %s %s (%s), want none", c.name, c.args, l, rule, why)
		case c.rule != "" && (l != risk.High || rule != c.rule || why == ""):
			t.Errorf("%s %v: %s %s (%s), want high %s", c.name, c.args, l, rule, why, c.rule)
		}
	}
}
