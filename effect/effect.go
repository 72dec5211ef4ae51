// Package effect is warden's one effect model: what a call does, whatever
// route it takes (a shell command, Python code, an agent's edit tool, an MCP
// filesystem, fetch or browser tool), reduced to typed effects — an
// operation on a target of a class — and the one table that judges an
// effect by its target's class.
//
// Every route reduces to the same effects and asks Judge, so the same
// effect gets the same level through any tool: writing /tmp/x through a
// shell redirect, the Write tool, Python's open() or an MCP write_file is
// one effect, Write on Temp. The table sets the level of the effect
// itself; what a route finds beyond it (the content written, a secret
// sent, a command hidden in a patch) are other findings, which add to it.
package effect

import (
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Op is what an effect does to its target.
type Op uint8

// The operations. The table judges the file and fetch operations; the
// others name effects the routes report with their own findings so far
// (package tool's Effect carries them for the session).
const (
	Read       Op = iota + 1 // a file's data is read into the conversation
	Write                    // a file is created, overwritten, appended to or replaced (cp, mv, ln onto it)
	Delete                   // one file, or an empty directory, is removed
	DeleteTree               // a directory is removed with everything below it
	Execute                  // a file is run
	Fetch                    // a resource is requested from a destination (GET, a page opened)
	Send                     // data is sent to a destination
	Statement                // a database statement runs
	Privilege                // privileges or ownership change
	Persist                  // something is set to run later on its own
	Service                  // a service, container or process is controlled
	numOps
)

var opNames = [numOps]string{"", "read", "write", "delete", "delete-tree", "execute", "fetch", "send", "statement", "privilege", "persist", "service"}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return "op(?)"
}

// ParseOp reads an operation's name ("write", "delete-tree").
func ParseOp(s string) (Op, bool) {
	for i, n := range opNames {
		if i > 0 && n == s {
			return Op(i), true
		}
	}
	return 0, false
}

// Target is the class of what an effect touches: a file's class
// (paths.Class), a path computed at run time, the null device, or a
// network destination's class.
type Target uint8

// The targets. The file targets mirror paths.Class; FileOf maps one to
// the other.
const (
	Temp Target = iota + 1
	Workspace
	Outside
	HomeData
	WorkspaceRoot
	Startup
	Credential
	Device
	System
	Home
	Root
	Guard
	Cache
	// Dynamic is a path bash or the code computes at run time: where it
	// lands cannot be seen.
	Dynamic
	// Null is a sink that keeps nothing: /dev/null, the standard streams,
	// the terminal.
	Null

	// Loopback is this machine (localhost, 127.0.0.1, ::1): a development
	// server, a local database.
	Loopback
	// Private is the local network and cluster-internal names.
	Private
	// Metadata is a cloud instance metadata endpoint, which hands out the
	// machine's credentials.
	Metadata
	// External is any other host.
	External
	// Control is a control plane or secret store on this machine or the
	// local network, reached on its well-known port: Consul, Vault, etcd,
	// the Docker and Kubernetes APIs, the kubelet. A GET there reads
	// secrets or the machine's control state; what a development server
	// on localhost serves is Loopback.
	Control
	// Secret is a file of secrets by its name (.env, a private key, a
	// keystore: paths.Env.Secret) where its class alone says nothing
	// (the workspace, scratch space): what Reading returns for it.
	Secret
	// History is a repository's history store (.git, .hg, .svn, .jj …,
	// and .git's objects, refs and logs) in the workspace or outside
	// it: its commits, branches, stashes and reflog, which the working
	// tree does not hold.
	History
	// Kernel is a kernel control file (paths.KernelControl): a cgroup's
	// release_agent, core_pattern, uevent_helper, sysrq-trigger …,
	// through which a write runs a program as root on the host.
	Kernel
	numTargets
)

var targetNames = [numTargets]string{"", "temp", "workspace", "outside", "home-data", "workspace-root", "startup", "credential",
	"device", "system", "home", "root", "guard", "cache", "dynamic", "null", "loopback", "private", "metadata", "external", "control", "secret", "history", "kernel"}

func (t Target) String() string {
	if t < numTargets {
		return targetNames[t]
	}
	return "target(?)"
}

// ParseTarget reads a target's name ("home-data", "dynamic", "loopback").
func ParseTarget(s string) (Target, bool) {
	for i, n := range targetNames {
		if i > 0 && n == s {
			return Target(i), true
		}
	}
	return 0, false
}

// FileOf returns the target of a file of class c.
func FileOf(c paths.Class) Target {
	switch c {
	case paths.Temp:
		return Temp
	case paths.Workspace:
		return Workspace
	case paths.Outside:
		return Outside
	case paths.HomeData:
		return HomeData
	case paths.WorkspaceRoot:
		return WorkspaceRoot
	case paths.Startup:
		return Startup
	case paths.Credential:
		return Credential
	case paths.Device:
		return Device
	case paths.System:
		return System
	case paths.Home:
		return Home
	case paths.Root:
		return Root
	case paths.Guard:
		return Guard
	case paths.Cache:
		return Cache
	}
	return Dynamic // a class this package does not know: judged as unseen
}

