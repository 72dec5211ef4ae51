package configcode

import (
	"encoding/json"
	"fmt"
	"html"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
	"go.yaml.in/yaml/v3"
)

// The bounds of Read.
const (
	MaxText     = 256 << 10 // bytes of a text read
	MaxPrograms = 64        // scripts returned
	MaxScript   = 64 << 10  // bytes of one script
)

// Program is one shell script a configuration holds.
type Program struct {
	// Where says where it sits: "run step", "RUN", "scripts.postinstall",
	// "ExecStart", "recipe", "" for a file that is a script as a whole.
	Where  string
	Script string
	// Lang is the program's language: "" for shell, "python".
	Lang string
}

// Read returns the shell scripts a text of kind k holds, and the findings
// the text carries as configuration. The text may be a fragment of the
// file (an edit's new text): each reader takes what it can read of it.
func Read(k Kind, text string) ([]Program, []risk.Finding) {
	r := &reader{}
	if len(text) > MaxText {
		text = text[:MaxText]
		r.findings = append(r.findings, risk.Finding{Analyzer: "configcode", Rule: "configcode.unread", Level: risk.Low, Reversible: true,
			Reason: fmt.Sprintf("Only the first %d KiB of the %s written were read for the commands it runs", MaxText>>10, k)})
	}
	switch k {
	case ShellFile:
		r.add("", text)
	case Executable:
		if shellShebang(text) {
			r.add("", text)
		}
	case Workflow, PreCommit:
		r.yamlText(k, text)
	case Dockerfile:
		r.dockerfile(text)
	case PackageScripts:
		r.packageScripts(text)
	case Makefile:
		r.makefile(text)
	case Jenkinsfile:
		r.jenkinsfile(text)
	case Crontab, SystemCrontab:
		r.crontab(text, k == SystemCrontab)
	case SystemdUnit:
		r.systemd(text)
	case Launchd:
		r.launchd(text)
	case EditorTasks, DevContainer:
		r.jsonConfig(k, text)
	case GitConfig:
		r.gitConfig(text)
	case SSHConfig:
		r.sshConfig(text)
	case DesktopEntry:
		r.desktop(text)
	case PythonStartup:
		r.pythonStartup(text)
	}
	return r.progs, r.findings
}

type reader struct {
	progs    []Program
	findings []risk.Finding
}

// full reports whether the reader holds as many programs as it keeps.
func (r *reader) full() bool { return len(r.progs) >= MaxPrograms }

// add keeps a shell script, within the bounds.
func (r *reader) add(where, script string) { r.addLang("", where, script) }

// addLang keeps a program in lang, within the bounds.
func (r *reader) addLang(lang, where, script string) {
	script = strings.TrimSpace(script)
	if script == "" || len(r.progs) >= MaxPrograms {
		return
	}
	if len(script) > MaxScript {
		script = script[:MaxScript]
	}
	r.progs = append(r.progs, Program{Where: where, Script: script, Lang: lang})
}

// shellShebang reports a file that runs as a shell script: its #! line
// names a shell, or it has none (the kernel refuses it and the shell that
// called it runs it itself).
func shellShebang(text string) bool {
	if !strings.HasPrefix(text, "#!") {
		return !strings.HasPrefix(text, "\x7fELF") && !strings.ContainsRune(text[:min(len(text), 512)], 0)
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	prog := path.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = a
				break
			}
		}
	}
	switch prog {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox":
		return true
	}
	return false
}

// ---------------------------------------------------------------- YAML

// maxParsed is the largest YAML text parsed whole; longer ones (no CI
// configuration is) are read line by line.
const maxParsed = 64 << 10

// commandKey reports the keys of CI configuration whose values are shell
// commands (a string, or a list of them).
func commandKey(k string) bool {
	switch k {
	case "run", "script", "before_script", "after_script", "command", "commands", "bash", "sh", "install",
		"before_install", "after_success", "after_failure", "before_deploy", "after_deploy", "cmds", "cmd", "pre_build",
		"build_script", "test_script", "init", "setup":
		return true
	}
	return false
}

// notShell are the values of a step's shell: key that make its run: a
// program of another language.
var notShell = []string{"pwsh", "powershell", "python", "cmd", "node", "ruby", "perl"}

