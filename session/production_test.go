package session

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// TestProductionFamilies: each family's commands that change something,
// in a production context (selected by the conversation, exported in
// the environment, or named by the command itself), are flagged; the
// commands that only read, the other contexts and the other programs are
// not.
func TestProductionFamilies(t *testing.T) {
	type ctx struct{ family, name string }
	tests := []struct {
		line string
		ctx  []ctx             // contexts the conversation selected
		vars map[string]string // variables it exported
		want bool              // flagged
	}{
		// a context selected earlier
		{"kubectl delete deployment api", []ctx{{"kubernetes", "prod"}}, nil, true},
		{"kubectl -n web rollout restart deploy/api", []ctx{{"kubernetes", "production"}}, nil, true},
		{"kubectl apply -f k8s/", []ctx{{"kubernetes", "arn:aws:eks:eu-west-1:1:cluster/prod-eu"}}, nil, true},
		{"kubecolor edit svc api", []ctx{{"kubernetes", "namespace prod"}}, nil, true},
		{"helm uninstall api", []ctx{{"kubernetes", "prod"}}, nil, true},
		{"helmfile apply", []ctx{{"kubernetes", "prod"}}, nil, true},
		{"argocd app sync api", []ctx{{"kubernetes", "prod"}}, nil, true},
		{"kubectl exec -it api-0 -- rm -rf /data", []ctx{{"kubernetes", "prod"}}, nil, true},
		{"terraform apply", []ctx{{"terraform", "workspace prod"}}, nil, true},
		{"terraform import aws_s3_bucket.b logs", []ctx{{"terraform", "workspace prod"}}, nil, true},
		{"terraform state mv a b", []ctx{{"terraform", "workspace prod"}}, nil, true},
		{"terragrunt run-all apply", []ctx{{"terraform", "workspace prod"}}, nil, true},
		{"gcloud sql instances patch db --tier db-f1-micro", []ctx{{"gcloud", "project acme-prod"}}, nil, true},
		{"gsutil rm gs://acme-uploads/x", []ctx{{"gcloud", "configuration production"}}, nil, true},
		{"az vm deallocate -g rg -n web", []ctx{{"azure", "subscription Prod"}}, nil, true},
		// exported variables
		{"aws s3 sync ./site s3://acme-web --delete", nil, map[string]string{"AWS_PROFILE": "prod"}, true},
		{"aws rds modify-db-instance --db-instance-identifier db --apply-immediately", nil, map[string]string{"AWS_DEFAULT_PROFILE": "acme-production"}, true},
		{"sam deploy", nil, map[string]string{"AWS_PROFILE": "prod"}, true},
		{"eksctl scale nodegroup --cluster c --nodes 0", nil, map[string]string{"AWS_PROFILE": "prod"}, true},
		{"terraform destroy", nil, map[string]string{"TF_WORKSPACE": "prod"}, true},
		{"kubectl delete ns web", nil, map[string]string{"KUBECONFIG": "/home/user/.kube/prod.yaml"}, true},
		{"rails db:rollback", nil, map[string]string{"RAILS_ENV": "production"}, true},
		{"python3 manage.py flush --noinput", nil, map[string]string{"DJANGO_SETTINGS_MODULE": "config.settings.production"}, true},
		{"php artisan migrate:fresh", nil, map[string]string{"APP_ENV": "production"}, true},
		{"mix ecto.reset", nil, map[string]string{"MIX_ENV": "prod"}, true},
		{"alembic downgrade -1", nil, map[string]string{"ENVIRONMENT": "production"}, true},
		{"flyway clean", nil, map[string]string{"STAGE": "prod"}, true},
		{"goose reset", nil, map[string]string{"DATABASE_URL": "postgres://app:s3cret@prod-db:5432/app"}, true},
		{"kubectl scale deploy api --replicas=0", nil, map[string]string{"ENV": "production"}, true},
		// the command's own flags
		{"kubectl --context prod-us delete pod api-0", nil, nil, true},
		{"kubectl delete pod api-0 -n production", nil, nil, true},
		{"helm --kube-context=prod rollback api 3", nil, nil, true},
		{"aws --profile prod ec2 stop-instances --instance-ids i-1", nil, nil, true},
		{"gcloud --project=acme-prod run services delete api", nil, nil, true},
		{"terraform -chdir=envs/prod apply", nil, nil, true},
		{"rails db:migrate RAILS_ENV=production", nil, nil, true},
		{"bundle exec rake db:drop RAILS_ENV=production", nil, nil, true},
		{"rails -e production db:seed", nil, nil, true},
		{"npx prisma db push --accept-data-loss", nil, map[string]string{"DATABASE_URL": "postgresql://prod.db.acme.io/app"}, true},

		// what only reads, in production
		{"kubectl get pods -A", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"kubectl -n prod logs deploy/api", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"kubectl rollout status deploy/api", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"kubectl config get-contexts", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"kubectl auth can-i delete pods", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"helm list -A", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"helm template ./chart", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"argocd app list", []ctx{{"kubernetes", "prod"}}, nil, false},
		{"terraform plan", []ctx{{"terraform", "workspace prod"}}, nil, false},
		{"terraform state list", []ctx{{"terraform", "workspace prod"}}, nil, false},
		{"terraform output -json", []ctx{{"terraform", "workspace prod"}}, nil, false},
		{"terragrunt run-all plan", []ctx{{"terraform", "workspace prod"}}, nil, false},
		{"aws s3 ls s3://acme-logs/", nil, map[string]string{"AWS_PROFILE": "prod"}, false},
		{"aws ec2 describe-instances", nil, map[string]string{"AWS_PROFILE": "prod"}, false},
		{"aws sts get-caller-identity", nil, map[string]string{"AWS_PROFILE": "prod"}, false},
		{"aws logs tail /aws/lambda/api --follow", nil, map[string]string{"AWS_PROFILE": "prod"}, false},
		{"cdk diff", nil, map[string]string{"AWS_PROFILE": "prod"}, false},
		{"gcloud compute instances list", []ctx{{"gcloud", "project acme-prod"}}, nil, false},
		{"az group list -o table", []ctx{{"azure", "subscription prod"}}, nil, false},
		{"rails db:migrate:status", nil, map[string]string{"RAILS_ENV": "production"}, false},
		{"python manage.py showmigrations", nil, map[string]string{"ENV": "production"}, false},
		{"prisma migrate status", nil, map[string]string{"NODE_ENV": "production"}, false},
		{"alembic current", nil, map[string]string{"ENV": "production"}, false},
		// other contexts
		{"kubectl delete deployment api", []ctx{{"kubernetes", "dev"}}, nil, false},
		{"kubectl delete deployment api", []ctx{{"kubernetes", "staging-eu"}}, nil, false},
		{"terraform apply", []ctx{{"terraform", "workspace preprod"}}, nil, false}, // pre-production is not production
		{"terraform apply", []ctx{{"terraform", "workspace products"}}, nil, false},
		{"terraform apply", []ctx{{"kubernetes", "prod"}}, nil, false}, // another family's context
		{"aws s3 rm s3://b/x", nil, map[string]string{"AWS_PROFILE": "dev"}, false},
		{"rails db:migrate", nil, map[string]string{"RAILS_ENV": "development"}, false},
		{"rails db:migrate", nil, map[string]string{"NODE_ENV": "production"}, true}, // the app's environment
		{"kubectl --context dev delete pod x", nil, nil, false},
		// other programs, in production
		{"npm run build", nil, map[string]string{"NODE_ENV": "production"}, false},
		{"go test ./...", []ctx{{"kubernetes", "prod"}}, map[string]string{"ENV": "production"}, false},
		{"rm -rf build", []ctx{{"terraform", "workspace prod"}}, nil, false},
	}
	for _, tt := range tests {
		st := New("x", Config{}, nil)
		for _, c := range tt.ctx {
			setMap(&st.contexts, c.family, Context{Name: c.name}, 8)
		}
		for k, v := range tt.vars {
			setMap(&st.prior.Vars, k, v, 8)
		}
		c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Cwd: "/home/user/project", Workspace: "/home/user/project", Prior: &st.prior}
		args := strings.Fields(tt.line)
		cmd := tool.Command{Args: args, Dynamic: make([]bool, len(args))}
		ch := &chain{st: st, budget: maxChain}
		ch.productionCommand(c, cmd, nil, 0)
		if got := len(ch.out) > 0; got != tt.want {
			t.Errorf("%q in %v %v: flagged %v, want %v (%v)", tt.line, tt.ctx, tt.vars, got, tt.want, ch.out)
			continue
		}
		for _, f := range ch.out {
			if f.Rule != RuleProduction || f.Level != risk.High || strings.Contains(f.Reason+f.Resource, "s3cret") {
				t.Errorf("%q: finding %+v", tt.line, f)
			}
		}
	}
}

