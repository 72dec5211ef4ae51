package inline

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/envname"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Name is the Analyzer of the package's findings.
const Name = "inline"

// The rule IDs of the findings. They are stable: audit records and policy
// files refer to them.
const (
	RuleDynamicExec = "inline.dynamic_exec" // high: runs a command computed at run time
	RuleDynamicEval = "inline.dynamic_eval" // high: evaluates program text computed at run time
	RuleTooComplex  = "inline.too_complex"  // unknown: the program is too large to read within the budget
	RuleUnread      = "inline.unread"       // high: a program in a language Scan does not read
	RuleSDKDelete   = "inline.sdk_delete"   // high: a service SDK's method that deletes a resource (SDKDelete)
)

// Result is what an inline program does, for shell analysis.
type Result struct {
	// Scripts are shell command lines the program runs or amounts to:
	// the text of system("…"), rm -rf PATH for a recursive delete, : > PATH
	// for a write, curl URL for a request. Pieces computed at run time
	// read as "$WARDEN_DYNAMIC".
	Scripts []string
	// Findings are what the scan judges itself (commands computed at run
	// time, an exhausted budget).
	Findings []risk.Finding
}

// Lang returns the language a program or interpreter name is read as by
// Scan ("js" for node, deno and bun; "awk" for gawk, mawk …), or "" when
// Scan does not read it.
func Lang(name string) string {
	switch name {
	case "perl", "ruby", "php", "awk", "lua", "ex", "js", "sed", "psql", "mysql", "sqlite", "applescript":
		return name
	case "node", "nodejs", "deno", "bun", "javascript", "typescript":
		return "js"
	case "gsed":
		return "sed"
	case "mariadb":
		return "mysql"
	case "sqlite3":
		return "sqlite"
	case "osascript":
		return "applescript"
	case "gawk", "mawk", "nawk", "busybox-awk":
		return "awk"
	case "luajit":
		return "lua"
	case "vim", "nvim", "vi", "view", "vimdiff", "gvim":
		return "ex"
	}
	if strings.HasPrefix(name, "perl5") {
		return "perl"
	}
	if strings.HasPrefix(name, "ruby") {
		return "ruby"
	}
	if strings.HasPrefix(name, "php") {
		return "php"
	}
	return ""
}

// MaxProgram bounds the size of a program Scan reads; a larger one is
// reported as too complex.
const MaxProgram = 1 << 20

// maxEvalDepth bounds how deeply literal eval("…") text is read in turn.
const maxEvalDepth = 3

// Scan reads src, a program in lang (see Lang), and returns what it does.
// It charges work (nil: unbounded) about two units per byte; a program
// larger than MaxProgram or past the budget yields inline.too_complex.
func Scan(lang, src string, work *tool.Budget) Result {
	var res Result
	s := scanner{lang: lang, res: &res, work: work}
	s.scan(src, 0)
	s.flows()
	return res
}

type scanner struct {
	lang string
	res  *Result
	work *tool.Budget
	stop bool
	// reads are the files the program reads, as shell words; sinks the
	// requests and connections that send data, as shell command lines
	// that send their standard input (see flows); env is set when the
	// program reads the whole environment (see environ).
	reads, sinks []string
	env          bool
}

// maxFlows bounds the reads and the sinks flows pairs.
const maxFlows = 4

// flows adds, for every file the program reads and every request or
// connection of it that sends data, the pipeline that sends the file
// there (cat FILE | curl --data-binary @- URL): a token scanner cannot
// follow what the program does with what it read, and one short inline
// program that reads a key and posts to a host is how a key leaves, so
// the shell judges the pair as it judges that pipeline (a credential
// file: exfiltration; a workspace file: an upload).
//
// The pipelines come first among the scripts: the shell judges them
// before the program's other lines, which a large program may have the
// work budget run out on.
func (s *scanner) flows() {
	if len(s.reads) == 0 && !s.env || len(s.sinks) == 0 {
		return
	}
	flows := make([]string, 0, (len(s.reads)+1)*len(s.sinks)+len(s.res.Scripts))
	for _, r := range s.reads {
		for _, k := range s.sinks {
			flows = append(flows, "cat -- "+r+" | "+k)
		}
	}
	if s.env {
		for _, k := range s.sinks {
			flows = append(flows, "env | "+k)
		}
	}
	s.res.Scripts = append(flows, s.res.Scripts...)
}

