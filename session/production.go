package session

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/tool"
)

// RuleProduction is the rule of a change a command makes while the
// conversation acts on production: a cluster context, workspace, cloud
// project or profile, or application environment named production.
const RuleProduction = "session.production"

// A family is the tools that act on one kind of context, what selects
// that context besides a switch the conversation made (tool.SetContext):
// environment variables, flags of the command itself; and which of their
// subcommands only read.
type family struct {
	name string
	// cmds are the programs of the family (by base name).
	cmds map[string]bool
	// vars are the environment variables that select the context for the
	// family's programs; flags the flags that do for one command; valued
	// the other flags that take a value (skipped to find the subcommand).
	vars   []string
	flags  []string
	valued []string
	// readOnly reports whether the subcommand words ops (the operands,
	// in order) only read.
	readOnly func(ops []string) bool
	// dir: the directory a command runs in selects its context too
	// (terraform's envs/prod).
	dir bool
}

// anyEnv are the variables that name the environment every family acts
// in (export ENV=production).
var anyEnv = []string{"ENV", "ENVIRONMENT", "STAGE", "DEPLOY_ENV", "TARGET_ENV", "APP_ENV"}

// families returns the families of tools whose context the session
// follows, by program name; made on first use (nothing at package init).
var families = sync.OnceValue(func() map[string]*family {
	byName := map[string]*family{}
	for _, f := range familyList() {
		for n := range f.cmds {
			byName[n] = f
		}
	}
	return byName
})

