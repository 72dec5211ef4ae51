package shell

import (
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// judgeFunc judges a command whose knowledge is a model of how the
// program reads its words rather than rows (git, kill), appending its
// findings to out.
type judgeFunc func(out []risk.Finding, c Command, env paths.Env) []risk.Finding

// semantics returns the judge of the command name, or nil.
func semantics(name string) judgeFunc {
	switch name {
	case "git":
		return gitFindings
	case "kill":
		return killFindings
	case "ansible":
		return ansibleFindings
	}
	return nil
}

// ansibleFindings judges an ad-hoc ansible module other than the ones
// that run a command (shell, command, raw: their -a text is unwrapped
// and judged as the script it is, see wrappers.yaml): a module that only
// reads (ping, setup, debug…) gives nothing; state=absent removes what
// the module manages on every targeted host (file: high; a package,
// user or service: medium); another module changes the hosts in ways
// warden does not read (low).
func ansibleFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	module, margs, dyn := "", "", false
	for i := 1; i < len(c.Args); i++ {
		a, val := c.Args[i], ""
		switch {
		case a == "-m" || a == "--module-name" || a == "-a" || a == "--args":
			if i+1 >= len(c.Args) {
				continue
			}
			i++
			val = c.Args[i]
			dyn = dyn || c.Dynamic[i]
		case strings.HasPrefix(a, "--module-name=") || strings.HasPrefix(a, "--args="):
			val = a[strings.IndexByte(a, '=')+1:]
		case len(a) > 2 && (strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "-a")):
			val = a[2:]
		default:
			continue
		}
		if strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "--module-name") {
			module = val
		} else {
			margs = val
		}
	}
	if dyn {
		return out // a module or its arguments computed at run time: see unseen
	}
	short := module[strings.LastIndexByte(module, '.')+1:]
	switch short {
	case "", "shell", "command", "raw", "ping", "setup", "debug", "gather_facts", "stat", "find", "package_facts",
		"service_facts", "getent", "assert", "fail", "wait_for", "uri", "slurp":
		return out
	}
	f := risk.Finding{Analyzer: "shell", Rule: "remote.ansible_module", Level: risk.Low, Reversible: true,
		Reason: "ansible runs the module " + cut(module, 40) + " on every host it targets; warden does not read what it changes"}
	if absent := strings.Contains(" "+margs+" ", " state=absent "); absent {
		f.Level, f.Reversible = risk.Medium, true
		f.Reason = "ansible " + cut(module, 40) + " with state=absent removes what it manages on every host it targets"
		if short == "file" {
			f.Level, f.Reversible = risk.High, false
			f.Reason = "ansible's file module with state=absent deletes the path on every host it targets (recursively for a directory)"
		}
	}
	return append(out, mayRun(f, &c))
}

// killFindings judges kill: its first word may be a signal (-9, -KILL,
// -s KILL, -n 9; kill -1 1234 sends signal 1), the others are process
// ids, where -1 means every process the user may signal and 1 is init
// (or a container's main process).
func killFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	i, sig := 1, "TERM"
	if i < len(c.Args) && !c.Dynamic[i] {
		switch a := c.Args[i]; {
		case a == "-s" || a == "-n" || a == "--signal":
			if i+1 < len(c.Args) {
				sig = c.Args[i+1]
			}
			i += 2
		case a == "-l" || a == "-L" || a == "--list" || a == "--table":
			return out
		case len(a) > 1 && a[0] == '-' && a != "--":
			sig = a[1:]
			i++
		}
	}
	if i < len(c.Args) && c.Args[i] == "--" && !c.Dynamic[i] {
		i++
	}
	for ; i < len(c.Args); i++ {
		if c.Dynamic[i] {
			continue
		}
		switch c.Args[i] {
		case "-1":
			return append(out, risk.Finding{Analyzer: "shell", Rule: "sec.kill_all", Level: risk.High,
				Reason: "kill -1 signals every process the user may signal"})
		case "1":
			if gentleSignal(sig) {
				continue
			}
			return append(out, risk.Finding{Analyzer: "shell", Rule: "sec.kill_all", Level: risk.High,
				Reason: "Signalling process 1 stops init, or a container's main process and with it the container"})
		}
	}
	return out
}

// gentleSignal reports a signal that asks a process to reload or report
// rather than to end: HUP, USR1, USR2, CONT, WINCH, 0 (a probe).
func gentleSignal(sig string) bool {
	switch strings.TrimPrefix(strings.ToUpper(sig), "SIG") {
	case "HUP", "1", "USR1", "10", "USR2", "12", "CONT", "18", "WINCH", "28", "0":
		return true
	}
	return false
}
