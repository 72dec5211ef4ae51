package shell

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// git's knowledge is a model of its command line rather than rows: what a
// command discards depends on how git reads its words (checkout main
// switches branches, checkout main -- f and checkout f.go discard changes
// to f; restore touches the working tree unless only --staged is given),
// which flags and leading operands alone cannot say.
//
// Levels, and why:
//   - high: what git cannot bring back (uncommitted changes in the working
//     tree or index, untracked files, stashes), and what others lose
//     (remote branches overwritten or deleted, history rewritten);
//   - medium: what is lost only to git's own recovery (a conflicted path
//     overwritten with one side, which checkout -m restores; a forced push
//     with lease to a feature branch; pruning unreachable objects now);
//   - low: what stays recoverable from the reflog (commit --amend,
//     reset --keep, a local tag deleted).
// Switching branches, staging, unstaging, stashing, pushing and
// fetching are not findings.

// gitLine is a git command line as git reads it: the global options
// before the subcommand, the subcommand, then its options (clusters as
// written, values attached or not) and operands; paths are the operands
// after --.
type gitLine struct {
	// dir and workTree are the values of -C (each resolved against the
	// one before) and --work-tree; dirDyn: one is computed at run time
	dir, workTree string
	dirDyn        bool
	sub           string
	flags         []string
	ops           []string
	paths         []string
	dashdash      bool
	dynOps        bool     // an operand is computed at run time
	config        []string // -c key=value, lower-cased keys
	opsDyn        []bool
}

// gitGlobalValue reports git's global options that take the next word.
func gitGlobalValue(f string) bool {
	switch f {
	case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env":
		return true
	}
	return false
}

// gitValue reports whether option f of subcommand sub takes the next word
// as its value (which is then no operand).
func gitValue(sub, f string) bool {
	switch f {
	case "--pathspec-from-file", "--conflict", "--message", "--file", "--author", "--date", "--template",
		"--push-option", "--repo", "--receive-pack", "--exec", "--source", "--expire", "--expire-unreachable",
		"--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format", "--sort",
		"--set-upstream-to", "--orphan", "--onto", "--strategy", "--strategy-option", "--reason":
		return true
	}
	switch sub {
	case "commit":
		return f == "-m" || f == "-F" || f == "-c" || f == "-C" || f == "-t"
	case "tag":
		return f == "-m" || f == "-F" || f == "-u"
	case "checkout", "worktree":
		return f == "-b" || f == "-B"
	case "switch":
		return f == "-c" || f == "-C"
	case "restore":
		return f == "-s"
	case "clean":
		return f == "-e" || f == "--exclude"
	case "push":
		return f == "-o"
	case "branch":
		return f == "-u"
	case "rebase":
		return f == "-x" || f == "-s" || f == "-X"
	case "merge", "pull":
		return f == "-m" || f == "-s" || f == "-X" || f == "-F"
	case "stash":
		return f == "-m"
	case "remote":
		return f == "-t" || f == "-m" || f == "--track" || f == "--master"
	case "config":
		return f == "-f" || f == "--file" || f == "--type" || f == "--blob"
	}
	return false
}

// gitRoom is room for the lists of a gitLine of a few words, which its
// reader keeps on its stack (see readGit).
type gitRoom struct {
	words [3 * gitRoomWords]string
	dyn   [gitRoomWords]bool
}

// gitRoomWords is how many words after the subcommand a gitRoom holds.
const gitRoomWords = 8

