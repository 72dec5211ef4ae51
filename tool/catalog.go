package tool

import (
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/agentwarden/warden/analyze/paths"
	"github.com/agentwarden/warden/risk"
)

// Class is what kind of effect a tool has.
type Class string

// The classes.
const (
	Read     Class = "read"
	Edit     Class = "edit"
	Execute  Class = "execute"
	Network  Class = "network"
	Database Class = "database"
	Browser  Class = "browser"
	Other    Class = "other"
)

// Code is a piece of program text and its language.
type Code struct {
	Lang string // "python", "javascript", …
	Text string
}

// Content is text an action writes into a file.
type Content struct {
	Path string
	Text string
	// Old is the text an edit replaces; Partial is set when Text is a
	// fragment of the file (an edit or an insertion), not all of it.
	Old     string
	Partial bool
}

// Call is a normalized action: what warden's analyzers read.
type Call struct {
	Action *risk.Action
	// Name is the tool's name without an MCP prefix; Server is the MCP server
	// when the name was mcp__server__tool.
	Name   string
	Server string
	Class  Class
	Known  bool // the tool is in the catalog

	Shell []string // shell scripts that will run
	// OwnShell counts the scripts of Shell that the tool runs in the
	// agent's own shell, whose changes (cd, variables) persist; those after
	// them were added by preparers (commands a program starts) and run in
	// child processes.
	OwnShell int
	Code     []Code    // program text that will run
	SQL      []string  // SQL that will run
	URLs     []string  // URLs that will be fetched or opened
	Paths    []string  // files read or written (as given; see Abs)
	Content  []Content // text written to files
	// Text holds every string argument of a tool the catalog does not know,
	// and free-text arguments (patterns, queries) of known ones.
	Text []string

	Cwd  string // working directory the call runs in
	Home string // the user's home directory
	// Workspace is the project the conversation works in (its first
	// working directory), which may differ from Cwd once a persistent
	// shell has moved; "" means Cwd.
	Workspace string

	// Prior is the state earlier calls of the conversation left in the
	// persistent shell and interpreter (nil outside a session); Effects
	// is what the preparers found the call does (see Effect).
	Prior   *Prior
	Effects []Effect

	// Dests are the network destinations the call's commands and code
	// connect to, as the preparers read them (curl's URLs, nc's host,
	// the URL code requests); the URLs a fetch or browser tool opens are
	// in URLs.
	Dests []Dest

	// Memo keeps what a preparer derived from the call's text for the
	// readers after it, under keys the preparer documents (the shell
	// preparer: the commands each script resolves to, see
	// shell.Resolved).
	Memo map[string]any

	// Secrets are the secrets found in the call's text, raw, so that
	// whatever shows that text (assessments, the session's history)
	// masks them; SecretsScanned says the search was made. Never store
	// or print them.
	Secrets        []string
	SecretsScanned bool

	// Malformed says why the arguments do not fit the schema of the
	// known tool (a required argument missing or of the wrong type, an
	// argument the tool does not take carrying text); empty when they fit
	// or the tool is not known. The engine reports a malformed call as
	// Unknown (rule tool.malformed) whatever else it finds.
	Malformed []string

	// Work is the budget the preparers and analyzers charge for the work
	// they do on this call (nil: unbounded; the engine always sets one).
	Work *Budget
}

// Dest is a network destination a command or code connects to.
type Dest struct {
	// URL is the URL requested, with the scheme the client defaults to
	// when none is written (curl localhost:8080 requests
	// http://localhost:8080); "" for a connection without one.
	URL string
	// Host is the host (or host:port) of a connection without a URL (nc,
	// telnet, socat, curl --resolve).
	Host string
	// Via is the program or library that connects: "curl", "nc",
	// "python".
	Via string
}

// Env returns the paths environment of the call: its working directory,
// home and workspace.
func (c *Call) Env() paths.Env {
	e := paths.Env{Cwd: c.Cwd, Home: c.Home, Workspace: c.Workspace}
	if c.Prior != nil {
		e.Links = c.Prior.Links
	}
	return e
}

