package guard

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// The rule IDs.
const (
	RuleSelf        = "guard.self_modification" // critical: warden's policy, state, audit or binary
	RuleHooks       = "guard.hook_settings"     // critical: an agent's hook or permission settings
	RuleCommand     = "guard.warden_command"    // critical: a warden command that changes policy, state or hooks; high: one warden does not know
	RuleEnvironment = "guard.environment"       // high: WARDEN_* variables set or unset
	RuleUnguarded   = "guard.unguarded_agent"   // high: an agent started without its permission checks
)

// Analyzer finds the calls that would change what guards the agent.
// The zero value knows the places of paths.Guard; Files adds those only
// the running process knows.
type Analyzer struct {
	// Files are more absolute paths that guard the agent, files or whole
	// directories: the running binary, $XDG_CONFIG_HOME/warden,
	// $XDG_STATE_HOME/warden, the file $WARDEN_ORG_POLICY names.
	Files []string
	// Hooks are more absolute paths of agents' hook and permission
	// settings, files or whole directories: those an environment
	// variable moves away from where paths.Guard knows them.
	Hooks []string
}

// FromEnvironment returns the Analyzer for this process: its Files are
// the running executable (and the file its path links to), warden's
// directories under $XDG_CONFIG_HOME and $XDG_STATE_HOME, and the
// organization policy $WARDEN_ORG_POLICY names; its Hooks the agents'
// settings that $CLAUDE_CONFIG_DIR (Claude Code's settings, hook
// scripts and .claude.json), $CODEX_HOME (all of it) and $COPILOT_HOME
// (its hooks, settings, permissions and MCP servers) move, as the agent
// running the hook has them set. It reads the environment once, when
// called.
func FromEnvironment() Analyzer {
	var files, hooks []string
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.ToSlash(filepath.Clean(p))
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	hook := func(dir string, names ...string) {
		if dir == "" || !filepath.IsAbs(dir) {
			return
		}
		for _, n := range names {
			hooks = append(hooks, filepath.ToSlash(filepath.Join(dir, n)))
		}
	}
	hook(os.Getenv("CLAUDE_CONFIG_DIR"), "settings.json", "settings.local.json", "hooks", ".claude.json")
	hook(os.Getenv("CODEX_HOME"), ".")
	hook(os.Getenv("COPILOT_HOME"), "hooks", "settings.json", "config.json", "permissions-config.json", "mcp-config.json")
	if exe, err := os.Executable(); err == nil && !strings.HasSuffix(exe, ".test") {
		add(exe)
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			add(real)
		}
	}
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		add(filepath.Join(d, "warden"))
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		add(filepath.Join(d, "warden"))
	}
	add(os.Getenv("WARDEN_ORG_POLICY"))
	return Analyzer{Files: files, Hooks: hooks}
}

// Name returns "guard".
func (Analyzer) Name() string { return "guard" }

// Analyze reports every route by which c changes what guards the agent.
func (a Analyzer) Analyze(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	ck := &check{a: a, env: c.Env(), work: c.Work}
	ck.edits(c)
	ck.shell(c)
	ck.effects(c)
	ck.code(c)
	ck.sql(c)
	if c.Work.Spent() {
		// what was not looked at may be a change to the guard
		return ck.out, errors.New("guard: the work budget ran out before every path was judged")
	}
	return ck.out, nil
}

// pathWork is what judging one path costs the budget: as much as
// resolving a few hundred bytes.
const pathWork = 512

// check collects the findings of one call.
type check struct {
	a   Analyzer
	env paths.Env
	out []risk.Finding
	// work is the call's budget; seen the paths judged already (a path
	// named a thousand times is judged once): the first few in few, in
	// place (the check lives on its caller's stack), the rest in more,
	// and all of them in many once they are many (a script of many paths)
	work *tool.Budget
	few  [8]touched
	more []touched
	many map[touched]bool
	nfew int
	// probes are those unguarded read last
	probes [3]*probe
}

// touched is a change judged: to the path dir+abs, how, whole or not.
// dir is "" but for a relative path that unguarded judged: its directory,
// with a trailing slash, so that the path is not joined to it.
type touched struct {
	dir, abs string
	how      how
	whole    bool
}

