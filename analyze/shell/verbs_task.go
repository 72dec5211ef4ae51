package shell

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Task runners. make destroy, just nuke, task infra:destroy, npm run
// db:drop, yarn db:reset, deno task db:reset and ansible-playbook --tags
// teardown run a target, script, recipe or tag the project defines: warden
// cannot see the Makefile, the package.json or the playbook, but the
// task's name says what it does. A task name is read as tokens (split on
// - _ : . / and case changes; tear-down is teardown), and judged by
// taskLevel (cli.task_destroy):
//   - a destructive verb (verbWords) among its tokens: high (make destroy,
//     make teardown-prod, npm run db:drop, pnpm run destroy:all);
//   - a verb that empties or resets (softVerbs: clear, reset, prune,
//     flush, uninstall, rm…) only with what holds data (taskDataWords: db,
//     prod, cluster, all…): high (yarn db:reset, make reset-db); else
//     medium (npm run clear, make uninstall, npm run reset-project);
//   - a token that says it previews or tests (plan, check, test, diff…):
//     low (make plan-destroy, npm run test:reset-db);
//   - a cache or build output as its noun (cache, dist, build,
//     node_modules…): low (npm run rm:dist, make delete-build);
//   - a disrupting verb on a defense (make disable-monitoring): high
//     (cli.impair_defense); else nothing (make kill, make down);
//   - archive is no verb here (make archive builds a tarball). npm run
//     reset-snapshots is medium (reset beside no data word: jest's
//     snapshots are test fixtures), npm run delete-snapshots high.
//
// A dry run of the runner (make -n, just --dry-run, task --dry,
// ansible-playbook --check, any --dry-run) gives low; a listing (make -p,
// just --list, task --list, ansible-playbook --list-tasks) gives nothing.
// Only task names count, not files: make build/app.o, bun run
// ./scripts/drop.ts and ansible-playbook teardown.yml name files, which
// the grammar does not judge by name (see nameVerb). rake stays with the
// path grammar (rake db:drop is rails db:drop).

// runner says how a task runner's command line reads.
type runner struct {
	values  *lazySet // flags that take the next word
	dry     *lazySet // flags that only print what would run
	list    *lazySet // flags that only list or show: nothing runs
	first   bool     // only the first word names a task; the rest are its arguments
	cluster string   // make: the one-letter flags that take a value (-C dir), in a cluster
}

// targetRunners run the targets their words name.
var targetRunners = map[string]*runner{
	"make":    makeRunner,
	"gmake":   makeRunner,
	"just":    {values: wordSet(`-f --justfile -d --working-directory --shell --shell-arg --dotenv-path --dotenv-filename --color --chooser --command-color --list-heading --list-prefix --set`), dry: wordSet(`-n --dry-run`), list: wordSet(`-l --list --summary --show -s --evaluate --dump --edit -e --init --choose --variables --fmt --changelog --groups --man --completions -h --help -V --version -c --command`), first: true},
	"task":    goTask,
	"go-task": goTask,
	"invoke":  invokeRunner,
	"inv":     invokeRunner,
	"mage":    {values: wordSet(`-d -w -t -gocmd -goos -goarch -ldflags -compile`), dry: wordSet(``), list: wordSet(`-l -h -version -init`)},
	"gulp":    jsRunner,
	"grunt":   jsRunner,
}

var (
	makeRunner = &runner{values: wordSet(`-C -f -I -o -W -l --directory --file --makefile --include-dir --old-file
--assume-old --what-if --new-file --assume-new --eval -E`), dry: wordSet(`-n --just-print --dry-run --recon -q --question`),
		list: wordSet(`-p --print-data-base -v --version -h --help`), cluster: "CfIoWlE"}
	goTask = &runner{values: wordSet(`-d --dir -t --taskfile -o --output -C --concurrency -I --interval
--output-group-begin --output-group-end --sort`), dry: wordSet(`-n --dry`), list: wordSet(`-l --list -a --list-all
--summary -h --help --version --init -i`)}
	invokeRunner = &runner{values: wordSet(`-c --collection -f --config -r --search-root`), dry: wordSet(`--dry`),
		list: wordSet(`-l --list -h --help -V --version`), first: true}
	jsRunner = &runner{values: wordSet(`--gulpfile --cwd --gruntfile --base --require`), dry: wordSet(``),
		list: wordSet(`--tasks -T --tasks-simple -h --help`)}
	ansibleRunner = &runner{values: wordSet(`-i --inventory --inventory-file -e --extra-vars -l --limit -u --user -f
--forks --vault-password-file --vault-id -M --module-path -c --connection -T --timeout --private-key --key-file
--become-user --become-method --become-password-file --connection-password-file --start-at-task --ssh-common-args
--ssh-extra-args --scp-extra-args --sftp-extra-args --skip-tags`), dry: wordSet(`-C --check`),
		list: wordSet(`--list-tasks --list-tags --list-hosts --syntax-check -h --help --version`)}
)