// Abs resolves p against the call's working directory and home: "~" and
// "~/x" expand to Home, relative paths join Cwd, and the result is cleaned.
func (c *Call) Abs(p string) string {
	return c.Env().Abs(p)
}

// spec says where a tool keeps what the analyzers need.
type spec struct {
	class Class
	shell []string // keys holding a shell script (string) or argv (list)
	code  []string
	lang  string
	sql   []string
	url   []string
	path  []string // keys holding one path or a list of paths
	// content keys hold written text; a key of the form "edits.new_string"
	// reads new_string from each object of the list under edits.
	content []string
	text    []string
	cwd     []string
	// refine adjusts a call whose class depends on its arguments.
	refine func(c *Call, args map[string]any)
}

var (
	pathKeys = []string{"file_path", "path", "absolute_path", "notebook_path", "paths", "source", "destination", "directory", "dir_path"}
	urlKeys  = []string{"url", "uri", "urls"}
)

// catalog maps lower-case tool names to their spec.
var catalog = map[string]spec{
	// Claude Code
	"bash":         {class: Execute, shell: []string{"command"}},
	"read":         {class: Read, path: []string{"file_path"}},
	"write":        {class: Edit, path: []string{"file_path"}, content: []string{"content"}},
	"edit":         {class: Edit, path: []string{"file_path"}, content: []string{"new_string"}},
	"multiedit":    {class: Edit, path: []string{"file_path"}, content: []string{"edits.new_string"}},
	"notebookedit": {class: Edit, path: []string{"notebook_path"}, content: []string{"new_source"}},
	"notebookread": {class: Read, path: []string{"notebook_path"}},
	"glob":         {class: Read, path: []string{"path"}, text: []string{"pattern"}},
	"grep":         {class: Read, path: []string{"path"}, text: []string{"pattern", "glob"}},
	"ls":           {class: Read, path: []string{"path"}},
	"webfetch":     {class: Network, url: []string{"url"}, text: []string{"prompt"}},
	"websearch":    {class: Network, text: []string{"query"}},
	"todowrite":    {class: Other},
	"task":         {class: Other, text: []string{"prompt"}},

	// OpenHands
	"execute_bash":         {class: Execute, shell: []string{"command"}},
	"execute_ipython_cell": {class: Execute, code: []string{"code"}, lang: "python"},
	"str_replace_editor":   {class: Edit, path: []string{"path"}, content: []string{"file_text", "new_str"}, refine: refineEditor},
	"browser":              {class: Browser, code: []string{"code"}, lang: "browsergym", refine: refineBrowserGym},
	"web_read":             {class: Network, url: []string{"url"}},

	// Codex
	"shell":       {class: Execute, shell: []string{"command"}, cwd: []string{"workdir"}},
	"local_shell": {class: Execute, shell: []string{"command"}, cwd: []string{"workdir", "working_directory"}},
	"apply_patch": {class: Edit, refine: refinePatch},

	// Gemini CLI
	"run_shell_command":   {class: Execute, shell: []string{"command"}, cwd: []string{"directory", "dir_path"}},
	"read_file":           {class: Read, path: pathKeys},
	"read_many_files":     {class: Read, path: []string{"paths"}},
	"write_file":          {class: Edit, path: pathKeys, content: []string{"content"}},
	"replace":             {class: Edit, path: pathKeys, content: []string{"new_string"}},
	"web_fetch":           {class: Network, url: urlKeys, text: []string{"prompt"}, refine: refinePromptURLs},
	"google_web_search":   {class: Network, text: []string{"query"}},
	"list_directory":      {class: Read, path: pathKeys},
	"search_file_content": {class: Read, path: pathKeys, text: []string{"pattern"}},
	"save_memory":         {class: Edit, content: []string{"fact"}},

	// MCP reference servers: filesystem
	"read_text_file":            {class: Read, path: pathKeys},
	"read_media_file":           {class: Read, path: pathKeys},
	"read_multiple_files":       {class: Read, path: []string{"paths"}},
	"edit_file":                 {class: Edit, path: pathKeys, content: []string{"edits.newText"}},
	"create_directory":          {class: Edit, path: pathKeys},
	"list_directory_with_sizes": {class: Read, path: pathKeys},
	"directory_tree":            {class: Read, path: pathKeys},
	"move_file":                 {class: Edit, path: []string{"source", "destination"}},
	"search_files":              {class: Read, path: pathKeys, text: []string{"pattern"}},
	"get_file_info":             {class: Read, path: pathKeys},
	"list_allowed_directories":  {class: Read},
	// postgres, sqlite
	"query":       {class: Database, sql: []string{"sql", "query"}},
	"read_query":  {class: Database, sql: []string{"query", "sql"}},
	"write_query": {class: Database, sql: []string{"query", "sql"}},
	// fetch
	"fetch": {class: Network, url: urlKeys},
	// playwright
	"browser_navigate":    {class: Browser, url: []string{"url"}},
	"browser_evaluate":    {class: Browser, code: []string{"function", "script", "expression"}, lang: "javascript"},
	"browser_run_code":    {class: Browser, code: []string{"code"}, lang: "javascript"},
	"browser_file_upload": {class: Browser, path: []string{"paths"}},
	"browser_type":        {class: Browser, text: []string{"text"}},
	"browser_fill_form":   {class: Browser},

	// Python code actions (seed 004 and plain agents)
	"code":        {class: Execute, code: []string{"code"}, lang: "python"},
	"python":      {class: Execute, code: []string{"code", "script"}, lang: "python"},
	"python_exec": {class: Execute, code: []string{"code"}, lang: "python"},
	"ipython":     {class: Execute, code: []string{"code"}, lang: "python"},
}

