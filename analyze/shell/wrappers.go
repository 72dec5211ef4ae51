package shell

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/agentwarden/warden/analyze/code"
	"github.com/agentwarden/warden/analyze/inline"
	"github.com/agentwarden/warden/analyze/sql"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Wrapper is one row of wrappers.yaml: a program that runs other programs
// and the grammar of its options (see the file's header).
type Wrapper struct {
	Cmd      []string          `yaml:"cmd"`
	Sub      []string          `yaml:"sub"`
	SubAfter int               `yaml:"sub_after"`
	Value    []string          `yaml:"value"`
	Value2   []string          `yaml:"value2"`
	Attached []string          `yaml:"attached"`
	Operands int               `yaml:"operands"`
	Anywhere bool              `yaml:"anywhere"`
	Whole    bool              `yaml:"whole"`
	Assigns  bool              `yaml:"assigns"`
	After    []string          `yaml:"after"`
	Run      string            `yaml:"run"`
	Script   []string          `yaml:"script"`
	JoinIf   []string          `yaml:"join_if"`
	Stdin    bool              `yaml:"stdin"`
	Files    []string          `yaml:"files"`
	NotIf    []string          `yaml:"not_if"`
	Lang     string            `yaml:"lang"`
	IfFlags  []string          `yaml:"if_flags"`
	IfValues []string          `yaml:"if_values"`
	Match    map[string]string `yaml:"match"`
	NoMatch  []string          `yaml:"no_match"`
}

// takes returns the words the flag f takes: 2 (Value2), -1 (Attached: the
// rest of its cluster), 1 (Value, a Script flag, a Files flag) or 0. It
// scans the row's lists instead of a map built per row, so that a process
// does not index every row's flags to read one command (the lists are
// short, and only a wrapper's options are read).
func (w *Wrapper) takes(f string) int {
	switch {
	case slices.Contains(w.Attached, f):
		return -1
	case slices.Contains(w.Value2, f):
		return 2
	case slices.Contains(w.Value, f) || slices.Contains(w.Files, f):
		return 1
	}
	for _, s := range w.Script {
		if g, _, _ := strings.Cut(s, "="); g == f {
			return 1
		}
	}
	return 0
}

//go:embed wrappers.yaml
var wrappersYAML []byte

//go:generate go test -run TestWrappersGenerated . -args -update

// decodeWrappers parses wrappers.yaml into its rows, as written.
func decodeWrappers(data []byte) ([]*Wrapper, error) {
	var rows []*Wrapper
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&rows); err != nil {
		return nil, fmt.Errorf("wrappers: %w", err)
	}
	return rows, nil
}

// loadWrappers parses wrappers.yaml into rows by program name.
func loadWrappers(data []byte) (map[string][]*Wrapper, error) {
	rows, err := decodeWrappers(data)
	if err != nil {
		return nil, err
	}
	return indexWrappers(rows)
}

// indexWrappers completes rows (their default run) and indexes them by
// program name.
func indexWrappers(rows []*Wrapper) (map[string][]*Wrapper, error) {
	out := make(map[string][]*Wrapper, 2*len(rows))
	for _, w := range rows {
		switch w.Run {
		case "":
			w.Run = "argv"
			if w.Lang != "" {
				w.Run = "none"
			}
		case "argv", "join", "program", "each", "stdin", "none":
		default:
			return nil, fmt.Errorf("wrappers: %v: unknown run %q", w.Cmd, w.Run)
		}
		for _, name := range w.Cmd {
			out[name] = append(out[name], w)
		}
	}
	return out, nil
}

// wrapperRows indexes the rows of wrappers.yaml, compiled into Go data
// (wrappers_gen.go) so that a new process does not parse YAML: a hook
// starts once per tool call. TestWrappersGenerated fails when the
// generated file is stale; go generate renews it.
var wrapperRows = sync.OnceValue(func() map[string][]*Wrapper {
	rows := make([]*Wrapper, len(wrapperData))
	for i := range wrapperData {
		rows[i] = &wrapperData[i]
	}
	m, err := indexWrappers(rows)
	if err != nil {
		panic(err) // the embedded file is checked by the tests
	}
	return m
})

// wrappersOf returns the rows of the program name, or of its unversioned
// name (python3.12 is python3).
func wrappersOf(name string) []*Wrapper {
	rows := wrapperRows()
	if w := rows[name]; w != nil {
		return w
	}
	if short := interpreterName(name); short != name {
		return rows[short]
	}
	return nil
}

// pieceKind is what a wrapper runs.
type pieceKind uint8

const (
	pArgv    pieceKind = iota // the command at args[at:]
	pScript                   // a script (shell, or the row's language)
	pStdin                    // a script read from stdin
	pDynamic                  // a script computed at run time
)