// taskRunners are the names taskRun reads (mayVerb lets the grammar see
// them, though most are cliOwn).
var taskRunners = wordSet(`make gmake just task go-task invoke inv mage gulp grunt ansible-playbook nx turbo lerna deno bun`)

// taskTool reports whether name may be a task runner: one of
// targetRunners, ansible-playbook, scriptRuns or taskRunners. It is a
// cheap test before their tables are looked up (TestTaskTool holds it to
// them); a name it admits that none of them holds costs only that lookup.
func taskTool(name string) bool {
	switch name {
	case "make", "gmake", "just", "task", "go-task", "invoke", "inv", "mage", "gulp", "grunt", "ansible-playbook",
		"nx", "turbo", "lerna", "deno", "bun", "npm", "pnpm", "yarn", "pdm", "mise", "pixi", "hatch", "composer", "cargo":
		return true
	}
	return false
}

// scriptRuns are the words by which a package manager or a monorepo tool
// runs a script or a task it names: npm run X, deno task X, nx run p:X.
var scriptRuns = map[string]string{
	"npm": "run run-script rum", "pnpm": "run run-script", "yarn": "run", "bun": "run", "deno": "task",
	"nx": "run", "turbo": "run", "lerna": "run", "pdm": "run", "mise": "run r", "pixi": "run", "hatch": "run",
	"composer": "run-script run", "cargo": "make",
}

// implicitScripts run a script named as their first word (yarn db:reset,
// pnpm destroy:all, bun nuke) when it is none of their own commands.
var implicitScripts = map[string]bool{"yarn": true, "pnpm": true, "bun": true}

// pkgValueFlags take the next word for the package managers and
// monorepo tools above.
var pkgValueFlags = wordSet(`--prefix -w --workspace --userconfig --cache --registry --loglevel -C --dir -F --filter
--cwd --config -c --project --cd`)

// taskRun judges command c (its name, read from args[start:]) as a task
// runner: the finding, whether there is one, and whether c is one
// (handled: the path grammar does not read it).
func taskRun(c *Command, name string, start int) (f risk.Finding, ok, handled bool) {
	if !taskTool(name) {
		return f, false, false // most commands: no table is looked up
	}
	args, dyn := c.Args, c.Dynamic
	var names []string
	dry := false
	switch r := targetRunners[name]; {
	case r != nil:
		names, dry, handled = r.targets(args, dyn, start)
	case name == "ansible-playbook":
		names, dry, handled = ansibleTags(args, dyn, start)
	default:
		if runs := scriptRuns[name]; runs != "" {
			names, handled = scriptName(name, runs, args, dyn, start)
		}
	}
	if !handled || len(names) == 0 {
		return f, false, handled
	}
	for j := start; j < len(args); j++ {
		if dyn[j] || args[j] == "--" {
			break
		}
		if args[j] == "--help" {
			return f, false, true
		}
		dry = dry || isDryRun(args[j])
	}
	best, task, verb, defense := risk.Level(0), "", "", ""
	for _, n := range names {
		if l, v, d := taskLevel(n); l > best {
			best, task, verb, defense = l, n, v, d
		}
	}
	if best == 0 {
		return f, false, true
	}
	full := name + " " + task
	if name == "ansible-playbook" {
		full = name + " --tags " + task
	}
	cmd := "`" + full + "`"
	const blind = "; warden cannot see what the task runs (the Makefile, package.json, playbook… defines it)"
	f = risk.Finding{Analyzer: "shell", Rule: "cli.task_destroy", Level: best, Resource: "cli:" + full, Reversible: best < risk.High}
	switch {
	case dry:
		f.Level, f.Reversible = risk.Low, true
		f.Reason = cmd + " is a dry run: it only prints what the task " + task + " would run"
		return f, true, true
	case defense != "" && verbWords[verb] != wordDestroy:
		f.Rule = "cli.impair_defense"
		f.Reason = cmd + " runs the task " + task + ", whose name says it " + disruptPhrase(verb) + " a safety control (" + defense + ")" + blind
	case best == risk.High:
		f.Reason = cmd + " runs the task " + task + ", whose name says it " + verbPhrase(verb) + " something (" + verb + ")" + blind
	case best == risk.Medium:
		f.Reason = cmd + " runs the task " + task + ", whose name says it " + verbPhrase(verb) + " something (" + verb + "), nothing that names data" + blind
	default:
		f.Reason = cmd + " runs the task " + task + ", whose name says it previews, tests or empties a cache or build output"
	}
	return f, true, true
}

