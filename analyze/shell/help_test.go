package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestHelpOnly: a command given --help (or -help) among its own words
// prints its help and does nothing else; a program an interpreter, a
// shell or a launcher runs keeps its words, and --help as a flag's value
// or after -- is no help flag.
func TestHelpOnly(t *testing.T) {
	for _, cmd := range []string{
		"terraform destroy -help", "kubectl delete ns prod --help", "aws s3 rb s3://b --force --help",
		"gcloud projects delete p --help", "docker system prune -af --help", "sudo kubectl delete ns prod --help",
		"timeout 5 terraform destroy -auto-approve -help",
	} {
		for _, f := range analyzeScript(t, cmd) {
			if f.Level >= risk.Medium && f.Rule != "priv.sudo" {
				t.Errorf("%q: %s %s: %s", cmd, f.Rule, f.Level, f.Reason)
			}
		}
	}
	for cmd, rule := range map[string]string{
		"bash -c 'rm -rf ~' --help":        "fs.recursive_delete", // --help is the script's $0
		"find / -name --help -delete":      "fs.find_delete",      // -name's value
		"npm run destroy -- --help":        "cli.task_destroy",    // the script's own word
		"kubectl delete ns prod -- --help": "cloud.k8s_delete",
	} {
		if l, ok := levelOf(analyzeScript(t, cmd), rule); !ok || l < risk.High {
			t.Errorf("%q: %s %s %v, want at least high", cmd, rule, l, ok)
		}
	}
}
