package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestGitSecrets: a secret staged and committed stays in the history
// (high); pushed, it leaves the machine (critical). Secrets by path and
// by what the script wrote into the file; test fixtures and ordinary
// files are not.
func TestGitSecrets(t *testing.T) {
	for script, want := range map[string]risk.Level{
		`git add .env && git commit -m env && git push`:                                                               risk.Critical,
		`sops -d secrets/prod.enc.yaml > config/prod.yaml && git add config/prod.yaml && git commit -m c && git push`: risk.Critical,
		`sops -d s.enc.yaml > config/prod.yaml; git add . && git commit -qm c && git push -u origin HEAD`:             risk.Critical,
		`cp ~/.aws/credentials . && git add credentials && git commit -m c && git push`:                               risk.Critical,
		`cp ~/.ssh/id_ed25519 deploy/ && git add deploy && git commit -m k`:                                           risk.High,
		`git add config/id_rsa && git commit -m key`:                                                                  risk.High,
		`env > env.txt && git add env.txt && git commit -m e && git push`:                                             risk.Critical,
		`sudo sops -d s.enc.yaml > config/prod.yaml && git add config/prod.yaml && git commit -m c && git push`:       risk.Critical,
		`timeout 9 env > e.txt && git add e.txt && git commit -m e && git push`:                                       risk.Critical,
		`vault kv get -field=pw secret/app > pw.txt && git add pw.txt && git commit -m p`:                             risk.High,
	} {
		got, ok, rule := exfilLevel(analyzeScript(t, script))
		if !ok || got != want {
			t.Errorf("%q: %s %s (%v), want %s; findings:%s", script, rule, got, ok, want, describe(analyzeScript(t, script)))
		}
	}
	for _, script := range []string{
		`git add -A && git commit -m wip && git push origin main`,
		`git add src/main.go && git commit -m fix && git push`,
		`git add .env.example && git commit -m docs && git push`,
		`git add testdata/server.key && git commit -m fixture && git push`,
		`git add secrets.yaml && git commit -m "sops: rotate" && git push`,
		`git add .env`,
	} {
		if got, ok, rule := exfilLevel(analyzeScript(t, script)); ok && got >= risk.High {
			t.Errorf("%q: %s %s, want none; findings:%s", script, rule, got, describe(analyzeScript(t, script)))
		}
	}
}