// targets returns the task names of a target runner's command line, and
// whether it is a dry run; handled is false for a listing or help.
func (r *runner) targets(args []string, dyn []bool, start int) (names []string, dry, handled bool) {
	for i := start; i < len(args); i++ {
		a := args[i]
		if dyn[i] || a == "--" {
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flag, _, _ := strings.Cut(a, "=")
			switch {
			case r.list.has(flag):
				return nil, false, true
			case r.dry.has(flag):
				dry = true
			case r.values.has(a):
				i++
				if a == "--set" { // just --set NAME VALUE
					i++
				}
			case r.cluster != "" && a[1] != '-' && len(a) > 2:
				// make -nB, -kC dir: one-letter flags in one word
				for _, ch := range a[1:] {
					dry = dry || ch == 'n' || ch == 'q'
				}
				if strings.IndexByte(r.cluster, a[len(a)-1]) >= 0 {
					i++
				}
			}
			continue
		}
		if taskName(a) {
			names = append(names, a)
			if r.first {
				break
			}
		}
	}
	return names, dry, true
}

// taskName reports a word that can name a task: not an assignment
// (ENV=prod), not a file (build/app.o, drop.sql).
func taskName(a string) bool {
	return a != "" && len(a) <= 100 && strings.IndexAny(a, "=/.$ ") < 0
}

// ansibleTags returns the tags ansible-playbook runs (--tags, -t), and
// whether it only checks (--check).
func ansibleTags(args []string, dyn []bool, start int) (names []string, dry, handled bool) {
	r := ansibleRunner
	for i := start; i < len(args); i++ {
		a := args[i]
		if dyn[i] || a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		flag, val, eq := strings.Cut(a, "=")
		switch {
		case flag == "-t" || flag == "--tags":
			if !eq {
				if i+1 >= len(args) || dyn[i+1] {
					continue
				}
				i++
				val = args[i]
			}
			for t := range strings.SplitSeq(val, ",") {
				if t = strings.TrimSpace(t); taskName(t) {
					names = append(names, t)
				}
			}
		case strings.HasPrefix(a, "-t") && len(a) > 2 && a[2] != '-':
			names = append(names, strings.Split(a[2:], ",")...) // -tteardown
		case r.list.has(flag):
			return nil, false, true
		case r.dry.has(flag):
			dry = true
		case !eq && r.values.has(a):
			i++
		}
	}
	return names, dry, true
}

// scriptName returns the script a package manager or monorepo tool runs
// by name (npm run db:drop, yarn db:reset), and whether the command runs
// one; runs are the words by which name runs one (scriptRuns).
func scriptName(name, runs string, args []string, dyn []bool, start int) ([]string, bool) {
	i := nextWord(args, dyn, start)
	if i < 0 {
		return nil, false
	}
	if name == "yarn" && args[i] == "workspace" { // yarn workspace api db:reset
		if i = nextWord(args, dyn, i+2); i < 0 {
			return nil, false
		}
	}
	w := args[i]
	explicit := false
	for r := range strings.FieldsSeq(runs) {
		explicit = explicit || w == r
	}
	if explicit {
		j := nextWord(args, dyn, i+1)
		if j < 0 || !taskName(args[j]) {
			return nil, true // npm run: lists the scripts; bun run ./x.ts: a file
		}
		return []string{args[j]}, true
	}
	// yarn db:reset: a script unless it is one of yarn's own commands,
	// which the path grammar reads (yarn remove x, pnpm prune)
	if !implicitScripts[name] || pkgRemovals.has(w) || w == "patch-remove" || !taskName(w) {
		return nil, false
	}
	if l, _, _ := taskLevel(w); l == 0 {
		return nil, false
	}
	return []string{w}, true
}