// playwright's read-only browser tools.
var browserReads = []string{"browser_snapshot", "browser_take_screenshot", "browser_console_messages",
	"browser_network_requests", "browser_tabs", "browser_wait_for", "browser_hover", "browser_resize", "browser_close",
	"browser_navigate_back", "browser_click", "browser_press_key", "browser_select_option", "browser_drag", "browser_handle_dialog"}

func init() {
	for _, n := range browserReads {
		if _, ok := catalog[n]; !ok {
			catalog[n] = spec{class: Browser}
		}
	}
}

// Names lists the tool names the catalog knows, sorted.
func Names() []string {
	out := make([]string, 0, len(catalog))
	for n := range catalog {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Normalize turns an action into a Call. cwd and home are the defaults for
// an action that names no working directory; they may be empty.
func Normalize(a *risk.Action, cwd, home string) *Call {
	c := &Call{Action: a, Name: a.Tool, Cwd: cwd, Home: home}
	if a.Cwd != "" {
		c.Cwd = a.Cwd
	}
	name := a.Tool
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if srv, tool, ok := strings.Cut(rest, "__"); ok {
			c.Server, name = srv, tool
		}
	}
	c.Name = name
	sp, ok := catalog[strings.ToLower(name)]
	args := a.Arguments
	if ok {
		c.Known = true
		c.apply(sp, args)
	} else {
		c.generic(args)
	}
	c.OwnShell = len(c.Shell)
	return c
}

func (c *Call) apply(sp spec, args map[string]any) {
	c.Class = sp.class
	for _, k := range sp.cwd {
		if s, ok := args[k].(string); ok && s != "" {
			c.Cwd = c.Abs(s)
			break
		}
	}
	for _, k := range sp.shell {
		c.addShell(args[k])
	}
	for _, k := range sp.code {
		if s, ok := args[k].(string); ok && s != "" {
			c.Code = append(c.Code, Code{Lang: sp.lang, Text: s})
		}
	}
	for _, k := range sp.sql {
		if s, ok := args[k].(string); ok && s != "" {
			c.SQL = append(c.SQL, s)
		}
	}
	for _, k := range sp.url {
		c.URLs = appendStrings(c.URLs, args[k])
	}
	for _, k := range sp.path {
		c.Paths = appendStrings(c.Paths, args[k])
	}
	target := ""
	if len(c.Paths) > 0 {
		target = c.Paths[0]
	}
	for _, k := range sp.content {
		list, field, nested := strings.Cut(k, ".")
		if !nested {
			if s, ok := args[k].(string); ok && s != "" {
				old, partial := editOld(k, args)
				c.Content = append(c.Content, Content{Path: target, Text: s, Old: old, Partial: partial})
			}
			continue
		}
		items, _ := args[list].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if s, ok := m[field].(string); ok && s != "" {
					old, _ := editOld(field, m)
					c.Content = append(c.Content, Content{Path: target, Text: s, Old: old, Partial: true})
				}
			}
		}
	}
	for _, k := range sp.text {
		c.Text = appendStrings(c.Text, args[k])
	}
	if sp.refine != nil {
		sp.refine(c, args)
	}
}

