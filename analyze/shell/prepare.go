package shell

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Preparer resolves the shell scripts of a call before the analyzers read
// it, and adds each resolved command line that says something the script's
// text does not (a word that resolution produced) to the call's Shell, so that every analyzer sees what
// bash will run: `r”m -fr ~` also reads as `rm -fr /home/user`.
type Preparer struct{}

// Name returns "shell".
func (Preparer) Name() string { return "shell" }

// Prepare resolves c.Shell. A script that does not parse yields a
// shell.unparsable finding at Unknown (never a silent safe); a command
// whose name is computed at run time yields shell.dynamic_command at High.
func (Preparer) Prepare(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	var out []risk.Finding
	scripts := c.Shell
	var added []string
	k := DefaultKnowledge()
	env := c.Env()
	for i, script := range scripts {
		cmds, changes, err := commandsIn(script, env, c.Prior)
		if i >= c.OwnShell {
			changes = nil // a child process: its cd and variables die with it
		}
		if err == nil {
			c.Dests = appendDests(c.Dests, Dests(cmds))
			if !plain(script) { // a plain script costs less to resolve again than to keep
				if c.Memo == nil {
					c.Memo = map[string]any{}
				}
				c.Memo[memoKey+script] = cmds
			}
		}
		if err == nil && c.Prior != nil {
			// what the script does, for the session; its changes to the
			// shell come last, so that files are judged where it ran
			c.Effects = append(c.Effects, k.Effects(cmds, env)...)
			c.Effects = append(c.Effects, changes...)
		}
		if plain(script) {
			// one simple command whose words are what it shows: nothing
			// to add, and bash refuses it too if it does not parse
			if err == nil {
				out = append(out, k.Analyze(cmds, env)...)
			}
			continue
		}
		if err != nil {
			out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.unparsable", Level: risk.Unknown,
				Reason: "The shell command could not be parsed, so what it runs is unknown: " + parseMessage(err)})
			continue
		}
		out = append(out, k.Analyze(cmds, env)...)
		for _, cmd := range cmds {
			if len(cmd.Args) > 0 && cmd.Dynamic[0] {
				out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.dynamic_command", Level: risk.High, Reversible: true,
					Reason: fmt.Sprintf("The command name %s is computed at run time, so what runs cannot be checked", cmd.Args[0])})
			}
			if !novel(script, cmd) {
				continue
			}
			line := cmd.Line()
			if line == "" || strings.Contains(script, line) || slices.Contains(added, line) {
				continue
			}
			added = append(added, line)
		}
	}
	c.Shell = append(c.Shell, added...)
	if !c.Known || len(c.Malformed) > 0 { // a malformed call may run its text as well
		out = append(out, textCommands(c, k, env)...)
	}
	return out, nil
}

const memoKey = "shell.commands:"

// Resolved returns the commands the preparer resolved a script of c to,
// when it did (in the call's persistent shell), so that later readers do
// not parse it again. The commands must not be modified.
func Resolved(c *tool.Call, script string) ([]Command, bool) {
	cmds, ok := c.Memo[memoKey+script].([]Command)
	return cmds, ok
}

// appendDests adds to list the destinations it does not hold yet.
func appendDests(list, ds []tool.Dest) []tool.Dest {
	for _, d := range ds {
		if !slices.Contains(list, d) {
			list = append(list, d)
		}
	}
	return list
}

// textCommands judges, with the command knowledge, the strings of a tool
// the catalog does not know that read as shell commands: such a tool may
// well run them. Strings that do not parse are prose, not findings.
func textCommands(c *tool.Call, k *Knowledge, env Env) []risk.Finding {
	var out []risk.Finding
	for _, t := range c.Text {
		if len(t) > maxTextScript || slices.Contains(c.Shell, t) {
			continue
		}
		if cmds, err := commands(t, env); err == nil {
			out = append(out, k.Analyze(cmds, env)...)
		}
	}
	return out
}

// commands resolves a script; one made only of plain words (see plain) is
// split on blanks instead of parsed.
func commands(script string, env Env) ([]Command, error) {
	cmds, _, err := commandsIn(script, env, nil)
	return cmds, err
}

// commandsIn is commands in the persistent shell prior (see ResolveIn).
func commandsIn(script string, env Env, prior *tool.Prior) ([]Command, []tool.Effect, error) {
	if plain(script) {
		return ResolveFieldsIn(strings.Fields(script), env, prior)
	}
	return ResolveIn(script, env, prior)
}

// maxTextScript bounds the free text read as a script.
const maxTextScript = 64 << 10

func parseMessage(err error) string {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return pe.Error()
	}
	return err.Error()
}

// novel reports whether resolution produced a word that does not stand in
// the script as written: an expanded variable, ~, escape or brace, or a
// word glued from quoted pieces (r”m). Only such commands are worth a
// second reading by the analyzers.
func novel(script string, cmd Command) bool {
	for i, a := range cmd.Args {
		if !cmd.Dynamic[i] && !strings.Contains(script, a) {
			return true
		}
	}
	return false
}

// plain reports a script made only of characters that bash takes
// literally: letters, digits, blanks and - _ . / : = , @ % +. Such a script
// splits on blanks into the words it shows, expands nothing and computes
// no command name, so resolving it could add nothing; and if it does not
// parse (a stray "fi"), bash refuses to run it too.
func plain(s string) bool {
	if f, _, _ := strings.Cut(strings.TrimLeft(s, " \t"), " "); strings.Contains(f, "=") {
		return false // an assignment (P=x, FOO=1 rm …): the parser says what it sets and runs
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t' ||
			strings.IndexByte("-_./:=,@%+", c) >= 0) {
			return false
		}
	}
	return true
}
