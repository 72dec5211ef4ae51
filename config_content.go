package warden

import (
	"context"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/code"
	"github.com/agentwarden/warden/analyze/configcode"
	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Config content is code: what a call writes into a file that runs things
// (a CI workflow, a Dockerfile, package.json scripts, a Makefile, a git
// hook, a shell start-up file, a crontab, a systemd unit …) is assessed
// as the programs it holds, each as a shell command of its own through
// the engine's own preparers and analyzers, so that curl … | sh in a
// postinstall script is as high as running it. The findings say where
// the program sits; the level of writing to that path at all is the
// effects' (path classes), not this.

// maxConfigPrograms bounds the programs of one call assessed this way.
const maxConfigPrograms = 32

// configWrite is text a call puts into a file that runs things.
type configWrite struct {
	path string // absolute
	kind configcode.Kind
	text string
	// unknown: the call writes path with text not known here (a dynamic
	// redirection, sed -i, cp): text is empty, and only the calibration
	// of start-up writes reads it (inertStartup)
	unknown bool
}

// configWrites returns what call c writes into files that run things: the
// content its edit and write tools give (whole files and fragments), the
// known text its shell scripts write (redirections, heredocs, the lines
// given to crontab), and the known text its Python code writes there. fs
// are the findings of the preparers of c, which say which files the code
// writes (see codeConfigWrites).
func configWrites(c *tool.Call, fs [][]risk.Finding) []configWrite {
	if len(c.Content) == 0 && len(c.Shell) == 0 && len(c.Code) == 0 {
		return nil
	}
	var out []configWrite
	env := c.Env()
	add := func(p, text string) {
		if text == "" || p == "" {
			return
		}
		k := configcode.KindOf(p)
		if k == configcode.None {
			return
		}
		for _, w := range out {
			if w.path == p && w.text == text {
				return
			}
		}
		out = append(out, configWrite{path: p, kind: k, text: text})
	}
	for _, ct := range c.Content {
		if ct.Path != "" {
			add(env.Abs(ct.Path), ct.Text)
		}
	}
	for _, s := range c.Shell {
		if !strings.Contains(s, "config") {
			continue
		}
		if cmds, ok := shell.Resolved(c, s); ok {
			for _, cmd := range cmds {
				if p, text, ok := gitConfigSet(cmd, env); ok {
					add(p, text)
				}
			}
		}
	}
	effects := c.Effects // the shell preparer's, in a conversation
	if c.Prior == nil {
		effects = append(shellWrites(c, env), codeConfigWrites(c, fs)...)
	}
	for i := range effects {
		switch ef := &effects[i]; {
		case ef.Kind == tool.WriteFile && ef.Known:
			add(ef.Path, ef.Text)
		case (ef.Kind == tool.WriteFile || ef.Kind == tool.CopyFile || ef.Kind == tool.FetchFile || ef.Kind == tool.Symlink) && shellRC(ef.Path):
			out = append(out, configWrite{path: ef.Path, kind: configcode.ShellFile, unknown: true})
		}
	}
	return out
}

// The calibration of start-up writes: appending an editor, a locale, an
// alias for ls -la or a tool chain's directory to ~/.bashrc is a change of
// the user's own configuration, not code planted to run in every shell
// (configcode.InertShell says which text is inert). When everything a
// call writes into a user's shell start-up file is known and inert, the
// findings that judge the write by the file alone (the effect table's
// start-up class through a redirection, the edit tools or Python, and the
// rule pack's persist.shell_startup) are medium; what the text holds is
// judged apart as always (configFindings, the content rules), and a write
// whose text is not known, or not inert, keeps its level.

// startupWriteRules judge a write to a start-up file by its path alone.
var startupWriteRules = map[string]bool{"fs.redirect_write": true, "fs.write_system_tee": true, "edit.write": true, "code.startup_write": true,
	"persist.shell_startup": true}

// shellRC reports a user's interactive shell start-up file.
func shellRC(p string) bool {
	switch path.Base(p) {
	case ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin", ".bash_aliases", ".kshrc", ".mkshrc":
		return true
	case "config.fish":
		return strings.HasSuffix(p, "/.config/fish/config.fish")
	}
	return false
}

// inertStartup returns the shell start-up files of the user that call c
// writes only inert text into (nil for none), and whether every start-up
// file it writes is one of them.
func inertStartup(ws []configWrite) (inert map[string]bool, all bool) {
	all = true
	for _, w := range ws {
		if w.kind != configcode.ShellFile || !shellRC(w.path) {
			continue
		}
		ok := !w.unknown && configcode.InertShell(w.text)
		if prev, seen := inert[w.path]; seen {
			ok = ok && prev
		}
		if inert == nil {
			inert = map[string]bool{}
		}
		inert[w.path] = ok
		all = all && ok
	}
	return inert, all && len(inert) > 0
}

// calmStartupWrites lowers to medium the high findings that judge the
// writes of ws into user start-up files by the file alone, where the text
// written there is all known and inert (see inertStartup).
func calmStartupWrites(c *tool.Call, fs []risk.Finding, ws []configWrite) {
	inert, all := inertStartup(ws)
	if inert == nil {
		return
	}
	for _, s := range c.Shell {
		if strings.Contains(s, "sed") || strings.Contains(s, "perl") {
			// persist.shell_startup reads sed -i and perl -i, whose
			// edits no effect records: the rule keeps its level
			all = false
		}
	}
	for i := range fs {
		f := &fs[i]
		if f.Level != risk.High || !startupWriteRules[f.Rule] {
			continue
		}
		p, isFile := strings.CutPrefix(f.Resource, "file:")
		if isFile && inert[p] || f.Resource == "" && f.Rule == "persist.shell_startup" && all {
			f.Level = risk.Medium
			f.Reason += " (what it adds is settings only: no command, no variable that loads code)"
		}
	}
}

// codeWriteRules are the code analyzer's findings of a write to a named
// file.
var codeWriteRules = map[string]bool{code.RuleFileWrite: true, code.RuleStartupWrite: true}

// codeConfigWrites returns the writes of the Python code of c into files
// that run things (configcode.KindOf: git hooks, CI workflows, package
// scripts, Makefiles, crontabs, units, shell start-up files, the PATH's
// directories …), when no conversation records them: only when the code
// analyzer's findings fs name such a file is the code read again as if it
// ran in one (on a copy of the call), so that the text it writes there is
// judged as a shell redirection's or the Write tool's is.
func codeConfigWrites(c *tool.Call, fs [][]risk.Finding) []tool.Effect {
	if len(c.Code) == 0 {
		return nil
	}
	hit := false
	for _, part := range fs {
		for i := range part {
			f := &part[i]
			if p, ok := strings.CutPrefix(f.Resource, "file:"); ok && f.Analyzer == code.Name && codeWriteRules[f.Rule] &&
				configcode.KindOf(p) != configcode.None {
				hit = true
				break
			}
		}
	}
	if !hit {
		return nil
	}
	sc := tool.Call{Action: c.Action, Class: c.Class, Code: c.Code, Cwd: c.Cwd, Home: c.Home, Workspace: c.Workspace, Work: c.Work,
		Prior: &tool.Prior{}}
	if _, err := (code.Preparer{}).Prepare(context.Background(), &sc); err != nil {
		return nil
	}
	var out []tool.Effect
	for _, ef := range sc.Effects {
		if configcode.KindOf(ef.Path) != configcode.None {
			out = append(out, ef)
		}
	}
	return out
}

// shellWrites returns the effects of the scripts of c that may write a
// file that runs things (outside a conversation the shell preparer
// records none).
func shellWrites(c *tool.Call, env paths.Env) []tool.Effect {
	var out []tool.Effect
	for _, s := range c.Shell {
		cmds, ok := shell.Resolved(c, s)
		if !ok || !writesConfig(cmds, env) {
			continue
		}
		out = append(out, shell.DefaultKnowledge().Effects(cmds, env)...)
	}
	return out
}

// writesConfig reports commands that may write a file that runs things:
// a redirection to one, tee, crontab.
func writesConfig(cmds []shell.Command, env paths.Env) bool {
	for _, c := range cmds {
		for _, rd := range c.Redirs {
			if rd.Writes() && !rd.Dynamic && configcode.KindOf(env.Abs(rd.Target)) != configcode.None {
				return true
			}
		}
		if len(c.Args) > 0 && !c.Dynamic[0] {
			switch commandBase(c.Args[0]) {
			case "tee", "crontab":
				return true
			}
		}
	}
	return false
}

// gitConfigSet reads git config setting one key (git config [--global]
// KEY VALUE, git config set KEY VALUE): the file it writes and the
// setting as that file's text, for the values git runs as commands.
func gitConfigSet(c shell.Command, env paths.Env) (string, string, bool) {
	a := c.Args
	if len(a) < 4 || c.Dynamic[0] || commandBase(a[0]) != "git" {
		return "", "", false
	}
	i := 1
	dir := env.Cwd
	for ; i < len(a) && strings.HasPrefix(a[i], "-"); i++ {
		switch a[i] {
		case "-C":
			if i+1 < len(a) {
				dir = env.Abs(a[i+1])
			}
			i++
		case "-c", "--git-dir", "--work-tree", "--namespace":
			i++
		}
	}
	if i >= len(a) || a[i] != "config" {
		return "", "", false
	}
	file := dir + "/.git/config"
	var ops []string
	for i++; i < len(a); i++ {
		switch w := a[i]; {
		case c.Dynamic[i]:
			ops = append(ops, w)
		case w == "--global":
			file = strings.TrimSuffix(env.Home, "/") + "/.gitconfig"
		case w == "--system":
			file = "/etc/gitconfig"
		case w == "-f" || w == "--file":
			if i+1 < len(a) {
				file = env.Abs(a[i+1])
			}
			i++
		case w == "--type" || w == "--default" || w == "--comment" || w == "--value":
			i++
		case w == "--unset" || w == "--unset-all" || w == "--get" || w == "--get-all" || w == "--get-regexp" || w == "-l" || w == "--list" ||
			w == "-e" || w == "--edit" || w == "--remove-section" || w == "--rename-section" || w == "--get-urlmatch":
			return "", "", false
		case strings.HasPrefix(w, "-"):
		default:
			ops = append(ops, w)
		}
	}
	if len(ops) > 0 && ops[0] == "set" {
		ops = ops[1:]
	}
	if len(ops) < 2 || !strings.Contains(ops[0], ".") {
		return "", "", false
	}
	key := ops[0]
	section, name := key[:strings.IndexByte(key, '.')], key[strings.LastIndexByte(key, '.')+1:]
	return file, "[" + section + "]\n\t" + name + " = " + ops[1] + "\n", true
}

func commandBase(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// configFindings assesses the programs that c writes into files that run
// things (writes, see configWrites), each as a shell command run where the
// call runs.
func (e *Engine) configFindings(ctx context.Context, c *tool.Call, writes []configWrite) []risk.Finding {
	var out []risk.Finding
	var seen ruleReasons
	// each program is normalized into one step's call, in turn, with
	// one map of arguments: nothing keeps a program's call once its
	// findings are read
	sub := steps.Get().(*Step)
	defer func() {
		*sub = Step{}
		steps.Put(sub)
	}()
	var args map[string]any
	n := 0
	for _, w := range writes {
		if w.unknown {
			continue
		}
		if w.kind == configcode.PackageIndex {
			if f, ok := indexFinding(w, c); ok && seen.add(ruleReason{f.Rule, f.Reason}) {
				out = append(out, f)
			}
			continue
		}
		progs, fs := configcode.Read(w.kind, w.text)
		for _, f := range fs {
			f.Resource = "file:" + w.path
			out = append(out, f)
		}
		for _, p := range progs {
			if n++; n > maxConfigPrograms || c.Work.Spent() {
				break
			}
			name, key := "Bash", "command"
			if p.Lang == "python" {
				name, key = "python", "code"
			}
			if args == nil {
				args = make(map[string]any, 1)
			}
			clear(args)
			args[key] = p.Script
			sub.Action = risk.Action{Tool: name, Arguments: args}
			tool.NormalizeInto(&sub.call, &sub.Action, c.Cwd, c.Home)
			sub.call.Workspace, sub.call.Work = c.Workspace, c.Work
			where := "" // made for the first finding kept: most programs have none
			for _, f := range e.analyzeAt(ctx, &sub.call, nil, true) {
				if f.Analyzer == "secrets" || w.kind.Contained(p.Where) && hostLocal(f.Rule) {
					continue // the content's secrets are the call's own findings
				}
				if f.Level == risk.Unknown || f.Level < risk.Medium {
					// text that does not read as a script is not judged as
					// one, and what is low to run adds nothing to writing
					// it: the write itself is judged by its path
					continue
				}
				if where == "" {
					where = "In " + shown(w.path, c) + " (" + w.kind.String()
					if p.Where != "" {
						where += ", " + p.Where
					}
					where += "): "
				}
				f.Analyzer = "configcode"
				f.Reason = where + f.Reason
				if seen.add(ruleReason{f.Rule, f.Reason}) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// ruleReason is the rule and reason of a finding.
type ruleReason struct{ rule, reason string }

// ruleReasons is a set of rules and reasons: looked over while they are
// few (most calls keep none), in a map made then beyond.
type ruleReasons struct {
	few  [8]ruleReason
	n    int
	many map[ruleReason]bool
}

// add adds k to s and reports whether it was not in s already.
func (s *ruleReasons) add(k ruleReason) bool {
	if s.many != nil {
		if s.many[k] {
			return false
		}
		s.many[k] = true
		return true
	}
	if slices.Contains(s.few[:s.n], k) {
		return false
	}
	if s.n < len(s.few) {
		s.few[s.n] = k
		s.n++
		return true
	}
	s.many = make(map[ruleReason]bool, 2*len(s.few))
	for _, x := range s.few {
		s.many[x] = true
	}
	s.many[k] = true
	return true
}

// hostLocal reports a rule about what a command does to the machine it
// runs on (files, devices, accounts, services, start-up, privileges),
// which a contained program (a container image's build, a CI job) does
// to its own throwaway machine only.
func hostLocal(rule string) bool {
	for _, p := range []string{"fs.", "disk.", "priv.", "persist.", "container.", "guard.", "edit.", "res.", "cmd.credential",
		"sec.service_stop", "sec.kill_all", "sec.history_tamper", "sec.audit_tamper", "sec.immutable", "sec.kernel", "sec.firewall",
		"sec.system_power", "shell.dynamic_command", "pkg.install"} {
		if strings.HasPrefix(rule, p) && (p != "pkg.install" || rule == p) {
			return true
		}
	}
	return false
}

// shown is a path as the finding names it: relative to the workspace
// inside it, with ~ for the home.
func shown(p string, c *tool.Call) string {
	if root := c.Env().Root(); root != "" && strings.HasPrefix(p, root+"/") {
		return p[len(root)+1:]
	}
	if c.Home != "" && strings.HasPrefix(p, strings.TrimSuffix(c.Home, "/")+"/") {
		return "~" + p[len(strings.TrimSuffix(c.Home, "/")):]
	}
	return p
}

// indexFinding judges the text w writes into a package manager's
// configuration (configcode.PackageIndex) as the configuration commands
// that set the same are (npm config set registry, pip config set
// global.index-url: pkg.registry_change): a registry, index, mirror or
// source on another host than the official ones and this machine is
// high, whatever route wrote it (the Write tool, a redirection, Python).
func indexFinding(w configWrite, c *tool.Call) (risk.Finding, bool) {
	if !strings.Contains(w.text, "://") {
		return risk.Finding{}, false // IndexURLs reads only lines that hold one
	}
	for _, u := range configcode.IndexURLs(w.text) {
		if shell.OfficialRegistry(u) {
			continue
		}
		if len(u) > 80 {
			u = u[:80] + "…"
		}
		return risk.Finding{Analyzer: "configcode", Rule: "pkg.registry_change", Level: risk.High, Reversible: true, Resource: "file:" + w.path,
			Reason: "In " + shown(w.path, c) + " (" + w.kind.String() + "): the package index is pointed at " + u +
				", which can then serve any package to every later install"}, true
	}
	return risk.Finding{}, false
}