// read records a file the program reads and adds the command that reads
// it (cat), unless its name is computed entirely at run time.
func (s *scanner) read(e []part) {
	if len(e) == 0 || dynamic(e) {
		return
	}
	w := word(e)
	s.run("cat -- " + w)
	if len(s.reads) < maxFlows && !slices.Contains(s.reads, w) {
		s.reads = append(s.reads, w)
	}
}

// environ records that the program reads the whole environment (every
// token and password the agent's shell holds) and adds the command that
// prints it (env): what the program prints of it, a pipe carries on.
func (s *scanner) environ() {
	if !s.env {
		s.env = true
		s.run("env")
	}
}

// wholeEnv reports whether the name at toks[i] is the whole environment,
// not one variable of it: Perl's %ENV, Ruby's ENV (not ENV["X"] or
// ENV.fetch("X")), JavaScript's process.env, Bun.env and Deno.env (not
// process.env.X), PHP's $_ENV and $_SERVER (not $_ENV["X"]) and getenv().
func wholeEnv(lang string, toks []token, i int) bool {
	at := func(j int, k kind, text string) bool {
		return j >= 0 && j < len(toks) && toks[j].k == k && toks[j].text == text
	}
	name := toks[i].text
	switch lang {
	case "perl":
		return name == "ENV" && at(i-1, tPunct, "%")
	case "ruby":
		if name != "ENV" || at(i-1, tPunct, ".") || at(i-1, tPunct, "::") || at(i+1, tPunct, "[") {
			return false
		}
		if at(i+1, tPunct, ".") && i+2 < len(toks) {
			switch toks[i+2].text {
			case "fetch", "key", "has_key", "include", "member", "delete", "store", "values_at", "slice", "dig":
				return false // one variable, or some named ones
			}
		}
		return true
	case "js":
		member := at(i-1, tPunct, ".") && !(at(i-2, tPunct, ".") && at(i-3, tPunct, ".")) // x.process, not ...process
		if !(name == "process" || name == "Bun" || name == "Deno") || !at(i+1, tPunct, ".") || !at(i+2, tIdent, "env") || member {
			return false
		}
		if name == "Deno" { // Deno.env.get("X") reads one; Deno.env.toObject() all
			return at(i+3, tPunct, ".") && at(i+4, tIdent, "toObject")
		}
		return !at(i+3, tPunct, ".") && !at(i+3, tPunct, "[") && !at(i+3, tPunct, "?")
	case "php":
		switch name {
		case "$_ENV", "$_SERVER":
			return !at(i+1, tPunct, "[")
		case "getenv":
			return at(i+1, tPunct, "(") && at(i+2, tPunct, ")")
		}
	}
	return false
}

// sink records a command line that sends its standard input where the
// program sends data.
func (s *scanner) sink(line string) {
	if len(s.sinks) < maxFlows && !slices.Contains(s.sinks, line) {
		s.sinks = append(s.sinks, line)
	}
}

func (s *scanner) scan(src string, depth int) {
	if s.stop {
		return
	}
	if len(src) > MaxProgram || !s.work.Charge(2*len(src)+16, "inline program scan") {
		s.stop = true
		s.res.Findings = append(s.res.Findings, risk.Finding{Analyzer: Name, Rule: RuleTooComplex, Level: risk.Unknown,
			Reason: fmt.Sprintf("The %s program is too large to read, so what it runs is unknown", s.lang)})
		return
	}
	switch s.lang {
	case "ex":
		s.ex(src, depth)
		return
	case "sed":
		s.sed(src)
		return
	}
	if pre, ok := escapes[s.lang]; ok {
		s.escapeLines(src, pre)
		return
	}
	sx, ok := syntaxes[s.lang]
	if !ok {
		// a language without a reader: what it runs is unseen, never safe
		s.stop = true
		s.res.Findings = append(s.res.Findings, risk.Finding{Analyzer: Name, Rule: RuleUnread, Level: risk.High,
			Reason: fmt.Sprintf("warden does not read %s programs, so what this one runs is unknown", s.lang)})
		return
	}
	toks := lex(src, sx)
	if s.lang != "awk" && s.lang != "lua" {
		toks = decodeLiterals(toks)
	}
	s.calls(toks, depth)
}