type piece struct {
	kind pieceKind
	at   int
	text string
}

// read appends to pieces what the wrapper w runs, given the words of its
// command (none: nothing).
func (w *Wrapper) read(pieces []piece, args []string, dyn []bool) []piece {
	var seenRoom [4]string // the flags of an option, most often one
	start := len(pieces)
	i := 1
	if len(w.Sub) > 0 {
		for skip := w.SubAfter; ; skip-- {
			for i < len(args) && !dyn[i] && isOpt(args[i]) {
				_, _, _, _, next := w.option(seenRoom[:0], args, dyn, i)
				i = next
			}
			if skip == 0 || i >= len(args) {
				break
			}
			i++ // salt '*' cmd.run: the target before the function
		}
		if i >= len(args) || dyn[i] || !slices.Contains(w.Sub, args[i]) {
			return pieces
		}
		i++
	}
	ifValue := "" // the value of the last of IfFlags given
	operands, join, noProgram, flagsDone := 0, false, false, false
	for i < len(args) {
		a := args[i]
		if dyn[i] && w.Assigns && !flagsDone && strings.Contains(a, "=") && validName(a[:strings.IndexByte(a, '=')]) {
			i++ // NAME=$value: an assignment, whatever its value
			continue
		}
		if dyn[i] {
			if w.Anywhere || operands < w.Operands {
				operands++
				i++
				continue
			}
			break
		}
		if !flagsDone && slices.Contains(w.After, a) {
			if i+1 < len(args) {
				pieces = append(pieces, piece{kind: pArgv, at: i + 1})
			}
			return pieces
		}
		if !flagsDone && a == "--" {
			i++
			if operands < w.Operands {
				flagsDone = true
				continue
			}
			break
		}
		if !flagsDone && isOpt(a) {
			seen, val, hasVal, valDyn, next := w.option(seenRoom[:0], args, dyn, i)
			if len(seen) > 0 && hasVal && slices.Contains(w.IfFlags, seen[len(seen)-1]) {
				ifValue = val
				if valDyn {
					ifValue = "\x00" // computed at run time: see below
				}
			}
			for _, f := range seen {
				if slices.Contains(w.NotIf, f) {
					return pieces[:start]
				}
				join = join || slices.Contains(w.JoinIf, f)
				noProgram = noProgram || slices.Contains(w.Files, f)
			}
			if len(seen) > 0 && hasVal {
				if valDyn {
					if st, ok := stableText(val); ok {
						val, valDyn = st, false // -cmd ".backup b-$(date +%F)"
					}
				}
				if text, ok := w.script(seen[len(seen)-1], val); ok {
					if valDyn {
						pieces = append(pieces, piece{kind: pDynamic})
					} else {
						pieces = append(pieces, piece{kind: pScript, text: text})
					}
				}
			}
			i = next
			continue
		}
		if w.Assigns && !flagsDone && strings.Contains(a, "=") && validName(a[:strings.IndexByte(a, '=')]) {
			i++
			continue
		}
		if w.Lang == "ex" && len(a) > 1 && a[0] == '+' {
			if t := a[1:]; strings.Trim(t, "0123456789") != "" {
				pieces = append(pieces, piece{kind: pScript, text: t})
			}
			i++
			continue
		}
		if w.Anywhere || operands < w.Operands {
			operands++
			i++
			continue
		}
		break
	}
	if len(w.IfFlags) > 0 && !slices.Contains(w.IfValues, ifValue) {
		// ansible -m copy -a 'src=a dest=b': the arguments of a module
		// that runs no command. A module computed at run time may be
		// one that does: its texts stay scripts (warden reads more, never
		// less, when it cannot tell)
		if ifValue != "\x00" {
			return pieces[:start]
		}
	}
	rest := i
	switch w.Run {
	case "argv":
		if rest < len(args) {
			if join {
				pieces = append(pieces, joined(args, dyn, rest))
			} else {
				pieces = append(pieces, piece{kind: pArgv, at: rest})
			}
		}
	case "join":
		if rest < len(args) {
			pieces = append(pieces, joined(args, dyn, rest))
		}
	case "program":
		// the first operand, unless a flag gave the program (sed -e, -f)
		if !noProgram && len(pieces) == 0 && rest < len(args) {
			if !dyn[rest] {
				pieces = append(pieces, piece{kind: pScript, text: args[rest]})
			} else if st, ok := stableText(args[rest]); ok {
				pieces = append(pieces, piece{kind: pScript, text: st})
			} else {
				pieces = append(pieces, piece{kind: pDynamic})
			}
		}
	case "each":
		for k := rest; k < len(args); k++ {
			if !dyn[k] {
				pieces = append(pieces, piece{kind: pScript, text: args[k]})
			} else if st, ok := stableText(args[k]); ok {
				pieces = append(pieces, piece{kind: pScript, text: st}) // sqlite3 db ".backup b-$(date +%F)"
			} else {
				pieces = append(pieces, piece{kind: pDynamic})
			}
		}
	case "stdin":
		pieces = append(pieces, piece{kind: pStdin})
	}
	if w.Stdin && len(pieces) == 0 && !noProgram && (rest >= len(args) || args[rest] == "-" && !dyn[rest]) {
		pieces = append(pieces, piece{kind: pStdin})
	}
	return pieces
}

