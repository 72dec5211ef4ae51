package shell

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// verbLevel returns the level the verb grammar (cli.*, pkg.remove) gives
// script, and whether it spoke.
func verbLevel(t *testing.T, script string) (risk.Level, string, bool) {
	t.Helper()
	fs := analyzeScript(t, script)
	for _, f := range fs {
		switch f.Rule {
		case "cli.delete", "cli.disrupt", "cli.clear_cache", "cli.local_config", "cli.local_env", "pkg.remove",
			"cli.impair_defense", "cli.protection_off", "cli.task_destroy":
			return f.Level, f.Rule, true
		}
	}
	return 0, "", false
}

// TestVerbGrammar holds CLIs the knowledge has no rows for: the grammar
// must judge them by their verb alone.
func TestVerbGrammar(t *testing.T) {
	fire := map[string]risk.Level{
		// clouds and platforms without rows
		"doctl kubernetes cluster delete prod --dangerous":      risk.Critical, // a scope (scopeRemoval)
		"linode-cli linodes delete 1234":                        risk.High,
		"heroku addons:destroy heroku-postgresql --confirm app": risk.High,
		"flyctl volumes destroy vol_123 -y":                     risk.Critical, // a scope (scopeRemoval)
		"vercel remove my-app --yes":                            risk.High,
		"netlify sites:delete abc":                              risk.High,
		"supabase projects delete ref123":                       risk.Critical, // a scope (scopeRemoval)
		"firebase firestore:delete --all-collections":           risk.High,
		"mc rb --force local/bucket":                            risk.High,
		"mc rm --recursive --force play/bucket/dir":             risk.High,
		"s3cmd del s3://bucket/key":                             risk.High,
		"oci os bucket delete --bucket-name b --force":          risk.High,
		"ibmcloud ks cluster rm --cluster c":                    risk.Critical, // a scope (scopeRemoval)
		"scw instance server terminate 11111111-2222":           risk.High,
		"hcloud server delete web-1":                            risk.High,
		"pscale database delete mydb --force":                   risk.Critical, // a scope (scopeRemoval)
		"neonctl branches delete br-main":                       risk.High,
		"railway down":                                          0, // not a verb: see the no-fire list
		"render services delete srv-1":                          risk.High,
		"exo compute instance delete vm1":                       risk.High,
		// secret stores, messaging, payments, feature flags, search
		"doppler secrets delete API_KEY":                         risk.High,
		"infisical secrets delete KEY --env=prod":                risk.High,
		"bw delete item 7c1e":                                    risk.High,
		"vault kv metadata delete secret/app":                    risk.High,
		"vault --namespace admin token revoke abc":               risk.High,
		"nats stream rm ORDERS -f":                               risk.High,
		"nats kv del config":                                     risk.High,
		"rabbitmqctl force_reset":                                risk.High,
		"rabbitmqctl purge_queue jobs":                           risk.High,
		"kafka-acls --remove --allow-principal User:x":           0,
		"stripe subscriptions cancel sub_1":                      risk.Medium,
		"stripe customers delete cus_9 --live":                   risk.High,
		"launchdarkly flags delete my-flag":                      risk.High,
		"ldcli flags archive --flag f --project p":               risk.High,
		"meilisearch-cli indexes delete movies":                  risk.High,
		"algolia rules clear products":                           risk.High,
		"twilio api:core:messages:remove --sid SM1":              risk.High,
		"sentry-cli releases delete 1.0":                         risk.High,
		"datadog-ci synthetics delete-test abc":                  risk.High,
		"newrelic entity delete --guid X":                        risk.High,
		"pulumi stack rm dev --yes":                              risk.High,
		"terraform workspace delete prod":                        risk.High,
		"cdk destroy --force":                                    risk.High,
		"restic -r /srv/restic forget --keep-last 1 --prune":     risk.High,
		"borg delete /backup::archive-1":                         risk.High,
		"kopia snapshot delete k123 --delete":                    risk.High,
		"velero backup delete nightly --confirm":                 risk.High,
		"argocd app delete web --cascade":                        risk.High,
		"istioctl uninstall --purge -y":                          risk.High,
		"kubeadm reset -f":                                       risk.High,
		"zfs destroy -r tank/data":                               risk.High,
		"btrfs subvolume delete /mnt/snap":                       risk.High,
		"virsh destroy vm1":                                      risk.High,
		"gh release delete v1.0 --yes":                           risk.High,
		"gh run delete 123":                                      risk.High,
		"gh repo archive o/r":                                    risk.High,
		"glab mr delete 12":                                      risk.High,
		"tea repos delete o/r":                                   risk.High,
		"az storage blob delete-batch -s c":                      risk.High,
		"security delete-generic-password -s svc":                risk.High,
		"java -jar jenkins-cli.jar -s https://ci/ delete-view v": risk.High,
		"python manage.py flush --noinput":                       risk.High,
		"rails db:drop":                                          risk.Critical, // a scope (scopeRemoval)
		"bin/rails db:reset":                                     risk.High,
		"./deploy.sh destroy prod":                               risk.High,
		"sudo ip link delete veth0":                              risk.High,
		"aws s3 rm s3://bucket/key":                              risk.High,
		"aws --region eu-west-1 s3 rm s3://b/k":                  risk.High,
		// medium: undone by the opposite verb
		"gh workflow disable ci.yml":                                 risk.Medium,
		"gcloud services disable compute.googleapis.com --project p": risk.Medium,
		"flyctl machine kill 148e":                                   risk.Medium,
		"heroku rollback v102":                                       risk.Medium,
		// lowered
		"fastly service delete --service-id x --dry-run":      risk.Low,
		"oci os object bulk-delete --bucket-name b --dry-run": risk.Low,
		"gh cache delete --all":                               risk.Low,
		"pip cache purge":                                     risk.Low,
		"kubectl config delete-context old":                   risk.Medium,
		"fastly profile delete staging":                       risk.Medium,
		// package managers
		"npm uninstall left-pad":             risk.Low,
		"pip uninstall -y requests":          risk.Low,
		"cargo remove serde":                 risk.Low,
		"brew uninstall wget":                risk.Low,
		"python -m pip uninstall -y x":       risk.Low,
		"sudo apt-get purge -y nginx":        risk.Medium,
		"npm unpublish my-pkg@1.0.0":         risk.High,
		"npm owner rm alice my-pkg":          risk.High,
		"cargo yank --version 1.0.0 mycrate": risk.Medium,
		"rustup toolchain uninstall nightly": risk.Low,
		"conda env remove -n old":            risk.Low,
		"npm token revoke 123abc":            risk.High,
		"ollama rm llama3":                   risk.Medium, // pkg.remove low; resolver.mayRun guesses ollama runs rm llama3 (fs.delete medium)
		// local development environments
		"kind delete cluster --name dev": risk.Medium,
		"minikube delete --all":          risk.Medium,
		"k3d cluster delete dev":         risk.Medium,
		"vagrant destroy -f":             risk.High, // the vm.delete row: a VM's disk holds work
		// flags before the path
		"rclone -v purge remote:b":                              risk.High,
		"mytool --verbose delete thing":                         risk.High,
		"mytool --config ./c.yaml resource rm x":                risk.High,
		"mytool --profile prod delete thing":                    risk.High,
		"jupyter kernelspec remove old":                         risk.Low,
		"helm repo remove bitnami":                              risk.Low,
		"rails destroy model User":                              risk.Low,
		"ibmcloud resource service-instance-delete my-db -f":    risk.High,
		"netlify env:unset KEY":                                 risk.Medium,
		"virsh undefine vm1":                                    risk.High,
		"circleci context delete github org ctx":                risk.High,
		"bash ./scripts/infra.sh destroy":                       risk.High,
		"node ./cli.js users delete 42":                         risk.High,
		"sudo -u deploy op item delete x":                       risk.High,
		"echo x | xargs -n1 gh repo delete --yes":               risk.High,
		"terraform apply -auto-approve=true":                    risk.High,
		"docker stack rm prod":                                  risk.High,
		"bq rm -r -f mydataset":                                 risk.High,
		"cockroach node decommission 4":                         risk.High,
		"pipenv uninstall requests":                             risk.Low,
		"ansible-galaxy remove geerlingguy.docker":              risk.Low,
		"defaults delete com.apple.dock":                        risk.Medium,
		"gsettings reset org.gnome.desktop.interface gtk-theme": risk.Medium,
		"xcrun simctl delete unavailable":                       risk.Medium,
		"adb uninstall com.example.app":                         risk.Medium,
		"gcloud components remove kubectl":                      risk.Medium,
		"rails log:clear":                                       risk.Low,
		"php artisan route:clear":                               risk.Low,
		"php artisan queue:clear redis":                         risk.High,
		"aws logs delete-log-group --log-group-name audit":      risk.High,
		"algolia indices clear products":                        risk.High,
		"nomad job stop -purge web":                             risk.High,
	}
	for cmd, want := range fire {
		got, rule, ok := verbLevel(t, cmd)
		if want == 0 {
			if ok {
				t.Errorf("%q: the grammar gives %s %s, want nothing", cmd, rule, got)
			}
			continue
		}
		// rows win where they exist (doctl, heroku, hcloud…): the level
		// counts, not who gave it
		fs := analyzeScript(t, cmd)
		var best risk.Level
		for _, f := range fs {
			best = max(best, f.Level)
		}
		if !ok && len(fs) == 0 {
			t.Errorf("%q: nothing speaks, want %s", cmd, want)
			continue
		}
		if best != want {
			t.Errorf("%q: gets %s (grammar: %s %s), want %s; findings:%s", cmd, best, rule, got, want, describe(fs))
		}
	}
}