// ex reads Vim's Ex commands: :!cmd, :r !cmd, :w !cmd and a range's
// filter (%!sort) run the shell; other lines are read for system() and
// delete() calls.
func (s *scanner) ex(src string, depth int) {
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimLeft(line, ": \t")
		for _, pre := range []string{"silent!", "silent", "exe", "execute", "sil!", "sil"} {
			if rest, ok := strings.CutPrefix(l, pre); ok && (rest == "" || rest[0] == ' ' || rest[0] == '!') {
				l = strings.TrimLeft(rest, " ")
				break
			}
		}
		l = strings.TrimLeft(l, "%.,$0123456789'<> ")
		if strings.HasPrefix(l, "!") {
			s.run(strings.TrimPrefix(l, "!"))
			continue
		}
		if i := strings.IndexByte(l, '!'); i > 0 {
			cmd, rest := strings.TrimRight(l[:i], " "), l[i+1:]
			spaced := l[i-1] == ' '
			switch {
			case strings.HasPrefix("read", cmd) && len(cmd) >= 1 && cmd[0] == 'r':
				s.run(rest)
				continue
			case strings.HasPrefix("write", cmd) && len(cmd) >= 1 && cmd[0] == 'w' && spaced:
				s.run(rest)
				continue
			}
		}
		s.calls(lex(l, syntax{}), depth)
	}
}

func (s *scanner) run(text string) {
	if strings.TrimSpace(text) != "" {
		s.res.Scripts = append(s.res.Scripts, text)
	}
}

func (s *scanner) finding(rule string, l risk.Level, reason string) {
	s.res.Findings = append(s.res.Findings, risk.Finding{Analyzer: Name, Rule: rule, Level: l, Reason: reason})
}

// calls finds the calls of the language's table in toks.
func (s *scanner) calls(toks []token, depth int) {
	table := calls[s.lang]
	printing := false // awk: inside a print statement
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.k {
		case tExec:
			s.runExpr(t.parts, "`…`")
			continue
		case tPunct:
			switch t.text {
			case "\n", ";", "}", "{":
				printing = false
			case "$":
				// zx, Bun: $`rm -rf ~`
				if s.lang == "js" && i+1 < len(toks) && toks[i+1].k == tStr {
					s.runExpr(toks[i+1].parts, "$`…`")
					i++
				}
			case "|":
				if s.lang == "awk" {
					if i+1 < len(toks) && toks[i+1].k == tIdent && toks[i+1].text == "getline" {
						if i > 0 && toks[i-1].k == tStr {
							s.runExpr(toks[i-1].parts, "\"…\" | getline")
						}
					} else if i+1 < len(toks) {
						e, _ := s.awkExpr(toks, i+1)
						s.runExpr(e, "print | \"…\"")
					}
				}
			case ">", ">>":
				if s.lang == "awk" && printing && i+1 < len(toks) {
					e, _ := s.awkExpr(toks, i+1)
					s.render(Write, e, nil)
				}
			}
			continue
		case tIdent:
		default:
			continue
		}
		if s.lang == "awk" && (t.text == "print" || t.text == "printf") {
			printing = true
			continue
		}
		if s.lang != "awk" && s.lang != "ex" {
			s.sdkCall(toks, i)
			if !s.env && wholeEnv(s.lang, toks, i) {
				s.environ()
			}
		}
		f, ok := table[t.text]
		if !ok || !f.receiver(toks, i) || definition(toks, i) {
			continue
		}
		next := i + 1
		if next < len(toks) && toks[next].k == tPunct && toks[next].text == "=" {
			continue // an assignment to a name such as exec
		}
		if f.kind == Eval && next < len(toks) && toks[next].k == tPunct && toks[next].text == "{" {
			continue // perl's eval { … } block
		}
		exprs, flags, end := args(toks, next, s.lang == "perl" || s.lang == "ruby")
		if f.kind == Run || f.kind == Eval {
			i = max(i, end-1) // their strings are the command, not calls
		}
		if end == next && f.kind != Eval {
			continue // no arguments: a reference, not a call
		}
		if f.kind == Connect || f.kind == Read && len(exprs) > 0 && !dynamic(exprs[0]) && urlLike(text(exprs[0])) {
			// PHP's file_get_contents reads a URL as well as a file
			s.request(t.text, exprs, toks[next:end])
			continue
		}
		s.call(f, t.text, exprs, flags, depth)
		// the arguments are read on: they may hold calls of their own
	}
}

