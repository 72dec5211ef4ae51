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
		case "cli.delete", "cli.disrupt", "cli.clear_cache", "cli.local_config", "cli.local_env", "pkg.remove":
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
		"vagrant destroy -f":             risk.Medium,
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
		"docker rm web", "docker network rm n", "make clean", "make destroy", "go clean -cache",
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
		"heroku apps:destroy", "x --a b:c:d delete", "x eraseDisk", "x -- delete", "a b c d e f g delete"} {
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
	sysPkgCommands, pkgRemovals, registryNouns, booleanLong, destroyNouns, nameNouns}

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