// TestVerbGrammarSilent holds commands the grammar must not speak for:
// benign neighbours of the same CLIs, single-level commands given a verb
// as an operand, flags and values that spell a verb, help.
func TestVerbGrammarSilent(t *testing.T) {
	for _, cmd := range []string{
		"git rm --cached secrets.txt", "git branch -d merged", "git add reset --hard",
		"docker rm web", "docker network rm n", "make clean", "go clean -cache",
		"cat delete.txt", "cat delete", "grep delete src/", "echo delete", "echo rm -rf", "touch remove",
		"ls purge", "man git-rm", "which delete", "tput reset", "reset", "clear",
		"kubectl get pods", "kubectl describe pod delete-me", "kubectl logs web --since=1h",
		"gh pr merge 12 --delete-branch", "gh repo view delete-me", "gh run list --status deleted",
		"gh secret list", "gh run watch 1", "gh api -X DELETE repos/o/r", "glab api --method DELETE /projects/1",
		"aws ec2 describe-instances", "aws s3 ls s3://b", "aws s3api list-deleted-objects --bucket b",
		"aws ec2 describe-delete-queue", "gcloud compute instances list", "az vm show -n x",
		"doctl compute droplet list", "hcloud server describe web-1", "flyctl status", "vercel logs app",
		"netlify status", "supabase status", "firebase deploy --only hosting", "mc ls play/bucket",
		"s3cmd ls s3://b", "oci os object list --bucket-name b", "scw instance server list",
		"heroku apps:info", "heroku logs --tail -a delete-me", "railway logs", "render services list",
		"pscale branch list db", "neonctl branches list",
		"op item list", "op vault get Engineering", "vault kv list secret/", "vault status",
		"stripe customers list", "stripe listen", "rabbitmqctl list_queues", "rabbitmqadmin show queue name=jobs",
		"algolia indices list", "fastly service describe --service-id x",
		"fastly --help", "fastly service delete --help", "mytool help delete", "mytool delete -h",
		"rclone ls remote:bucket", "rclone lsd remote:", "rclone copy /src remote:b",
		"restic snapshots", "borg list /backup", "terraform plan", "pulumi preview",
		"jenkins-cli build my-job", "java -jar jenkins-cli.jar -s http://j/ list-jobs",
		"python script.py", "python -c 'print(1)'", "node -e 'x.delete()'", "python3 -m http.server 8000",
		"npm run clean", "npm cache verify", "yarn cache clean", "pnpm store status",
		"mytool --format delete.json get x", "mytool --output=delete list",
		"pytest -k delete", "jest -t delete", "cargo test delete_user", "cargo run delete", "go run . delete",
		"fd delete", "sd delete remove notes.txt", "mytool -k delete list", "git lfs prune", "git-lfs prune",
		"pm2 delete all", "npm cache clean --force", "npx prisma migrate dev --name remove_users",
		"mytool create --name delete-me", "conda deactivate", "npx rimraf dist", "uvx ruff clean",
		"turbo prune web --docker", "nx reset", "lerna clean --yes", "tox -e clean", "dasel delete -f a.yaml '.x'",
		"bash -c 'echo delete'", "sh ./build.sh",
		"psql -c 'select 1'", "curl -X DELETE http://localhost:9200/x", "http DELETE :9200/x",
		"sudo ls -la", "ssh host delete", "xargs echo delete",
	} {
		if l, rule, ok := verbLevel(t, cmd); ok {
			t.Errorf("%q: the grammar gives %s %s, want nothing", cmd, rule, l)
		}
	}
}

