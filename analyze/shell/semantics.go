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
	}
	return nil
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
