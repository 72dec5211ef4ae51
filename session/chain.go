package session

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// AssessFunc assesses a call with the engine's analyzers, without the
// session: the session uses it to read the files a call runs. It fills
// the call's Effects when the call has a Prior. The session reads the
// assessment's level and findings only: its affected resources may be
// left out.
type AssessFunc func(ctx context.Context, c *tool.Call) risk.Assessment

// The rules of the findings the session makes.
const (
	RuleRunWritten    = "session.run_written"    // runs a file the conversation wrote, whose text is risky
	RuleRunDownloaded = "session.run_downloaded" // runs a file the conversation downloaded
	RuleAutorun       = "session.autorun"        // makes the system run something risky on its own (start-up files, cron, hooks)
	RuleExfiltration  = "session.exfiltration"   // sends sensitive data read earlier: critical and locked
)

// maxChain bounds how many files one call's chains read, and how deep
// (a script that runs a script …).
const (
	maxChain = 16
	maxDepth = 3
)

// Analyze returns the findings of the chains call c completes, given what
// earlier calls did: it runs a script the conversation wrote (its text is
// assessed, with the arguments it gets) or downloaded; it makes a start-up
// file, crontab or git hook run something risky; it sends a file that holds
// credentials, the environment or database rows copied earlier. c has
// been prepared (its Effects are known).
func (st *State) Analyze(ctx context.Context, c *tool.Call, assess AssessFunc) []risk.Finding {
	ch := &chain{st: st, ctx: ctx, assess: assess, budget: maxChain}
	uses := lastUse(c.Effects)
	for i := range c.Effects {
		e := &c.Effects[i]
		ch.effect(c, e, 0)
		if makesFile(e.Kind) && i < uses {
			// echo … > x.sh && bash x.sh: what the call itself writes is
			// there for what it runs or sends next, on a view of the
			// state (the state learns it in Record, if the call runs)
			if ch.st == st {
				ch.st = st.fileView()
			}
			ch.st.apply(c, e)
		}
	}
	for _, ct := range c.Content {
		if ct.Path != "" && autorun(c, c.Abs(ct.Path)) {
			ch.autorunText(c, c.Abs(ct.Path), ct.Text, 0)
		}
	}
	ch.production(c, 0)
	ch.taintedEgress(c)
	for i := range ch.out {
		if f := &ch.out[i]; f.Level == risk.Critical && lockedChains[f.Rule] {
			f.Locked = true
		}
	}
	return ch.out
}

// makesFile reports the effects that create or change a file's record.
func makesFile(k tool.EffectKind) bool {
	return k == tool.WriteFile || k == tool.FetchFile || k == tool.CopyFile || k == tool.MakeExecutable
}

// lastUse returns the index of the last effect of es that reads the
// records of files (runs, sends or copies one), or -1 when none does.
func lastUse(es []tool.Effect) int {
	for i := len(es) - 1; i >= 0; i-- {
		if k := es[i].Kind; k == tool.RunFile || k == tool.SendData || k == tool.CopyFile {
			return i
		}
	}
	return -1
}

// lockedChains are the chains whose critical findings no allow rule or
// mode overrides, only a person's approval of that exact action
// (risk.Finding.Locked): secrets sent out, and running — now or by
// itself later — what does critical harm or came unseen from the network.
var lockedChains = map[string]bool{RuleExfiltration: true, RuleRunWritten: true, RuleRunDownloaded: true, RuleAutorun: true}

type chain struct {
	st     *State
	ctx    context.Context
	assess AssessFunc
	budget int
	out    []risk.Finding
}

func (ch *chain) effect(c *tool.Call, e *tool.Effect, depth int) {
	switch e.Kind {
	case tool.RunFile:
		ch.run(c, e, depth)
	case tool.SendData:
		ch.send(e)
	case tool.WriteFile:
		if e.Known && autorun(c, e.Path) {
			ch.autorunText(c, e.Path, e.Text, depth)
		}
	case tool.CopyFile:
		if f, ok := ch.st.files[e.Src]; ok && autorun(c, e.Path) && f.Text != "" {
			ch.autorunText(c, e.Path, f.Text, depth)
		}
	}
}