// yamlText reads CI or pre-commit configuration: the whole text parsed,
// or (a fragment that does not parse) its lines.
func (r *reader) yamlText(k Kind, text string) {
	if len(text) > maxParsed {
		r.yamlLines(k, text) // a parser's time grows faster than the text
		return
	}
	if k == PreCommit && noEntry(text) {
		return // no hook's entry: nothing the parser or the lines would give
	}
	r.yamlParsed(k, text)
}

// noEntry reports a pre-commit configuration that runs no local command:
// no key can be entry: without the word written (an escape needs a
// backslash, UTF-16 text NUL bytes), and only an entry: gives a program.
// Most configurations name hooks of repositories, and parsing one takes
// about 100 k instructions.
func noEntry(text string) bool {
	return !strings.Contains(text, "entry") && strings.IndexByte(text, '\\') < 0 && strings.IndexByte(text, 0) < 0
}

// yamlParsed is yamlText of a text not longer than maxParsed.
func (r *reader) yamlParsed(k Kind, text string) {
	var doc yaml.Node
	err := yaml.Unmarshal([]byte(text), &doc)
	if err != nil {
		err = yaml.Unmarshal([]byte(dedent(text)), &doc)
	}
	if err != nil {
		r.yamlLines(k, text)
		return
	}
	r.yamlNode(k, &doc, 0)
}

func (r *reader) yamlNode(k Kind, n *yaml.Node, depth int) {
	if n == nil || depth > 64 || len(r.progs) >= MaxPrograms {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			r.yamlNode(k, c, depth+1)
		}
	case yaml.AliasNode:
		// an alias repeats what its anchor holds, read there
	case yaml.MappingNode:
		skip := false // a step whose shell is another language
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "shell" && n.Content[i+1].Kind == yaml.ScalarNode {
				sh := strings.ToLower(n.Content[i+1].Value)
				for _, x := range notShell {
					skip = skip || strings.HasPrefix(sh, x)
				}
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, v := n.Content[i].Value, n.Content[i+1]
			if k == PreCommit && key == "entry" || k == Workflow && commandKey(key) {
				if key == "run" && skip {
					continue
				}
				r.yamlCommands(k, key, v, depth+1)
				continue
			}
			r.yamlNode(k, v, depth+1)
		}
	}
}

// yamlCommands keeps the commands a command key holds: a string, a list
// of strings (GitLab's script), or, in CircleCI, a map whose command it
// holds.
func (r *reader) yamlCommands(k Kind, key string, v *yaml.Node, depth int) {
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!str" || v.Tag == "" {
			r.ciScript(key, v.Value)
		}
	case yaml.SequenceNode:
		for _, c := range v.Content {
			if c.Kind == yaml.ScalarNode {
				r.ciScript(key, c.Value)
			} else if depth < 64 {
				r.yamlCommands(k, key, c, depth+1) // GitLab nests lists
			}
		}
	case yaml.MappingNode:
		r.yamlNode(k, v, depth)
	}
}

// ghExpr is a GitHub Actions expression, ${{ … }}; untrusted is event
// text anyone who opens an issue or a pull request, comments or pushes a
// branch controls.
var (
	ghExpr    = lazy(`\$\{\{([^}]*)\}\}`)
	untrusted = lazy(`(?i)github\.head_ref|github\.event\.[\w.\[\]*'"-]*\b(?:title|body|message|label|name|email|page_name|head_ref|ref)\b`)
)

// ciScript keeps a CI step's script, with its ${{ }} expressions replaced
// by a word (the runner substitutes them before the shell reads the
// text), and reports an expression of untrusted text.
func (r *reader) ciScript(key, s string) {
	if strings.Contains(s, "${{") {
		if enc := secretLogged(s); enc != "" && len(r.findings) < MaxPrograms {
			r.findings = append(r.findings, risk.Finding{Analyzer: "configcode", Rule: RuleSecretLogged, Level: risk.High, Reversible: true,
				Reason: "A `" + key + ":` step prints the workflow's secrets through " + enc + ": the runner masks a secret's own text in the log, not its encoded form, so whoever reads the job's log reads the secret"})
		}
		s = ghExpr().ReplaceAllStringFunc(s, func(m string) string {
			if x := untrusted().FindString(m); x != "" && len(r.findings) < MaxPrograms {
				r.findings = append(r.findings, risk.Finding{Analyzer: "configcode", Rule: "ci.script_injection", Level: risk.High, Reversible: true,
					Reason: "The workflow puts untrusted event text (" + strings.TrimSpace(x) + ") into the script of a `" + key + ":` step: whoever writes that text runs commands in CI, with its secrets"})
			}
			return ciExprWord(m)
		})
	}
	r.add(key+" step", s)
}