// sdkCall judges the method call or constructor at toks[i] by its name
// (SDKDelete): recv.deleteIndex(…), recv.indices.delete(…), new
// DeleteBucketCommand(…).
func (s *scanner) sdkCall(toks []token, i int) {
	if i+1 >= len(toks) || toks[i+1].k != tPunct || toks[i+1].text != "(" || i == 0 {
		return
	}
	if i+2 < len(toks) && toks[i+2].k == tNum {
		return // removeIndex(3): a position, not a resource's name
	}
	name, recv := toks[i].text, ""
	prev := toks[i-1]
	switch {
	case prev.k == tPunct && (prev.text == "." || prev.text == "->" || prev.text == "::"):
		if i >= 2 && toks[i-2].k == tIdent {
			recv = toks[i-2].text
		}
	case prev.k == tIdent && prev.text == "new" && strings.HasSuffix(name, "Command"):
		name = strings.TrimSuffix(name, "Command") // AWS SDK v3: new DeleteBucketCommand(…)
	default:
		return
	}
	if noun, ok := SDKDelete(recv, name); ok {
		s.finding(RuleSDKDelete, risk.High, "The program calls "+name+", an API method that deletes a service's "+noun+
			"; what it deletes cannot be brought back")
	}
}

// awkExpr reads the awk expression from i to the end of the statement.
func (s *scanner) awkExpr(toks []token, i int) ([]part, int) {
	var e []part
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.k == tPunct && (t.text == "\n" || t.text == ";" || t.text == "}" || t.text == ")" || t.text == "|") {
			break
		}
		e = appendValue(e, t)
	}
	return e, i
}

func (s *scanner) call(f fn, name string, exprs [][]part, flags map[string]bool, depth int) {
	switch f.kind {
	case Run:
		if len(exprs) == 0 {
			return
		}
		if len(exprs) == 1 && !f.argv {
			s.runExpr(exprs[0], name)
			return
		}
		if dynamic(exprs[0]) {
			s.finding(RuleDynamicExec, risk.High, "The "+s.lang+" program runs a command computed at run time ("+name+")")
			return
		}
		var words []string
		for _, e := range exprs {
			words = append(words, word(e))
		}
		s.run(strings.Join(words, " "))
	case Delete, DeleteTree, Rmdir, Write:
		if len(exprs) > 0 {
			k := f.kind
			if k == Delete && flags["recursive"] {
				k = DeleteTree
			}
			s.render(k, exprs[0], flags)
		}
	case Read:
		if len(exprs) > 0 {
			s.read(exprs[0])
		}
	case Open:
		s.open(exprs)
	case Connect, Socket:
		for k, e := range exprs {
			if dynamic(e) {
				continue
			}
			v := text(e)
			if f.kind == Connect && urlLike(v) {
				s.run("curl " + tool.Quote(v))
			} else if f.kind == Socket && hostLike(v) {
				h, p, _ := strings.Cut(strings.TrimPrefix(v, "tcp://"), ":")
				if p == "" && k+1 < len(exprs) && !dynamic(exprs[k+1]) {
					p = text(exprs[k+1])
				}
				line := "nc " + tool.Quote(h)
				if p != "" {
					line += " " + tool.Quote(p)
				}
				s.run(line)
				s.sink(line)
				return
			}
		}
	case Eval:
		if len(exprs) == 0 {
			return
		}
		if dynamic(exprs[0]) || len(exprs[0]) != 1 {
			s.finding(RuleDynamicEval, risk.High, "The "+s.lang+" program evaluates code computed at run time ("+name+")")
			return
		}
		if depth < maxEvalDepth {
			s.scan(exprs[0][0].text, depth+1)
		}
	}
}