// TestVerbGrammarBelowHigh holds benign neighbours per family, judged by
// everything warden knows: none may reach high.
func TestVerbGrammarBelowHigh(t *testing.T) {
	for _, cmd := range []string{
		"doctl compute droplet create web --size s-1vcpu-1gb --image ubuntu",
		"linode-cli linodes list", "heroku ps:scale web=2", "flyctl deploy", "vercel --prod",
		"netlify deploy --prod", "supabase db push", "firebase functions:log", "mc cp a.txt play/b/",
		"gsutil cp a gs://b/", "oci compute instance list -c x", "ibmcloud resource service-instances",
		"hcloud server create --name x --type cx11 --image ubuntu-22.04", "pscale branch create db feat",
		"unleash features enable my-toggle", "unleash features disable my-toggle",
		"npm uninstall left-pad", "pip uninstall -y requests", "kubectl config delete-context old",
		"gh workflow disable ci.yml", "rabbitmqctl status", "stripe logs tail",
		// the service rows' neighbours
		"aws iam list-roles", "aws iam get-policy --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
		"aws s3api get-bucket-acl --bucket b", "aws ec2 run-instances --image-id ami-1 --count 1",
		"aws secretsmanager list-secrets", "aws ssm get-parameter --name /app/ami", "aws ecs describe-services --cluster c --services web",
		"gcloud projects get-iam-policy p", "gcloud secrets list", "gsutil ls -L gs://b",
		"az role assignment list --all", "az keyvault secret list --vault-name v", "az storage container list",
		"kubectl get secrets -n prod", "kubectl scale deploy web --replicas=3", "kubectl get clusterrolebindings",
		"kubectl delete pod web-1 --dry-run=client", "kubectl uncordon node-1",
		"terraform plan", "terraform apply", "terraform show", "tofu validate", "pulumi preview", "pulumi stack ls",
		"cdk diff", "helm list -A", "helm status web", "vault kv list secret/", "vault token lookup",
		"op item list --vault Engineering", "op item get db", "restic snapshots", "restic check", "borg info /repo",
		"rclone lsjson remote:b", "rclone size remote:b", "kafka-topics --bootstrap-server b:9092 --describe",
		"kafka-consumer-groups --bootstrap-server b:9092 --describe --group g", "rabbitmqctl list_vhosts",
		"fastly service version list", "fastly purge --help", "stripe charges list --limit 3", "gh secret list",
		"gh repo create o/r --private", "glab repo view g/p", "gh auth status",
	} {
		fs := analyzeScript(t, cmd)
		for _, f := range fs {
			if f.Level >= risk.High {
				t.Errorf("%q: %s %s: %s", cmd, f.Rule, f.Level, f.Reason)
			}
		}
	}
}