// RuleSecretLogged is a CI step that prints secrets in a form the log's
// masking does not recognise.
const RuleSecretLogged = "ci.secret_logged"

// logEncoders are programs that re-encode what they are given: a secret
// piped through one reaches the job's log unmasked.
var logEncoders = [...]string{"base64", "base32", "basenc", "xxd", "od", "hexdump", "rev", "gzip", "openssl", "tr", "sed", "awk", "fold", "cut"}

// secretLogged returns the encoder through which a line of a CI script
// pipes a secret (${{ secrets.X }} or toJSON(secrets)) into the log, ""
// when no line does: the line names a secret, pipes it into an encoder,
// and sends the result nowhere but standard output (a redirect to a
// file or a network command is judged as such by the shell analysis).
func secretLogged(s string) string {
	for line := range strings.SplitSeq(s, "\n") {
		if !strings.Contains(line, "secrets") || !strings.Contains(line, "|") || strings.Contains(line, ">") {
			continue
		}
		named := false
		for _, m := range ghExpr().FindAllString(line, 4) {
			x := strings.ReplaceAll(m, " ", "")
			if strings.Contains(x, "secrets.") || strings.Contains(x, "toJSON(secrets)") {
				named = true
				break
			}
		}
		if !named {
			continue
		}
		_, piped, _ := strings.Cut(line, "|")
		for seg := range strings.SplitSeq(piped, "|") {
			f := strings.Fields(seg)
			if len(f) == 0 {
				continue
			}
			if slices.Contains(logEncoders[:], path.Base(f[0])) {
				return "`" + path.Base(f[0]) + "`"
			}
		}
	}
	return ""
}

// ciExprWord is the word a CI expression stands for in the step's script
// as the shell reads it: the secrets context as the environment's secrets
// (${{ secrets.NPM_TOKEN }} as ${NPM_TOKEN_SECRET}, a variable the shell's
// exfiltration analysis takes for a secret, its first word still naming
// the service it is for; toJSON(secrets) as $(env), every secret at
// once); any other expression as a plain word.
func ciExprWord(m string) string {
	x := strings.TrimSpace(m[3 : len(m)-2])
	if name, ok := strings.CutPrefix(x, "secrets."); ok && name != "" && strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == "" {
		up := strings.ToUpper(name)
		if strings.HasSuffix(up, "_URL") || strings.HasSuffix(up, "_HOST") || strings.HasSuffix(up, "_ENDPOINT") {
			return "${" + name + "}" // where requests go, not what they carry
		}
		return "${" + name + "_SECRET}"
	}
	if strings.Contains(strings.ReplaceAll(x, " ", ""), "toJSON(secrets)") || x == "secrets" {
		return "$(env)"
	}
	return "__expr__"
}