// joined is the script made of args[from:] joined by blanks (ssh host cmd…).
func joined(args []string, dyn []bool, from int) piece {
	if slices.Contains(dyn[from:], true) {
		return piece{kind: pDynamic}
	}
	return piece{kind: pScript, text: strings.Join(args[from:], " ")}
}

// isOpt reports a word that reads as an option.
func isOpt(a string) bool { return len(a) > 1 && a[0] == '-' }

// option reads the option at args[i]: the flags it names (a cluster names
// several), appended to seen, the value of its last flag (hasVal false:
// none), whether that value is computed at run time, and the index after
// it.
func (w *Wrapper) option(seen, args []string, dyn []bool, i int) (_ []string, val string, hasVal, valDyn bool, next int) {
	a := args[i]
	take := func(f string, n int, attached string, hasAttached bool) {
		seen = append(seen, f)
		switch {
		case n == -1 || hasAttached && n != 0:
			val, hasVal, next = attached, true, i+1
		case n >= 1 && i+1 < len(args):
			val, hasVal, valDyn, next = args[i+1], true, dyn[i+1], i+1+n
		default:
			next = i + 1
		}
		next = min(next, len(args))
	}
	if strings.HasPrefix(a, "--") || w.Whole {
		if f, v, ok := cutLong(a); ok {
			return append(seen, f), v, true, false, i + 1
		}
		take(a, w.takes(a), "", false)
		return seen, val, hasVal, valDyn, next
	}
	if n := w.takes(a); n != 0 {
		take(a, n, "", false)
		return seen, val, hasVal, valDyn, next
	}
	for k := 1; k < len(a); k++ {
		f := a[k-1 : k+1] // -x, or the letter after its dash
		if k > 1 {
			f = "-" + a[k:k+1]
		}
		if n := w.takes(f); n != 0 {
			take(f, n, a[k+1:], k+1 < len(a))
			return seen, val, hasVal, valDyn, next
		}
		seen = append(seen, f)
	}
	if len(a) > 2 {
		seen = append(seen, a) // -ls, -list: a long option with one dash
	}
	return seen, "", false, false, i + 1
}

// script returns the script the flag's value carries, if the flag is one
// of the row's script flags (FLAG, or FLAG=PREFIX with a value starting
// with PREFIX).
func (w *Wrapper) script(flag, val string) (string, bool) {
	for _, s := range w.Script {
		f, pre, hasPre := strings.Cut(s, "=")
		if f != flag {
			continue
		}
		if !hasPre {
			return val, true
		}
		if rest, ok := cutPattern(val, pre); ok {
			return rest, true
		}
	}
	return "", false
}

// cutPattern matches the start of v against pat, case-insensitively, a
// "*" in pat matching any run of characters other than "=", and returns
// the rest of v.
func cutPattern(v, pat string) (string, bool) {
	for {
		star := strings.IndexByte(pat, '*')
		lit := pat
		if star >= 0 {
			lit = pat[:star]
		}
		if len(v) < len(lit) || !strings.EqualFold(v[:len(lit)], lit) {
			return "", false
		}
		v = v[len(lit):]
		if star < 0 {
			return v, true
		}
		pat = pat[star+1:]
		// the star: as few characters as let the next literal match
		next := pat
		if k := strings.IndexByte(next, '*'); k >= 0 {
			next = next[:k]
		}
		j := 0
		for j <= len(v) && !(len(v)-j >= len(next) && strings.EqualFold(v[j:j+len(next)], next)) {
			if j < len(v) && v[j] == '=' {
				return "", false
			}
			j++
		}
		if j > len(v) {
			return "", false
		}
		v = v[j:]
	}
}