// autorun reports whether the system runs what is written to p on its
// own: shell start-up files, cron, systemd units, git hooks.
func autorun(c *tool.Call, p string) bool {
	return c.Env().ClassifyAbs(p) == paths.Startup || strings.Contains(p, "/.git/hooks/") ||
		strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron")
}

// autorunText assesses text written into a file the system runs by itself.
func (ch *chain) autorunText(c *tool.Call, p, text string, depth int) {
	if depth >= maxDepth || !ch.spend() {
		return
	}
	var execs [16]string
	switch {
	case strings.Contains(text, "Exec") && len(execLines(execs[:0], text)) > 0:
		// a systemd unit or a desktop entry: the commands of its Exec lines
		var b strings.Builder
		for _, m := range execLines(execs[:0], text) {
			b.WriteString(strings.TrimLeft(m, "-@+!:") + "\n")
		}
		text = b.String()
	case strings.HasPrefix(p, "/etc/cron"):
		text = cronCommands(text, true)
	case strings.HasPrefix(p, "/var/spool/cron"):
		text = cronCommands(text, false)
	}
	syn := ch.call(c, "sh", text, nil, path.Dir(p))
	syn.Cwd = c.Home // start-up files and cron jobs run in home
	level, why := ch.follow(syn, depth)
	if level.AtLeast(risk.Medium) {
		ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleAutorun, Level: max(level, risk.High),
			Reason: fmt.Sprintf("%s will run by itself what this writes into it: %s", p, why), Resource: "file:" + p})
	}
}

// run judges a file the call executes, when the session knows it.
func (ch *chain) run(c *tool.Call, e *tool.Effect, depth int) {
	if depth >= maxDepth {
		return
	}
	switch e.Lang {
	case "npm", "make", "crontab":
		f, ok := ch.st.files[e.Path]
		if !ok || f.Text == "" || !ch.spend() {
			return
		}
		var lines string
		switch e.Lang {
		case "npm":
			lines = npmScripts(f.Text, e.Args)
		case "make":
			lines = makeRecipes(f.Text, e.Args)
		default:
			lines = cronCommands(f.Text, false)
		}
		if lines == "" {
			return
		}
		syn := ch.call(c, "sh", lines, nil, path.Dir(e.Path))
		level, why := ch.follow(syn, depth)
		if level.AtLeast(risk.Medium) {
			rule := RuleRunWritten
			if e.Lang == "crontab" {
				rule, level = RuleAutorun, max(level, risk.High)
			}
			ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: rule, Level: level,
				Reason: fmt.Sprintf("This runs the %s of %s, which the conversation wrote: %s", what(e.Lang), e.Path, why), Resource: "file:" + e.Path})
		}
		return
	}
	f := ch.lookup(e)
	if f == nil || !ch.spend() {
		return
	}
	if f.Downloaded != "" && !f.Known {
		if e.Lang == "sql" {
			// statements, not a program: unseen, they may still drop or
			// rewrite the database they run on
			ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleRunDownloaded, Level: risk.High,
				Reason:   fmt.Sprintf("This runs the SQL of %s, downloaded from %s earlier in the conversation, unseen, on a database", f.Path, f.Downloaded),
				Resource: "file:" + f.Path})
			return
		}
		ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleRunDownloaded, Level: risk.Critical,
			Reason:   fmt.Sprintf("This runs %s, downloaded from %s earlier in the conversation: code from the network runs unseen", f.Path, f.Downloaded),
			Resource: "file:" + f.Path})
		return
	}
	if f.Text == "" {
		if f.Written && !f.Known {
			// written by a command whose output warden could not see
			ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleRunWritten, Level: risk.Medium,
				Reason:   fmt.Sprintf("This runs %s, which the conversation wrote in step %d with text warden could not see", f.Path, f.Step),
				Resource: "file:" + f.Path})
		}
		return
	}
	text := f.Text
	if e.Decode == "base64" {
		b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), ""))
		if err != nil {
			return
		}
		text = string(b)
	}
	lang := e.Lang
	if lang == "" || lang == "path" {
		lang = language(f.Path, text)
	}
	syn := ch.call(c, lang, text, e.Args, f.Path)
	if syn == nil {
		return
	}
	level, why := ch.follow(syn, depth)
	if level.AtLeast(risk.Medium) {
		ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleRunWritten, Level: level,
			Reason:   fmt.Sprintf("This runs %s, which the conversation wrote in step %d: %s", f.Path, f.Step, why),
			Resource: "file:" + f.Path})
	}
}