// yamlKeyLine reads a line that names a key and maybe its value:
// INDENT [- ]KEY: VALUE.
func yamlKeyLine(l string) (indent int, key, val string, ok bool) {
	rest := strings.TrimLeft(l, " \t")
	indent = len(l) - len(rest)
	if after, found := strings.CutPrefix(rest, "-"); found && (after == "" || after[0] == ' ' || after[0] == '\t') {
		rest = strings.TrimLeft(after, " \t")
	}
	n := 0
	for n < len(rest) && (rest[n] == '_' || rest[n] == '-' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	if n == 0 || n >= len(rest) || rest[n] != ':' {
		return 0, "", "", false
	}
	return indent, rest[:n], strings.TrimSpace(rest[n+1:]), true
}

// yamlLines reads the lines of a YAML fragment that does not parse: the
// value of each command key, a block scalar (| or >) or a list below it.
func (r *reader) yamlLines(k Kind, text string) {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines) && !r.full(); i++ {
		indent, key, val, ok := yamlKeyLine(lines[i])
		if !ok || !(k == PreCommit && key == "entry" || k == Workflow && commandKey(key)) {
			continue
		}
		if val != "" && !strings.HasPrefix(val, "|") && !strings.HasPrefix(val, ">") {
			r.ciScript(key, unquoteYAML(val))
			continue
		}
		var block []string
		j := i + 1
		for ; j < len(lines); j++ {
			l := lines[j]
			if strings.TrimSpace(l) != "" && len(l)-len(strings.TrimLeft(l, " \t")) <= indent {
				break
			}
			block = append(block, l)
		}
		i = j - 1
		body := dedent(strings.Join(block, "\n"))
		if val == "" { // a list: each item a script
			for _, l := range strings.Split(body, "\n") {
				if item, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
					r.ciScript(key, unquoteYAML(item))
				}
			}
			continue
		}
		r.ciScript(key, body)
	}
}