func familyList() []*family {
	return []*family{
		{
			name:     "kubernetes",
			cmds:     set("kubectl", "kubecolor", "oc", "helm", "helmfile", "skaffold", "k9s", "kubectl-argo-rollouts", "argocd", "flux", "istioctl", "velero"),
			vars:     []string{"KUBECONFIG", "HELM_KUBECONTEXT"},
			flags:    []string{"--context", "--kube-context", "--namespace", "-n", "--cluster", "--kubeconfig"},
			valued:   []string{"-o", "--output", "-l", "--selector", "-c", "--container", "--user", "-s", "--server", "--as", "-f", "--filename", "--values"},
			readOnly: anyOf("get", "describe", "logs", "log", "top", "explain", "api-resources", "api-versions", "version", "cluster-info", "config", "auth", "diff", "events", "wait", "completion", "plugin", "options", "help", "whoami", "status", "projects", "project", "list", "ls", "history", "show", "template", "lint", "search", "repo", "env", "dependency", "dep", "verify", "package", "pull", "fetch", "build", "deps", "repos", "port-forward", "proxy", "kustomize", "check", "info", "stats", "inspect", "tree", "context", "ctx"),
		},
		{
			name:     "terraform",
			cmds:     set("terraform", "tofu", "terragrunt", "terramate"),
			vars:     []string{"TF_WORKSPACE"},
			flags:    []string{"-chdir", "-var-file", "--terragrunt-working-dir", "--working-dir"},
			readOnly: terraformReadOnly,
			dir:      true,
		},
		{
			name:     "aws",
			cmds:     set("aws", "cdk", "sam", "eksctl", "copilot", "awslocal"),
			vars:     []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE"},
			flags:    []string{"--profile"},
			valued:   []string{"--region", "--output", "--endpoint-url", "--query", "--cli-input-json", "-o"},
			readOnly: awsReadOnly,
		},
		{
			name:     "gcloud",
			cmds:     set("gcloud", "gsutil", "bq"),
			vars:     []string{"CLOUDSDK_CORE_PROJECT", "CLOUDSDK_ACTIVE_CONFIG_NAME", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"},
			flags:    []string{"--project", "--configuration", "--project_id"},
			valued:   []string{"--format", "--account", "--zone", "--region", "--filter", "--location"},
			readOnly: anyOf("list", "describe", "get", "get-iam-policy", "ls", "cat", "info", "config", "version", "help", "auth", "components", "show", "read", "tail", "du", "stat", "head", "hash", "query"),
		},
		{
			name:     "azure",
			cmds:     set("az"),
			vars:     []string{"AZURE_DEFAULTS_GROUP"},
			flags:    []string{"--subscription", "--resource-group", "-g"},
			valued:   []string{"-o", "--output", "--query", "-n", "--name", "-l", "--location"},
			readOnly: anyOf("list", "show", "get", "account", "version", "login", "find", "help", "wait", "tail", "download", "check-name", "list-keys-not"),
		},
		{
			// migration and framework tools, whose database is the one of the
			// application's environment
			name:     "app",
			cmds:     set("rails", "rake", "manage.py", "django-admin", "artisan", "mix", "alembic", "prisma", "flyway", "liquibase", "dbmate", "goose", "migrate", "sequelize", "sequelize-cli", "knex", "typeorm", "diesel", "sqlx", "atlas", "sqitch"),
			vars:     []string{"RAILS_ENV", "RACK_ENV", "MIX_ENV", "FLASK_ENV", "DJANGO_SETTINGS_MODULE", "DJANGO_ENV", "NODE_ENV", "ASPNETCORE_ENVIRONMENT", "SPRING_PROFILES_ACTIVE", "DATABASE_URL"},
			flags:    []string{"--env", "-e", "--environment", "--settings", "--url", "--database-url", "-database", "--database"},
			valued:   []string{"-c", "--config", "-x", "--schema", "--dir"},
			readOnly: appReadOnly,
		},
	}
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// anyOf: one of the first four operands is one of words (gcloud compute
// instances list).
func anyOf(words ...string) func([]string) bool {
	m := set(words...)
	return func(ops []string) bool {
		for i, o := range ops {
			if i == 4 {
				break
			}
			if m[o] {
				return true
			}
		}
		return len(ops) == 0
	}
}

var tfRead = sync.OnceValue(func() map[string]bool {
	return set("plan", "show", "output", "validate", "fmt", "init", "providers", "graph", "version", "workspace", "console", "get", "login", "logout", "metadata", "test", "help", "hclfmt", "render-json", "graph-dependencies", "output-module-groups", "list")
})

func terraformReadOnly(ops []string) bool {
	for len(ops) > 0 && (ops[0] == "run-all" || ops[0] == "run" || ops[0] == "--all") {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return true
	}
	if ops[0] == "state" {
		return len(ops) < 2 || ops[1] == "list" || ops[1] == "show" || ops[1] == "pull"
	}
	return tfRead()[ops[0]]
}

var awsReadPrefixes = []string{"describe-", "list-", "get-", "head-", "batch-get-", "search-", "query", "scan", "filter-", "lookup-", "test-", "validate-", "estimate-", "preview-", "simulate-", "tail", "wait", "help", "ls", "presign", "synth", "diff", "doctor", "docs", "notices", "metadata", "acknowledge", "context", "info", "version", "utils", "completion", "logs", "local", "build", "validate", "init"}

func awsReadOnly(ops []string) bool {
	if len(ops) == 0 {
		return true
	}
	switch ops[0] {
	case "sts", "configure", "help", "sso":
		return true
	}
	verb := ops[0]
	if len(ops) > 1 && !cdkLike(ops[0]) {
		verb = ops[1]
	}
	for _, p := range awsReadPrefixes {
		if strings.HasPrefix(verb, p) {
			return true
		}
	}
	return false
}

// cdkLike: the first operand is the verb (cdk deploy, sam delete, eksctl
// get), not an aws service.
func cdkLike(op string) bool {
	switch op {
	case "deploy", "destroy", "bootstrap", "import", "watch", "synth", "diff", "ls", "list", "doctor", "delete", "sync", "build", "validate", "local", "logs", "init",
		"get", "create", "scale", "upgrade", "drain", "set", "unset", "utils", "info", "version", "completion":
		return true
	}
	return false
}

var appRead = sync.OnceValue(func() map[string]bool {
	return set("routes", "about", "stats", "notes", "server", "s", "runserver", "serve", "check", "showmigrations", "show", "status", "current", "history",
		"heads", "branches", "info", "validate", "version", "help", "-T", "--tasks", "-h", "--help", "--version", "list", "test", "generate", "g", "format", "inspect",
		"diffsettings", "sqlmigrate", "makemigrations", "console", "c", "shell", "dbshell", "init", "new", "create", "make:migration", "doctor", "lint", "phx.routes",
		"phx.server", "compile", "deps.get", "print")
})

func appReadOnly(ops []string) bool {
	if len(ops) == 0 {
		return true
	}
	v := ops[0]
	if len(ops) > 1 && (v == "migrate" || v == "db" || v == "migration" || v == "migrations") {
		v = ops[1] // prisma migrate status, sequelize db:migrate:status
	}
	for _, s := range []string{":status", ":version", ":list", ":show", ":routes", "status", "info"} {
		if strings.HasSuffix(v, s) {
			return true
		}
	}
	return appRead()[v]
}

// Production returns the session.production findings of a lone call,
// one no conversation holds (see State.Analyze, which makes them for a
// conversation's calls): the production contexts its commands name for
// themselves (--context prod, AWS_PROFILE=prod aws …). assess judges a
// command alone, as for Analyze.
func Production(ctx context.Context, c *tool.Call, assess AssessFunc) []risk.Finding {
	ch := &chain{st: newState("", DefaultConfig()), ctx: ctx, assess: assess, budget: maxChain}
	ch.production(c, 0)
	return ch.out
}

// where is a production context a command acts in, and why: "kubectl
// context prod-cluster, selected in step 2".
type where struct{ name, why string }

// production returns the findings of the commands of c that change what a
// production context names: each command of a family (kubectl, terraform,
// aws, gcloud, az, migration tools) that is not read-only, whose context
// is production, is at least High, and Critical when the command alone is
// High. The context is the one the conversation selected (tool.SetContext,
// this call's own included), one an environment variable the conversation
// exported names, or one the command's own flags or directory name.
func (ch *chain) production(c *tool.Call, depth int) {
	if depth >= maxDepth {
		return
	}
	var own map[string]Context
	for i := range c.Effects {
		e := &c.Effects[i]
		if e.Kind == tool.SetContext && e.Known {
			if own == nil {
				own = map[string]Context{}
			}
			own[e.Path] = Context{Name: e.Text, Step: ch.st.step}
		}
	}
	for _, s := range c.Shell {
		sc, ok := c.Script(s)
		if !ok {
			continue
		}
		for _, cmd := range sc.Commands {
			ch.productionCommand(c, cmd, own, depth)
		}
	}
}

func (ch *chain) productionCommand(c *tool.Call, cmd tool.Command, own map[string]Context, depth int) {
	if len(cmd.Args) == 0 || cmd.Dynamic[0] {
		return
	}
	name := path.Base(cmd.Args[0])
	args := cmd.Args[1:]
	dyn := cmd.Dynamic[1:]
	var local []string
	if name == "env" {
		// env AWS_PROFILE=prod aws …: the words before the program
		for len(args) > 0 && !dyn[0] && (strings.HasPrefix(args[0], "-") || strings.Contains(args[0], "=")) {
			if strings.Contains(args[0], "=") && !strings.HasPrefix(args[0], "-") {
				local = append(local, args[0])
			}
			args, dyn = args[1:], dyn[1:]
		}
		if len(args) == 0 || dyn[0] {
			return
		}
		name, args, dyn = path.Base(args[0]), args[1:], dyn[1:]
	}
	if (strings.HasPrefix(name, "python") || name == "php" || name == "bundle" || name == "npx" || name == "pnpx" || name == "bunx") && len(args) > 0 {
		// python manage.py migrate, php artisan migrate:fresh, bundle exec
		// rake db:drop, npx prisma migrate reset
		i := 0
		if name == "bundle" && args[0] == "exec" {
			i = 1
		}
		if i < len(args) && !dyn[i] {
			name, args, dyn = path.Base(args[i]), args[i+1:], dyn[i+1:]
		}
	}
	fam := families()[name]
	if fam == nil {
		return
	}
	ops, w := fam.split(args, dyn)
	if fam.readOnly(ops) || dryRun(name, args, dyn) {
		return
	}
	if w.name == "" {
		w = localContext(fam, local)
	}
	if w.name == "" {
		w = ch.context(c, fam, cmd, own)
	}
	if w.name == "" || !ch.spend() {
		return
	}
	// the command alone: High and above in production is Critical
	level, why := risk.High, ""
	if ch.assess != nil {
		syn := ch.call(c, "sh", cmd.Line(), nil, c.Cwd)
		as := ch.assess(ch.ctx, syn)
		if as.Level != risk.Unknown && as.Level.AtLeast(risk.High) {
			level = risk.Critical
			for _, f := range as.Findings {
				if f.Level == as.Level {
					why = f.Reason
					break
				}
			}
		}
	}
	reason := fmt.Sprintf("This changes production with %s (%s)", name, secrets.MaskURLPasswords(w.why))
	if why != "" {
		reason += ": " + why
	}
	// critical destruction of production: no allow rule or mode opens it
	ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleProduction, Level: level, Reason: reason, Resource: "context:" + secrets.MaskURLPasswords(w.name),
		Locked: level == risk.Critical})
}