// editOld returns, for a content key that holds an edit's new text, the
// text it replaces and that the content is a fragment of the file.
func editOld(key string, args map[string]any) (string, bool) {
	switch key {
	case "new_string", "new_str", "new_text", "newText", "replacement":
		for _, k := range []string{"old_string", "old_str", "old_text", "oldText", "search"} {
			if s, ok := args[k].(string); ok {
				return s, true
			}
		}
		return "", true
	}
	return "", false
}

// addShell adds a shell script given as a string or as an argv list. An
// argv whose program is a shell run with -c contributes the script itself;
// any other argv is quoted back into one command line.
func (c *Call) addShell(v any) {
	switch x := v.(type) {
	case string:
		if x != "" {
			c.Shell = append(c.Shell, x)
		}
	case []any:
		argv := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				argv = append(argv, s)
			}
		}
		if len(argv) == 0 {
			return
		}
		if script, ok := ShellScript(argv); ok {
			c.Shell = append(c.Shell, script)
			return
		}
		c.Shell = append(c.Shell, JoinArgv(argv))
	}
}

var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

// ShellScript returns the script of an argv that runs a shell with -c (also
// combined flags such as -lc), and whether it was one. As in bash, -c is a
// flag among the options (long ones such as --login too; -o and -O take a
// name) and the script is the first word after them.
func ShellScript(argv []string) (string, bool) {
	if i := ShellScriptIndex(argv); i > 0 {
		return argv[i], true
	}
	return "", false
}

// ShellScriptIndex is ShellScript's index form: the position in argv of
// the script a shell runs with -c, or 0 when argv is not such a command.
func ShellScriptIndex(argv []string) int {
	if len(argv) < 3 || !shells[path.Base(argv[0])] {
		return 0
	}
	c := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--" || a == "-": // end of options
			if c && i+1 < len(argv) {
				return i + 1
			}
			return 0
		case strings.HasPrefix(a, "--"): // --login, --norc, …
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
			for _, r := range a[1:] {
				switch r {
				case 'c':
					c = c || a[0] == '-'
				case 'o', 'O':
					i++ // the option's name
				}
			}
		default:
			if c {
				return i
			}
			return 0
		}
	}
	return 0
}