// open reads the mode of open()/fopen()/io.open(): a pipe runs a command,
// a write mode writes the file, a URL connects.
func (s *scanner) open(exprs [][]part) {
	if len(exprs) == 0 {
		return
	}
	first := strings.TrimSpace(text(exprs[0]))
	switch {
	case strings.HasPrefix(first, "|"):
		s.runExpr(trimParts(exprs[0], "|"), "open")
		return
	case !dynamic(exprs[0]) && urlLike(first):
		s.run("curl " + tool.Quote(first))
		return
	}
	if len(exprs) < 2 {
		if s.lang != "perl" {
			s.read(exprs[0]) // open(path): for reading
		}
		return
	}
	if dynamic(exprs[1]) {
		return
	}
	mode := strings.TrimSpace(text(exprs[1]))
	switch {
	case s.lang == "perl" && len(exprs) == 2:
		// open(F, ">file"), open(F, "cmd|"), open(F, "|cmd")
		switch {
		case strings.HasPrefix(mode, "|"):
			s.runExpr(trimParts(exprs[1], "|"), "open")
		case strings.HasSuffix(mode, "|"):
			s.runExpr(trimParts(exprs[1], "|"), "open")
		case strings.HasPrefix(mode, ">") || strings.HasPrefix(mode, "+>") || strings.HasPrefix(mode, "+<"):
			s.render(Write, trimParts(exprs[1], "+>< "), nil)
		default:
			s.read(trimParts(exprs[1], "< ")) // open(F, "<file"), open(F, "file")
		}
	case s.lang == "perl":
		switch {
		case mode == "|-" || mode == "-|":
			if len(exprs) == 3 {
				s.runExpr(exprs[2], "open")
			} else {
				s.call(fn{kind: Run, argv: true}, "open", exprs[2:], nil, 0)
			}
		case strings.HasPrefix(mode, ">") || strings.HasPrefix(mode, "+"):
			if len(exprs) > 2 {
				s.render(Write, exprs[2], nil)
			}
		case strings.HasPrefix(mode, "<") && len(exprs) > 2:
			s.read(exprs[2])
		}
	default:
		if strings.ContainsAny(mode, "wax+") {
			s.render(Write, exprs[0], nil)
		} else {
			s.read(exprs[0])
		}
	}
}

// render adds the shell command a file operation amounts to.
func (s *scanner) render(k Kind, e []part, flags map[string]bool) {
	if len(e) == 0 {
		return
	}
	w := word(e)
	switch k {
	case DeleteTree:
		s.run("rm -rf -- " + w)
	case Delete:
		s.run("rm -f -- " + w)
	case Rmdir:
		s.run("rmdir -- " + w)
	case Write:
		s.run(": > " + w)
	}
}

// runExpr adds a command line given as one string.
func (s *scanner) runExpr(e []part, name string) {
	if len(e) == 0 {
		return
	}
	if dynamic(e) {
		s.finding(RuleDynamicExec, risk.High, "The "+s.lang+" program runs a command computed at run time ("+name+")")
		return
	}
	var b strings.Builder
	for _, p := range e {
		switch {
		case !p.dyn:
			b.WriteString(p.text)
		case p.env != "":
			b.WriteString("${" + p.env + "}")
		default:
			b.WriteString("$WARDEN_DYNAMIC")
		}
	}
	s.run(b.String())
}

// word renders an expression as one double-quoted shell word.
func word(e []part) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, p := range e {
		switch {
		case !p.dyn:
			for i := 0; i < len(p.text); i++ {
				if strings.IndexByte("\"\\$`", p.text[i]) >= 0 {
					b.WriteByte('\\')
				}
				b.WriteByte(p.text[i])
			}
		case p.env != "":
			b.WriteString("${" + p.env + "}")
		default:
			b.WriteString("$WARDEN_DYNAMIC")
		}
	}
	b.WriteByte('"')
	return b.String()
}

// dynamic reports an expression with no literal text at all.
func dynamic(e []part) bool {
	for _, p := range e {
		if !p.dyn && strings.TrimSpace(p.text) != "" || p.env != "" {
			return false
		}
	}
	return true
}