// unwrap records what cmd (already added, at r.out[len(r.out)-1]) runs in
// turn: the command behind a wrapper, the script of a wrapper that takes
// one, the program text of an interpreter, find's -exec and -delete,
// parallel's and eval's commands; and, for a program warden does not
// know, the command its arguments start with.
func (r *resolver) unwrap(cmd *Command, depth, id int, off uint) error {
	self := len(r.out) - 1
	name := path.Base(cmd.Args[0])
	if name == "git" {
		if text, at, ok := gitForeach(cmd); ok {
			var err error
			if at < 0 {
				err = r.dynamicScript(name, depth, id, off)
			} else {
				err = r.nested(name, text, depth+1)
			}
			if err != nil {
				return err
			}
		}
	}
	switch name {
	case "find":
		return r.find(cmd, depth, id, off)
	case "fd", "fdfind":
		return r.fd(cmd, depth, id, off)
	case "parallel", "sem":
		return r.parallel(name, cmd, depth, id, off)
	case "eval":
		if static(*cmd, 1) {
			return r.nested(name, strings.Join(cmd.Args[1:], " "), depth+1)
		}
		return nil
	}
	rows := wrappersOf(name)
	var room [2]piece // what a wrapper runs, most often one piece
	for _, w := range rows {
		pieces := w.read(room[:0], cmd.Args, cmd.Dynamic)
		if len(pieces) == 0 {
			continue
		}
		for _, p := range pieces {
			if err := r.runPiece(self, name, w, p, cmd, depth, id, off); err != nil {
				return err
			}
		}
		return nil
	}
	if rows == nil {
		return r.mayRun(name, cmd, depth, id, off)
	}
	return nil
}

// runPiece records what one piece of a wrapper runs.
func (r *resolver) runPiece(self int, name string, w *Wrapper, p piece, cmd *Command, depth, id int, off uint) error {
	switch p.kind {
	case pArgv:
		// the command reads the wrapper's stdin: bash's heredoc behind ionice
		inner := &Command{Args: cmd.Args[p.at:], Dynamic: cmd.Dynamic[p.at:], Depth: depth + 1, Redirs: stdinRedirs(cmd.Redirs)}
		if name == "xargs" {
			inner = r.listed(cmd, replaced(cmd, inner))
		}
		return r.emitVia(name, inner, id, off)
	case pScript:
		return r.program(self, name, w.Lang, p.text, depth)
	case pStdin:
		found := false
		for _, rd := range cmd.Redirs {
			if rd.Stdin() && !rd.Dynamic {
				found = true
				if err := r.program(self, name, w.Lang, rd.Target, depth); err != nil {
					return err
				}
			}
		}
		if found || w.Run != "stdin" {
			return nil
		}
		fallthrough // at now, fed from a pipe: a script warden does not see
	case pDynamic:
		return r.dynamicScript(name, depth, id, off)
	}
	return nil
}

// dynamicScript records that name runs a script computed at run time
// (sh -c "$X", su -c "$X", an xargs -I{} sh -c '{}'): a command whose
// name is dynamic, which no reader takes as safe.
func (r *resolver) dynamicScript(name string, depth, id int, off uint) error {
	label := "$(script of " + name + ")"
	return r.emitVia(name, &Command{Args: []string{label}, Dynamic: []bool{true}, Depth: depth + 1}, id, off)
}

// replaced marks the words of an xargs -I command that hold the
// replacement string as computed at run time: they are the input's lines.
func replaced(xargs, inner *Command) *Command {
	repl := ""
	for i := 1; i < len(xargs.Args); i++ {
		a := xargs.Args[i]
		switch {
		case a == "-I" && i+1 < len(xargs.Args):
			repl = xargs.Args[i+1]
		case strings.HasPrefix(a, "-I") && len(a) > 2:
			repl = a[2:]
		case a == "-i" || a == "--replace":
			repl = "{}"
		case strings.HasPrefix(a, "--replace="):
			repl = a[len("--replace="):]
		}
	}
	if repl == "" {
		return inner
	}
	out := &Command{Args: inner.Args, Dynamic: slices.Clone(inner.Dynamic), Depth: inner.Depth}
	for i, a := range out.Args {
		if strings.Contains(a, repl) {
			out.Dynamic[i] = true
		}
	}
	return out
}

// program records what a script given to name runs: a shell script is
// resolved in turn; a program of another language is read by its analyzer
// (Python by package code, the others by package inline) and what it runs
// or amounts to is resolved as shell lines, its findings kept on the
// command at r.out[self].
func (r *resolver) program(self int, name, lang, text string, depth int) error {
	switch lang {
	case "":
		return r.nested(name, text, depth+1)
	case "python":
		return r.python(self, name, text, depth)
	}
	res := inline.Scan(lang, text, r.work)
	r.out[self].Findings = append(r.out[self].Findings, res.Findings...)
	return r.lines(self, name, res.Scripts, depth)
}

// lines resolves the shell lines an inline program amounts to; a line
// that does not parse is an unknown, not an error of the whole script.
func (r *resolver) lines(self int, name string, scripts []string, depth int) error {
	for _, s := range scripts {
		if err := r.nested(name, s, depth+1); err != nil {
			r.out[self].Findings = append(r.out[self].Findings, risk.Finding{Analyzer: "shell", Rule: "shell.unparsable", Level: risk.Unknown,
				Reason: "A command the " + name + " program runs could not be parsed, so what it runs is unknown: " + parseMessage(err)})
		}
	}
	return nil
}

