package tool

import (
	"encoding/json"
	"testing"
)

// TestCLICommand: a tool named for a command-line tool's subcommand runs
// that command, written from its arguments.
func TestCLICommand(t *testing.T) {
	tests := []struct {
		name, args string
		want       string // "" when the tool is no command-line tool's
	}{
		{"kubectl_scale", `{"resourceType":"deployment","name":"alertmanager","namespace":"monitoring","replicas":0}`,
			"kubectl scale deployment alertmanager -n monitoring --replicas=0"},
		{"kubectl_get", `{"resourceType":"pods","namespace":"payments","output":"wide"}`, "kubectl get pods -n payments --output=wide"},
		{"kubectl_rollout", `{"subCommand":"status","resourceType":"deployment","name":"api","namespace":"p"}`,
			"kubectl rollout status deployment api -n p"},
		{"kubectl_patch", `{"resourceType":"deployment","name":"api","namespace":"p","patchType":"merge","patch":{"spec":{"replicas":0}}}`,
			`kubectl patch deployment api -n p -p '{"spec":{"replicas":0}}' --type=merge`},
		{"kubectl_set_image", `{"resourceType":"deployment","name":"api","container":"api","image":"r/api:2"}`,
			"kubectl set image deployment api api=r/api:2"},
		{"kubectl_drain", `{"name":"node-1","ignoreDaemonsets":true,"deleteEmptydirData":true,"force":false}`,
			"kubectl drain node-1 --delete-emptydir-data --ignore-daemonsets"},
		{"kubectl_exec", `{"pod":"db-0","namespace":"p","command":["psql","-c","DROP TABLE t"]}`,
			"kubectl exec db-0 -n p -- psql -c 'DROP TABLE t'"},
		{"kubectl_apply", `{"manifest":"kind: Pod\n"}`, "kubectl apply -f - <<'WARDEN_EOF'\nkind: Pod\nWARDEN_EOF\n"},
		{"kubectl-cordon", `{"node":"n1"}`, "kubectl cordon n1"},
		// look-alikes: no command-line tool's subcommand
		{"kubectl", `{"args":"get pods"}`, ""},
		{"scale_deployment", `{"name":"api","replicas":0}`, ""},
		{"get_kubectl_version", `{}`, ""},
		{"kubectlish_scale", `{}`, ""},
	}
	for _, tt := range tests {
		var args map[string]any
		if err := json.Unmarshal([]byte(tt.args), &args); err != nil {
			t.Fatal(err)
		}
		got, ok := cliCommand(tt.name, args)
		if tt.want == "" {
			if ok {
				t.Errorf("%s: %q, want none", tt.name, got)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("%s %s:\n got %q\nwant %q", tt.name, tt.args, got, tt.want)
		}
	}
}