// text is an expression's literal text (run-time pieces dropped).
func text(e []part) string {
	var b strings.Builder
	for _, p := range e {
		if !p.dyn {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// trimParts trims the characters cut from both ends of an expression's
// literal text.
func trimParts(e []part, cut string) []part {
	out := append([]part(nil), e...)
	if len(out) > 0 && !out[0].dyn {
		out[0].text = strings.TrimLeft(out[0].text, cut+" ")
	}
	if n := len(out); n > 0 && !out[n-1].dyn {
		out[n-1].text = strings.TrimRight(out[n-1].text, cut+" ")
	}
	return out
}

func urlLike(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 {
		return false
	}
	for _, c := range s[:i] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-') {
			return false
		}
	}
	return !strings.ContainsAny(s, " \t\n")
}

func hostLike(s string) bool {
	s = strings.TrimPrefix(s, "tcp://")
	return s != "" && !strings.ContainsAny(s, " \t\n/") && (strings.Contains(s, ".") || strings.Contains(s, ":") || s == "localhost")
}

// definition reports a name being defined rather than called: def system,
// function exec, sub unlink.
func definition(toks []token, i int) bool {
	if i == 0 {
		return false
	}
	p := toks[i-1]
	return p.k == tIdent && (p.text == "def" || p.text == "function" || p.text == "sub")
}

// args reads a call's arguments from i: a parenthesized list, or (Perl,
// Ruby, PHP statements without parentheses) the words to the end of the
// statement. Each argument is a list of parts; array elements are
// arguments of their own; a nested call or an object is one run-time
// part. flags holds the names written inside the arguments (recursive in
// {recursive: true}). end is the index after the arguments.
func args(toks []token, i int, bare bool) (exprs [][]part, flags map[string]bool, end int) {
	if i >= len(toks) {
		return nil, nil, i
	}
	paren := toks[i].k == tPunct && toks[i].text == "("
	if !paren {
		switch t := toks[i]; {
		case t.k == tStr || t.k == tExec || t.k == tNum:
		case t.k == tIdent && (strings.HasPrefix(t.text, "$") || strings.HasPrefix(t.text, "@")):
		case t.k == tPunct && t.text == "[":
		case bare && bareArg(toks, i):
			// perl's unlink glob "*", unlink <*.tmp>, ruby's system cmd:
			// an argument computed at run time
		default:
			return nil, nil, i
		}
	} else {
		i++
	}
	flags = map[string]bool{}
	var cur []part
	var stack []string // open brackets inside the arguments
	flush := func() {
		if len(cur) > 0 {
			exprs = append(exprs, cur)
			cur = nil
		}
	}
	for ; i < len(toks); i++ {
		t := toks[i]
		if t.k == tPunct {
			switch t.text {
			case "(", "[", "{":
				if t.text == "[" && (len(stack) == 0 || stack[len(stack)-1] == "[") {
					flush()
					stack = append(stack, t.text)
					continue
				}
				if len(stack) == 0 || stack[len(stack)-1] == "[" {
					cur = appendValue(cur, token{k: tIdent})
				}
				stack = append(stack, t.text)
				continue
			case ")", "]", "}":
				if len(stack) == 0 {
					if paren && t.text == ")" {
						i++
					}
					flush()
					return exprs, flags, i
				}
				if stack[len(stack)-1] == "[" {
					flush()
				}
				stack = stack[:len(stack)-1]
				continue
			case ",", "=>":
				if len(stack) == 0 || stack[len(stack)-1] == "[" {
					flush()
				}
				continue
			case "\n", ";":
				if !paren && len(stack) == 0 {
					flush()
					return exprs, flags, i
				}
				continue
			}
			if len(stack) > 0 && stack[len(stack)-1] != "[" {
				continue
			}
			switch t.text {
			case "+", ".", "&&", "||":
				continue // concatenation (or an alternative): keep reading
			}
			cur = appendValue(cur, token{k: tIdent})
			continue
		}
		if t.k == tIdent {
			flags[t.text] = true
			if !paren && len(stack) == 0 {
				switch t.text {
				case "or", "and", "if", "unless", "do", "then":
					flush()
					return exprs, flags, i
				}
			}
		}
		if len(stack) > 0 && stack[len(stack)-1] != "[" {
			// inside a nested call or an object: a secret variable read in
			// a call (encodeURIComponent(process.env.NPM_TOKEN),
			// uri_escape($ENV{TOKEN})) is carried by the call's value,
			// which the variable then names (see secretInCall)
			if !envFirst[t.text] {
				continue
			}
			if name, next := envAt(toks, i); next > i {
				secretInCall(cur, stack, name)
				i = next - 1
			}
			continue
		}
		if name, next := envAt(toks, i); next > i {
			cur = append(cur, part{dyn: true, env: name})
			i = next - 1
			continue
		}
		cur = appendValue(cur, t)
	}
	flush()
	return exprs, flags, i
}

// secretInCall names, in the run-time part that stands for the nested
// call being read (the last of cur), the secret variable (envname.Secret)
// read inside it: what encodes, escapes or converts a token still carries
// it. Objects ({headers: {Authorization: process.env.TOKEN}}) are not
// calls: what they hold is judged by field (see request).
func secretInCall(cur []part, stack []string, name string) {
	n := len(cur)
	if n == 0 || !cur[n-1].dyn || cur[n-1].env != "" || !envname.Secret(name) {
		return
	}
	for _, b := range stack {
		if b == "{" {
			return
		}
	}
	cur[n-1].env = name
}

// bareArg reports, in a language whose calls need no parentheses (perl,
// ruby), an argument list that starts at toks[i] with a name (a call
// such as glob, a variable) or perl's <…> glob, rather than a statement
// modifier or an operator that ends the call (unlink or die, exec if x).
func bareArg(toks []token, i int) bool {
	t := toks[i]
	if t.k == tPunct {
		return t.text == "<" && i+1 < len(toks) && (toks[i+1].k != tPunct || toks[i+1].text != "=" && toks[i+1].text != "<")
	}
	if t.k != tIdent || endsCall[t.text] {
		return false
	}
	// a name followed by = starts an assignment of its own
	return i+1 >= len(toks) || toks[i+1].k != tPunct || toks[i+1].text != "="
}

// endsCall are the words that, after a call's name, end it instead of
// starting its arguments.
var endsCall = map[string]bool{"or": true, "and": true, "not": true, "if": true, "unless": true, "while": true, "until": true,
	"for": true, "foreach": true, "do": true, "then": true, "end": true, "rescue": true, "x": true, "eq": true, "ne": true,
	"lt": true, "gt": true, "le": true, "ge": true, "cmp": true, "in": true}

// appendValue adds a token's value to an expression: a string's parts,
// or one run-time part for anything else.
func appendValue(e []part, t token) []part {
	if t.k == tStr {
		return append(e, t.parts...)
	}
	if t.k == tNum {
		return append(e, part{text: t.text})
	}
	if n := len(e); n > 0 && e[n-1].dyn && e[n-1].env == "" {
		return e
	}
	return append(e, part{dyn: true})
}

// envReads are the expressions that read an environment variable (N: its
// name, an identifier or a string) or the home directory (no N), as token
// texts.
var envReads = [][]string{
	{"Dir", ".", "home", "(", ")"}, {"Dir", ".", "home"},
	{"os", ".", "homedir", "(", ")"}, {"require", "(", "S", ")", ".", "homedir", "(", ")"}, {"homedir", "(", ")"},
	{"process", ".", "env", ".", "N"}, {"process", ".", "env", "[", "N", "]"},
	{"$ENV", "{", "N", "}"}, {"ENV", "[", "N", "]"}, {"ENV", ".", "fetch", "(", "N", ")"},
	{"os", ".", "getenv", "(", "N", ")"}, {"getenv", "(", "N", ")"}, {"Deno", ".", "env", ".", "get", "(", "N", ")"},
	{"$_SERVER", "[", "N", "]"}, {"$_ENV", "[", "N", "]"}, {"ENVIRON", "[", "N", "]"},
}

// envFirst are the first words of envReads: a token that is none starts
// no environment read.
var envFirst = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range envReads {
		m[p[0]] = true
	}
	return m
}()