func unquoteYAML(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"') {
		var v string
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// dedent removes the indentation all non-blank lines of s share.
func dedent(s string) string {
	lines := strings.Split(s, "\n")
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	if common <= 0 {
		return s
	}
	for i, l := range lines {
		if len(l) >= common {
			lines[i] = l[common:]
		} else {
			lines[i] = strings.TrimLeft(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

// ---------------------------------------------------------------- Dockerfile

// dockerfile reads RUN, CMD and ENTRYPOINT instructions: shell form,
// exec form (a JSON list) and heredocs (RUN <<EOF).
func (r *reader) dockerfile(text string) {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines) && !r.full(); i++ {
		line := strings.TrimSpace(lines[i])
		instr, rest, _ := strings.Cut(line, " ")
		instr = strings.ToUpper(instr)
		if instr != "RUN" && instr != "CMD" && instr != "ENTRYPOINT" {
			continue
		}
		// continuation lines; comment lines inside are dropped
		if strings.HasSuffix(rest, "\\") {
			parts := []string{rest}
			for last := rest; strings.HasSuffix(last, "\\") && i+1 < len(lines); {
				parts[len(parts)-1] = strings.TrimSuffix(last, "\\")
				i++
				next := strings.TrimSpace(lines[i])
				for strings.HasPrefix(next, "#") && i+1 < len(lines) {
					i++
					next = strings.TrimSpace(lines[i])
				}
				if strings.HasPrefix(next, "#") {
					break
				}
				parts = append(parts, next)
				last = next
			}
			rest = strings.Join(parts, " ")
		}
		rest = strings.TrimSpace(rest)
		for strings.HasPrefix(rest, "--") { // RUN --mount=… --network=…
			_, rest, _ = strings.Cut(rest, " ")
			rest = strings.TrimSpace(rest)
		}
		if strings.HasPrefix(rest, "<<") {
			// RUN <<EOF … EOF (or <<-EOF, <<"EOF")
			word := strings.Trim(strings.TrimLeft(rest[2:], "-"), `"' `)
			word, after, _ := strings.Cut(word, " ")
			var body []string
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != word; i++ {
				body = append(body, lines[i])
			}
			script := strings.Join(body, "\n")
			if after = strings.TrimSpace(after); after != "" {
				script = after + " <<'" + word + "'\n" + script + "\n" + word
			}
			r.add(instr, script)
			continue
		}
		if strings.HasPrefix(rest, "[") {
			var argv []string
			if json.Unmarshal([]byte(rest), &argv) == nil {
				r.add(instr, argvScript(argv))
				continue
			}
		}
		r.add(instr, rest)
	}
}

// argvScript renders an argument vector as a shell line; sh -c SCRIPT is
// SCRIPT.
func argvScript(argv []string) string {
	if len(argv) >= 3 && (path.Base(argv[0]) == "sh" || path.Base(argv[0]) == "bash") && (argv[1] == "-c" || argv[1] == "-lc" || argv[1] == "-ec") {
		return argv[2]
	}
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = tool.Quote(a)
	}
	return strings.Join(q, " ")
}

// ---------------------------------------------------------------- package scripts

// metaKey reports the package.json keys whose values are not commands.
func metaKey(k string) bool {
	switch k {
	case "name", "version", "description", "main", "module", "types", "typings", "license", "author", "homepage", "type",
		"private", "url", "email", "bugs", "repository", "packageManager", "node", "npm", "browser", "unpkg", "jsdelivr",
		"$schema", "directory", "registry", "access", "funding":
		return true
	}
	return false
}

// pairs calls fn with each "key": "value" pair of JSON text whose value
// is a string (both decoded), up to limit pairs, in one pass.
func pairs(text string, limit int, fn func(key, val string)) {
	n := 0
	for i := 0; i < len(text) && n < limit; {
		j := strings.IndexByte(text[i:], '"')
		if j < 0 {
			return
		}
		i += j
		key, end, ok := jsonString(text, i)
		if !ok {
			i++
			continue
		}
		k := skipSpace(text, end)
		if k >= len(text) || text[k] != ':' {
			i = end
			continue
		}
		k = skipSpace(text, k+1)
		if k >= len(text) || text[k] != '"' {
			i = k
			continue
		}
		val, vend, ok := jsonString(text, k)
		if !ok {
			i = k + 1
			continue
		}
		n++
		fn(key, val)
		i = vend
	}
}

// jsonString decodes the JSON string that starts at text[i] (a quote) on
// one line, returning where it ends.
func jsonString(text string, i int) (string, int, bool) {
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case '\n':
			return "", j, false
		case '"':
			var s string
			if json.Unmarshal([]byte(text[i:j+1]), &s) != nil {
				return "", j + 1, false
			}
			return s, j + 1, true
		}
	}
	return "", len(text), false
}

func skipSpace(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// packageScripts reads the scripts of package.json or composer.json; a
// fragment that does not parse is read pair by pair, leaving out values
// that are not commands (metadata, version ranges).
func (r *reader) packageScripts(text string) {
	var pkg struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &pkg) == nil {
		for name, raw := range sortedKeys(pkg.Scripts) {
			var s string
			var list []string
			switch {
			case json.Unmarshal(raw, &s) == nil:
				r.packageScript(name, s)
			case json.Unmarshal(raw, &list) == nil:
				for _, s := range list {
					r.packageScript(name, s)
				}
			}
		}
		return
	}
	pairs(text, MaxPrograms*4, func(key, val string) {
		if !metaKey(key) && !versionLike(val) {
			r.packageScript(key, val)
		}
	})
}

// packageScript keeps one script; composer's @php runs PHP, its other
// @references name scripts, its Class::method values are PHP callbacks.
func (r *reader) packageScript(name, s string) {
	if rest, ok := strings.CutPrefix(s, "@php "); ok {
		s = "php " + rest
	} else if strings.HasPrefix(s, "@") || strings.Contains(s, "::") && !strings.ContainsAny(s, " ") {
		return
	}
	r.add("scripts."+name, s)
}

// versionLike reports a dependency's version range or source.
func versionLike(v string) bool {
	if v == "" || v == "latest" || v == "*" || v == "next" {
		return true
	}
	if strings.ContainsAny(v[:1], "^~<>=0123456789") {
		return true
	}
	for _, p := range []string{"workspace:", "npm:", "file:", "link:", "git+", "git:", "github:", "http://", "https://", "catalog:", "patch:", "portal:"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// sortedKeys iterates a map in key order, so that the scripts kept under
// the bound, and their findings, do not depend on map order.
func sortedKeys[V any](m map[string]V) func(yield func(string, V) bool) {
	return func(yield func(string, V) bool) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if !yield(k, m[k]) {
				return
			}
		}
	}
}

// ---------------------------------------------------------------- Makefile

var (
	makeShell = lazy(`\$[({]shell\s+([^)}]*)[)}]`)
	makeVar   = lazy(`\$(?:\([^()]*\)|\{[^{}]*\}|[@<^*?%+|])`)
)

// makefile reads recipe lines (those that start with a tab), joined
// across backslash continuations, with make's variables replaced by a
// word, and the commands of $(shell …) calls.
func (r *reader) makefile(text string) {
	lines := strings.Split(text, "\n")
	if strings.Contains(text, "shell") {
		for _, m := range makeShell().FindAllStringSubmatch(text, MaxPrograms) {
			r.add("$(shell)", makeWords(m[1]))
		}
	}
	for i := 0; i < len(lines) && !r.full(); i++ {
		if !strings.HasPrefix(lines[i], "\t") {
			continue
		}
		line := lines[i][1:]
		if strings.HasSuffix(line, "\\") {
			parts := []string{line}
			for last := line; strings.HasSuffix(last, "\\") && i+1 < len(lines); {
				parts[len(parts)-1] = strings.TrimSuffix(last, "\\")
				i++
				last = strings.TrimPrefix(lines[i], "\t")
				parts = append(parts, last)
			}
			line = strings.Join(parts, " ")
		}
		line = strings.TrimLeft(line, "@+- \t")
		r.add("recipe", makeWords(line))
	}
}

// makeWords replaces make's variable references by a word and $$ by $.
func makeWords(s string) string {
	if !strings.Contains(s, "$") {
		return s
	}
	s = strings.ReplaceAll(s, "$$", "\x00")
	s = makeVar().ReplaceAllString(s, "__makevar__")
	return strings.ReplaceAll(s, "\x00", "$")
}

// ---------------------------------------------------------------- Jenkinsfile

var jenkinsSh = lazy(`\bsh\s*\(?\s*(?:script\s*:\s*)?('''|"""|'|")`)

// jenkinsfile reads the scripts of sh steps: sh 'cmd', sh """…""",
// sh(script: '…'); a GString's ${…} is replaced by a word.
func (r *reader) jenkinsfile(text string) {
	if !strings.Contains(text, "sh") {
		return
	}
	for pos := 0; pos < len(text) && !r.full(); {
		loc := jenkinsSh().FindStringSubmatchIndex(text[pos:])
		if loc == nil {
			return
		}
		q := text[pos+loc[2] : pos+loc[3]]
		body := text[pos+loc[3]:]
		end := -1
		if len(q) == 3 {
			if end = strings.Index(body, q); end < 0 {
				return // nothing later closes it either
			}
		} else {
			for i := 0; i < len(body); i++ {
				if body[i] == '\\' {
					i++
					continue
				}
				if body[i] == q[0] || body[i] == '\n' {
					end = i
					break
				}
			}
			if end < 0 {
				return
			}
		}
		pos += loc[3] + end + len(q)
		s := body[:end]
		if q[0] == '"' {
			s = groovyExpr().ReplaceAllString(s, "__expr__")
		}
		if len(q) == 1 {
			s = strings.NewReplacer(`\\`, `\`, `\'`, `'`, `\"`, `"`).Replace(s)
		}
		r.add("sh step", s)
	}
}

var groovyExpr = lazy(`\$\{[^}]*\}`)

// ---------------------------------------------------------------- crontab

// crontab reads the command of each line: after five time fields or an
// @word, and a user in the system's crontabs; environment lines and
// comments hold none. An unescaped % ends the command (the rest is its
// stdin).
func (r *reader) crontab(text string, system bool) {
	for _, line := range strings.Split(text, "\n") {
		if r.full() {
			return
		}
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || envLine(line) {
			continue
		}
		skip := 5
		if line[0] == '@' {
			skip = 1
		}
		if system {
			skip++
		}
		rest := line
		for range skip {
			rest = strings.TrimLeft(rest, " \t")
			i := strings.IndexAny(rest, " \t")
			if i < 0 {
				rest = ""
				break
			}
			rest = rest[i:]
		}
		if i := unescapedPercent(rest); i >= 0 {
			rest = rest[:i]
		}
		r.add("crontab line", strings.ReplaceAll(rest, `\%`, "%"))
	}
}

// envLine reports a crontab line that sets a variable: NAME=value.
func envLine(l string) bool {
	i := strings.IndexByte(l, '=')
	if i <= 0 {
		return false
	}
	name := strings.TrimSpace(l[:i])
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return name != ""
}

func unescapedPercent(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '%' {
			return i
		}
	}
	return -1
}

// ---------------------------------------------------------------- systemd

// systemd reads a unit's Exec lines, their prefixes (@ - : + !) removed.
func (r *reader) systemd(text string) {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines) && !r.full(); i++ {
		line := strings.TrimSpace(lines[i])
		key, val, ok := strings.Cut(line, "=")
		if !ok || !strings.HasPrefix(key, "Exec") {
			continue
		}
		if strings.HasSuffix(val, "\\") {
			parts := []string{val}
			for last := val; strings.HasSuffix(last, "\\") && i+1 < len(lines); {
				parts[len(parts)-1] = strings.TrimSuffix(last, "\\")
				i++
				last = strings.TrimSpace(lines[i])
				parts = append(parts, last)
			}
			val = strings.Join(parts, " ")
		}
		r.add(strings.TrimSpace(key), strings.TrimLeft(strings.TrimSpace(val), "@-:+!|"))
	}
}

// ---------------------------------------------------------------- git

// gitCommandKey reports the git configuration keys (section.key, lower
// case, subsection removed) whose values git runs as shell commands.
func gitCommandKey(k string) bool {
	switch k {
	case "core.fsmonitor", "core.sshcommand", "core.pager", "core.editor", "core.askpass", "core.gitproxy",
		"sequence.editor", "gpg.program", "credential.helper", "filter.clean", "filter.smudge", "filter.process",
		"diff.textconv", "diff.command", "merge.driver", "diff.external", "remote.uploadpack", "remote.receivepack",
		"pager.", "alias.", "uploadpack.packobjectshook", "web.browser", "browser.cmd", "gpg.ssh.program":
		return true
	}
	return false
}

// gitConfig reads the values git runs as commands: section [x "sub"]
// lines name the section, key = value lines the rest. A value true or
// false (core.fsmonitor = true uses git's own) or a plain program name
// for a helper (credential.helper = store) runs nothing worth reading;
// an alias runs a shell only when it starts with !.
func (r *reader) gitConfig(text string) {
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			name, _, _ = strings.Cut(name, ".")
			section = strings.ToLower(strings.Trim(name, `"`))
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key = strings.ToLower(strings.TrimSpace(key))
		val = unquoteGit(strings.TrimSpace(val))
		full := section + "." + key
		switch {
		case section == "alias":
			if rest, ok := strings.CutPrefix(val, "!"); ok {
				r.add(full, rest)
			}
		case section == "pager":
			r.add(full, val)
		case gitCommandKey(full):
			if v := strings.ToLower(val); v == "true" || v == "false" || v == "" || !strings.ContainsAny(val, " /!|;&$") && full == "credential.helper" {
				continue
			}
			r.add(full, strings.TrimPrefix(val, "!"))
		}
	}
}

func unquoteGit(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
	}
	return v
}

// ---------------------------------------------------------------- ssh

// sshConfig reads the options an ssh client runs as commands.
func (r *reader) sshConfig(text string) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		key, val, ok := strings.Cut(line, " ")
		if k2, v2, ok2 := strings.Cut(line, "="); ok2 && (!ok || len(k2) < len(key)) {
			key, val, ok = k2, v2, true
		}
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "proxycommand", "localcommand", "knownhostscommand":
			if val != "none" {
				r.add(strings.TrimSpace(key), val)
			}
		case "match":
			f := strings.Fields(val)
			for i := 0; i+1 < len(f); i++ {
				if strings.ToLower(f[i]) == "exec" {
					r.add("Match exec", unquoteGit(strings.Join(f[i+1:], " ")))
					break
				}
			}
		}
	}
}