// python reads Python program text with the code analyzer.
func (r *resolver) python(self int, name, text string, depth int) error {
	c := &tool.Call{Code: []tool.Code{{Lang: "python", Text: text}}, Cwd: r.vars["PWD"], Home: r.vars["HOME"], Work: r.work}
	if r.dir != "" && !r.dirDyn {
		c.Cwd = r.dir
	}
	fs, _ := code.Preparer{}.Prepare(context.Background(), c)
	for _, q := range c.SQL {
		fs = append(fs, sql.Analyze(q)...)
	}
	r.out[self].Findings = append(r.out[self].Findings, fs...)
	lines := slices.Clone(c.Shell)
	for _, u := range c.URLs {
		lines = append(lines, "curl "+tool.Quote(u))
	}
	for _, d := range c.Dests {
		if d.URL != "" {
			lines = append(lines, "curl "+tool.Quote(d.URL))
		}
	}
	return r.lines(self, name, lines, depth)
}

// find records what find runs: -exec/-execdir/-ok/-okdir CMD … ; or +
// runs CMD on every match, {} standing for it, and -delete deletes every
// match. Without a test that filters the matches (-name, -type, -mtime …)
// a match can be anything under a start point: {} is judged as the start
// point itself, a deleting command as deleting it recursively, and
// -delete as rm -rf of each start point. With one, {} is a path below the
// start point (START/{}).
func (r *resolver) find(cmd *Command, depth, id int, off uint) error {
	var starts []string
	var startDyn []bool
	i := 1
	for ; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		if !cmd.Dynamic[i] && (strings.HasPrefix(a, "-") || a == "(" || a == "!") {
			if len(starts) == 0 && (a == "-L" || a == "-H" || a == "-P") {
				continue // options before the start points
			}
			break
		}
		starts = append(starts, a)
		startDyn = append(startDyn, cmd.Dynamic[i])
	}
	if len(starts) == 0 {
		starts, startDyn = []string{"."}, []bool{false}
	}
	filtered := findFiltered(cmd.Args[i:])
	// inner is declared out of the loops: the address of a variable of a
	// loop, given to the recursive emit, would move it to the heap
	var inner Command
	for ; i < len(cmd.Args); i++ {
		switch cmd.Args[i] {
		case "-delete":
			for k, s := range starts {
				inner = Command{Args: []string{"rm", "-rf", s}, Dynamic: []bool{false, false, startDyn[k]}, Depth: depth + 1}
				if filtered {
					inner.Args = []string{"rm", "-f", below(s, startDyn[k])}
				}
				if err := r.emitVia("find", &inner, id, off); err != nil {
					return err
				}
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(cmd.Args) && cmd.Args[j] != ";" && cmd.Args[j] != "+" {
				j++
			}
			if j > i+1 {
				for k, s := range starts {
					if k == maxFeeds {
						break
					}
					inner = matchCommand(cmd, i+1, j, s, startDyn[k], filtered, depth+1)
					if err := r.emitVia("find", &inner, id, off); err != nil {
						return err
					}
				}
			}
			i = j
		}
	}
	return nil
}

// gitForeach returns the shell command git submodule foreach runs in
// every submodule: its words after foreach and its options, joined (at
// is -1 when one is computed at run time).
func gitForeach(cmd *Command) (text string, at int, ok bool) {
	i := 1
	for i < len(cmd.Args) && !cmd.Dynamic[i] && strings.HasPrefix(cmd.Args[i], "-") {
		if gitGlobalValue(cmd.Args[i]) {
			i++
		}
		i++
	}
	if i+1 >= len(cmd.Args) || cmd.Args[i] != "submodule" || cmd.Dynamic[i] {
		return "", 0, false
	}
	i++
	for i < len(cmd.Args) && (cmd.Args[i] == "--quiet" || cmd.Args[i] == "-q") {
		i++
	}
	if i >= len(cmd.Args) || cmd.Args[i] != "foreach" || cmd.Dynamic[i] {
		return "", 0, false
	}
	i++
	for i < len(cmd.Args) && !cmd.Dynamic[i] && (cmd.Args[i] == "--recursive" || cmd.Args[i] == "--quiet" || cmd.Args[i] == "-q") {
		i++
	}
	if i >= len(cmd.Args) {
		return "", 0, false
	}
	if slices.Contains(cmd.Dynamic[i:], true) {
		return "", -1, true
	}
	return strings.Join(cmd.Args[i:], " "), i, true
}