// readGit reads a git command line (c.Args[0] is git); ok is false when
// there is no subcommand, or it is computed at run time. The lists of g
// are in room when it holds them (nil: never).
func readGit(c Command, room *gitRoom) (g gitLine, ok bool) {
	i := 1
	for ; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] {
			return g, false
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
		if v, ok := strings.CutPrefix(a, "--work-tree="); ok {
			g.workTree = v
		}
		if gitGlobalValue(a) && i+1 < len(c.Args) {
			v := c.Args[i+1]
			switch a {
			case "-c":
				g.config = append(g.config, strings.ToLower(v))
			case "-C":
				g.dir, g.dirDyn = path.Join(g.dir, v), g.dirDyn || c.Dynamic[i+1]
				if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
					g.dir = v
				}
			case "--work-tree":
				g.workTree, g.dirDyn = v, g.dirDyn || c.Dynamic[i+1]
			}
			i++
		}
	}
	if i >= len(c.Args) {
		return g, false
	}
	g.sub = c.Args[i]
	if n := len(c.Args) - i - 1; n > 0 {
		// each word left is a flag, an operand or a path, or a flag's
		// value: room for each list at once, not grown word by word
		var words []string
		if room != nil && n <= gitRoomWords {
			words, g.opsDyn = room.words[:3*n], room.dyn[:0:n]
		} else {
			words, g.opsDyn = make([]string, 3*n), make([]bool, 0, n)
		}
		g.flags, g.ops, g.paths = words[:0:n], words[n:n:2*n], words[2*n:2*n]
	}
	for i++; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" && !c.Dynamic[i] && !g.dashdash {
			g.dashdash = true
			continue
		}
		if g.dashdash {
			g.paths = append(g.paths, a)
			g.dynOps = g.dynOps || c.Dynamic[i]
			continue
		}
		if len(a) > 1 && a[0] == '-' && !c.Dynamic[i] {
			g.flags = append(g.flags, a)
			if gitValue(g.sub, a) && !strings.Contains(a, "=") && i+1 < len(c.Args) {
				i++
			}
			continue
		}
		g.ops = append(g.ops, a)
		g.opsDyn = append(g.opsDyn, c.Dynamic[i])
		g.dynOps = g.dynOps || c.Dynamic[i]
	}
	return g, true
}

func (g *gitLine) has(fs ...string) bool {
	for _, f := range fs {
		if hasFlag(g.flags, f) {
			return true
		}
	}
	return false
}