// follow assesses syn, the text a chain runs, and returns its level and
// main reason, taking in the chains that text completes in turn.
func (ch *chain) follow(syn *tool.Call, depth int) (risk.Level, string) {
	as := ch.assess(ch.ctx, syn)
	level, why := as.Level, ""
	if level == risk.Unknown {
		level = risk.Safe
	}
	if syn.Work.Spent() {
		// too much to assess to the end: what the rest runs is unseen,
		// never safe
		level, why = max(level, risk.High), syn.Work.Reason()
	}
	for _, f := range as.Findings {
		if f.Level != risk.Unknown && f.Level == as.Level && why == "" {
			why = f.Reason
		}
	}
	sub := &chain{st: ch.st, ctx: ch.ctx, assess: ch.assess, budget: ch.budget}
	for i := range syn.Effects {
		sub.effect(syn, &syn.Effects[i], depth+1)
	}
	sub.production(syn, depth+1) // a script's commands act in the conversation's contexts too
	ch.budget = sub.budget
	for _, f := range sub.out {
		if f.Level > level {
			level, why = f.Level, f.Reason
		}
	}
	if why == "" {
		why = "nothing risky"
	}
	return level, why
}

func (ch *chain) spend() bool {
	ch.budget--
	return ch.budget >= 0
}

// lookup finds the file a RunFile effect runs: by path, or for a bare
// command name, among the files the conversation made executable or put
// in a directory of programs: one that usually is on PATH, or one the
// conversation's PATH names (export PATH=~/tools:/usr/bin).
func (ch *chain) lookup(e *tool.Effect) *File {
	if e.Lang != "path" {
		return ch.st.files[e.Path]
	}
	for _, p := range ch.st.byBase[e.Path] {
		f := ch.st.files[p]
		if f != nil && (f.Executable || binDir(path.Dir(p)) || onPath(ch.st.prior.Vars["PATH"], path.Dir(p))) && (f.Written || f.Downloaded != "") {
			return f
		}
	}
	return nil
}

// binDir reports a directory that usually is on PATH.
func binDir(d string) bool {
	return strings.HasSuffix(d, "/bin") || strings.HasSuffix(d, "/sbin")
}

// onPath reports whether the directory d is an entry of the PATH value
// list (entries compared cleaned: /home/user/tools/ is /home/user/tools).
func onPath(list, d string) bool {
	for list != "" {
		var entry string
		entry, list, _ = strings.Cut(list, ":")
		if entry != "" && path.Clean(entry) == d {
			return true
		}
	}
	return false
}

// send judges data sent over the network: a file that holds sensitive
// data is exfiltration.
func (ch *chain) send(e *tool.Effect) {
	for _, p := range e.From {
		f, ok := ch.st.files[p]
		if !ok || f.Sensitive == "" {
			continue
		}
		to := e.URL
		if to == "" {
			to = "the network"
		}
		// a database dump goes off the machine for backups as a matter
		// of course: asked, not locked (as the shell judges it)
		l := risk.Critical
		if f.Sensitive == tool.SensitiveDump {
			l = risk.High
		}
		ch.out = append(ch.out, risk.Finding{Analyzer: "session", Rule: RuleExfiltration, Level: l, Locked: l == risk.Critical,
			Reason:   fmt.Sprintf("This sends %s, which holds %s saved in step %d, to %s", p, f.Sensitive, f.Step, to),
			Resource: "file:" + p})
		return
	}
}