// fdValueFlags are fd's options that take the next word as their value.
var fdValueFlags = map[string]bool{"-e": true, "--extension": true, "-t": true, "--type": true, "-E": true, "--exclude": true,
	"-d": true, "--max-depth": true, "--min-depth": true, "--exact-depth": true, "-S": true, "--size": true,
	"--changed-within": true, "--changed-before": true, "--change-newer-than": true, "--change-older-than": true,
	"-o": true, "--owner": true, "-j": true, "--threads": true, "--max-results": true, "-c": true, "--color": true,
	"--base-directory": true, "--path-separator": true, "--search-path": true, "--ignore-file": true, "--format": true,
	"--batch-size": true, "--max-buffer-time": true}

// fd records what fd (fd-find) runs: fd [options] [pattern] [path…]
// -x/--exec CMD … [;] runs CMD on every match, -X/--exec-batch on all of
// them at once; {} stands for a match, appended when CMD names none. As
// with find, a search that no pattern or test narrows matches everything
// under its paths (see find).
func (r *resolver) fd(cmd *Command, depth, id int, off uint) error {
	var ops []string
	var opsDyn []bool
	filtered := false
	at, end := -1, len(cmd.Args)
	for i := 1; i < len(cmd.Args); i++ {
		a := cmd.Args[i]
		if cmd.Dynamic[i] {
			ops, opsDyn = append(ops, a), append(opsDyn, true)
			continue
		}
		switch {
		case a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch":
			at = i + 1
			for j := at; j < len(cmd.Args); j++ {
				if cmd.Args[j] == ";" && !cmd.Dynamic[j] {
					end = j
					break
				}
			}
			i = end
		case a == "--search-path" && i+1 < len(cmd.Args):
			i++
			ops, opsDyn = append(ops, "", cmd.Args[i]), append(opsDyn, false, cmd.Dynamic[i])
		case fdValueFlags[a]:
			filtered = filtered || a != "-j" && a != "--threads" && a != "-c" && a != "--color" && a != "--max-results"
			i++
		case len(a) > 1 && a[0] == '-':
			if strings.HasPrefix(a, "--extension=") || strings.HasPrefix(a, "--type=") || strings.HasPrefix(a, "--exclude=") ||
				strings.HasPrefix(a, "--size=") || strings.HasPrefix(a, "--changed-") || strings.HasPrefix(a, "--owner=") {
				filtered = true
			}
		default:
			ops, opsDyn = append(ops, a), append(opsDyn, false)
		}
	}
	if at < 0 || at >= end {
		return nil
	}
	starts, startDyn := []string{"."}, []bool{false}
	if len(ops) > 0 {
		if p := ops[0]; opsDyn[0] || p != "" && p != "." && p != "^" && p != ".*" {
			filtered = true // a pattern (or one computed at run time)
		}
		if len(ops) > 1 {
			starts, startDyn = ops[1:], opsDyn[1:]
		}
	}
	run := Command{Args: slices.Clone(cmd.Args[:end]), Dynamic: slices.Clone(cmd.Dynamic[:end])}
	if !slices.ContainsFunc(run.Args[at:], func(a string) bool { return strings.Contains(a, "{}") }) {
		run.Args, run.Dynamic = append(run.Args, "{}"), append(run.Dynamic, false)
	}
	var inner Command // out of the loop: see find
	for k, s := range starts {
		if k == maxFeeds {
			break
		}
		inner = matchCommand(&run, at, len(run.Args), s, startDyn[k], filtered, depth+1)
		if err := r.emitVia("fd", &inner, id, off); err != nil {
			return err
		}
	}
	return nil
}

// below is the path standing for a match under the start point s.
func below(s string, dyn bool) string {
	if dyn {
		return s
	}
	return strings.TrimSuffix(s, "/") + "/{}"
}

// findNeutral are the words of find's expression that do not narrow the
// matches (options, operators, actions, and -type: every file is still
// every file), with how many words they take.
var findNeutral = map[string]int{
	"-maxdepth": 1, "-mindepth": 1, "-depth": 0, "-type": 1, "-xtype": 1, "-d": 0, "-xdev": 0, "-mount": 0, "-follow": 0, "-noleaf": 0,
	"-ignore_readdir_race": 0, "-noignore_readdir_race": 0, "-regextype": 1, "-daystart": 0, "-warn": 0, "-nowarn": 0,
	"-print": 0, "-print0": 0, "-printf": 1, "-fprint": 1, "-fprint0": 1, "-fprintf": 2, "-ls": 0, "-fls": 1,
	"-delete": 0, "-quit": 0, "-true": 0, "(": 0, ")": 0, "!": 0, "-not": 0, "-a": 0, "-and": 0, "-o": 0, "-or": 0, ",": 0,
}

