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
	var seen map[string]bool // added
	k := DefaultKnowledge()
	env := c.Env()
	usedBefore := c.Work.Used()
	for i, script := range scripts {
		words, isPlain := plainWords(script)
		cmds, changes, sets, err := resolveScript(script, words, isPlain, Options{Env: env, Prior: c.Prior, Work: c.Work})
		if i >= c.OwnShell {
			changes = nil // a child process: its cd and variables die with it
		}
		record(c, script, cmds, sets, err, c.Work)
		if err == nil {
			c.Dests = appendDests(c.Dests, Dests(cmds))
		}
		if err == nil && c.Prior != nil {
			// what the script does, for the session; its changes to the
			// shell come last, so that files are judged where it ran
			if effs := k.effects(cmds, env, c); len(c.Effects) == 0 {
				c.Effects = effs // its own list: not copied
			} else {
				c.Effects = append(c.Effects, effs...)
			}
			c.Effects = append(c.Effects, changes...)
		}
		if isPlain {
			// one simple command whose words are what it shows: nothing
			// to add, and bash refuses it too if it does not parse
			if err == nil {
				out = k.analyze(out, cmds, env, c)
			}
			continue
		}
		if err != nil {
			// locked: bash runs the lines before the one it cannot parse
			// (rm -rf ~ then a stray quote), so no allow rule opens it
			out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.unparsable", Level: risk.Unknown, Locked: true,
				Reason: "The shell command could not be parsed, so what it runs is unknown: " + parseMessage(err)})
			continue
		}
		out = k.analyze(out, cmds, env, c)
		dynamic := 0
		text := textOf(script)
		for _, cmd := range cmds {
			if len(cmd.Args) > 0 && cmd.Dynamic[0] && dynamic < maxDynamicFindings {
				dynamic++
				out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.dynamic_command", Level: risk.High, Reversible: true,
					Reason: fmt.Sprintf("The command name %s is computed at run time, so what runs cannot be checked", cut(cmd.Args[0], 120))})
			}
			if !novel(text, cmd, c.Work) {
				continue
			}
			line := cmd.Line()
			if line == "" || seen[line] || text.contains(line, c.Work) || c.Work.Spent() {
				continue
			}
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[line] = true
			added = append(added, line)
		}
	}
	c.Shell = append(c.Shell, added...)
	if len(added) > 0 {
		// the facts of the lines added, under a budget of their own: a
		// line repeats what the script's resolution already charged (the
		// commands nested in it), so that reading them again would charge
		// c.Work quadratically for deep wrappers. Reading the lines costs
		// about what reading the scripts did (at most 1.25 times over the
		// corpora): the budget is four times that, and what it does not
		// cover (deep wrappers, eval chains) is recorded as unread
		// (tool.ErrWorkSpent), which no allow rule approves.
		work := tool.NewBudget(max(minLineWork, lineWorkFactor*(c.Work.Used()-usedBefore)))
		for _, line := range added {
			cmds, _, sets, err := commandsIn(line, Options{Env: env, Prior: c.Prior, Work: work})
			record(c, line, cmds, sets, err, work)
		}
	}
	if !c.Known || len(c.Malformed) > 0 { // a malformed call may run its text as well
		out = append(out, textCommands(c, k, env)...)
	}
	return out, nil
}

// The budget for reading the lines the preparer adds (see Prepare): a
// multiple of what reading the scripts cost, and at least minLineWork.
const (
	lineWorkFactor = 4
	minLineWork    = 1 << 20
)

// Facts makes sure every script of c.Shell has its fact in c.Scripts (see
// tool.Script): the shell preparer records those it resolves, and Facts
// resolves the others (the scripts a preparer after it added), the same
// way, in the call's persistent shell and charged to c.Work. It reports
// nothing: the shell preparer judges the scripts. The engine calls it
// after the preparers, so that policy and session only read facts.
func Facts(c *tool.Call) {
	for _, script := range c.Shell {
		if _, ok := c.Script(script); ok {
			continue
		}
		cmds, _, sets, err := commandsIn(script, Options{Env: c.Env(), Prior: c.Prior, Work: c.Work})
		record(c, script, cmds, sets, err, c.Work)
	}
}

// record adds the fact that script of c resolved to cmds, or failed with
// err, unless c holds one already. A script resolved after the work budget
// it charged ran out is not known whole: its fact says so.
func record(c *tool.Call, script string, cmds []Command, sets bool, err error, work *tool.Budget) {
	if _, ok := c.Script(script); ok {
		return
	}
	if err == nil && work.Spent() {
		err = tool.ErrWorkSpent
	}
	c.AddScript(tool.Script{Text: script, Commands: cmds, SetsVariables: sets || err != nil, Err: err})
}

// Resolved returns the commands the shell preparer resolved a script of c
// to (its fact: see tool.Call.Script), when it did and could read it
// whole. The commands must not be modified.
func Resolved(c *tool.Call, script string) ([]Command, bool) {
	s, ok := c.Script(script)
	if !ok || s.Err != nil {
		return nil, false
	}
	return s.Commands, true
}

// Commands returns the commands a script of c runs: its fact (see
// tool.Script), or, for a script that has none (no shell preparer ran),
// the script resolved now the same way, in the call's persistent shell and
// charged to its work budget, without recording it. An error is the
// script's parse error, which the preparer reports; a script the work
// budget stopped yields the commands read before (the engine reports the
// budget).
func Commands(c *tool.Call, script string) ([]Command, error) {
	if s, ok := c.Script(script); ok {
		if s.Err == tool.ErrWorkSpent {
			return s.Commands, nil
		}
		return s.Commands, s.Err
	}
	cmds, _, _, err := commandsIn(script, Options{Env: c.Env(), Prior: c.Prior, Work: c.Work})
	return cmds, err
}