// call builds the call that runs text as lang with args, from the file
// at p (the script's own path, for $0), in the environment of c.
func (ch *chain) call(c *tool.Call, lang, text string, args []string, p string) *tool.Call {
	syn := &tool.Call{Action: &risk.Action{Tool: "session." + lang}, Name: "session." + lang, Class: tool.Execute, Known: true,
		Cwd: c.Cwd, Home: c.Home, Workspace: c.Workspace, Prior: &tool.Prior{Lists: ch.st.prior.Lists},
		Work: c.Work} // what the chain reads is work on c
	switch lang {
	case "sh":
		var b strings.Builder
		b.WriteString("set --")
		for _, a := range args {
			b.WriteString(" " + tool.Quote(a))
		}
		b.WriteString("\n")
		b.WriteString(scriptDir(text, p))
		syn.Shell = []string{b.String()}
	case "python":
		syn.Code = []tool.Code{{Lang: "python", Text: text}}
	case "node":
		syn.Code = []tool.Code{{Lang: "javascript", Text: text}}
		syn.Shell = childProcess(text)
	case "perl", "ruby", "php":
		syn.Code = []tool.Code{{Lang: lang, Text: text}}
	case "sql":
		// statements a database client runs: args are the words naming
		// its connection, which escalate them on production
		syn.Name, syn.Action.Tool, syn.Class = "session.sql", "session.sql", tool.Database
		syn.SQL = []string{text}
		if len(args) > 0 {
			syn.Action.Arguments = map[string]any{"connection": strings.Join(args, " ")}
		}
	default:
		return nil
	}
	return syn
}

// language guesses how a file runs: by its #! line, then its extension;
// a file with neither runs as a shell script.
func language(p, text string) string {
	if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "#!") {
		switch {
		case strings.Contains(first, "python"):
			return "python"
		case strings.Contains(first, "node") || strings.Contains(first, "deno") || strings.Contains(first, "bun"):
			return "node"
		case strings.Contains(first, "perl"):
			return "perl"
		case strings.Contains(first, "ruby"):
			return "ruby"
		case strings.Contains(first, "php"):
			return "php"
		}
		return "sh"
	}
	switch path.Ext(p) {
	case ".py":
		return "python"
	case ".js", ".mjs", ".cjs", ".ts", ".mts":
		return "node"
	case ".pl":
		return "perl"
	case ".rb":
		return "ruby"
	case ".php":
		return "php"
	}
	return "sh"
}

// scriptDir writes the directory of the script at p where the text asks
// for it the usual ways ($(dirname "$0"), ${BASH_SOURCE[0]}), so that a
// script that cds next to itself is followed there.
func scriptDir(text, p string) string {
	// each pattern is looked for only in a text that holds a word it
	// needs: most texts hold none, and are returned as they are
	if strings.Contains(text, "dirname") {
		text = dirnameRE.ReplaceAllLiteralString(text, tool.Quote(path.Dir(p)))
	}
	if strings.Contains(text, "pwd") {
		text = cdPwdRE.ReplaceAllString(text, "$1")
	}
	if strings.Contains(text, `"$0"`) || strings.Contains(text, `"${BASH_SOURCE[0]}"`) {
		q := tool.Quote(p)
		text = strings.NewReplacer(`"$0"`, q, `"${BASH_SOURCE[0]}"`, q).Replace(text)
	}
	return text
}

// execLines appends to dst the commands of the Exec lines of a systemd
// unit or desktop entry (ExecStart=…, Exec=…), the first 16: what the
// submatches of
// (?m)^\s*Exec[A-Za-z]*\s*=\s*(.+)$ are, read in one pass without a
// regular expression (TestExecLines and FuzzExecLines hold it to that
// expression). As there, \s is [\t\n\f\r ] and may cross lines, and a
// line that holds only spaces after its = gives its last one.
func execLines(dst []string, text string) []string {
	for ls, found := 0, 0; found < 16; {
		// ls is the start of a line: a match starts at one
		i := ls
		for i < len(text) && reSpace(text[i]) {
			i++
		}
		if strings.HasPrefix(text[i:], "Exec") {
			j := i + len("Exec")
			for j < len(text) && ('A' <= text[j] && text[j] <= 'Z' || 'a' <= text[j] && text[j] <= 'z') {
				j++
			}
			for j < len(text) && reSpace(text[j]) {
				j++
			}
			if j < len(text) && text[j] == '=' {
				j++
				// the command starts after the spaces; when they end
				// the text, at the last of them that ends no line
				k := j
				for k < len(text) && reSpace(text[k]) {
					k++
				}
				if k == len(text) {
					for k--; k >= j && text[k] == '\n'; k-- {
					}
				}
				if k >= j {
					end := len(text)
					if n := strings.IndexByte(text[k:], '\n'); n >= 0 {
						end = k + n
					}
					dst = append(dst, text[k:end])
					found++
					if end == len(text) {
						break
					}
					ls = end + 1
					continue
				}
			}
		}
		n := strings.IndexByte(text[ls:], '\n')
		if n < 0 {
			break
		}
		ls += n + 1
	}
	return dst
}

