package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

func TestToolArgs(t *testing.T) {
	tests := []struct {
		name string
		args map[string]any
		want risk.Level
	}{
		{"kubectl_delete", map[string]any{"resourceType": "namespace", "name": "prod"}, risk.Critical},
		{"delete_resource", map[string]any{"kind": "Database", "id": "x"}, risk.Critical},
		{"remove_object", map[string]any{"resource_type": "clusters"}, risk.Critical},
		{"git_push", map[string]any{"force": true}, risk.High},
		{"pushBranch", map[string]any{"forcePush": true}, risk.High},
		{"git_reset", map[string]any{"mode": "hard"}, risk.High},
		{"reset", map[string]any{"hard": true}, risk.High},
		{"apply", map[string]any{"destroy": true}, risk.High},
		{"uninstall_release", map[string]any{"purge": true}, risk.High},
		{"compose_down", map[string]any{"delete_volumes": true}, risk.High},
		// must not: a kind that holds nothing else, a force on a verb it
		// does not make destroy, an option turned off, a value not hard
		{"kubectl_delete", map[string]any{"resourceType": "pod", "name": "web-1"}, 0},
		{"list_resources", map[string]any{"kind": "namespace"}, 0},
		{"describe", map[string]any{"type": "database"}, 0},
		{"npm_install", map[string]any{"force": true}, 0},
		{"git_push", map[string]any{"force": false}, 0},
		{"git_fetch", map[string]any{"prune": true}, 0},
		{"git_reset", map[string]any{"mode": "soft"}, 0},
		{"apply", map[string]any{"destroy": "no"}, 0},
		{"create_issue", map[string]any{"title": "hard", "type": "bug"}, 0},
		{"create_puzzle", map[string]any{"type": "hard"}, 0},
		{"", nil, 0},
	}
	for _, tt := range tests {
		vl, verb := ToolVerb(tt.name)
		if got, why := ToolArgs(tt.name, vl, verb, tt.args); got != tt.want || (got > 0) != (why != "") {
			t.Errorf("ToolArgs(%q, %v) = %v %q, want %v", tt.name, tt.args, got, why, tt.want)
		}
	}
}

func FuzzToolArgs(f *testing.F) {
	f.Add("kubectl_delete", "resourceType", "namespace", true)
	f.Add("git_push", "force", "", true)
	f.Fuzz(func(t *testing.T, name, key, val string, b bool) {
		vl, verb := ToolVerb(name)
		l, why := ToolArgs(name, vl, verb, map[string]any{key: val, key + "x": b})
		if (l > 0) != (why != "") || l > risk.Critical {
			t.Fatalf("ToolArgs = %v %q", l, why)
		}
	})
}