// ---------------------------------------------------------------- desktop entries

// desktop reads an entry's Exec line, its field codes (%f, %U …) removed.
func (r *reader) desktop(text string) {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Exec="); ok {
			r.add("Exec", desktopCodes().ReplaceAllString(v, ""))
		}
	}
}

var desktopCodes = lazy(`%[a-zA-Z]`)

// ---------------------------------------------------------------- Python start-up

// pythonStartup reads what Python runs at every start: the import lines
// of a .pth file (its other lines only add to sys.path), or a whole
// sitecustomize.py (a text with lines of other code).
func (r *reader) pythonStartup(text string) {
	var imports strings.Builder
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "import\t"):
			imports.WriteString(line + "\n")
		case t == "" || t[0] == '#' || !strings.ContainsAny(t, "(=:"):
		default:
			r.addLang("python", "", text) // Python code, not a .pth file
			return
		}
	}
	r.addLang("python", ".pth import line", imports.String())
}

// ---------------------------------------------------------------- launchd

var (
	plistArgs    = lazy(`(?s)<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>`)
	plistProgram = lazy(`(?s)<key>\s*Program\s*</key>\s*<string>(.*?)</string>`)
	plistString  = lazy(`(?s)<string>(.*?)</string>`)
)

// launchd reads a job's ProgramArguments (sh -c SCRIPT is SCRIPT) or
// Program.
func (r *reader) launchd(text string) {
	if m := plistArgs().FindStringSubmatch(text); m != nil {
		var argv []string
		for _, s := range plistString().FindAllStringSubmatch(m[1], 256) {
			argv = append(argv, html.UnescapeString(s[1]))
		}
		if len(argv) > 0 {
			r.add("ProgramArguments", argvScript(argv))
		}
		return
	}
	if m := plistProgram().FindStringSubmatch(text); m != nil {
		r.add("Program", tool.Quote(html.UnescapeString(m[1])))
	}
}