// reSpace reports the bytes \s matches in a regular expression.
func reSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

var (
	dirnameRE = lazyre.New(`\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)`)
	cdPwdRE   = lazyre.New(`\$\(\s*cd\s+("?[^"$()]*"?)\s*(?:&&|;)\s*pwd(?:\s+-P)?\s*\)`)
)

// childProcess returns the command lines JavaScript text hands to
// child_process (execSync('…'), exec("…"), spawn('sh', ['-c', '…'])).
func childProcess(text string) []string {
	var out []string
	for _, m := range childRE.FindAllStringSubmatch(text, 16) {
		out = append(out, m[2])
	}
	return out
}

var childRE = lazyre.New("\\b(?:execSync|exec|execFileSync|execFile|spawnSync|spawn)\\s*\\(\\s*(['\"`])((?:[^'\"`\\\\]|\\\\.)*)['\"`]")

// npmScripts returns the package.json scripts named, one line each. The
// manifest may be known only in part (an edit that added a script): the
// scripts are looked for in whatever text is known.
func npmScripts(text string, names []string) string {
	var m struct {
		Scripts map[string]string `json:"scripts"`
	}
	var b strings.Builder
	if json.Unmarshal([]byte(text), &m) == nil && m.Scripts != nil {
		for _, n := range names {
			if s := m.Scripts[n]; s != "" {
				b.WriteString(s + "\n")
			}
		}
		return b.String()
	}
	for _, n := range names {
		re := regexp.MustCompile(`"` + regexp.QuoteMeta(n) + `"\s*:\s*"((?:[^"\\]|\\.)*)"`)
		for _, sm := range re.FindAllStringSubmatch(text, 4) {
			var s string
			if json.Unmarshal([]byte(`"`+sm[1]+`"`), &s) == nil {
				b.WriteString(s + "\n")
			}
		}
	}
	return b.String()
}

// makeRecipes returns the recipe lines of the targets named (all recipes
// when none is, or when the targets are not found).
func makeRecipes(text string, targets []string) string {
	var b strings.Builder
	cur, found := "", false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\t") {
			if len(targets) == 0 || contains(targets, cur) {
				b.WriteString(strings.TrimLeft(strings.TrimSpace(line), "@-+") + "\n")
				found = true
			}
			continue
		}
		if i := strings.IndexByte(line, ':'); i > 0 && !strings.Contains(line[:i], "=") {
			cur = strings.TrimSpace(line[:i])
		}
	}
	if !found && len(targets) > 0 {
		return makeRecipes(text, nil)
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		for _, f := range strings.Fields(s) {
			if f == x {
				return true
			}
		}
	}
	return false
}

// cronCommands returns the commands of crontab lines: each line without
// its five schedule fields (or @reboot and the like) and, in system
// crontabs (user set), the user field.
func cronCommands(text string, user bool) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) > 0 && strings.Contains(f[0], "=") && !strings.ContainsAny(f[0], " */") {
			continue // MAILTO=…
		}
		n := 5
		if strings.HasPrefix(line, "@") {
			n = 1
		}
		if user {
			n++
		}
		if len(f) <= n {
			continue
		}
		b.WriteString(strings.Join(f[n:], " ") + "\n")
	}
	return b.String()
}

func what(lang string) string {
	switch lang {
	case "npm":
		return "package scripts"
	case "make":
		return "make recipes"
	}
	return "crontab"
}