// FuzzCLIVerb checks that the grammar never panics on resolved commands.
func FuzzCLIVerb(f *testing.F) {
	for _, s := range []string{"op item delete x", "java -jar a.jar -s u delete-job x", "python -m pip uninstall x",
		"heroku apps:destroy", "x --a b:c:d delete", "x eraseDisk", "x -- delete", "a b c d e f g delete",
		"make -C", "make -nC x destroy", "just --set a", "ansible-playbook -t", "ansible-playbook --tags=a,,b -ta",
		"npm run", "yarn workspace", "yarn workspace a", "x --deletion-protection", "x --no-disable-api-termination",
		"x --attributes Key=protection", "x --attributes k=protect=", "amtool silence", "x --nuke=", "x -", "x alerts mute"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cmds, err := Resolve(s, testEnv)
		if err != nil {
			return
		}
		for _, c := range cmds {
			if len(c.Args) == 0 || c.Dynamic[0] {
				continue
			}
			name := commandName(c.Args[0])
			e := DefaultKnowledge().entry(name)
			cliVerb(&c, name, e)
		}
	})
}

// BenchmarkCLIVerb measures the grammar on resolved commands: a service
// CLI's delete, a long benign command, and a plain command.
func BenchmarkCLIVerb(b *testing.B) {
	var cmds []Command
	for _, s := range []string{"gcloud alpha compute instances delete vm-1 --zone us-east1-b --quiet",
		"mytool --config ./c.yaml --profile prod resource sub list --output json --limit 100", "cat README.md"} {
		cs, err := Resolve(s, testEnv)
		if err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, cs...)
	}
	k := DefaultKnowledge()
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cmds {
			name := commandName(c.Args[0])
			e := k.entry(name)
			cliVerb(&c, name, e)
		}
	}
}

// TestVerbInName holds single-level tools whose name carries the verb
// (nameVerb), subcommand words that carry the noun of a destructive verb
// (destroyNouns) or join a verb to its noun (compoundVerb), and their
// benign neighbours: the grammar gives want (0: the grammar says nothing).
func TestVerbInName(t *testing.T) {
	for cmd, want := range map[string]risk.Level{
		// the name is the verb: system accounts, volumes, clusters, directories
		"delgroup devs":                            risk.High,
		"lvremove -f /dev/vg0/data":                risk.High,
		"vgremove vg0":                             risk.High,
		"pvremove -y /dev/sdb1":                    risk.High,
		"pg_dropcluster 14 main":                   risk.High,
		"dropuser alice":                           risk.High,
		"rmuser -y bob":                            risk.High,
		"ipcrm -a":                                 risk.High,
		"ldapdelete -x cn=bob,dc=x":                risk.High,
		"lxc-destroy -n box":                       risk.High,
		"/usr/sbin/vgremove -f vg0":                risk.High,
		"sudo lvremove vg0/data":                   risk.High,
		"mysqladmin -u root dropdb x":              risk.High, // a compound subcommand
		"pw groupdel staff":                        risk.High,
		"mytool request-account-removal 3":         risk.High,
		"aws kms schedule-key-deletion --key-id 1": risk.High,
		"acme-cli volume schedule-deletion v1":     risk.High,
		"apt autoremove":                           risk.Medium, // a system package manager's removal
		// neighbours: a verb not joined to a noun, other letters after it,
		// a project's own script, help, reading and undoing the deletion
		"lvremove --help":                        0,
		"lvs":                                    0,
		"lvcreate -L 1G -n data vg0":             0,
		"vgdisplay vg0":                          0,
		"pg_lsclusters":                          0,
		"pg_createcluster 14 main":               0,
		"createuser alice":                       0,
		"purgecss --css a.css":                   0,
		"dropbox status":                         0,
		"deleter x":                              0,
		"undelete x":                             0,
		"confirm x":                              0,
		"model run":                              0,
		"./reset-db.sh":                          0,
		"./scripts/drop-users":                   0,
		"python delete_users.py":                 0,
		"aws kms cancel-key-deletion --key-id 1": 0,
		"aws kms list-deletions":                 0,
		"aws kms describe-key-deletion-status":   0,
		"acme-cli get-deletion-protection v1":    0,
		"acme-cli volume pending-deletions":      0,
		"acme-cli set-deletion-protection true":  0,
	} {
		got, rule, ok := verbLevel(t, cmd)
		switch {
		case want == 0 && ok:
			t.Errorf("%q: the grammar gives %s %s, want nothing", cmd, rule, got)
		case want != 0 && got != want:
			t.Errorf("%q: the grammar gives %v (%s), want %s", cmd, got, rule, want)
		}
	}
}