// findFiltered reports whether find's expression holds a test that
// narrows the matches.
func findFiltered(expr []string) bool {
	for i := 0; i < len(expr); i++ {
		a := expr[i]
		switch a {
		case "-exec", "-execdir", "-ok", "-okdir":
			for i < len(expr) && expr[i] != ";" && expr[i] != "+" {
				i++
			}
			continue
		}
		n, ok := findNeutral[a]
		if !ok {
			return true
		}
		i += n
	}
	return false
}

// deleters are the commands that, run on every file under a directory,
// delete the directory's content.
var deleters = map[string]bool{"rm": true, "unlink": true, "shred": true, "rmdir": true, "srm": true, "wipe": true}

// matchCommand is the command find runs (args[from:to] of cmd) with {}
// standing for the matches under the start point start (see find).
func matchCommand(cmd *Command, from, to int, start string, startDyn, filtered bool, depth int) Command {
	inner := Command{Args: slices.Clone(cmd.Args[from:to]), Dynamic: slices.Clone(cmd.Dynamic[from:to]), Depth: depth}
	match := start
	if filtered {
		match = below(start, startDyn)
	}
	hasMatch := false
	for k, a := range inner.Args {
		if strings.Contains(a, "{}") {
			hasMatch = true
			inner.Args[k] = strings.ReplaceAll(a, "{}", match)
			inner.Dynamic[k] = inner.Dynamic[k] || startDyn
		}
	}
	if hasMatch && !filtered && !inner.Dynamic[0] && deleters[path.Base(inner.Args[0])] {
		inner.Args = append([]string{"rm", "-rf"}, inner.Args[1:]...)
		inner.Dynamic = append([]bool{false, false}, inner.Dynamic[1:]...)
	}
	return inner
}

var parallelValueFlags = map[string]bool{"-j": true, "--jobs": true, "-S": true, "--sshlogin": true, "-a": true, "--arg-file": true, "--delay": true, "--timeout": true, "-d": true, "--delimiter": true, "-I": true, "--id": true, "--joblog": true, "--results": true, "--tmpdir": true}

// parallel records what GNU parallel runs: parallel [options] command …
// ::: arguments… runs the command once per argument, given as its last
// word; without ::: the arguments come from stdin (computed at run time).
func (r *resolver) parallel(name string, cmd *Command, depth, id int, off uint) error {
	i := 1
	for i < len(cmd.Args) {
		a := cmd.Args[i]
		if a == "--" {
			i++
			break
		}
		if cmd.Dynamic[i] || !isOpt(a) {
			break
		}
		i++
		if parallelValueFlags[a] {
			i++
		}
	}
	j := slices.Index(cmd.Args, ":::")
	if j < 0 {
		j = len(cmd.Args)
	}
	if i >= j {
		return nil
	}
	extra := cmd.Args[min(j+1, len(cmd.Args)):]
	fromStdin := len(extra) == 0
	if fromStdin {
		extra = []string{"$(stdin of parallel)"}
	}
	var inner Command // out of the loop: see find
	for k, a := range extra {
		if k == maxFeeds {
			break
		}
		inner = Command{Args: slices.Clone(cmd.Args[i:j]), Dynamic: slices.Clone(cmd.Dynamic[i:j]), Depth: depth + 1}
		dyn := fromStdin || cmd.Dynamic[j+1+k]
		placed := false
		for m, w := range inner.Args {
			if strings.Contains(w, "{}") {
				inner.Args[m] = strings.ReplaceAll(w, "{}", a)
				inner.Dynamic[m] = inner.Dynamic[m] || dyn
				placed = true
			}
		}
		if !placed {
			inner.Args = append(inner.Args, a)
			inner.Dynamic = append(inner.Dynamic, dyn)
		}
		if len(inner.Args) == 1 && !inner.Dynamic[0] && strings.ContainsAny(inner.Args[0], " ;|&") {
			// parallel 'rm -rf {}' ::: …: the command is a shell line
			if err := r.nested(name, inner.Args[0], depth+1); err != nil {
				return err
			}
			continue
		}
		if err := r.emitVia(name, &inner, id, off); err != nil {
			return err
		}
	}
	return nil
}