// ---------------------------------------------------------------- JSON configs

// devCommandKey reports the keys of devcontainer.json that hold commands.
func devCommandKey(k string) bool {
	switch k {
	case "initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand",
		"postAttachCommand":
		return true
	}
	return false
}

// jsonConfig reads .vscode/tasks.json (command and args) and
// devcontainer.json (the …Command keys: a string, an argument list or an
// object of those); JSON with comments; a fragment that does not parse is
// read pair by pair.
func (r *reader) jsonConfig(k Kind, text string) {
	var v any
	if json.Unmarshal([]byte(stripJSONComments(text)), &v) != nil {
		pairs(text, MaxPrograms*4, func(key, val string) {
			if k == EditorTasks && key == "command" || k == DevContainer && devCommandKey(key) {
				r.add(key, val)
			}
		})
		return
	}
	r.jsonWalk(k, v, 0)
}

func (r *reader) jsonWalk(k Kind, v any, depth int) {
	if depth > 64 || len(r.progs) >= MaxPrograms {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			r.jsonWalk(k, e, depth+1)
		}
	case map[string]any:
		for key, val := range sortedKeys(x) {
			switch {
			case k == EditorTasks && key == "command":
				if s, ok := val.(string); ok {
					args := []string{s}
					if list, ok := x["args"].([]any); ok {
						for _, a := range list {
							if s, ok := a.(string); ok {
								args = append(args, tool.Quote(s))
							}
						}
					}
					r.add("command", strings.Join(args, " "))
				}
			case k == DevContainer && devCommandKey(key):
				r.devCommand(key, val)
			default:
				r.jsonWalk(k, val, depth+1)
			}
		}
	}
}