// wordSets are the sets of words the grammar and analyze read.
var wordSets = []*lazySet{informational, plainCommands, ownCommands, pkgCommands, localEnvCommands, configCommands,
	sysPkgCommands, pkgRemovals, registryNouns, booleanLong, destroyNouns, nameNouns, defenseWords, flagVerbs, taskRunners,
	pkgValueFlags, taskDataWords, taskPreviews, taskOutputs}

// TestWordSetAgrees checks lazySet.has, which reads its text's words in
// place, against the set of the text's fields: for every word of every set,
// the parts of them, and their neighbours in the text.
func TestWordSetAgrees(t *testing.T) {
	asks := []string{"", " ", "r", "rm", "-", "x y", "git\n", "\tgit", "ls ", "a"}
	for _, s := range wordSets {
		for _, w := range strings.Fields(s.text) {
			asks = append(asks, w, w[1:], w[:len(w)-1], strings.ToUpper(w), w+"s", "x"+w)
		}
		for i := 0; i+3 <= len(s.text); i += 3 {
			asks = append(asks, s.text[i:i+3], s.text[i:min(i+7, len(s.text))])
		}
	}
	for _, s := range wordSets {
		want := map[string]bool{}
		for _, w := range strings.Fields(s.text) {
			want[w] = true
		}
		for _, w := range asks {
			if got := s.has(w); got != want[w] {
				t.Errorf("has(%q) = %v in %.30q…, the fields say %v", w, got, s.text, want[w])
			}
		}
	}
}

// FuzzWordSet checks lazySet.has against the fields of any text.
func FuzzWordSet(f *testing.F) {
	f.Add("rm rmdir\tx\ny", "rm")
	f.Add("a  b", "")
	f.Add("xrm rm", "rm")
	f.Fuzz(func(t *testing.T, text, w string) {
		want := false
		for _, x := range strings.Fields(text) {
			want = want || x == w
		}
		if got := (&lazySet{text: text}).has(w); got != want {
			t.Errorf("has(%q) in %q = %v, want %v", w, text, got, want)
		}
	})
}

// grammarCase is a command and the level the verb grammar must give it,
// 0 for nothing; rule, when set, is the rule it must give.
type grammarCase struct {
	cmd  string
	want risk.Level
	rule string
}

// checkGrammar checks each case with verbLevel.
func checkGrammar(t *testing.T, cases []grammarCase) {
	t.Helper()
	for _, c := range cases {
		got, rule, ok := verbLevel(t, c.cmd)
		switch {
		case c.want == 0 && ok:
			t.Errorf("%q: the grammar gives %s %s, want nothing", c.cmd, rule, got)
		case c.want != 0 && (got != c.want || c.rule != "" && rule != c.rule):
			t.Errorf("%q: the grammar gives %v (%s), want %s %s; findings:%s", c.cmd, got, rule, c.want, c.rule, describe(analyzeScript(t, c.cmd)))
		}
	}
}