// envAt reads an environment read at toks[i] and returns the variable's
// name and the index after it (i when there is none).
func envAt(toks []token, i int) (string, int) {
	if toks[i].k != tIdent {
		return "", i
	}
next:
	for _, pat := range envReads {
		if i+len(pat) > len(toks) {
			continue
		}
		name := "HOME"
		for k, want := range pat {
			t := toks[i+k]
			switch want {
			case "N":
				switch {
				case t.k == tIdent:
					name = t.text
				case t.k == tStr && len(t.parts) == 1 && !t.parts[0].dyn:
					name = t.parts[0].text
				default:
					continue next
				}
			case "S":
				if t.k != tStr {
					continue next
				}
			default:
				if t.text != want || t.k == tStr {
					continue next
				}
			}
		}
		return name, i + len(pat)
	}
	return "", i
}

// sed reads a sed script: the e command runs its text (or, bare, the
// pattern space: a command computed at run time), and so does the e flag
// of s///; w and the w flag write a file.
func (s *scanner) sed(src string) {
	i, n := 0, len(src)
	rest := func() string { // to the end of the line
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			j = n - i
		}
		t := strings.TrimSpace(src[i : i+j])
		i += j
		return t
	}
	skipDelimited := func(parts int) bool { // s/a/b/, y/a/b/: the delimiter, then parts fields
		if i >= n {
			return false
		}
		d := src[i]
		i++
		for k := 0; k < parts; k++ {
			for i < n && src[i] != d {
				if src[i] == '\\' {
					i++
				}
				i++
			}
			i++
		}
		return i <= n
	}
	for i < n {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '{' || c == '}' || c == '!' || c == ',' || c == '$' || c >= '0' && c <= '9' || c == '~':
			i++
		case c == '/' || c == '\\':
			// an address: /regex/ or \%regex%
			if c == '\\' {
				i++
			}
			skipDelimited(1)
		case c == 'e':
			i++
			if t := rest(); t != "" {
				s.run(t)
			} else {
				s.finding(RuleDynamicExec, risk.High, "The sed script runs its input lines as commands (e)")
			}
		case c == 'w' || c == 'W':
			i++
			if t := rest(); t != "" && t != "/dev/stdout" && t != "/dev/stderr" {
				s.render(Write, []part{{text: t}}, nil)
			}
		case c == 's' || c == 'y':
			i++
			if !skipDelimited(2) || c == 'y' {
				continue
			}
			for i < n && strings.IndexByte("gpeiImMw0123456789", src[i]) >= 0 {
				switch src[i] {
				case 'e':
					s.finding(RuleDynamicExec, risk.High, "The sed script runs the text it substitutes as a command (s///e)")
				case 'w':
					i++
					if t := rest(); t != "" && t != "/dev/stdout" && t != "/dev/stderr" {
						s.render(Write, []part{{text: t}}, nil)
					}
					continue
				}
				i++
			}
		case c == 'a' || c == 'i' || c == 'c':
			// text to the end of the line, continued by a trailing backslash
			i++
			for t := rest(); strings.HasSuffix(t, "\\") && i < n; t = rest() {
				i++
			}
		case c == 'r' || c == 'R' || c == 'b' || c == 't' || c == 'T' || c == ':' || c == '#':
			i++
			rest()
		default:
			i++
		}
	}
}