// dryRunFlags make a command only report what it would do: a dry run
// changes nothing in production, and its own level is the command's
// (cli.delete reads a dry run low).
var dryRunFlags = set("--dry-run", "--dryrun", "--dry", "--what-if", "--whatif", "-WhatIf", "--noop", "--plan", "--check")

// dryRun reports whether the words of program name ask for a dry run:
// one of dryRunFlags (--dry-run=client and =server too, not =none), or
// -n where it means so (rake -n; kubectl's -n is a namespace, az's a
// name).
func dryRun(name string, args []string, dyn []bool) bool {
	for i, a := range args {
		if dyn[i] {
			continue
		}
		if a == "--" {
			break
		}
		if dryRunFlags[a] || a == "-n" && name == "rake" {
			return true
		}
		if v, ok := strings.CutPrefix(a, "--dry-run="); ok {
			return v != "none" && v != "false" && v != "0"
		}
	}
	return false
}

// split returns the operands of a family command's words, and the
// production context its own flags name, if any.
func (f *family) split(args []string, dyn []bool) (ops []string, w where) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break // what follows is another program's (kubectl exec … -- cmd)
		}
		if dyn[i] {
			ops = append(ops, a)
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			if k, v, ok := strings.Cut(a, "="); ok && f.name == "app" && slices.Contains(f.vars, k) {
				// rake db:reset RAILS_ENV=production
				if w.name == "" && tool.IsProduction(v) {
					w = where{v, a + " on the command line"}
				}
				continue
			}
			ops = append(ops, a)
			continue
		}
		flag, val, hasVal := strings.Cut(a, "=")
		selects := slices.Contains(f.flags, flag)
		if !hasVal && (selects || slices.Contains(f.valued, flag)) && i+1 < len(args) {
			i++
			val = args[i]
			if dyn[i] {
				continue
			}
		}
		if selects && w.name == "" && tool.IsProduction(val) {
			w = where{val, flag + " " + val}
		}
	}
	return ops, w
}