// TestImpairDefense: a disrupting verb on a control that watches or
// protects a system is high; the same verb on anything else stays
// medium, and reading or ending a silence says nothing.
func TestImpairDefense(t *testing.T) {
	const d = "cli.impair_defense"
	checkGrammar(t, []grammarCase{
		{"gh workflow disable codeql-analysis.yml --repo acme/api", risk.High, d},
		{"gh workflow disable security-scan.yml", risk.High, d},
		{"gh workflow disable 'Scan images'", risk.High, d},
		{"pagerduty service disable PXYZ123", risk.High, d},
		{"opsgenie integration disable prod-alerts", risk.High, d},
		{"somecli alerts mute --all", risk.High, d},
		{"datadog-ci monitors disable 12345", risk.High, d},
		{"foo audit-log disable", risk.High, d},
		{"xcli guardduty detector suspend abc", risk.High, d},
		{"somecli firewall disable", risk.High, d},
		{"acme waf detach web-acl-1", risk.High, d},
		{"acme backup-policy disable nightly", risk.High, d},
		{"velero schedule pause daily-backup", risk.High, d},
		{"acme logging disable --bucket prod", risk.High, d},
		{"acme monitoring alerts disable-all", risk.High, d},
		{"alerts-cli silence add --url=http://am:9093 --duration=720h 'alertname=~\".+\"'", risk.High, d}, // amtool has rows now (sec.alerts_silenced)
		{"acme monitor snooze m-1 --duration 7d", risk.Medium, d},                                         // one monitor: as one silence
		{"acme monitors snooze --all --duration 7d", risk.High, d},
		{"datadog-ci monitors mute 12345", risk.Medium, d},
		{"foo audit-log clear", risk.High, d}, // not a log cleared as an artifact
		{"datadog-agent stop", risk.High, d},  // stop names a defense here
		{"acme cloudtrail stop-logging --name main", risk.High, d},
		{"foo mfa deactivate alice", risk.High, d},
		{"acme alert-rules delete r1", risk.High, "cli.delete"},
		{"sudo xcli guardduty detector suspend abc", risk.High, d},
		{"bash -c 'gh workflow disable codeql-analysis.yml'", risk.High, d},
		{"acme monitors disable m-1 --dry-run", risk.Low, ""},
		// ordinary objects: medium as before
		{"gh workflow disable nightly-release.yml", risk.Medium, "cli.disrupt"},
		{"unleash features disable my-toggle", risk.Medium, "cli.disrupt"},
		{"acme logs disable", risk.Medium, "cli.disrupt"},
		{"acme queue pause jobs", risk.Medium, "cli.disrupt"},
		{"rails log:clear", risk.Low, "cli.clear_cache"},
		// reading or ending silences, stop and deactivate elsewhere
		{"amtool silence query", 0, ""},
		{"amtool silence expire 1234", 0, ""},
		{"amtool alert query severity=critical", 0, ""},
		{"pagerduty service list", 0, ""},
		{"acme monitors list", 0, ""},
		{"foo server stop", 0, ""},
		{"conda deactivate", 0, ""},
		{"npm audit fix", 0, ""},
		{"acme monitor delete --help", 0, ""},
	})
}

// TestProtectionOff: a flag that turns a protection off is high on any
// CLI the grammar reads; one that turns it on, or prints it, is not.
func TestProtectionOff(t *testing.T) {
	const p = "cli.protection_off"
	checkGrammar(t, []grammarCase{
		{"aws cloudformation update-termination-protection --no-enable-termination-protection --stack-name prod-db", risk.High, p},
		{"gcloud compute instances update vm1 --no-deletion-protection", risk.High, p},
		{"aws rds modify-db-instance --db-instance-identifier prod --no-deletion-protection --apply-immediately", risk.High, p},
		{"somecli db update --deletion-protection=false", risk.High, p},
		{"xcli cluster update --deletion-protection false", risk.High, p},
		{"xcli cluster update --disable-deletion-protection", risk.High, p},
		{"az postgres flexible-server update -n x --deletion-protection Disabled", risk.High, p},
		{"acme stack update s --no-termination-protection", risk.High, p},
		{"aws ec2 modify-instance-attribute --instance-id i-1 --no-disable-api-termination", risk.High, p},
		{"aws ec2 modify-instance-attribute --instance-id i-1 --disable-api-termination false", risk.High, p},
		{"aws elbv2 modify-load-balancer-attributes --load-balancer-arn a --attributes Key=deletion_protection.enabled,Value=false", risk.High, p},
		{"sudo aws cloudformation update-termination-protection --no-enable-termination-protection --stack-name x", risk.High, p},
		{"somecli db update --deletion-protection=false --dry-run", risk.Low, p},
		// turned on, or read
		{"aws cloudformation update-termination-protection --enable-termination-protection --stack-name prod-db", 0, ""},
		{"gcloud compute instances update vm1 --deletion-protection", 0, ""},
		{"somecli db update --deletion-protection=true", 0, ""},
		{"aws ec2 modify-instance-attribute --instance-id i-1 --disable-api-termination", 0, ""},
		{"aws elbv2 modify-load-balancer-attributes --load-balancer-arn a --attributes Key=deletion_protection.enabled,Value=true Key=idle,Value=false", 0, ""},
		{"aws rds describe-db-instances --query 'DBInstances[*].DeletionProtection'", 0, ""},
		{"acme-cli get-deletion-protection v1", 0, ""},
		{"echo --no-deletion-protection", 0, ""},
		{"somecli db update --no-deletion-protection --help", 0, ""},
	})
}