// TestProductionForOneCommand: the assignments env gives one command
// (env RAILS_ENV=production rails …) name its context; another family's
// variable, or a name that is not production, does not.
func TestProductionForOneCommand(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"env AWS_PROFILE=prod aws s3 rm s3://b/x", true},
		{"env TF_WORKSPACE=production terraform apply", true},
		{"env ENV=prod kubectl delete pod x", true},
		{"env RAILS_ENV=production bin/rails db:migrate", true},
		{"env -i AWS_PROFILE=prod sam deploy", true},
		{"env AWS_PROFILE=prod aws s3 ls s3://b", false},
		{"env AWS_PROFILE=staging aws s3 rm s3://b/x", false},
		{"env TF_WORKSPACE=prod kubectl delete pod x", false},
		{"env RAILS_ENV=production npm run build", false},
		{"env", false},
		// a dry run changes nothing; the same command without it does
		{"env AWS_PROFILE=prod aws ec2 terminate-instances --instance-ids i-0abc --dry-run", false},
		{"env AWS_PROFILE=prod aws ec2 terminate-instances --instance-ids i-0abc", true},
		{"env AWS_PROFILE=prod aws ec2 terminate-instances --instance-ids i-0abc --no-dry-run", true},
		{"env ENV=prod kubectl delete deploy web --dry-run=server", false},
		{"env ENV=prod kubectl delete deploy web --dry-run=none", true},
		{"env ENV=prod kubectl delete deploy web -n production", true},
		{"env RAILS_ENV=production rake -n db:drop", false},
		{"env RAILS_ENV=production rake db:drop", true},
		{"env CLOUDSDK_CORE_PROJECT=prod gcloud compute instances delete vm1 --dry-run", false},
		{"env ENV=prod kubectl exec web -- rm -rf /data --dry-run", true},
	} {
		st := New("x", Config{}, nil)
		c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Cwd: "/w", Workspace: "/w", Prior: &st.prior}
		args := strings.Fields(tt.line)
		ch := &chain{st: st, budget: maxChain}
		ch.productionCommand(c, tool.Command{Args: args, Dynamic: make([]bool, len(args))}, nil, 0)
		if got := len(ch.out) > 0; got != tt.want {
			t.Errorf("%q: flagged %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestProductionScriptAssigns: an assignment written in front of a command
// (AWS_PROFILE=prod aws …) names the context of the script's commands.
func TestProductionScriptAssigns(t *testing.T) {
	for _, tt := range []struct {
		script, line string
		want         bool
	}{
		{"AWS_PROFILE=prod aws s3 rm s3://b/x", "aws s3 rm s3://b/x", true},
		{`TF_WORKSPACE="production" terraform apply`, "terraform apply", true},
		{"cd infra && ENV=prod kubectl apply -f k8s/", "kubectl apply -f k8s/", true},
		{"AWS_PROFILE=prod aws s3 ls s3://b", "aws s3 ls s3://b", false},
		{"AWS_PROFILE=staging aws s3 rm s3://b/x", "aws s3 rm s3://b/x", false},
		{"TF_WORKSPACE=prod kubectl delete pod x", "kubectl delete pod x", false},
		{"NAME=prod aws s3 rm s3://b/x", "aws s3 rm s3://b/x", false},
	} {
		st := New("x", Config{}, nil)
		c := &tool.Call{Action: &risk.Action{Tool: "Bash"}, Cwd: "/w", Workspace: "/w", Prior: &st.prior, Shell: []string{tt.script}}
		args := strings.Fields(tt.line)
		ch := &chain{st: st, budget: maxChain}
		ch.productionCommand(c, tool.Command{Args: args, Dynamic: make([]bool, len(args))}, nil, 0)
		if got := len(ch.out) > 0; got != tt.want {
			t.Errorf("%q: flagged %v, want %v", tt.script, got, tt.want)
		}
	}
}