// mayRun is the conservative fallback for a program warden knows neither
// as a command nor as a wrapper: when its first operand names a program
// warden knows (a command of the knowledge, a wrapper, a shell or an
// interpreter), the program may well run it with the words after it, so
// that command is judged too (via "NAME (may run)").
func (r *resolver) mayRun(name string, cmd *Command, depth, id int, off uint) error {
	i := 1
	for i < len(cmd.Args) && !cmd.Dynamic[i] && isOpt(cmd.Args[i]) {
		i++
	}
	if i >= len(cmd.Args) || i+1 >= len(cmd.Args) || cmd.Dynamic[i] {
		return nil // a lone word: `man rm` runs nothing
	}
	k := DefaultKnowledge()
	if k.byName[commandName(name)] != nil || k.interp[interpreterName(name)] || notRunners[name] || informational.has(name) {
		return nil
	}
	next := cmd.Args[i]
	if strings.Contains(next, "/") && !strings.HasPrefix(next, "/") {
		return nil
	}
	base := path.Base(next)
	if k.byName[commandName(base)] == nil && wrapperRows()[base] == nil && !isShell(base) && !k.interp[interpreterName(base)] {
		return nil
	}
	inner := Command{Args: cmd.Args[i:], Dynamic: cmd.Dynamic[i:], Depth: depth + 1}
	return r.emitVia(name+mayRunVia, &inner, id, off)
}

// mayRunVia marks, in a command's Via, the program that may run it.
const mayRunVia = " (may run)"

// notRunners are programs that take a command's name and words as data,
// never running them: documentation, lookup, printing and packaging.
var notRunners = map[string]bool{
	"echo": true, "printf": true, "man": true, "info": true, "help": true, "which": true, "whereis": true, "type": true,
	"whatis": true, "apropos": true, "tldr": true, "cheat": true, "grep": true, "egrep": true, "fgrep": true, "rg": true,
	"ag": true, "ack": true, "apt": true, "apt-get": true, "apt-cache": true, "dnf": true, "yum": true, "brew": true,
	"pacman": true, "apk": true, "snap": true, "pip": true, "pip3": true, "cargo": true, "go": true, "gem": true,
	"complete": true, "compgen": true, "hash": true, "alias": true, "unalias": true, "declare": true, "export": true,
	"local": true, "readonly": true, "set": true, "unset": true, "read": true, "test": true, "[": true, "[[": true,
	"history": true, "fc": true, "jobs": true, "kill": true, "pkill": true, "pgrep": true, "killall": true, "ps": true,
	"ls": true, "cat": true, "less": true, "more": true, "head": true, "tail": true, "wc": true, "file": true,
	"stat": true, "touch": true, "mkdir": true, "dpkg": true, "rpm": true, "update-alternatives": true, "git": true,
	"make": true, "cmake": true, "say": true, "figlet": true, "cowsay": true, "logger": true, "notify-send": true,
	"sed": true, "tr": true, "cut": true, "sort": true, "uniq": true, "diff": true, "comm": true, "tee": true, "jq": true,
	"yq": true, "journalctl": true, "systemctl": true, "service": true, "port": true, "yes": true, "locate": true,
	"du": true, "df": true, "dig": true, "host": true, "nslookup": true, "ping": true, "pydoc": true, "perldoc": true,
	"ri": true, "nano": true, "code": true, "open": true, "xdg-open": true, "basename": true, "dirname": true,
	"realpath": true, "readlink": true, "command-not-found": true,
}

// fedProgram judges the program text echo or printf pipes into an
// interpreter or a wrapper that reads its script from stdin (echo
// 'system("rm -rf ~")' | perl, echo 'rm -rf ~' | at now): the command is
// read again with that text as its heredoc. (Shells fed so are read by
// the resolver itself.) The command's rows that read stdin see the text
// too (stdinRows: echo 'path "*" {…}' | vault policy write p -).
func (k *Knowledge) fedProgram(out []risk.Finding, cmds []Command, i int, env Env) []risk.Finding {
	c := cmds[i]
	name := path.Base(c.Args[0])
	if isShell(name) || slices.ContainsFunc(c.Redirs, Redirect.Stdin) {
		return out
	}
	out = k.stdinRows(out, cmds, i, env)
	reads := false
	for _, w := range wrappersOf(name) {
		var room [2]piece
		for _, p := range w.read(room[:0], c.Args, c.Dynamic) {
			reads = reads || p.kind == pStdin
		}
	}
	if !reads {
		return out
	}
	const delim = "WARDEN_STDIN"
	for _, j := range c.Inputs {
		text, ok := shown(cmds[j])
		if !ok || strings.Contains(text, delim) {
			continue
		}
		script := c.Line() + " <<'" + delim + "'\n" + text + "\n" + delim + "\n"
		if fed, err := Resolve(script, env); err == nil {
			out = append(out, k.Analyze(fed, env)...)
		}
	}
	return out
}

// stdinRedirs are the redirections that feed a command's stdin (<, a
// heredoc, a here-string): a wrapped command reads them too.
func stdinRedirs(rs []Redirect) []Redirect {
	var out []Redirect
	for _, rd := range rs {
		if rd.Stdin() || rd.Op == "<" {
			out = append(out, rd)
		}
	}
	return out
}
