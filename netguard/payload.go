package netguard

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// RuleInjection is a request that carries an injection payload in its
// URL (read after percent-decoding), headers or body: a shell command
// substitution or chained command, a JNDI lookup (Log4Shell), a path
// traversal to system files, an SQL injection, template injection that
// reaches code, a script that runs in a browser. It attacks the service
// it is sent to, on the local network or on the Internet alike: high,
// critical when the payload downloads a program and runs it. A template
// expression that only computes (the {{7*7}} probe) is medium: it tells,
// it does nothing.
const RuleInjection = "netguard.injection_payload"

// maxPayloadText bounds the text of one request read for payloads, and
// maxPayloadTexts the texts of one call.
const (
	maxPayloadText  = 8 << 10
	maxPayloadTexts = 24
)

// injections reports the first injection payload the requests of c
// carry: the URLs a tool opens, the URLs commands and code request, the
// data they send inline, every word of a command that connects (its
// headers among them), and the text arguments of a tool the catalog does
// not know that opens a URL.
func injections(c *tool.Call) []risk.Finding {
	best := payload{}
	where := ""
	n := 0
	scan := func(s, dest string) {
		if n++; n > maxPayloadTexts || best.level == risk.Critical {
			return
		}
		if p := payloadIn(s); p.found() && (!best.found() || p.level > best.level) {
			best, where = p, dest
		}
	}
	for _, u := range c.URLs {
		scan(u, u)
	}
	for _, d := range c.Dests {
		if d.URL != "" && !containsURL(c.URLs, d.URL) {
			scan(d.URL, d.URL)
		}
	}
	for _, e := range c.Effects {
		if e.Kind == tool.SendData && e.Inline && e.Text != "" {
			scan(e.Text, e.URL)
		}
	}
	if len(c.Dests) > 0 {
		for _, sc := range c.Scripts {
			if sc.Err != nil {
				continue
			}
			for _, cmd := range sc.Commands {
				if len(cmd.Args) < 2 {
					continue
				}
				// the first place the program connects to
				destsOf(c, cmd, func(dest string) bool {
					for j, a := range cmd.Args[1:] {
						if !cmd.Dynamic[j+1] {
							scan(a, dest)
						}
					}
					return false
				})
			}
		}
	}
	if !c.Known && len(c.URLs) > 0 {
		for _, t := range c.Text {
			scan(t, c.URLs[0])
		}
	}
	if !best.found() {
		return nil
	}
	why := "The request to " + cutHost(where) + " carries " + best.what
	switch {
	case best.level == risk.Critical:
		why += ", which downloads a program and runs it on the service's machine: an attack that takes the machine over"
	case best.level == risk.Medium:
		why += ": a probe for an injection flaw, which tells and does nothing yet"
	default:
		why += ": an attack on the service it is sent to"
	}
	return []risk.Finding{{Analyzer: Name, Rule: RuleInjection, Level: best.level, Resource: resource(cutHost(where)), Reason: why}}
}

// payload is what payloadIn found: a description and a level (zero when
// nothing was found).
type payload struct {
	what  string
	level risk.Level
}

func (p payload) found() bool { return p.what != "" }

// payloadIn returns the injection payload text carries (a URL, a header,
// a body), read after '+' and percent-decoding (twice: ..%252f), in
// lower case. Cheap on text without the bytes any payload needs.
func payloadIn(text string) payload {
	if len(text) > maxPayloadText {
		text = text[:maxPayloadText]
	}
	if strings.IndexAny(text, "$`;|&'\"<{% +\n") < 0 && !strings.Contains(text, "..") {
		return payload{}
	}
	s := lowerASCII(percentDecode(percentDecode(text)))
	if strings.Contains(s, "${") && jndiLookup(s) {
		return payload{what: "a JNDI lookup (Log4Shell), which makes a Java service load and run a remote class", level: risk.High}
	}
	if shellInjection(s) {
		if downloadsAndRuns(s) {
			return payload{what: "a shell command injected to download a program and run it", level: risk.Critical}
		}
		return payload{what: "a shell command injected into the request (command substitution or a chained command)", level: risk.High}
	}
	if strings.Contains(s, "..") && traversal(s) {
		return payload{what: "a path traversal to system files (../../etc/passwd)", level: risk.High}
	}
	if sqlInjection(s) {
		return payload{what: "an SQL injection (a tautology, UNION SELECT, a stacked or timed query)", level: risk.High}
	}
	if strings.IndexByte(s, '<') >= 0 && scriptInjection(s) {
		return payload{what: "a script injected to run in a browser (cross-site scripting)", level: risk.High}
	}
	if p := templateInjection(s); p.found() {
		return p
	}
	return payload{}
}