// TestDestroyFlag: a tool without rows whose path reaches no verb, given
// a flag that is a destructive verb, is read as that verb.
func TestDestroyFlag(t *testing.T) {
	const del = "cli.delete"
	checkGrammar(t, []grammarCase{
		{"tarsnap --nuke --keyfile /root/tarsnap.key", risk.High, del},
		{"/usr/local/bin/tarsnap --nuke", risk.High, del},
		{"flagctl import --drop flags-backup.yml", risk.High, del}, // flipt, mongorestore, mongoimport: rows (db.restore_overwrite)
		{"docrestore --drop --uri=mongodb://prod:27017 ./dump/", risk.High, del},
		{"docimport --drop --db app --collection users users.json", risk.High, del},
		{"foo --purge-all", risk.High, del},
		{"bar --delete-all", risk.High, del},
		{"baz --wipe", risk.High, del},
		{"qux --force-delete x", risk.High, del},
		{"qux --delete=true", risk.High, del},
		{"qux --clear-everything", risk.High, del},
		{"wsl --unregister Ubuntu", risk.High, del},
		{"keytool -delete -alias k -keystore ks.jks", risk.High, del},
		{"node scripts/tool.js --delete-all", risk.High, del},
		{"sudo tarsnap --nuke", risk.High, del},
		{"env X=1 flagctl import --drop flags.yml", risk.High, del},
		{"timeout 60 docrestore --drop ./dump/", risk.High, del},
		{"sh -c 'foo --purge-all'", risk.High, del},
		{"tarsnap --nuke --dry-run", risk.Low, del},
		{"foo cache --purge-all", risk.Low, "cli.clear_cache"},
		// off, an object beside the verb, a short verb that means something else, rows, help
		{"foo --no-delete", 0, ""},
		{"foo --delete=false", 0, ""},
		{"foo --drop-caches=false", 0, ""},
		{"foo --delete-snapshots", 0, ""},
		{"foo --clear-cache", 0, ""},
		{"foo --force", 0, ""},
		{"act --rm", 0, ""},
		{"tailscale up --reset", 0, ""},
		{"foo --truncate", 0, ""},
		{"journalctl --flush", 0, ""},
		{"update-alternatives --remove java /usr/lib/jvm/x/bin/java", 0, ""},
		{"gh pr merge 12 --delete-branch", 0, ""},
		{"foo list --delete", 0, ""},
		{"brew cleanup --prune=all", 0, ""},
		{"docker run --rm alpine true", 0, ""},
		{"tarsnap --nuke --help", 0, ""},
		{"foo -- --delete", 0, ""},
	})
	// rows speak for their own flags
	for _, cmd := range []string{"rsync -a --delete src/ dst/", "kafka-acls --bootstrap-server b:9092 --remove --allow-principal User:x"} {
		if _, rule, ok := verbLevel(t, cmd); ok {
			t.Errorf("%q: the grammar speaks (%s) over the rows", cmd, rule)
		}
	}
}

// TestTaskRunner: a task runner running a target, script or tag whose
// name says it destroys is high; emptying beside no data is medium;
// previews, tests, caches and build outputs are low; others nothing.
func TestTaskRunner(t *testing.T) {
	const task = "cli.task_destroy"
	checkGrammar(t, []grammarCase{
		{"make destroy", risk.High, task},
		{"make teardown-prod", risk.High, task},
		{"make tear-down", risk.High, task},
		{"make -C infra destroy ENV=prod", risk.High, task},
		{"make -j4 build drop-database", risk.High, task},
		{"gmake nuke", risk.High, task},
		{"just nuke", risk.High, task},
		{"just --set env prod nuke", risk.High, task},
		{"task destroy", risk.High, task},
		{"task infra:destroy", risk.High, task},
		{"go-task db:drop", risk.High, task},
		{"invoke destroy --env prod", risk.High, task},
		{"npm run db:drop", risk.High, task},
		{"npm --prefix api run db:drop", risk.High, task},
		{"npm run purge", risk.High, task},
		{"yarn db:reset", risk.High, task},
		{"yarn workspace api db:reset", risk.High, task},
		{"yarn run db:reset", risk.High, task},
		{"pnpm run destroy:all", risk.High, task},
		{"pnpm destroy:all", risk.High, task},
		{"pnpm --filter api wipeData", risk.High, task},
		{"bun run drop-db", risk.High, task},
		{"deno task db:reset", risk.High, task},
		{"nx run infra:destroy", risk.High, task},
		{"cargo make destroy", risk.High, task},
		{"mise run db:drop", risk.High, task},
		{"ansible-playbook -i inventories/production site.yml --tags teardown", risk.High, task},
		{"ansible-playbook -i inv site.yml --tags=destroy", risk.High, task},
		{"ansible-playbook -i inv site.yml -t deploy,destroy", risk.High, task},
		{"make disable-monitoring", risk.High, "cli.impair_defense"},
		{"sudo -E make teardown-prod", risk.High, task},
		{"env CI=1 npm run db:drop", risk.High, task},
		{"timeout 600 ansible-playbook site.yml --tags teardown", risk.High, task},
		{"bash -c 'make destroy'", risk.High, task},
		{"nice -n 10 just nuke", risk.High, task},
		// emptying beside no data word
		{"make uninstall", risk.Medium, task},
		{"npm run clear", risk.Medium, task},
		{"npm run reset-project", risk.Medium, task},
		{"npm run reset-snapshots", risk.Medium, task},
		{"make prune", risk.Medium, task},
		// previews, tests, caches, build outputs, dry runs
		{"make plan-destroy", risk.Low, task},
		{"npm run test:reset-db", risk.Low, task},
		{"npm run rm:dist", risk.Low, task},
		{"make delete-build", risk.Low, task},
		{"make -n destroy", risk.Low, task},
		{"make -nB destroy", risk.Low, task},
		{"make --dry-run destroy", risk.Low, task},
		{"just --dry-run nuke", risk.Low, task},
		{"task --dry destroy", risk.Low, task},
		{"ansible-playbook -i prod site.yml --tags teardown --check", risk.Low, task},
		// nothing
		{"make", 0, ""}, {"make clean", 0, ""}, {"make test", 0, ""}, {"make install", 0, ""},
		{"make clean-cache", 0, ""}, {"make down", 0, ""}, {"make archive", 0, ""}, {"make stop", 0, ""},
		{"make kill", 0, ""}, {"make build/app.o", 0, ""}, {"make -p destroy", 0, ""},
		{"just --list", 0, ""}, {"just test", 0, ""}, {"task --list", 0, ""}, {"rake -T", 0, ""},
		{"npm run build", 0, ""}, {"npm run lint", 0, ""}, {"npm run", 0, ""}, {"npm test", 0, ""},
		{"yarn dev", 0, ""}, {"yarn add react", 0, ""}, {"yarn cache clean", 0, ""}, {"nx reset", 0, ""},
		{"bun run ./scripts/drop-db.ts", 0, ""}, {"bun index.ts", 0, ""}, {"turbo run build", 0, ""},
		{"ansible-playbook site.yml --check", 0, ""}, {"ansible-playbook site.yml --skip-tags destroy", 0, ""},
		{"ansible-playbook -i inv teardown.yml", 0, ""}, // a file, not judged by its name (see nameVerb)
		{"ansible-playbook site.yml --tags destroy --list-tasks", 0, ""},
		{"make destroy --help", 0, ""},
		// package managers' own commands stay theirs
		{"yarn remove lodash", risk.Low, "pkg.remove"},
		{"pnpm prune", risk.Low, "pkg.remove"},
	})
}