// same reports whether k and o are the same change (of the same path,
// however split between dir and abs).
func (k *touched) same(o *touched) bool {
	if k.whole != o.whole || len(k.dir)+len(k.abs) != len(o.dir)+len(o.abs) || k.how != o.how {
		return false
	}
	if k.dir == o.dir {
		return k.abs == o.abs // most often: both in abs
	}
	return k.sameSplit(*o)
}

// sameSplit is same for paths split at different places.
func (k touched) sameSplit(o touched) bool {
	if len(k.dir) > len(o.dir) {
		k, o = o, k
	}
	// k.dir is the shorter head: o.dir+o.abs is k.dir, then the rest
	n := len(o.dir) - len(k.dir)
	return o.dir[:len(k.dir)] == k.dir && o.dir[len(k.dir):] == k.abs[:n] && o.abs == k.abs[n:]
}

// flat returns k with its path in abs.
func (k touched) flat() touched {
	if k.dir != "" {
		k.dir, k.abs = "", k.dir+k.abs
	}
	return k
}

// how says how a path is changed, for a reason: verb followed by what
// ("by " and "rm"), joined only when a finding is made.
type how struct{ verb, what string }

func (h how) String() string { return h.verb + h.what }

// judged reports whether k was judged already.
func (ck *check) judged(k touched) bool {
	if ck.many != nil {
		return ck.many[k.flat()]
	}
	for i := range ck.nfew {
		if ck.few[i].same(&k) {
			return true
		}
	}
	for i := range ck.more {
		if ck.more[i].same(&k) {
			return true
		}
	}
	return false
}

// remember notes that k is judged.
func (ck *check) remember(k touched) {
	switch {
	case ck.many != nil:
		ck.many[k.flat()] = true
	case ck.nfew < len(ck.few):
		ck.few[ck.nfew] = k
		ck.nfew++
	case len(ck.more) < 24:
		ck.more = append(ck.more, k)
	default:
		ck.many = make(map[touched]bool, 2*(len(ck.few)+len(ck.more)))
		for _, o := range ck.few {
			ck.many[o.flat()] = true
		}
		for _, o := range ck.more {
			ck.many[o.flat()] = true
		}
		ck.many[k.flat()] = true
	}
}

// guarded reports what the absolute path p is to the guard.
func (ck *check) guarded(p string) (paths.Guarded, bool) {
	if g, ok := ck.env.Guarded(p); ok {
		return g, true
	}
	for _, f := range ck.a.Files {
		if paths.Within(p, f) {
			return paths.Guarded{What: "warden's own file " + f}, true
		}
	}
	for _, f := range ck.a.Hooks {
		if paths.Within(p, f) {
			return paths.Guarded{What: "an agent's hook settings " + f, Hook: true}, true
		}
	}
	return paths.Guarded{}, false
}

// holds reports whether the absolute path p is a directory above a place
// that guards the agent.
func (ck *check) holds(p string) bool {
	if ck.env.HoldsGuard(p) {
		return true
	}
	for _, fs := range [][]string{ck.a.Files, ck.a.Hooks} {
		for _, f := range fs {
			if paths.Within(f, p) && f != p {
				return true
			}
		}
	}
	return false
}

// touch judges a change (how: "written by Write", "removed by rm") made to
// the path p as written, resolved in env; whole is set when the change
// reaches everything below p too (rm -r, mv, chmod -R), so that a
// directory above the guard counts.
func (ck *check) touch(env *paths.Env, p string, how how, whole bool) {
	if p == "" || strings.IndexByte(p, 0) >= 0 {
		return
	}
	if dir, rel, ok := ck.unguarded(env, p, whole); ok {
		// nothing to find (see unguarded); remembered and charged as a
		// path judged in full is
		key := touched{dir: dir, abs: rel, how: how, whole: whole}
		if !ck.judged(key) && ck.work.Charge(pathWork+len(p), "guard: paths") {
			ck.remember(key)
		}
		return
	}
	ck.judge(env, p, how, whole)
}