// percentDecode decodes the %XX escapes of s and reads '+' as a space;
// an escape that is not one stays as written. s itself when it holds
// neither.
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '+':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// lowerASCII is strings.ToLower for ASCII letters, s itself when it has
// none upper-case.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'A' && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// jndiLookup reports a Log4j JNDI lookup in s (lower case), plain or
// obfuscated by nested lookups that spell it (${${lower:j}ndi:,
// ${${::-j}${::-n}di:, ${${env:x:-j}ndi:).
func jndiLookup(s string) bool {
	if strings.Contains(s, "${jndi:") {
		return true
	}
	if !strings.Contains(s, "${${") && !strings.Contains(s, "${::-") && !strings.Contains(s, "${lower:") && !strings.Contains(s, "${upper:") {
		return false
	}
	// drop the nested lookups' openers (up to their default, :-) and
	// every closing brace: what is left spells the lookup
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 1024; {
		if strings.HasPrefix(s[i:], "${") && i+2 < len(s) {
			rest := s[i+2:]
			switch {
			case strings.HasPrefix(rest, "lower:"), strings.HasPrefix(rest, "upper:"):
				i += 2 + len("lower:")
				continue
			case strings.HasPrefix(rest, "::-"):
				i += 2 + 3
				continue
			}
			if k := strings.Index(rest, ":-"); k > 0 && k < 32 && strings.IndexAny(rest[:k], "{}$") < 0 && strings.IndexByte(rest[:k], ':') > 0 {
				i += 2 + k + 2 // ${env:name:-j}
				continue
			}
		}
		if s[i] != '}' {
			b.WriteByte(s[i])
		}
		i++
	}
	return strings.Contains(b.String(), "${jndi:")
}

// strongCmds are programs an injected command runs to take a machine
// over or find out about it; weakCmds are words that are commands as
// often as not, taken only with an argument or inside a substitution.
var (
	strongCmds = map[string]bool{"wget": true, "curl": true, "sh": true, "bash": true, "zsh": true, "ksh": true, "nc": true, "ncat": true,
		"netcat": true, "python": true, "python3": true, "perl": true, "php": true, "ruby": true, "busybox": true, "tftp": true,
		"chmod": true, "whoami": true, "uname": true, "nslookup": true, "powershell": true, "telnet": true, "socat": true}
	weakCmds = map[string]bool{"cat": true, "ls": true, "id": true, "echo": true, "sleep": true, "ping": true, "rm": true,
		"env": true, "pwd": true, "dig": true, "head": true, "touch": true, "cd": true, "ifconfig": true, "hostname": true}
)