// File returns the target of the absolute, cleaned path p under env:
// Null for the sinks that keep nothing, else its class.
func File(env paths.Env, p string) Target {
	if nullSink(p) {
		return Null
	}
	if paths.KernelControl(p) {
		return Kernel
	}
	t := FileOf(env.ClassifyAbs(p))
	if (t == Workspace || t == Outside) && historyStore(p) {
		return History
	}
	return t
}

// historyStore reports whether the absolute path p is a repository's
// history store: a version-control directory (.git, .hg, .svn, .jj,
// .bzr, _darcs, .pijul), or the objects, refs or logs of a .git. Files
// inside (.git/index.lock, .git/COMMIT_EDITMSG) are not: removing a
// stale lock is what one does.
func historyStore(p string) bool {
	i := strings.LastIndexByte(p, '/')
	switch p[i+1:] {
	case ".git", ".hg", ".svn", ".jj", ".bzr", "_darcs", ".pijul":
		return true
	case "objects", "refs", "logs":
		return i >= 0 && strings.HasSuffix(p[:i], "/.git")
	}
	return false
}

// Reading returns the target of reading the absolute, cleaned path p:
// Secret for a file of secrets by its name whose class reads are
// otherwise not judged for (a .env or a private key in the workspace),
// else File(env, p).
func Reading(env paths.Env, p string) Target {
	return ReadingOf(File(env, p), p)
}

// ReadingOf is Reading for the absolute path p whose file target t is
// known already.
func ReadingOf(t Target, p string) Target {
	// a credential path's read is judged (high): below Safe, p is none,
	// and its name alone says whether it holds secrets
	if v, _ := Judge(Read, t); v.Level <= risk.Safe {
		switch {
		case HistoryFile(p[strings.LastIndexByte(p, '/')+1:]):
			return Credential // read as the shell reads it: cat ~/.bash_history
		case paths.SecretName(p):
			return Secret
		}
	}
	return t
}

// HistoryFile reports the base name of a file where a shell or a REPL
// keeps the commands typed into it, which carry the passwords and tokens
// typed on command lines: reading one is reading a credential.
func HistoryFile(base string) bool {
	switch base {
	case ".bash_history", ".zsh_history", ".zhistory", ".histfile", ".sh_history", ".history", ".python_history",
		".psql_history", ".mysql_history", ".sqlite_history", ".node_repl_history", ".rediscli_history", ".irb_history", ".lesshst",
		"fish_history":
		return true
	}
	return false
}

// Of returns the target of a path word as a call gives it, resolved
// under env; a trailing glob (x/*) names its directory's entries, and is
// classified as that directory (paths.Contents).
func Of(env paths.Env, word string) Target {
	return File(env, env.Abs(paths.Contents(word)))
}

// nullSink reports /dev/null, the standard streams, the terminal, the
// generators and the process's file descriptors: writing there keeps
// nothing, and reading them reads no stored data.
func nullSink(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/")
}

// Verdict is what the table says of an effect.
type Verdict struct {
	Level risk.Level
	// Reversible: the effect can be undone.
	Reversible bool
	// Locked: no allow rule and no permission mode overrides the finding,
	// only a person's approval of that exact action (risk.Finding.Locked).
	Locked bool
	// Why says what the effect does to a target of its class, for a
	// finding's reason ("removes the user's home directory and everything
	// in it").
	Why string
}

// Finds reports whether the verdict is worth a finding: above Safe.
func (v Verdict) Finds() bool { return v.Level > risk.Safe }

// Judge returns the table's verdict on op applied to a target of class t,
// and false when the table does not judge that pair (an operation it has
// no row for: the route keeps its own judgement).
func Judge(op Op, t Target) (Verdict, bool) {
	if op >= numOps || t >= numTargets || op == 0 || t == 0 {
		return Verdict{}, false
	}
	c := table[op][t]
	if c.level == 0 {
		return Verdict{}, false
	}
	return Verdict{Level: c.level, Reversible: c.rev, Locked: c.level == risk.Critical && !c.rev || c.lock, Why: c.why}, true
}

// JudgeFile is Judge for a file effect whose path was named by a word:
// glob is set when the word names a directory's entries (rm ~/*) rather
// than the directory itself. Removing the filesystem root or a home
// directory without recursion fails (rm, unlink and rmdir refuse a
// directory that is not empty): the effect is nothing, judged Safe.
func JudgeFile(op Op, t Target, glob bool) (Verdict, bool) {
	if op == Delete && !glob && (t == Root || t == Home) {
		return Verdict{Level: risk.Safe, Reversible: true, Why: "cannot be removed without recursion"}, true
	}
	return Judge(op, t)
}

// Glob reports whether a path word ends in a component of glob
// characters only (x/*, x/.*), naming the entries of a directory.
func Glob(word string) bool { return paths.StripGlob(word) != word }