// nextWord returns the index of the first word of args[from:] that is no
// flag or a flag's value (pkgValueFlags), or -1 (at --, a word computed at
// run time, or the end).
func nextWord(args []string, dyn []bool, from int) int {
	for i := from; i < len(args); i++ {
		a := args[i]
		if dyn[i] || a == "--" {
			return -1
		}
		if len(a) > 1 && a[0] == '-' {
			if strings.IndexByte(a, '=') < 0 && pkgValueFlags.has(a) {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// softVerbs empty, reset or uninstall rather than destroy: in a task's
// name, high only beside what holds data.
var softVerbs = map[string]bool{"clear": true, "empty": true, "flush": true, "reset": true, "prune": true,
	"uninstall": true, "forget": true, "rm": true, "rmi": true, "rmdir": true, "del": true}

// taskDataWords name what holds data, or all of it, in a task's name.
var taskDataWords = wordSet(`db dbs database databases data prod production live cluster clusters infra infrastructure
stack stacks all everything schema schemas table tables volume volumes bucket buckets storage state store redis
postgres postgresql pg mysql mongo mongodb namespace namespaces tenant tenants account accounts org orgs user users
backup backups topic topics queue queues keyspace index indices env environment environments`)

// taskPreviews say a task only previews, checks or tests.
var taskPreviews = wordSet(`plan preview dry dryrun check diff validate lint test tests spec specs show list ls get
describe status verify simulate whatif noop help e2e mock mocks fixture fixtures`)

// taskOutputs are caches and build outputs, rebuilt on demand.
var taskOutputs = wordSet(`cache caches tmp temp dist build builds out output outputs target node modules coverage
artifact artifacts pycache bin obj log logs deps`)

// taskVerbIn reports whether a token of task name n (as taskLevel reads
// them) is a destructive, disrupting or disarming verb: without one,
// taskLevel finds nothing.
func taskVerbIn(n string) bool {
	found, prev := false, ""
	tokens(n, func(t string) bool {
		if prev == "tear" && t == "down" {
			t = "teardown"
		}
		prev = t
		switch cls := verbWords[t]; {
		case cls == wordDestroy || cls == wordDisrupt || disarmVerb(t) || cls == wordNoun && compoundVerb(t):
			found = true
			return false
		}
		return true
	})
	return found
}

// taskLevel judges a task's name (see above): the level (0: nothing),
// the verb, and the defense it names ("" if none).
func taskLevel(n string) (risk.Level, string, string) {
	if !taskVerbIn(n) {
		return 0, "", "" // no verb: the sets need not be asked
	}
	return taskLevelOf(n)
}

// taskLevelOf is taskLevel without its test for a verb first.
func taskLevelOf(n string) (risk.Level, string, string) {
	var destroy, disrupt, defense string
	var preview, output, data bool
	prev := ""
	tokens(n, func(t string) bool {
		if prev == "tear" && t == "down" {
			t = "teardown"
		}
		prev = t
		switch cls := verbWords[t]; {
		case t == "archive":
		case cls == wordDestroy || cls == wordNoun && compoundVerb(t):
			if destroy == "" {
				destroy = t
			}
		case cls == wordDisrupt || disarmVerb(t):
			if disrupt == "" {
				disrupt = t
			}
		}
		preview = preview || taskPreviews.has(t)
		output = output || taskOutputs.has(t)
		data = data || taskDataWords.has(t)
		if defense == "" && defenseWords.has(t) {
			defense = t
		}
		return true
	})
	switch {
	case destroy == "" && disrupt != "" && defense != "" && !preview:
		return risk.High, disrupt, defense
	case destroy == "":
		return 0, "", ""
	case preview:
		return risk.Low, destroy, ""
	case defense != "":
		return risk.High, destroy, defense
	case output && !data:
		return risk.Low, destroy, ""
	case softVerbs[destroy] && !data:
		return risk.Medium, destroy, ""
	}
	return risk.High, destroy, ""
}