// devCommand keeps a dev container command: a string is a shell line, a
// list an argument vector, an object several commands run in parallel.
func (r *reader) devCommand(key string, v any) {
	switch x := v.(type) {
	case string:
		r.add(key, x)
	case []any:
		var argv []string
		for _, a := range x {
			if s, ok := a.(string); ok {
				argv = append(argv, s)
			}
		}
		if len(argv) > 0 {
			r.add(key, argvScript(argv))
		}
	case map[string]any:
		for _, val := range sortedKeys(x) {
			if _, nested := val.(map[string]any); !nested {
				r.devCommand(key, val)
			}
		}
	}
}

// stripJSONComments blanks // and /* */ comments outside strings.
func stripJSONComments(s string) string {
	if !strings.Contains(s, "//") && !strings.Contains(s, "/*") {
		return s
	}
	b := []byte(s)
	inStr := false
	for i := 0; i < len(b); i++ {
		switch {
		case inStr:
			if b[i] == '\\' {
				i++
			} else if b[i] == '"' {
				inStr = false
			}
		case b[i] == '"':
			inStr = true
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		case b[i] == '/' && i+1 < len(b) && b[i+1] == '*':
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' {
					b[i] = ' '
				}
			}
			if i+1 < len(b) {
				b[i], b[i+1] = ' ', ' '
				i++
			}
		}
	}
	return string(b)
}

// lazy compiles a regular expression when first used.
func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