// flagValue returns the value of --name=value among the flags.
func (g *gitLine) flagValue(name string) (string, bool) {
	for _, f := range g.flags {
		if v, ok := strings.CutPrefix(f, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// gitFindings judges git command c (see the levels above).
func gitFindings(out []risk.Finding, c Command, env paths.Env) []risk.Finding {
	// no room: what the findings say of g's words makes it escape
	g, ok := readGit(c, nil)
	if !ok {
		return out
	}
	add := func(rule string, l risk.Level, reason string) {
		out = append(out, risk.Finding{Analyzer: "shell", Rule: rule, Level: l, Reason: reason})
	}
	switch g.sub {
	case "checkout":
		switch {
		case g.has("-B") && !g.has("-f", "--force"):
			add("git.history_rewrite", risk.Low, "git checkout -B resets an existing branch to the start point; its old commits stay in the reflog")
		case g.has("-f", "--force"):
			add("git.discard_changes", risk.High, "git checkout --force throws away uncommitted changes in the working tree")
		case !g.pathMode():
		case g.has("--ours", "--theirs"):
			add("git.discard_changes", risk.Medium, "Checking out one side of conflicted paths overwrites them (git checkout -m brings the conflict back)")
		default:
			add("git.discard_changes", risk.High, "git checkout of paths ("+g.pathsShown()+") overwrites them, discarding their uncommitted changes for good")
		}
	case "switch":
		if g.has("-f", "--force", "--discard-changes") {
			add("git.discard_changes", risk.High, "A forced switch throws away uncommitted changes in the working tree")
		} else if g.has("-C", "--force-create") {
			add("git.history_rewrite", risk.Low, "git switch -C resets an existing branch to the start point; its old commits stay in the reflog")
		}
	case "restore":
		worktree := g.has("-W", "--worktree") || !g.has("-S", "--staged")
		if worktree && (len(g.ops)+len(g.paths) > 0 || g.has("--pathspec-from-file")) {
			l := risk.High
			if g.has("-p", "--patch") {
				l = risk.Medium
			}
			add("git.discard_changes", l, "git restore ("+g.pathsShown()+") overwrites the working tree's files, discarding their uncommitted changes for good")
		}
	case "checkout-index":
		if g.has("-f", "--force") {
			add("git.discard_changes", risk.High, "git checkout-index --force overwrites working-tree files, discarding their uncommitted changes")
		}
	case "read-tree":
		if g.has("--reset") && g.has("-u") {
			add("git.discard_changes", risk.High, "git read-tree --reset -u overwrites the index and working tree, discarding uncommitted changes")
		}
	case "reset":
		switch {
		case g.has("--hard"):
			add("git.reset_hard", risk.High, "git reset --hard discards uncommitted changes in the index and working tree for good")
		case g.has("--merge"):
			add("git.reset_hard", risk.High, "git reset --merge discards staged changes")
		case g.has("--keep"):
			add("git.reset_hard", risk.Low, "git reset --keep moves the branch; local changes are kept and the old commit stays in the reflog")
		}
	case "clean":
		force := g.has("-f", "--force") || g.configIs("clean.requireforce", "false")
		switch {
		case g.has("-n", "--dry-run"):
		case force:
			l, where := g.cleanLevel(c, env)
			add("git.clean_force", l, "git clean -f deletes untracked files"+where+", which git cannot bring back")
		case g.has("-i", "--interactive"):
			add("git.clean_force", risk.Medium, "git clean -i deletes the untracked files chosen interactively")
		}
	case "stash":
		if len(g.ops) > 0 {
			switch g.ops[0] {
			case "clear":
				add("git.discard_changes", risk.High, "git stash clear drops every stash, the saved uncommitted work in them with it")
			case "drop":
				add("git.discard_changes", risk.High, "git stash drop deletes a stash, the saved uncommitted work in it with it")
			}
		}
	case "branch":
		if g.has("-D") || g.has("-d", "--delete") && g.has("-f", "--force") {
			add("git.branch_force_delete", risk.High, "Force-deleting a branch loses the commits only it holds, merged or not")
		}
	case "push":
		if !g.has("-n", "--dry-run") { // a dry run only says what would be sent
			out = g.push(out, c)
		}
	case "filter-branch", "filter-repo":
		// filter-repo --analyze writes a report, --dry-run shows the rewrite
		if !g.has("--analyze", "--dry-run") {
			add("git.history_rewrite", risk.High, "Rewriting the repository's history changes every commit after the change; pushed, it rewrites everyone's")
		}
	case "reflog":
		if len(g.ops) > 0 && (g.ops[0] == "expire" || g.ops[0] == "delete") {
			l := risk.Medium
			if v, ok := g.flagValue("--expire"); ok && gitNow(v) || g.ops[0] == "delete" {
				l = risk.High
			}
			if v, ok := g.flagValue("--expire-unreachable"); ok && gitNow(v) {
				l = risk.High
			}
			add("git.history_rewrite", l, "Expiring the reflog removes the way back to lost commits")
		}
	case "update-ref":
		if g.has("-d") {
			add("git.history_rewrite", risk.High, "Deleting a ref directly loses the commits only it reached")
		}
	case "gc", "prune":
		if v, ok := g.flagValue("--prune"); ok && gitNow(v) || g.sub == "prune" && g.expireNow() {
			add("git.gc_prune", risk.Medium, "Pruning now removes unreachable commits that could still have been recovered")
		}
	case "worktree":
		if len(g.ops) > 0 && g.ops[0] == "remove" {
			if g.has("-f", "--force") {
				add("git.discard_changes", risk.High, "git worktree remove --force deletes a working tree with its uncommitted changes and untracked files")
			} else {
				add("git.discard_changes", risk.Low, "git worktree remove deletes a clean working tree")
			}
		}
	case "submodule":
		if len(g.ops) > 0 && (g.ops[0] == "deinit" || g.ops[0] == "update") && g.has("-f", "--force") {
			add("git.discard_changes", risk.High, "git submodule "+g.ops[0]+" --force throws away the submodules' uncommitted changes")
		}
	case "rm":
		if g.has("-f", "--force") && !g.has("--cached") {
			add("git.discard_changes", risk.Medium, "git rm --force deletes files even when they hold uncommitted changes")
		}
	case "commit":
		if g.has("--amend") {
			add("git.history_rewrite", risk.Low, "git commit --amend replaces the last commit; the old one stays in the reflog")
		}
	case "tag":
		if g.has("-d", "--delete") {
			add("git.history_rewrite", risk.Low, "Deleting a local tag")
		}
	}
	return out
}

// cleanLevel is the level of git clean -f by where it deletes: the working
// tree (--work-tree, -C, or where the command runs). Untracked files in
// the home directory, the filesystem root or a system directory are the
// user's or the machine's whole data: critical. A working tree in
// scratch space stays high: a project may live there.
func (g *gitLine) cleanLevel(c Command, env paths.Env) (risk.Level, string) {
	here := runsIn(c, env)
	dir := g.dir
	if g.workTree != "" {
		dir = path.Join(dir, g.workTree)
		if strings.HasPrefix(g.workTree, "/") || strings.HasPrefix(g.workTree, "~") {
			dir = g.workTree
		}
	}
	if g.dirDyn || c.DirDynamic && !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, "~") {
		return risk.High, " in a directory computed at run time"
	}
	if dir == "" {
		dir = "."
	}
	abs := here.Abs(dir)
	switch env.ClassifyAbs(abs) {
	case paths.Root, paths.Home, paths.System:
		return risk.Critical, " throughout " + abs
	}
	return risk.High, ""
}

// push judges git push: forced updates, deletions and mirrors of the
// remote's refs.
func (g *gitLine) push(out []risk.Finding, c Command) []risk.Finding {
	add := func(rule string, l risk.Level, reason string) {
		out = append(out, risk.Finding{Analyzer: "shell", Rule: rule, Level: l, Reason: reason})
	}
	refs := g.ops
	if len(refs) > 0 {
		refs = refs[1:] // the remote
		if unseen := g.unseenRef(); unseen != "" {
			add("git.remote_delete", risk.High, "The push's refspecs ("+cut(unseen, 60)+") are computed at run time from a listing; any of them may delete (:ref) or force (+ref) a remote branch or tag")
			return out
		}
	}
	refs = append(refs, g.paths...)
	shared := false
	for _, r := range refs {
		if sharedBranch(r) {
			shared = true
		}
	}
	switch {
	case g.has("--mirror"):
		add("git.force_push", risk.High, "git push --mirror makes the remote match this repository, overwriting and deleting its refs")
	case g.has("-f", "--force"):
		add("git.force_push", risk.High, "A force push overwrites the remote branch's history")
	case g.has("--force-with-lease", "--force-if-includes"):
		if shared {
			add("git.force_push", risk.High, "A force push rewrites the history of a shared branch")
		} else {
			add("git.force_push", risk.Medium, "A force push with lease overwrites the remote branch, but only if nobody else pushed to it meanwhile")
		}
	}
	if g.has("-d", "--delete") {
		add("git.remote_delete", risk.High, "The push deletes branches or tags on the remote")
	}
	if g.has("--prune") {
		add("git.remote_delete", risk.High, "git push --prune deletes the remote's branches that have no local counterpart")
	}
	for _, r := range refs {
		switch {
		case strings.HasPrefix(r, "+") && len(r) > 1:
			add("git.force_push", risk.High, "A +refspec push ("+r+") overwrites the remote branch's history")
		case strings.HasPrefix(r, ":") && len(r) > 1:
			add("git.remote_delete", risk.High, "Pushing an empty ref ("+r+") deletes it on the remote")
		default:
			continue
		}
		break
	}
	return out
}

// unseenRef returns the first refspec of a push (after the remote) that
// a command substitution or xargs computes at run time from a listing
// warden does not see (git ls-remote … | awk '{print ":"$2}' | xargs
// git push origin deletes every remote tag), or "". Such a word may be
// many refspecs, each a :deletion or a +force. A substitution that asks
// for the current branch (git branch --show-current, git rev-parse
// --abbrev-ref HEAD) names one branch to push, and a plain variable
// ("$BRANCH", a loop's $b) is taken as the branch name it is meant to
// hold; a literal ":" or "+" before either is judged as written.
func (g *gitLine) unseenRef() string {
	for k := 1; k < len(g.ops); k++ {
		r := g.ops[k]
		if !g.opsDyn[k] || !strings.Contains(r, "$(") && !strings.Contains(r, "`") {
			continue
		}
		if strings.HasPrefix(r, ":") || strings.HasPrefix(r, "+") {
			continue // judged below as the deletion or force it is
		}
		if currentRef(r) || namesOnly(r) {
			continue
		}
		return r
	}
	return ""
}

// currentRef reports a substitution that prints the current branch or
// commit: one ref, never a deletion.
func currentRef(r string) bool {
	for _, q := range []string{"--show-current", "--abbrev-ref HEAD", "symbolic-ref --short HEAD", "symbolic-ref -q --short HEAD", "rev-parse HEAD", "rev-parse --short HEAD", "name-rev --name-only HEAD"} {
		if strings.Contains(r, q) {
			return !strings.Contains(r, "|") && strings.Count(r, "$(")+strings.Count(r, "`") <= 2
		}
	}
	return false
}

// namesOnly reports a substitution that is one git listing of names,
// unfiltered ($(git tag -l 'v1*')): a ref name holds no ":" and pushing
// it neither deletes nor forces.
func namesOnly(r string) bool {
	for _, q := range []string{"$(git tag", "$(git branch"} {
		if strings.HasPrefix(r, q) && strings.Count(r, "$(") == 1 && !strings.ContainsAny(r, "|`;&") {
			return true
		}
	}
	return false
}

// sharedBranch reports whether a push refspec names a branch others work
// on: main, master, trunk, develop, production, release branches.
func sharedBranch(ref string) bool {
	ref = strings.TrimPrefix(ref, "+")
	if _, dst, ok := strings.Cut(ref, ":"); ok {
		ref = dst
	}
	ref = strings.TrimPrefix(ref, "refs/heads/")
	switch ref {
	case "main", "master", "trunk", "develop", "dev", "prod", "production", "staging", "release":
		return true
	}
	return strings.HasPrefix(ref, "release/")
}

// gitNow reports whether an expiry date means everything: now, all, 0.
func gitNow(v string) bool {
	switch strings.ToLower(v) {
	case "now", "all", "0", "never":
		return v != "never"
	}
	return false
}

func (g *gitLine) expireNow() bool {
	v, ok := g.flagValue("--expire")
	return ok && gitNow(v)
}

func (g *gitLine) configIs(key, value string) bool {
	for _, kv := range g.config {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key && v == value {
			return true
		}
	}
	return false
}

// pathMode reports whether git checkout reads its operands as paths to
// overwrite rather than a branch to switch to: paths after --, a tree-ish
// followed by paths, a pathspec from a file, or one operand that can only
// be a path (., a glob, a file name with an extension, a dotfile).
func (g *gitLine) pathMode() bool {
	if len(g.paths) > 0 || g.has("--pathspec-from-file") {
		return true
	}
	if g.has("-b", "-B", "--orphan") {
		return false // the operands are the new branch's start point
	}
	switch len(g.ops) {
	case 0:
		return false
	case 1:
		return !g.opsDyn[0] && pathOnly(g.ops[0])
	}
	return true // checkout <tree-ish> <pathspec>…
}

// pathsShown is the paths a command names, shortened for a reason.
func (g *gitLine) pathsShown() string {
	ps := g.paths
	if len(ps) == 0 {
		ps = g.ops
	}
	if len(ps) == 0 {
		return "from a file"
	}
	return cut(strings.Join(ps, " "), 60)
}

// pathOnly reports whether a word can only be a path to git, not a
// branch, tag or commit: ., .., a glob or pathspec magic, a path ending in
// / or starting with ./ or ../, a dotfile (no ref component starts with
// a dot), or a file name with a common extension or a well-known name.
func pathOnly(w string) bool {
	switch {
	case w == "." || w == ".." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, ":"):
		return true
	case strings.ContainsAny(w, "*?[") || strings.HasSuffix(w, "/"):
		return true
	}
	base := w[strings.LastIndexByte(w, '/')+1:]
	if strings.HasPrefix(base, ".") {
		return true
	}
	switch base {
	case "Makefile", "Dockerfile", "Gemfile", "Rakefile", "Procfile", "Jenkinsfile", "Vagrantfile", "LICENSE", "README", "CHANGELOG", "go.mod", "go.sum":
		return true
	}
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return false
	}
	ext := base[i+1:]
	if len(ext) == 1 {
		return strings.Contains("chmrs", ext) && !isDigit(base[i-1])
	}
	if len(ext) > 10 {
		return false
	}
	for j := 0; j < len(ext); j++ {
		if !(ext[j] >= 'a' && ext[j] <= 'z' || ext[j] >= 'A' && ext[j] <= 'Z') {
			return false
		}
	}
	return true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