// escapes are, per language whose statements are not shell, the line
// prefixes that hand the rest of the line to a shell: psql's \!,
// mysql's \! and system, sqlite's .shell and .system, AppleScript's
// do shell script "…".
var escapes = map[string][]string{
	"psql":        {`\!`},
	"mysql":       {`\!`, "system "},
	"sqlite":      {".shell ", ".system "},
	"applescript": {"do shell script "},
}

// escapeLines runs the rest of each line (or statement) that starts with
// one of the prefixes pre.
func (s *scanner) escapeLines(src string, pre []string) {
	for _, line := range strings.FieldsFunc(src, func(r rune) bool { return r == '\n' || r == '\r' }) {
		l := strings.TrimSpace(line)
		for _, p := range pre {
			if i := strings.Index(l, p); i >= 0 && (i == 0 || s.lang == "applescript") {
				rest := strings.TrimSpace(l[i+len(p):])
				if s.lang == "applescript" {
					toks := lex(rest, syntax{escapes: true})
					if len(toks) > 0 && toks[0].k == tStr {
						s.runExpr(toks[0].parts, "do shell script")
					} else {
						s.finding(RuleDynamicExec, risk.High, "The AppleScript runs a command computed at run time (do shell script)")
					}
					break
				}
				s.run(rest)
				break
			}
		}
	}
}