// shellInjection reports a shell command injected into s (lower case):
// a command substitution ($(cmd …), `cmd …`) or a command chained after
// ; | && or a newline, given an argument (;wget http://…, ;cat
// /etc/passwd), and the ${IFS} of commands written without spaces.
func shellInjection(s string) bool {
	if strings.Contains(s, "${ifs}") || strings.Contains(s, "$ifs$") {
		return true
	}
	for i := 0; i < len(s); i++ {
		var subst bool
		switch s[i] {
		case '$':
			if i+1 >= len(s) || s[i+1] != '(' || i+2 < len(s) && s[i+2] == '(' {
				continue // $((arithmetic))
			}
			i++
			subst = true
		case '`':
			subst = strings.IndexByte(s[i+1:], '`') >= 0
			if !subst {
				continue
			}
		case ';', '|', '\n':
		case '&':
			if i+1 >= len(s) || s[i+1] != '&' {
				continue
			}
			i++
		default:
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '|') {
			j++
		}
		k := j
		for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9' || s[k] == '/' || s[k] == '_' || s[k] == '.') {
			k++
		}
		word := path.Base(s[j:k])
		if j == k || !strongCmds[word] && !weakCmds[word] {
			continue
		}
		end := k == len(s)
		if !end && strings.IndexByte(" \t;|&)`$<>'\"\n", s[k]) < 0 {
			continue // ;stok=, |shoes
		}
		// the argument after the word, if any
		arg := byte(0)
		if !end && (s[k] == ' ' || s[k] == '\t') {
			a := k
			for a < len(s) && (s[a] == ' ' || s[a] == '\t') {
				a++
			}
			if a < len(s) {
				arg = s[a]
			}
		}
		switch {
		case subst:
			return true
		case strongCmds[word] && arg != 0 && arg != '&' && arg != '=':
			return true
		case weakCmds[word] && (arg == '/' || arg == '-' || arg == '$' || arg >= '0' && arg <= '9'):
			return true
		case (word == "sh" || word == "bash" || word == "whoami" || word == "uname") && fetchesIn(s):
			return true
		}
	}
	return false
}

// fetchesIn reports a download command in s (lower case).
func fetchesIn(s string) bool {
	return strings.Contains(s, "wget ") || strings.Contains(s, "curl ") || strings.Contains(s, "tftp ") ||
		strings.Contains(s, "wget${ifs}") || strings.Contains(s, "curl${ifs}")
}