// JoinArgv quotes argv into a shell command line that bash would split back
// into the same words.
func JoinArgv(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(a))
	}
	return b.String()
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote quotes one word for bash.
func Quote(s string) string {
	if s != "" && plainWord.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func appendStrings(dst []string, v any) []string {
	switch x := v.(type) {
	case string:
		if x != "" {
			dst = append(dst, x)
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && s != "" {
				dst = append(dst, s)
			}
		}
	}
	return dst
}

// refineEditor handles OpenHands' str_replace_editor, whose "view" command
// only reads.
func refineEditor(c *Call, args map[string]any) {
	if cmd, _ := args["command"].(string); cmd == "view" {
		c.Class = Read
		c.Content = nil
	}
}

var browserGoto = regexp.MustCompile(`goto\(\s*['"]([^'"]+)['"]`)

// refineBrowserGym extracts the URLs an OpenHands browser action opens.
func refineBrowserGym(c *Call, args map[string]any) {
	if s, ok := args["code"].(string); ok {
		for _, m := range browserGoto.FindAllStringSubmatch(s, -1) {
			c.URLs = append(c.URLs, m[1])
		}
	}
}

var promptURL = regexp.MustCompile(`https?://[^\s"'<>]+`)

// refinePromptURLs finds URLs in a Gemini web_fetch prompt, which carries
// them inline, without the punctuation of the sentence around them.
func refinePromptURLs(c *Call, args map[string]any) {
	if s, ok := args["prompt"].(string); ok {
		for _, u := range promptURL.FindAllString(s, -1) {
			u = strings.TrimRight(u, ".,;:!?")
			if strings.HasSuffix(u, ")") && strings.Count(u, "(") < strings.Count(u, ")") {
				u = strings.TrimSuffix(u, ")")
			}
			c.URLs = append(c.URLs, u)
		}
	}
}

// refinePatch reads a Codex apply_patch envelope: the files it adds,
// updates, deletes or moves, and the lines it adds.
func refinePatch(c *Call, args map[string]any) {
	var patch string
	for _, k := range []string{"input", "patch", "command"} {
		switch v := args[k].(type) {
		case string:
			patch = v
		case []any: // ["apply_patch", "*** Begin Patch…"]
			for _, e := range v {
				if s, ok := e.(string); ok && strings.Contains(s, "*** Begin Patch") {
					patch = s
				}
			}
		}
		if patch != "" {
			break
		}
	}
	cur := -1
	for _, line := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, p); ok {
				f = strings.TrimSpace(f)
				c.Paths = append(c.Paths, f)
				c.Content = append(c.Content, Content{Path: f})
				cur = len(c.Content) - 1
			}
		}
		if cur >= 0 && strings.HasPrefix(line, "+") {
			c.Content[cur].Text += line[1:] + "\n"
		}
	}
	out := c.Content[:0]
	for _, ct := range c.Content {
		if ct.Text != "" {
			out = append(out, ct)
		}
	}
	c.Content = out
}

// generic handles a tool the catalog does not know: every string is kept as
// text, and well-known argument names are read for what they usually hold.
func (c *Call) generic(args map[string]any) {
	c.Class = Other
	if a := c.Action.Annotations; a.ReadOnly() {
		c.Class = Read
	}
	var walk func(key string, v any, depth int)
	walk = func(key string, v any, depth int) {
		if depth > 32 {
			return
		}
		switch x := v.(type) {
		case string:
			if x == "" {
				return
			}
			c.Text = append(c.Text, x)
			k := strings.ToLower(key)
			if wholeURL(x) {
				// a tool given a web address, under whatever name, is
				// likely to open it (a path key holds no file then)
				c.URLs = append(c.URLs, x)
				k = "url:" + k
			}
			switch k {
			case "command", "cmd", "script", "shell":
				c.Shell = append(c.Shell, x)
			case "code", "python":
				c.Code = append(c.Code, Code{Lang: "python", Text: x})
			case "sql":
				c.SQL = append(c.SQL, x)
			case "query":
				if looksLikeSQL(x) {
					c.SQL = append(c.SQL, x)
				}
			case "url", "uri", "href", "endpoint":
				c.URLs = append(c.URLs, x)
			case "path", "file", "file_path", "filepath", "filename", "source", "destination", "target", "dir", "directory":
				c.Paths = append(c.Paths, x)
			case "content", "text", "body", "data", "url:content", "url:text", "url:body", "url:data":
				c.Content = append(c.Content, Content{Text: x})
			}
		case []any:
			elemKey := key
			if k := strings.ToLower(key); k == "command" || k == "argv" {
				// One command line: its words are text, not scripts each.
				c.addShell(x)
				elemKey = ""
			}
			for _, e := range x {
				walk(elemKey, e, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // deterministic order
			for _, k := range keys {
				walk(k, x[k], depth+1)
			}
		}
	}
	walk("", args, 0)
}

// wholeURL reports a value that is one web URL and nothing else.
func wholeURL(s string) bool {
	rest := ""
	switch {
	case len(s) > 7 && strings.EqualFold(s[:7], "http://"):
		rest = s[7:]
	case len(s) > 8 && strings.EqualFold(s[:8], "https://"):
		rest = s[8:]
	default:
		return false
	}
	return rest != "" && !strings.ContainsAny(rest, " \t\n\r\v\f")
}

var sqlStart = regexp.MustCompile(`(?i)^\s*(select|insert|update|delete|drop|truncate|alter|create|grant|revoke|with|copy|begin|merge|replace)\b`)

func looksLikeSQL(s string) bool { return sqlStart.MatchString(s) }
