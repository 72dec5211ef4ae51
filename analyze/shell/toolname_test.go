package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

func TestToolVerb(t *testing.T) {
	for name, want := range map[string]risk.Level{
		"delete_repository":      risk.High,
		"deleteNamespace":        risk.Critical, // as kubectl delete namespace
		"delete_namespace":       risk.Critical,
		"namespace_delete":       risk.Critical,
		"drop_database":          risk.Critical, // as DROP DATABASE
		"dropDatabase":           risk.Critical,
		"delete_cluster":         risk.Critical,
		"delete_project":         risk.Critical,
		"destroy_volumes":        risk.Critical,
		"k8s.delete_pv":          risk.Critical,
		"delete_database_user":   risk.High, // a user, not the database
		"delete_namespace_label": risk.High,
		"delete_db_snapshot":     risk.High,
		"clear_database_cache":   risk.Low,
		"branch-delete":          risk.High,
		"drop_table":             risk.High,
		"force_reset_db":         risk.High,
		"purge_queue":            risk.High,
		"terminate_instances":    risk.High,
		"revoke_token":           risk.High,
		"RemoveUser":             risk.High,
		"github.delete_file":     risk.High,
		"disable_rule":           risk.Medium,
		"cancelSubscription":     risk.Medium,
		"kill_process":           risk.Medium,
		"clear_cache":            risk.Low,
		"list_deleted_items":     0,
		"get_delete_policy":      0,
		"create_issue":           0,
		"search_repositories":    0,
		"run_query":              0,
		"read_file":              0,
		"deleted_count":          0,
		"browser_navigate":       0,
		"":                       0,
	} {
		if got, _ := ToolVerb(name); got != want {
			t.Errorf("ToolVerb(%q) = %v, want %v", name, got, want)
		}
	}
}