// downloadsAndRuns reports an injected command that downloads a program
// and runs it: a download with a shell fed or started, or the file made
// executable.
func downloadsAndRuns(s string) bool {
	if !fetchesIn(s) {
		return false
	}
	for _, w := range [...]string{"|sh", "| sh", "|bash", "| bash", "|/bin/sh", "| /bin/sh", "|/bin/bash", ";sh ", "; sh ", "&&sh ",
		"&& sh ", "chmod +x", "chmod 777", "chmod 755", ";./", "; ./", "&&./", "&& ./", "sh -c", "bash -c", "-o-|", "${ifs}sh"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// traversal reports a path traversal in s (lower case) to a system file
// or folder (../../etc/passwd, ..\..\windows\win.ini, ....//), or one
// climbing three folders or more.
func traversal(s string) bool {
	for i := 0; i < len(s); {
		k := strings.Index(s[i:], "..")
		if k < 0 {
			return false
		}
		j, ups := i+k, 0
		for n := dotdot(s[j:]); n > 0; n = dotdot(s[j:]) {
			j += n
			ups++
		}
		if ups >= 3 {
			return true
		}
		if ups >= 1 {
			rest := strings.TrimLeft(s[j:], "/\\")
			for _, t := range [...]string{"etc/", "etc\\", "proc/", "root/", "windows/", "windows\\", "winnt/", "boot.ini", "var/log", ".ssh/", ".aws/", "home/"} {
				if strings.HasPrefix(rest, t) {
					return true
				}
			}
		}
		i = max(j, i+k+2)
	}
	return false
}

// dotdot returns the length of the step up a folder at the start of s
// (../, ..\, ..;/, and ....// that a filter removing ../ leaves as one),
// or 0.
func dotdot(s string) int {
	switch {
	case strings.HasPrefix(s, "....//"), strings.HasPrefix(s, "....\\\\"):
		return 6
	case strings.HasPrefix(s, "..;/"):
		return 4
	case strings.HasPrefix(s, "../"), strings.HasPrefix(s, "..\\"):
		return 3
	}
	return 0
}

// sqlInjection reports an SQL injection in s (lower case): a tautology
// after a quote (' or 1=1, " or "a"="a), a quote that ends the query
// (admin'--), UNION SELECT of columns, a stacked statement after a
// quote, a timed or command-running call.
func sqlInjection(s string) bool {
	s = strings.ReplaceAll(s, "/**/", " ")
	for _, w := range [...]string{"xp_cmdshell", "pg_sleep(", "waitfor delay '", "dbms_pipe.receive_message(", "information_schema.tables", "information_schema.columns"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	if i := strings.Index(s, "union"); i >= 0 && unionSelect(s[i:]) {
		return true
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\'' && c != '"' && c != ' ' {
			continue
		}
		j := i + 1
		if c != ' ' {
			for j < len(s) && s[j] == ')' {
				j++
			}
			rest := s[j:]
			if strings.HasPrefix(rest, "--") || strings.HasPrefix(rest, ";--") || strings.HasPrefix(rest, "#") && len(rest) < 3 || strings.HasPrefix(rest, "-- ") {
				if len(rest) <= 3 || rest[2] == ' ' || rest[2] == '-' || rest[2] == '&' {
					return true // admin'--
				}
			}
			if strings.HasPrefix(rest, ";") {
				r := strings.TrimLeft(rest[1:], " ")
				for _, st := range [...]string{"drop ", "delete ", "insert ", "update ", "shutdown", "exec ", "declare ", "select "} {
					if strings.HasPrefix(r, st) {
						return true
					}
				}
			}
		}
		for j < len(s) && s[j] == ' ' {
			j++
		}
		var op int
		switch {
		case strings.HasPrefix(s[j:], "or "), strings.HasPrefix(s[j:], "||"):
			op = 2
		case strings.HasPrefix(s[j:], "and "), strings.HasPrefix(s[j:], "&&"):
			op = 3
			if s[j] == '&' {
				op = 2
			}
		default:
			continue
		}
		if c == ' ' && (op != 2 || s[j] != 'o') {
			continue // without a quote, only " or N=N"
		}
		if tautology(strings.TrimLeft(s[j+op:], " "), c == ' ') {
			return true
		}
		if c != ' ' && (strings.HasPrefix(strings.TrimLeft(s[j+op:], " "), "sleep(") || strings.HasPrefix(strings.TrimLeft(s[j+op:], " "), "benchmark(")) {
			return true
		}
	}
	return false
}

// tautology reports an expression that is always true at the start of s:
// N=N, 'a'='a, "x"="x", true, 1; numeric only when numericOnly.
func tautology(s string, numericOnly bool) bool {
	// what follows must end the expression: the value, a comment, a
	// quote, a parenthesis, the next parameter or statement ("' or 1=1
	// explained" is words)
	ends := func(after string) bool {
		after = strings.TrimLeft(after, " ")
		return after == "" || strings.HasPrefix(after, "--") || strings.HasPrefix(after, "#") || strings.HasPrefix(after, "/*") ||
			strings.IndexByte("&;)'\"", after[0]) >= 0
	}
	if !numericOnly && strings.HasPrefix(s, "true") {
		return ends(s[4:])
	}
	eq := strings.IndexByte(s, '=')
	if eq <= 0 || eq > 12 {
		return false
	}
	a := strings.Trim(strings.TrimSpace(s[:eq]), "'\"")
	rest := strings.TrimLeft(strings.TrimLeft(s[eq+1:], " "), "'\"")
	if a == "" || !strings.HasPrefix(rest, a) {
		return false
	}
	if numericOnly {
		for i := 0; i < len(a); i++ {
			if a[i] < '0' || a[i] > '9' {
				return false
			}
		}
	}
	return ends(rest[len(a):])
}

// unionSelect reports UNION [ALL] SELECT of columns at the start of s
// (lower case): numbers, NULLs, *, @@version, functions and names that
// read the schema or users, or what ends the query (--, #).
func unionSelect(s string) bool {
	s = strings.TrimLeft(s[len("union"):], " ")
	s = strings.TrimPrefix(s, "all ")
	s = strings.TrimPrefix(s, "distinct ")
	s = strings.TrimLeft(s, " ")
	if !strings.HasPrefix(s, "select ") && !strings.HasPrefix(s, "select(") {
		return false
	}
	s = strings.TrimLeft(s[len("select"):], " (")
	if s == "" {
		return false
	}
	if c := s[0]; c >= '0' && c <= '9' || c == '*' || c == '\'' || c == '@' {
		return true
	}
	for _, w := range [...]string{"null", "concat", "group_concat", "char(", "version(", "user(", "database(", "load_file(", "table_name", "column_name", "username", "password", "schema_name"} {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return strings.Contains(s, "--") || strings.Contains(s, " from information_schema")
}

// scriptInjection reports markup in s (lower case) that runs script in a
// browser: a script element with a source or code that acts, an event
// handler on an element (<img src=x onerror=…>, <svg onload=…>), a
// javascript: URL that acts.
func scriptInjection(s string) bool {
	acts := func(t string) bool {
		if len(t) > 200 {
			t = t[:200]
		}
		for _, w := range [...]string{"alert(", "prompt(", "confirm(", "document.", "window.", "fetch(", "eval(", "atob(", "location", "src=", "xmlhttprequest", "import("} {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	for i := strings.IndexByte(s, '<'); i >= 0 && i < len(s); {
		t := s[i+1:]
		if strings.HasPrefix(t, "script") && acts(t) {
			return true
		}
		for _, el := range [...]string{"img", "svg", "body", "iframe", "details", "video", "audio", "input", "marquee", "a ", "div", "object", "embed"} {
			if strings.HasPrefix(t, el) {
				end := strings.IndexByte(t, '>')
				if end < 0 {
					end = min(len(t), 200)
				}
				if tag := t[:end]; handlerAttr(tag) && acts(tag) || strings.Contains(tag, "javascript:") {
					return true
				}
			}
		}
		k := strings.IndexByte(t, '<')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// handlerAttr reports an event handler attribute (onerror=, onload=) in
// a tag's text.
func handlerAttr(tag string) bool {
	for i := 0; i+3 < len(tag); i++ {
		if (tag[i] == ' ' || tag[i] == '/' || tag[i] == '"' || tag[i] == '\'') && tag[i+1] == 'o' && tag[i+2] == 'n' {
			j := i + 3
			for j < len(tag) && tag[j] >= 'a' && tag[j] <= 'z' {
				j++
			}
			for j < len(tag) && tag[j] == ' ' {
				j++
			}
			if j > i+4 && j < len(tag) && tag[j] == '=' {
				return true
			}
		}
	}
	return false
}

// templateInjection reports a server-side template expression in s
// (lower case): one that reaches code (object internals, a process, the
// runtime) is high; one that only computes ({{7*7}}, ${7*7}) is a probe,
// medium. Placeholders ({{base_url}}) are neither.
func templateInjection(s string) payload {
	for _, open := range [...]string{"{{", "${", "<%=", "#{", "*{"} {
		for from := 0; from < len(s); {
			i := strings.Index(s[from:], open)
			if i < 0 {
				break
			}
			i += from
			body := s[i+len(open):]
			if len(body) > 300 {
				body = body[:300]
			}
			for _, w := range [...]string{"__class__", "__globals__", "__builtins__", "__subclasses__", "__mro__", "__import__", "__init__",
				"popen(", ".system(", "os.popen", "subprocess", "getruntime", "java.lang.runtime", "processbuilder", "t(java.", "self._templatereference", "lipsum.", "cycler.", "joiner.", "request.application", "config.items()", ".exec("} {
				if strings.Contains(body, w) {
					return payload{what: "a template injection that reaches code on the server", level: risk.High}
				}
			}
			if probe(body) {
				return payload{what: "a template expression that computes (" + open + "7*7…)", level: risk.Medium}
			}
			from = i + len(open)
		}
	}
	return payload{}
}

// probe reports arithmetic of numbers at the start of a template body:
// 7*7}}, 7*'7'}}.
func probe(body string) bool {
	body = strings.TrimLeft(body, " ")
	digits, star := 0, false
	for i := 0; i < len(body) && i < 16; i++ {
		switch c := body[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '*' || c == '+' && digits > 0 || c == '-' && digits > 0:
			star = true
		case c == '\'' || c == ' ':
		case c == '}' || c == '%':
			return digits >= 2 && star
		default:
			return false
		}
	}
	return false
}