// context returns the production context the command cmd of family fam
// acts in, if any: the one the conversation (or this call, own) selected,
// one an exported variable names, or the command's directory.
func (ch *chain) context(c *tool.Call, fam *family, cmd tool.Command, own map[string]Context) where {
	if ctx, ok := own[fam.name]; ok {
		if tool.IsProduction(ctx.Name) {
			return where{ctx.Name, fmt.Sprintf("%s context %s, selected in this call", fam.name, ctx.Name)}
		}
	} else if ctx, ok := ch.st.contexts[fam.name]; ok && tool.IsProduction(ctx.Name) {
		return where{ctx.Name, fmt.Sprintf("%s context %s, selected in step %d", fam.name, ctx.Name, ctx.Step)}
	}
	vars := &ch.st.prior // a script's call has none of its own
	for _, list := range [][]string{fam.vars, anyEnv} {
		for _, v := range list {
			if val, ok := ch.variable(c, vars, v); ok && tool.IsProduction(val) {
				return where{val, fmt.Sprintf("%s=%s in the conversation's environment", v, val)}
			}
		}
	}
	if w := scriptAssigns(c, fam); w.name != "" {
		return w
	}
	if fam.dir {
		d := cmd.Dir
		if d == "" {
			d = c.Cwd
		}
		if d != c.Workspace && tool.IsProduction(strings.TrimPrefix(d, c.Workspace)) {
			return where{d, "run in " + d}
		}
	}
	return where{}
}

// localContext returns the production context that assignments for one
// command (NAME=value) name for family fam, if any.
func localContext(fam *family, env []string) where {
	for _, a := range env {
		k, v, _ := strings.Cut(a, "=")
		if (slices.Contains(fam.vars, k) || slices.Contains(anyEnv, k)) && tool.IsProduction(v) {
			return where{v, a + " for this command"}
		}
	}
	return where{}
}

// scriptAssigns returns the production context an assignment written in
// the call's script names for family fam (AWS_PROFILE=prod aws …, the
// form the commands do not carry): any such word of the script counts,
// for every command of it (an over-approximation, read only for a
// command that changes something and has no context otherwise).
func scriptAssigns(c *tool.Call, fam *family) where {
	for _, s := range c.Shell {
		if !strings.Contains(s, "=") {
			continue
		}
		for _, f := range strings.Fields(s) {
			k, v, ok := strings.Cut(f, "=")
			if !ok || !(slices.Contains(fam.vars, k) || slices.Contains(anyEnv, k)) {
				continue
			}
			v = strings.Trim(strings.TrimRight(v, ";&|)"), `"'`)
			if tool.IsProduction(v) {
				return where{v, k + "=" + v + " in the script"}
			}
		}
	}
	return where{}
}

// variable returns the value of the shell variable name the conversation
// set, this call's own assignments first.
func (ch *chain) variable(c *tool.Call, prior *tool.Prior, name string) (string, bool) {
	for i := len(c.Effects) - 1; i >= 0; i-- {
		if e := &c.Effects[i]; e.Kind == tool.SetVar && e.Path == name {
			return e.Text, e.Known
		}
	}
	if prior == nil {
		return "", false
	}
	v, ok := prior.Vars[name]
	return v, ok
}