// judge is touch without the shortcut of unguarded: p is resolved and
// judged in full.
func (ck *check) judge(env *paths.Env, p string, how how, whole bool) {
	q := p
	if strings.IndexByte(p, '{') >= 0 && strings.Contains(p, "{}") { // IndexByte first: cheaper, and almost always -1
		// find's {} stands for every entry below its starting point
		q = strings.ReplaceAll(p, "{}", "*")
	}
	abs := env.Abs(paths.Contents(q))
	key := touched{abs: abs, how: how, whole: whole}
	if ck.judged(key) || !ck.work.Charge(pathWork+len(p), "guard: paths") {
		return
	}
	ck.remember(key)
	g, ok := ck.guarded(abs)
	switch {
	case ok:
		rule := RuleSelf
		if g.Hook {
			rule = RuleHooks
		}
		ck.add(risk.Finding{Rule: rule, Level: risk.Critical, Resource: "file:" + abs,
			Reason: "The agent changes " + g.What + " (" + abs + ", " + how.String() + "): the guard it runs under would no longer hold; only a person may do this"})
	case whole && ck.holds(abs):
		ck.add(risk.Finding{Rule: RuleSelf, Level: risk.Critical, Resource: "file:" + abs,
			Reason: "The agent changes " + abs + " as a whole (" + how.String() + "), which holds warden's policy or an agent's hook settings: the guard it runs under would no longer hold; only a person may do this"})
	}
}

// add appends f, Locked, once per rule and resource.
func (ck *check) add(f risk.Finding) {
	f.Analyzer, f.Locked = "guard", true
	for _, o := range ck.out {
		if o.Rule == f.Rule && o.Resource == f.Resource {
			return
		}
	}
	ck.out = append(ck.out, f)
}

// edits judges the files an edit tool writes, and the path arguments of an
// MCP or unknown tool whose name says it changes files (write_file,
// move_file, delete_entry, createDirectory).
func (ck *check) edits(c *tool.Call) {
	switch {
	case c.Class == tool.Edit:
		for _, p := range c.Paths {
			ck.touch(&ck.env, p, how{"written by ", c.Action.Tool}, true)
		}
		for _, ct := range c.Content {
			ck.touch(&ck.env, ct.Path, how{"written by ", c.Action.Tool}, false)
		}
	case (c.Server != "" || !c.Known) && c.Class != tool.Read && changes(c.Name):
		for _, p := range c.Paths {
			ck.touch(&ck.env, p, how{"changed by ", c.Action.Tool}, true)
		}
		for _, t := range c.Text {
			if len(t) < 4096 && !strings.ContainsAny(t, "\n") {
				ck.touch(&ck.env, t, how{"changed by ", c.Action.Tool}, true)
			}
		}
	}
}

// changes reports whether a tool's name says it changes files: one of its
// words (split at _, -, . and lower-to-upper case) is a verb of change.
func changes(name string) bool {
	var words []string
	start := 0
	for i := 1; i <= len(name); i++ {
		if i == len(name) || strings.IndexByte("_-.", name[i]) >= 0 ||
			name[i] >= 'A' && name[i] <= 'Z' && name[i-1] >= 'a' && name[i-1] <= 'z' {
			words = append(words, strings.ToLower(strings.Trim(name[start:i], "_-.")))
			start = i
		}
	}
	for _, w := range words {
		if changeVerbs[w] {
			return true
		}
	}
	return false
}

var changeVerbs = map[string]bool{
	"write": true, "move": true, "mv": true, "delete": true, "del": true, "remove": true, "rm": true, "unlink": true,
	"create": true, "edit": true, "rename": true, "copy": true, "cp": true, "mkdir": true, "put": true, "upload": true,
	"save": true, "append": true, "chmod": true, "chown": true, "patch": true, "replace": true, "truncate": true,
	"overwrite": true, "set": true, "update": true, "insert": true,
}

// effects judges the files the preparers found the call changes (in a
// session: what a Python cell writes, what xargs -a list rm removes).
func (ck *check) effects(c *tool.Call) {
	for _, e := range c.Effects {
		switch e.Kind {
		case tool.WriteFile, tool.FetchFile, tool.CopyFile, tool.Symlink:
			ck.touch(&ck.env, e.Path, writtenHow[e.Kind], false)
		case tool.MakeExecutable:
			ck.touch(&ck.env, e.Path, how{"its mode changed", ""}, false)
		case tool.RemoveFile:
			ck.touch(&ck.env, e.Path, how{"removed", ""}, true)
		}
	}
}

// writtenHow is the how of each kind of effect that writes a file:
// "written (" and its kind, made once rather than for each effect.
var writtenHow = func() (t [256]how) {
	for _, k := range []tool.EffectKind{tool.WriteFile, tool.FetchFile, tool.CopyFile, tool.Symlink} {
		t[k] = how{"written (" + k.String() + ")", ""}
	}
	return t
}()