// appendDests adds to list the destinations it does not hold yet.
func appendDests(list, ds []tool.Dest) []tool.Dest {
	if len(list) == 0 {
		return append(list, ds...) // ds holds each once (see Dests)
	}
	seen := make(map[tool.Dest]bool, len(list))
	for _, d := range list {
		seen[d] = true
	}
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
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
		if cmds, _, _, err := commandsIn(t, Options{Env: env, Work: c.Work}); err == nil {
			n := len(out)
			out = k.analyze(out, cmds, env, c)
			// a string that may be a command is not one warden fails to
			// know: the unknown tool is (hints)
			out = append(out[:n], slices.DeleteFunc(out[n:], func(f risk.Finding) bool { return f.Rule == RuleUnknownCommand })...)
		}
	}
	return out
}

// commandsIn resolves a script with options o (see ResolveWith); one made
// only of plain words (see plainWords) is split on blanks instead of parsed.
//
// It also reports whether the script may set a shell variable, itself or
// in a script it runs in turn (see tool.Script.SetsVariables).
func commandsIn(script string, o Options) ([]Command, []tool.Effect, bool, error) {
	words, isPlain := plainWords(script)
	return resolveScript(script, words, isPlain, o)
}

// resolveScript is commandsIn, told whether script is plain and, if so,
// its words (plainWords: the script without its comment).
func resolveScript(script, words string, isPlain bool, o Options) ([]Command, []tool.Effect, bool, error) {
	var r *resolver
	var err error
	if isPlain {
		if !o.Work.Charge(len(script), "shell words") {
			return nil, nil, false, nil
		}
		r, err = resolvePlain(words, o)
		if err == nil && !r.sets {
			r.sets = plainSets(script)
		}
	} else {
		r, err = resolveText(script, o)
	}
	if err != nil {
		return nil, nil, true, err
	}
	out, changes, sets := r.take(), r.changes, r.sets
	release(r)
	return out, changes, sets, nil
}

// unseen appends the findings of where resolution stopped seeing, each
// at High and locked, since what is unseen may hide what no allow rule
// would open: shell.too_deep when it stopped following cmds somewhere
// because they nest too deeply (rm -rf ~ behind 40 wrappers), and
// shell.expansion_bound when a word or a variable's value would grow past
// MaxValue bytes or too many brace fields, so warden did not build it
// (and building it may exhaust the machine: a=$a$a sixty times).
func unseen(out []risk.Finding, cmds []Command) []risk.Finding {
	deep, capped := false, false
	for _, c := range cmds {
		if c.TooDeep && !deep {
			deep = true
			what := "the script"
			if len(c.Args) > 0 {
				what = cut(c.Line(), 120)
			}
			out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.too_deep", Level: risk.High, Locked: true,
				Reason: fmt.Sprintf("The command nests shells, wrappers or blocks deeper than warden follows (%d shells or wrappers, %d levels of text): what %s runs is unknown", MaxDepth, MaxNesting, what)})
		}
		if c.Capped && !capped {
			capped = true
			out = append(out, risk.Finding{Analyzer: "shell", Rule: "shell.expansion_bound", Level: risk.High, Locked: true,
				Reason: fmt.Sprintf("A word or variable would expand past %d KiB or %d fields, more than warden builds: its value is unknown, and building it may exhaust memory", MaxValue>>10, maxBraceFields)})
		}
	}
	return out
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
func novel(text *text, cmd Command, work *tool.Budget) bool {
	for i, a := range cmd.Args {
		if !cmd.Dynamic[i] && !text.contains(a, work) {
			return true
		}
	}
	return false
}

// maxDynamicFindings bounds the shell.dynamic_command findings of one
// script: past a few, more say nothing new.
const maxDynamicFindings = 8

// plainWords reports a plain script, made only of characters that bash
// takes literally: letters, digits, blanks and - _ . / : = , @ % +, and
// perhaps a comment at its end (a # that starts a word, and no newline
// after it); and returns the part of it that holds the words: s without
// its comment. Such a script splits on blanks into the words it shows
// before the comment, expands nothing and computes no command name, so
// resolving it could add nothing; and if it does not parse (a stray
// "fi"), bash refuses to run it too.
func plainWords(s string) (string, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for ; i < len(s) && s[i] != ' '; i++ { // the first word
		if s[i] == '=' {
			return "", false // an assignment (P=x, FOO=1 rm …): the parser says what it sets and runs
		}
		if !literalByte[s[i]] {
			return commentAt(s, i)
		}
	}
	for ; i < len(s); i++ {
		if !literalByte[s[i]] {
			return commentAt(s, i)
		}
	}
	return s, true
}

// commentAt reports whether s[i:] is a comment to the end of s after
// some words: a # that starts a word (after a blank), with no newline
// after it; and returns s before it.
func commentAt(s string, i int) (string, bool) {
	if s[i] != '#' || i > 0 && s[i-1] != ' ' && s[i-1] != '\t' || strings.IndexByte(s[i:], '\n') >= 0 ||
		strings.TrimLeft(s[:i], " \t") == "" {
		return "", false // a comment alone: no command, which the parser says
	}
	return s[:i], true
}

// literalByte marks the bytes plain takes literally.
var literalByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t' ||
			strings.IndexByte("-_./:=,@%+", byte(c)) >= 0
	}
	return t
}()