// TestTokens checks the splitting of words into tokens.
func TestTokens(t *testing.T) {
	for w, want := range map[string]string{
		"codeql-analysis.yml": "codeql analysis yml", "db:drop": "db drop", "eraseDisk": "erase disk",
		"a/b_c,d=e@f g": "a b c d e f g", "": "", "--x": "x", "ABC": "abc",
	} {
		var got []string
		tokens(w, func(tok string) bool { got = append(got, tok); return true })
		if strings.Join(got, " ") != want {
			t.Errorf("tokens(%q) = %q, want %q", w, got, want)
		}
	}
	n := 0
	tokens(strings.Repeat("a-", 100), func(string) bool { n++; return true })
	if n != maxTokens {
		t.Errorf("tokens read %d tokens of a long word, want %d", n, maxTokens)
	}
}

// TestPermissionQuery: a permission query names a verb without doing it
// (kubectl auth can-i delete pods); the verb joined to the query word, or
// the same verb as the command's own subcommand, still fires.
func TestPermissionQuery(t *testing.T) {
	checkGrammar(t, []grammarCase{
		{"kubectl auth can-i delete pods -n production", 0, ""},
		{"kubectl auth can-i delete pods --as system:serviceaccount:default:x", 0, ""},
		{"oc policy who-can delete pods", 0, ""},
		{"oc adm policy who-can delete pods", 0, ""},
		{"foocli iam simulate-policy delete-bucket", 0, ""},
		{"foocli projects test-iam-permissions delete", 0, ""},
		{"vault token capabilities secret/data/prod", 0, ""},
		{"foocli bucket delete x", risk.High, "cli.delete"},
		{"foocli can-i-delete bucket", risk.High, "cli.delete"},
		{"foocli policy who-can-delete x", risk.High, "cli.delete"},
		{"foocli auth revoke-token x", risk.High, "cli.delete"},
	})
}

// TestClearLocalCache: a clear verb whose object is a cache (the word's
// other token, or the operand) empties what is rebuilt on demand; the same
// verb on a cluster, a database or a named store, and delete of a cache
// resource, stay high.
func TestClearLocalCache(t *testing.T) {
	checkGrammar(t, []grammarCase{
		{"resolvectl flush-caches", risk.Low, "cli.clear_cache"},
		{"sudo resolvectl flush-caches", risk.Low, "cli.clear_cache"},
		{"foocli flush caches", risk.Low, "cli.clear_cache"},
		{"foocli cache-clear", risk.Low, "cli.clear_cache"},
		{"foocli flushCaches", risk.Low, "cli.clear_cache"},
		{"foocli purge_cache --all", risk.Low, "cli.clear_cache"},
		{"sudo ip neigh flush all", risk.Low, "cli.clear_cache"},
		{"foocli delete-cache prod", risk.High, "cli.delete"},
		{"foocli flush-cache-cluster prod", risk.High, "cli.delete"},
		{"foocli flush db", risk.High, "cli.delete"},
		{"foocli flush cache.prod", risk.High, "cli.delete"},
		{"foocli flush-all", risk.High, "cli.delete"},
		{"sudo ip neigh del 10.0.0.1 dev eth0", risk.High, "cli.delete"},
	})
}
