package shell

import (
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestToolMeaning: an unknown tool's arguments that grant an owner's
// access, make a thing public, switch a protection off (or store a
// control's key off) or take every document are judged by what they
// mean, whatever the tool is called; their look-alikes are not.
func TestToolMeaning(t *testing.T) {
	for _, c := range []struct {
		name, args string
		level      risk.Level // 0 when none may fire
		rule       string
	}{
		// access granted
		{"github.add_collaborator", `{"owner":"acme","repo":"r","username":"bot","permission":"admin"}`, risk.High, ruleIAMGrant},
		{"gitlab.add_project_member", `{"project_id":"p","user_id":7,"access_level":50}`, risk.High, ruleIAMGrant},
		{"mongodb.run-command", `{"database":"admin","command":{"createUser":"s","pwd":"x","roles":[{"role":"root","db":"admin"}]}}`, risk.High, ruleIAMGrant},
		{"slack.invite_user", `{"email":"a@b.c","role":"owner"}`, risk.High, ruleIAMGrant},
		{"github.update_team_repo", `{"permission":"maintain"}`, risk.High, ruleIAMGrant},
		{"meilisearch.create_key", `{"description":"tmp","actions":["*"],"indexes":["*"],"expiresAt":null}`, risk.High, ruleIAMGrant},
		{"auth.create_token", `{"name":"ci","scopes":["*"]}`, risk.High, ruleIAMGrant},
		{"postgres.grant", `{"role":"app","privileges":["ALL"]}`, risk.High, ruleIAMGrant},
		{"meilisearch.create_key", `{"description":"ro","actions":["search"],"indexes":["*"]}`, 0, ""},
		{"auth.create_token", `{"name":"ci","scopes":["repo:read"]}`, 0, ""},
		{"github.add_collaborator", `{"username":"bot","permission":"read"}`, 0, ""},
		{"github.add_collaborator", `{"username":"bot","permission":"triage"}`, 0, ""},
		{"github.list_collaborators", `{"permission":"admin"}`, 0, ""},
		{"mongodb.run-command", `{"command":{"createUser":"s","roles":[{"role":"read","db":"app"}]}}`, 0, ""},
		// exposure
		{"gitlab.update_project", `{"project_id":"platform/infra","visibility":"public"}`, risk.High, rulePublicAccess},
		{"github.update_repository", `{"private":false}`, risk.High, rulePublicAccess},
		{"drive.create_permission", `{"type":"anyone","public":true}`, risk.High, rulePublicAccess},
		{"gitlab.update_project", `{"visibility":"private"}`, 0, ""},
		{"gitlab.update_project", `{"visibility":"internal"}`, 0, ""},
		{"github.create_repository", `{"name":"x","private":true}`, 0, ""},
		{"github.search_repositories", `{"visibility":"public"}`, 0, ""},
		// protections off
		{"github.update_branch_protection", `{"branch":"main","required_status_checks":null,"enforce_admins":false,"required_pull_request_reviews":null,"restrictions":null,"allow_force_pushes":true}`, risk.High, RuleImpairDefense},
		{"github.update_branch_protection", `{"branch":"main","allow_force_pushes":true}`, risk.High, RuleImpairDefense},
		{"github.update_branch_protection", `{"branch":"main","required_pull_request_reviews":null}`, risk.High, RuleImpairDefense},
		{"okta.update_policy", `{"mfa_required":"off"}`, risk.High, RuleImpairDefense},
		{"app.update_settings", `{"settings":{"csrf_protection":false}}`, risk.High, RuleImpairDefense},
		{"vault.configure_audit", `{"audit_logging":"disabled"}`, risk.High, RuleImpairDefense},
		{"http.set_client", `{"ssl_verify":0}`, risk.High, RuleImpairDefense},
		{"github.update_branch_protection", `{"branch":"main","enforce_admins":true,"allow_force_pushes":false,"required_pull_request_reviews":{"required_approving_review_count":2}}`, 0, ""},
		{"aws.update_continuous_backups", `{"table":"prod-users","point_in_time_recovery_enabled":false}`, risk.High, RuleImpairDefense},
		{"s3.put_bucket_versioning", `{"bucket":"b","versioning":"disabled"}`, risk.High, RuleImpairDefense},
		{"rds.modify_instance", `{"id":"prod","backup_retention":0}`, risk.High, RuleImpairDefense},
		{"aws.update_continuous_backups", `{"table":"prod-users","point_in_time_recovery_enabled":true}`, 0, ""},
		{"rds.modify_instance", `{"id":"prod","backup_retention":7}`, 0, ""},
		{"okta.update_policy", `{"mfa_required":true}`, 0, ""},
		{"jira.create_issue", `{"summary":"audit logging off in staging","required":false}`, 0, ""},
		{"app.get_settings", `{"csrf_protection":false}`, 0, ""},
		// a control's key stored off
		{"redis.set", `{"key":"feature:auth:mfa_required","value":"false"}`, risk.High, RuleImpairDefense},
		{"consul.kv_put", `{"key":"config/security/audit_enabled","value":0}`, risk.High, RuleImpairDefense},
		{"redis.set", `{"key":"feature:new_checkout","value":"false"}`, 0, ""},
		{"redis.set", `{"key":"feature:auth:mfa_required","value":"true"}`, 0, ""},
		{"redis.get", `{"key":"feature:auth:mfa_required"}`, 0, ""},
		{"redis.set", `{"key":"migration:users:last_id","value":"184500"}`, 0, ""},
		// every document
		{"mongodb.update-many", `{"collection":"users","filter":{},"update":{"$unset":{"email":""}}}`, risk.High, ruleDocuments},
		{"mongodb.delete_many", `{"collection":"orders","filter":{}}`, risk.High, ruleDocuments},
		{"mongodb.updateMany", `{"collection":"users","filter":{"legacyId":{"$exists":false}},"update":{"$set":{"x":1}}}`, risk.Medium, ruleDocuments},
		{"mongodb.update-one", `{"collection":"users","filter":{},"update":{"$set":{"x":1}}}`, 0, ""},
		{"mongodb.count", `{"collection":"users","query":{}}`, 0, ""},
		{"mongodb.find", `{"collection":"users","filter":{}}`, 0, ""},
	} {
		var args map[string]any
		if err := json.Unmarshal([]byte(c.args), &args); err != nil {
			t.Fatal(err)
		}
		l, rule, why := ToolAction(c.name, args)
		if l != c.level || c.level != 0 && (rule != c.rule || why == "") {
			t.Errorf("%s %s: %s %s (%s), want %s %s", c.name, c.args, l, rule, why, c.level, c.rule)
		}
	}
}

// TestControlKeyOff: a stored key that names a security control, set to
// an off value, switches it off on every route (redis-cli SET, consul kv
// put, etcdctl put, a store's MCP tool).
func TestControlKeyOff(t *testing.T) {
	for _, c := range []struct {
		key, value string
		off        bool
	}{
		{"feature:auth:mfa_required", "false", true},
		{"config/auth/mfa_required", "false", true},
		{"/cfg/security/audit_enabled", "0", true},
		{"settings.csrf", "off", true},
		{"auth.login.enforced", "disabled", true},
		{"config/db/backup_enabled", "false", true},
		{"config/db/backup_enabled", "true", false},
		{"feature:new_checkout", "false", false},
		{"feature:auth:mfa_required", "true", false},
		{"feature:auth:new_login_page", "false", false},
		{"cache:ttl", "0", false},
	} {
		if got := ControlKeyOff(c.key, c.value); got != c.off {
			t.Errorf("ControlKeyOff(%q, %q) = %v, want %v", c.key, c.value, got, c.off)
		}
	}
}

// TestKVControlOff: the command lines of key-value stores that set a key
// naming a security control off are high (cli.impair_defense), as the
// stores' MCP tools are; reads, other keys and on values are not.
func TestKVControlOff(t *testing.T) {
	for _, cmd := range []string{
		"redis-cli SET feature:auth:mfa_required false",
		"redis-cli -h cache -n 2 set feature:auth:mfa_required 0",
		"echo 'SET feature:auth:mfa_required false' | redis-cli",
		"redis-cli HSET settings csrf_protection off",
		"consul kv put config/auth/mfa_required false",
		"consul kv put -token=abc config/security/audit_enabled disabled",
		"etcdctl put /cfg/security/audit_enabled 0",
		"etcdctl --endpoints=http://etcd:2379 put /cfg/tls/verify false",
	} {
		fs := analyzeScript(t, cmd)
		if l, ok := levelOf(fs, RuleImpairDefense); !ok || l != risk.High {
			t.Errorf("%q: %s at %v (%v), want high; findings:%s", cmd, RuleImpairDefense, l, ok, describe(fs))
		}
	}
	for _, cmd := range []string{
		"redis-cli GET feature:auth:mfa_required",
		"redis-cli SET feature:new_checkout false",
		"redis-cli SET feature:auth:mfa_required true",
		"consul kv get config/auth/mfa_required",
		"consul kv put config/auth/mfa_required true",
		"consul kv put config/app/page_size 0",
		"etcdctl get /cfg/security/audit_enabled",
		"etcdctl put /cfg/app/retries 0",
	} {
		fs := analyzeScript(t, cmd)
		if l, ok := levelOf(fs, RuleImpairDefense); ok {
			t.Errorf("%q: %s fires at %s; findings:%s", cmd, RuleImpairDefense, l, describe(fs))
		}
	}
}
