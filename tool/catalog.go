package tool

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
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
	// Like is, for a tool the catalog does not know that shares a known
	// tool's name (another MCP server's write_file), the class of that
	// tool: analyzers may judge the call as they judge that class as
	// well, since it may do what its name says, but nothing may trust it
	// (modes and allow rules read Class, which stays Other).
	Like Class

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
	// free-text arguments (patterns, queries) of known ones, and the text
	// a known tool's malformed arguments carry (see Malformed).
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

	// PersonalData describes, for each SQL text of the call whose queries
	// return personal or secret data, what they return ("email, phone
	// from users"), as the SQL preparer read it.
	PersonalData []string
	// SQLTexts are what the SQL texts of the call read as (see SQLText),
	// as the SQL preparer read them, and the SQL the call's commands give
	// database clients, as the shell preparer did: readers use them
	// rather than lex SQL again. Look one up with Call.SQLText; add one
	// with Call.AddSQLText.
	SQLTexts []SQLText
	sqlIndex textIndex // of SQLTexts

	// Scripts are what the scripts of Shell resolve to (see Script), as
	// the shell preparer read them: policy, session and analyzers read
	// them here rather than parse a script again. Look one up with
	// Call.Script; add one with Call.AddScript.
	Scripts     []Script
	scriptIndex textIndex // of Scripts

	// Secrets are the secrets found in the call's text, raw, so that
	// whatever shows that text (assessments, the session's history)
	// masks them; SecretsFound says where each was found, as the secrets
	// preparer read them; SecretsScanned says the search was made. Never
	// store or print them.
	Secrets        []string
	SecretsFound   []Secret
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

	// absMemo remembers the paths Env().Abs resolved for this call (an
	// Env is made anew at each use; the memo lasts as long as the call,
	// which one goroutine handles at a time).
	absMemo paths.AbsMemo

	// shell1 and scripts2 are room for the first script of Shell and the
	// first two facts of Scripts, the common case, inside the call (which
	// the engine's step holds) rather than in an allocation of their
	// own. Shell takes shell1 at capacity one, as a slice literal of one
	// would: an append (or a copy of the call appending) moves it out.
	// Nothing that outlives the call keeps Shell or Scripts themselves,
	// nor the lists that take the rooms below (their elements are copied
	// out).
	shell1   [1]string
	scripts2 [2]Script
	// sqlTexts1 is room, in the same way, for the first fact of SQLTexts.
	sqlTexts1 [1]SQLText
	// strs, code1 and content1 are room, in the same way, for the first
	// element of the lists Normalize fills from the arguments (Paths,
	// URLs, SQL, Text: the first two of them to need one; Code; Content),
	// each given at capacity one; nstrs counts the strs taken.
	strs     [2]string
	nstrs    int
	code1    [1]Code
	content1 [1]Content
}

// Secret is a secret found in the text of a call.
type Secret struct {
	Raw string // the secret itself: never store, log or print it
	// Type is the detector's rule that found it ("aws-access-token"),
	// Match the secret redacted to its first characters, Description and
	// Severity the rule's.
	Type, Match, Description, Severity string
	// Where says where it stands in the call ("on the command line",
	// "written into .env"); Resource is the resource it is written into
	// ("file:/abs/.env"), or "".
	Where, Resource string
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

// ClearAbsMemo forgets the paths c's Env resolved, for those who compare
// calls: the memo changes as analyzers read the call.
func (c *Call) ClearAbsMemo() { c.absMemo = paths.AbsMemo{} }

// Env returns the paths environment of the call: its working directory,
// home and workspace, with the memo of the paths it resolved.
func (c *Call) Env() paths.Env {
	e := paths.Env{Cwd: c.Cwd, Home: c.Home, Workspace: c.Workspace, Memo: &c.absMemo}
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

// spec says where a tool keeps what the analyzers need, and which
// arguments it takes.
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

	// need are the arguments the tool requires: each entry names one, or
	// alternatives separated by "|" of which one must be given. opt are
	// the other arguments it takes besides those named above (the keys of
	// every role are taken). An argument outside both that carries text
	// makes the call malformed, unless the tool is open (its schema varies
	// between versions and integrations). emptyShell allows an empty
	// command (OpenHands sends one to read more output).
	need       []string
	opt        []string
	open       bool
	emptyShell bool

	// refine adds what a tool keeps in its own format (a patch, browser
	// code, a prompt); narrow adjusts the class of a call whose class
	// depends on its arguments, and only runs for a tool known for sure.
	refine func(c *Call, args map[string]any)
	narrow func(c *Call, args map[string]any)

	kind *lazyKinds // the kinds of its arguments (see kinds), made on first use
}

// lazyKinds holds the kinds of a catalog tool's arguments, made when a
// call of that tool is first checked: a process checks one or two tools,
// not the catalog's hundred and more.
type lazyKinds struct {
	once sync.Once
	m    map[string]argInfo
	// first are the first alternative of each required argument, in
	// sp.need's order, and firstKinds their kinds; firstOK is false when
	// two of them are the same argument (see firsts)
	first      []string
	firstKinds []argKind
	firstOK    bool
	// extra are the arguments, beside first, that a call most often
	// gives one of (the working directory, the first optional ones), and
	// extraKinds their kinds (see firsts)
	extra      []string
	extraKinds []argKind
}

// maxExtra bounds the arguments check looks up for the one a call gives
// beside the required ones: those it gives most often come first.
const maxExtra = 3

// argInfo is what check knows of an argument of a known tool: its kind,
// and the required arguments (sp.need, bit i for need[i]) it gives.
type argInfo struct {
	kind argKind
	need uint64
}

// argKinds returns what check knows of sp's arguments: made once for a
// catalog tool, every time for another spec.
func (sp *spec) argKinds() map[string]argInfo {
	if sp.kind == nil {
		return sp.infos()
	}
	sp.kind.once.Do(sp.makeKinds)
	return sp.kind.m
}

// makeKinds makes sp.kind's contents.
func (sp *spec) makeKinds() {
	sp.kind.m = sp.infos()
	for _, n := range sp.need {
		k, _, _ := strings.Cut(n, "|")
		if slices.Contains(sp.kind.first, k) {
			sp.kind.first, sp.kind.firstKinds = nil, nil
			return
		}
		sp.kind.first = append(sp.kind.first, k)
		sp.kind.firstKinds = append(sp.kind.firstKinds, sp.kind.m[k].kind)
	}
	sp.kind.firstOK = true
	for _, k := range slices.Concat(sp.cwd, sp.opt, anyArgs) {
		if len(sp.kind.extra) == maxExtra {
			break
		}
		if !slices.Contains(sp.kind.first, k) && !slices.Contains(sp.kind.extra, k) {
			sp.kind.extra = append(sp.kind.extra, k)
			sp.kind.extraKinds = append(sp.kind.extraKinds, sp.kind.m[k].kind)
		}
	}
}

// firsts returns, for a catalog tool, the first alternative of each of
// its required arguments with their kinds, and the arguments beside them
// check looks up first with theirs (see lazyKinds); ok is false for
// another spec, or when two required arguments share their first
// alternative.
func (sp *spec) firsts() (lk *lazyKinds, ok bool) {
	if sp.kind == nil {
		return nil, false
	}
	sp.kind.once.Do(sp.makeKinds)
	return sp.kind, sp.kind.firstOK
}

// infos returns the kinds of sp's arguments (see kinds) with the
// required arguments each gives.
func (sp spec) infos() map[string]argInfo {
	kinds := sp.kinds()
	m := make(map[string]argInfo, len(kinds))
	for k, kind := range kinds {
		m[k] = argInfo{kind: kind}
	}
	for i, n := range sp.need {
		if i >= 64 {
			break // past what a mask holds: check reads them the long way
		}
		for _, k := range strings.Split(n, "|") {
			in := m[k] // kinds names every argument sp.need does
			in.need |= 1 << i
			m[k] = in
		}
	}
	return m
}

var (
	pathKeys = []string{"file_path", "path", "absolute_path", "notebook_path", "paths", "source", "destination", "directory", "dir_path"}
	urlKeys  = []string{"url", "uri", "urls"}
	// codexApproval are the arguments Codex adds to its shell tools to
	// ask for more permissions.
	codexApproval = []string{"timeout_ms", "timeout", "with_escalated_permissions", "justification", "sandbox_permissions", "prefix_rule", "additional_permissions"}
)

// listArgs are the arguments whose value is a list: of strings (paths,
// urls) or of objects (edits, todos, fields).
var listArgs = map[string]bool{"paths": true, "urls": true, "include": true, "edits": true, "todos": true, "fields": true}

// anyArgs are the arguments every tool may carry: the risk label
// OpenHands asks its model to add to every call, and the fields of seed
// 004's {"action": …} form that become arguments.
var anyArgs = []string{"security_risk", "safety_risk", "thought", "summary"}

// agentTools returns the agents' own tools: lower-case names to their spec.
func agentTools() map[string]spec {
	return map[string]spec{
		// Claude Code (the Anthropic API's bash tool takes restart instead
		// of a command); Copilot CLI's bash adds its shell session's
		// arguments (sessionId or shellId, async or mode, initial_wait,
		// detach)
		"bash": {class: Execute, shell: []string{"command"}, need: []string{"command|restart"},
			opt: []string{"description", "timeout", "run_in_background", "dangerouslyDisableSandbox", "restart", "sessionId", "shellId", "async", "mode", "initial_wait", "detach"}},
		// Claude Code's PowerShell tool (Windows) and Copilot CLI's powershell:
		// a host shell warden does not parse, so its command is code in a
		// language it does not read (an unknown finding), never a safe tool
		"powershell": {class: Execute, code: []string{"command"}, lang: "powershell", need: []string{"command"},
			opt: []string{"description", "timeout", "run_in_background", "sessionId", "shellId", "async", "mode", "initial_wait", "detach"}, open: true},
		"read":         {class: Read, path: []string{"file_path"}, need: []string{"file_path"}, opt: []string{"offset", "limit", "pages"}},
		"write":        {class: Edit, path: []string{"file_path"}, content: []string{"content"}, need: []string{"file_path", "content"}},
		"edit":         {class: Edit, path: []string{"file_path"}, content: []string{"new_string"}, need: []string{"file_path", "old_string", "new_string"}, opt: []string{"replace_all"}},
		"multiedit":    {class: Edit, path: []string{"file_path"}, content: []string{"edits.new_string"}, need: []string{"file_path", "edits"}},
		"notebookedit": {class: Edit, path: []string{"notebook_path"}, content: []string{"new_source"}, need: []string{"notebook_path"}, opt: []string{"cell_id", "cell_type", "edit_mode"}},
		"notebookread": {class: Read, path: []string{"notebook_path"}, need: []string{"notebook_path"}, opt: []string{"cell_id"}},
		// Claude Code and Gemini CLI
		"glob": {class: Read, path: []string{"path", "dir_path"}, text: []string{"pattern"}, need: []string{"pattern"},
			opt: []string{"case_sensitive", "respect_git_ignore", "respect_gemini_ignore"}},
		"grep": {class: Read, path: []string{"path"}, text: []string{"pattern", "glob"}, need: []string{"pattern"},
			opt: []string{"output_mode", "-A", "-B", "-C", "-n", "-i", "type", "head_limit", "offset", "multiline"}},
		"ls":        {class: Read, path: []string{"path"}, need: []string{"path"}, opt: []string{"ignore"}},
		"webfetch":  {class: Network, url: []string{"url"}, text: []string{"prompt"}, need: []string{"url", "prompt"}},
		"websearch": {class: Network, text: []string{"query"}, need: []string{"query"}, opt: []string{"allowed_domains", "blocked_domains"}},
		"todowrite": {class: Other, need: []string{"todos"}, open: true},
		"task":      {class: Other, text: []string{"prompt"}, need: []string{"prompt"}, open: true},
		// Task's newer name
		"agent": {class: Other, text: []string{"prompt"}, need: []string{"prompt"}, open: true},

		// OpenHands
		"execute_bash":         {class: Execute, shell: []string{"command"}, need: []string{"command"}, opt: []string{"is_input", "timeout"}, emptyShell: true},
		"execute_ipython_cell": {class: Execute, code: []string{"code"}, lang: "python", need: []string{"code"}},
		"str_replace_editor": {class: Edit, path: []string{"path"}, content: []string{"file_text", "new_str"}, need: []string{"command", "path"},
			opt: []string{"old_str", "insert_line", "view_range"}, narrow: narrowEditor},
		// the Anthropic API's text editor tool, the same commands
		"str_replace_based_edit_tool": {class: Edit, path: []string{"path"}, content: []string{"file_text", "new_str", "insert_text"}, need: []string{"command", "path"},
			opt: []string{"old_str", "insert_line", "view_range"}, narrow: narrowEditor},
		"browser":  {class: Browser, code: []string{"code"}, lang: "browsergym", need: []string{"code"}, refine: refineBrowserGym},
		"web_read": {class: Network, url: []string{"url"}, need: []string{"url"}},

		// Codex
		"shell":         {class: Execute, shell: []string{"command"}, cwd: []string{"workdir"}, need: []string{"command"}, opt: codexApproval},
		"shell_command": {class: Execute, shell: []string{"command"}, cwd: []string{"workdir"}, need: []string{"command"}, opt: append([]string{"login"}, codexApproval...)},
		"exec_command": {class: Execute, shell: []string{"cmd"}, cwd: []string{"workdir"}, need: []string{"cmd"},
			opt: append([]string{"shell", "login", "tty", "yield_time_ms", "max_output_tokens"}, codexApproval...)},
		"local_shell": {class: Execute, shell: []string{"command"}, cwd: []string{"workdir", "working_directory"}, need: []string{"command"},
			opt: append([]string{"type", "env", "user"}, codexApproval...)},
		"apply_patch": {class: Edit, need: []string{"input|patch|command"}, opt: []string{"command"}, refine: refinePatch},

		// Gemini CLI
		"run_shell_command": {class: Execute, shell: []string{"command"}, cwd: []string{"directory", "dir_path"}, need: []string{"command"}, opt: []string{"description", "is_background"}},
		"read_file":         {class: Read, path: []string{"file_path", "absolute_path", "path"}, need: []string{"file_path|absolute_path|path"}, opt: []string{"offset", "limit", "head", "tail"}},
		// (newer versions take include, the globs of the files read, without paths)
		"read_many_files": {class: Read, path: []string{"paths", "include"}, need: []string{"paths|include"},
			opt: []string{"exclude", "recursive", "useDefaultExcludes", "file_filtering_options", "respect_git_ignore"}},
		"write_file": {class: Edit, path: []string{"file_path", "path"}, content: []string{"content"}, need: []string{"file_path|path", "content"},
			opt: []string{"modified_by_user", "ai_proposed_content"}},
		"replace": {class: Edit, path: []string{"file_path", "path"}, content: []string{"new_string"}, need: []string{"file_path|path", "old_string", "new_string"},
			opt: []string{"expected_replacements", "instruction", "modified_by_user", "ai_proposed_content"}},
		"web_fetch":         {class: Network, url: urlKeys, text: []string{"prompt"}, need: []string{"prompt|url"}, refine: refinePromptURLs},
		"google_web_search": {class: Network, text: []string{"query"}, need: []string{"query"}},
		"list_directory": {class: Read, path: []string{"path", "dir_path"}, need: []string{"path|dir_path"},
			opt: []string{"ignore", "file_filtering_options", "respect_git_ignore"}},
		"search_file_content": {class: Read, path: []string{"path", "dir_path"}, text: []string{"pattern"}, need: []string{"pattern"}, opt: []string{"include"}},
		"save_memory":         {class: Edit, content: []string{"fact"}, need: []string{"fact"}},
		// search_file_content's newer name
		"grep_search": {class: Read, path: []string{"dir_path", "path"}, text: []string{"pattern", "include", "include_pattern", "exclude_pattern"}, need: []string{"pattern"},
			opt: []string{"names_only", "max_matches_per_file", "total_max_matches", "fixed_strings", "context", "after", "before", "no_ignore", "case_sensitive"}},
		"write_todos": {class: Other, need: []string{"todos"}, open: true},

		// Python code actions (seed 004 and plain agents: their other fields vary)
		"code":        {class: Execute, code: []string{"code"}, lang: "python", need: []string{"code"}, open: true},
		"python":      {class: Execute, code: []string{"code", "script"}, lang: "python", need: []string{"code|script"}, open: true},
		"python_exec": {class: Execute, code: []string{"code"}, lang: "python", need: []string{"code"}, open: true},
		"ipython":     {class: Execute, code: []string{"code"}, lang: "python", need: []string{"code"}, open: true},
	}
}

// servers maps the MCP servers warden knows (by the name their
// package gives them) to their tools. A tool mcp__S__T is looked up in
// the tools of server S only (see serverName): another server's tool
// that happens to share a name is not that tool.
func serverTools() map[string]map[string]spec {
	return map[string]map[string]spec{
		"filesystem": {
			"read_file":                 {class: Read, path: []string{"path"}, need: []string{"path"}, opt: []string{"head", "tail"}},
			"read_text_file":            {class: Read, path: []string{"path"}, need: []string{"path"}, opt: []string{"head", "tail"}},
			"read_media_file":           {class: Read, path: []string{"path"}, need: []string{"path"}},
			"read_multiple_files":       {class: Read, path: []string{"paths"}, need: []string{"paths"}},
			"write_file":                {class: Edit, path: []string{"path"}, content: []string{"content"}, need: []string{"path", "content"}},
			"edit_file":                 {class: Edit, path: []string{"path"}, content: []string{"edits.newText"}, need: []string{"path", "edits"}, opt: []string{"dryRun"}},
			"create_directory":          {class: Edit, path: []string{"path"}, need: []string{"path"}},
			"list_directory":            {class: Read, path: []string{"path"}, need: []string{"path"}},
			"list_directory_with_sizes": {class: Read, path: []string{"path"}, need: []string{"path"}, opt: []string{"sortBy"}},
			"directory_tree":            {class: Read, path: []string{"path"}, need: []string{"path"}, opt: []string{"excludePatterns"}},
			"move_file":                 {class: Edit, path: []string{"source", "destination"}, need: []string{"source", "destination"}},
			"search_files":              {class: Read, path: []string{"path"}, text: []string{"pattern"}, need: []string{"path", "pattern"}, opt: []string{"excludePatterns"}},
			"get_file_info":             {class: Read, path: []string{"path"}, need: []string{"path"}},
			"list_allowed_directories":  {class: Read},
		},
		"postgres": {
			"query": {class: Database, sql: []string{"sql"}, need: []string{"sql"}},
		},
		"sqlite": {
			"read_query":     {class: Database, sql: []string{"query"}, need: []string{"query"}},
			"write_query":    {class: Database, sql: []string{"query"}, need: []string{"query"}},
			"create_table":   {class: Database, sql: []string{"query"}, need: []string{"query"}},
			"list_tables":    {class: Read},
			"describe_table": {class: Read, need: []string{"table_name"}},
			"append_insight": {class: Other, text: []string{"insight"}, need: []string{"insight"}},
		},
		"fetch": {
			"fetch": {class: Network, url: []string{"url"}, need: []string{"url"}, opt: []string{"max_length", "start_index", "raw"}},
		},
		"playwright": playwrightTools(),
		"puppeteer": {
			"puppeteer_navigate":   {class: Browser, url: []string{"url"}, need: []string{"url"}, open: true},
			"puppeteer_evaluate":   {class: Browser, code: []string{"script"}, lang: "javascript", need: []string{"script"}, open: true},
			"puppeteer_fill":       {class: Browser, text: []string{"value"}, need: []string{"selector", "value"}, open: true},
			"puppeteer_select":     {class: Browser, text: []string{"value"}, need: []string{"selector", "value"}, open: true},
			"puppeteer_screenshot": {class: Browser, open: true},
			"puppeteer_click":      {class: Browser, need: []string{"selector"}, open: true},
			"puppeteer_hover":      {class: Browser, need: []string{"selector"}, open: true},
		},
	}
}

// playwright's tools; their element descriptions and references vary
// between versions, so they are open.
func playwrightTools() map[string]spec {
	return map[string]spec{
		"browser_navigate":    {class: Browser, url: []string{"url"}, need: []string{"url"}, open: true},
		"browser_evaluate":    {class: Browser, code: []string{"function", "script", "expression"}, lang: "javascript", need: []string{"function|script|expression"}, open: true},
		"browser_run_code":    {class: Browser, code: []string{"code"}, lang: "javascript", need: []string{"code"}, open: true},
		"browser_file_upload": {class: Browser, path: []string{"paths"}, open: true},
		"browser_type":        {class: Browser, text: []string{"text"}, need: []string{"text"}, open: true},
		"browser_fill_form":   {class: Browser, need: []string{"fields"}, open: true},
	}
}

// playwright's read-only browser tools.
var browserReads = []string{"browser_snapshot", "browser_take_screenshot", "browser_console_messages",
	"browser_network_requests", "browser_tabs", "browser_wait_for", "browser_hover", "browser_resize", "browser_close",
	"browser_navigate_back", "browser_click", "browser_press_key", "browser_select_option", "browser_drag", "browser_handle_dialog"}

// serverAliases are other names users give the known servers in their
// agents' settings.
var serverAliases = map[string]string{
	"fs": "filesystem", "file-system": "filesystem", "file_system": "filesystem", "files": "filesystem",
	"postgresql": "postgres", "pg": "postgres",
	"sqlite3":            "sqlite",
	"playwright-browser": "playwright",
}

// catalogs are the tools warden knows.
type catalogs struct {
	agents  map[string]*spec            // the agents' own tools, by lower-case name
	servers map[string]map[string]*spec // the MCP servers' tools, by server
	// spelled is agents with the names as the agents spell them besides
	// (see spellings): most calls' tool, found as named
	spelled map[string]*spec
}

// spellings are the agents' tools' names as the agents send them, where
// that is not lower-case (Claude Code's): the agents' tools are found by
// those names without lowering them (TestSpellings).
var spellings = []string{"Bash", "PowerShell", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead",
	"Glob", "Grep", "LS", "WebFetch", "WebSearch", "TodoWrite", "Task", "Agent"}

// known returns the catalog, built and completed on first use: a process
// that reads no action does not pay for it.
var known = sync.OnceValue(func() catalogs {
	catalog, servers := agentTools(), serverTools()
	playwright := servers["playwright"]
	for _, n := range browserReads {
		if _, ok := playwright[n]; !ok {
			playwright[n] = spec{class: Browser, open: true}
		}
	}
	// The reference servers' tools are known by their bare names too (a
	// client that passes them on without the mcp__ prefix), where no
	// agent's own tool has the name.
	for _, srv := range []string{"filesystem", "postgres", "sqlite", "fetch", "playwright"} {
		for n, sp := range servers[srv] {
			if _, ok := catalog[n]; !ok {
				catalog[n] = bare(sp)
			}
		}
	}
	// each spec once, by pointer: a call's lookup then copies no spec
	// (a few hundred bytes) out of the map, nor back
	all := append([]map[string]spec{catalog}, slices.Collect(maps.Values(servers))...)
	n := 0
	for _, tools := range all {
		n += len(tools)
	}
	specs := make([]spec, 0, n)
	lazy := make([]lazyKinds, n)
	byPointer := func(tools map[string]spec) map[string]*spec {
		m := make(map[string]*spec, len(tools))
		for name, sp := range tools {
			sp.kind = &lazy[len(specs)]
			specs = append(specs, sp)
			m[name] = &specs[len(specs)-1]
		}
		return m
	}
	cat := catalogs{agents: byPointer(catalog), servers: make(map[string]map[string]*spec, len(servers))}
	for srv, tools := range servers {
		cat.servers[srv] = byPointer(tools)
	}
	cat.spelled = make(map[string]*spec, len(cat.agents)+len(spellings))
	maps.Copy(cat.spelled, cat.agents)
	for _, n := range spellings {
		if sp, ok := cat.agents[strings.ToLower(n)]; ok {
			cat.spelled[n] = sp
		}
	}
	return cat
})

// bare loosens a server tool's spec for its bare name, which any client
// may use: the SQL and URL it reads may be under either usual key.
func bare(sp spec) spec {
	switch {
	case len(sp.sql) > 0:
		sp.sql = []string{"sql", "query"}
		sp.need = []string{"sql|query"}
	case len(sp.url) > 0 && sp.class == Network:
		sp.url = urlKeys
		sp.need = []string{"url|uri|urls"}
	case slices.Equal(sp.path, []string{"path"}):
		sp.path = pathKeys
		sp.need = slices.Clone(sp.need)
		for i, k := range sp.need {
			if k == "path" {
				sp.need[i] = strings.Join(pathKeys, "|")
			}
		}
	}
	return sp
}

// serverName returns the known server an MCP server name stands for
// ("filesystem" for "server-filesystem" or "fs"), or "" when it is none.
func serverName(name string) string {
	n := strings.ToLower(name)
	for _, p := range []string{"mcp-server-", "mcp_server_", "server-", "server_", "mcp-", "mcp_"} {
		n = strings.TrimPrefix(n, p)
	}
	for _, s := range []string{"-mcp-server", "_mcp_server", "-server", "_server", "-mcp", "_mcp"} {
		n = strings.TrimSuffix(n, s)
	}
	if a, ok := serverAliases[n]; ok {
		n = a
	}
	if _, ok := known().servers[n]; ok {
		return n
	}
	return ""
}

// Names lists the tool names the catalog knows, sorted.
func Names() []string {
	catalog := known().agents
	out := make([]string, 0, len(catalog))
	for n := range catalog {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Normalize turns an action into a Call. cwd and home are the defaults for
// an action that names no working directory; they may be empty.
//
// A tool named mcp__S__T is looked up among the tools of server S when
// warden knows S, and is otherwise not known: a tool of an unknown server
// that shares a known tool's name gets the generic reading of every
// argument, and that tool's reading of them besides, but none of its
// trust. The arguments of a known tool are checked against what it takes
// (see Call.Malformed).
func Normalize(a *risk.Action, cwd, home string) *Call {
	c := new(Call)
	NormalizeZeroed(c, a, cwd, home)
	return c
}

// NormalizeInto is Normalize into *c, which it overwrites whole: a caller
// that keeps the Call inside a value of its own (the engine's step)
// allocates the two at once.
func NormalizeInto(c *Call, a *risk.Action, cwd, home string) {
	// cleared in place, then set: a composite literal is built whole on
	// the stack and copied over (a Call is half a kilobyte)
	*c = Call{}
	NormalizeZeroed(c, a, cwd, home)
}

// NormalizeZeroed is NormalizeInto for *c that is the zero Call already
// (new, or cleared by its caller), which it does not clear again.
func NormalizeZeroed(c *Call, a *risk.Action, cwd, home string) {
	c.Action, c.Name, c.Cwd, c.Home = a, a.Tool, cwd, home
	if a.Cwd != "" {
		c.Cwd = a.Cwd
	}
	name := a.Tool
	mcp := false
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if srv, tool, ok := strings.Cut(rest, "__"); ok {
			c.Server, name, mcp = srv, tool, true
		}
	}
	c.Name = name
	var sp *spec
	var ok bool
	if mcp {
		sp, ok = lookup(known().servers[serverName(c.Server)], name)
	} else {
		cat := known()
		if sp, ok = cat.spelled[name]; !ok { // most often found as named
			sp, ok = lookup(cat.agents, name)
		}
	}
	args := a.Arguments
	switch {
	case ok:
		c.Known = true
		c.Class = sp.class
		c.read(sp, args)
		if sp.narrow != nil {
			sp.narrow(c, args)
		}
		c.check(sp, args)
	case mcp:
		c.generic(args)
		if line, ok := cliCommand(name, args); ok {
			c.appendShell(line)
		}
		if like, ok := lookalike(name); ok {
			// what the tool of that name would do with them, as well
			c.Like = like.class
			c.read(like, args)
			c.dedupe()
		}
	default:
		c.generic(args)
	}
	c.OwnShell = len(c.Shell)
}

// lookup returns the spec of the tool name in tools, whose names are
// lower-case, as tools[strings.ToLower(name)] does, without lowering a
// short ASCII name into a new string.
func lookup(tools map[string]*spec, name string) (*spec, bool) {
	var buf [32]byte
	sp, ok := tools[string(lowered(&buf, name))]
	return sp, ok
}

// lowered returns name lower-cased, as strings.ToLower does: in buf when
// name is short and ASCII (the tools' names), for a caller that compares
// or looks up string(lowered(…)), which makes no string.
func lowered(buf *[32]byte, name string) []byte {
	if len(name) > len(buf) {
		return []byte(strings.ToLower(name))
	}
	for i := 0; i < len(name); i++ {
		b := name[i]
		switch {
		case b >= utf8.RuneSelf:
			return []byte(strings.ToLower(name))
		case 'A' <= b && b <= 'Z':
			b += 'a' - 'A'
		}
		buf[i] = b
	}
	return buf[:len(name)]
}

// lookalike returns the spec of a known tool named name (any server's, or
// an agent's own), for reading an unknown server's tool of that name.
func lookalike(name string) (*spec, bool) {
	n := strings.ToLower(name)
	cat := known()
	if sp, ok := cat.agents[n]; ok {
		return sp, true
	}
	for _, srv := range slices.Sorted(maps.Keys(cat.servers)) {
		if sp, ok := cat.servers[srv][n]; ok {
			return sp, true
		}
	}
	return nil, false
}

// read takes from args what spec sp says they hold.
func (c *Call) read(sp *spec, args map[string]any) {
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
			c.Code = appendRoom(c.Code, &c.code1, Code{Lang: sp.lang, Text: s})
		}
	}
	for _, k := range sp.sql {
		if s, ok := args[k].(string); ok && s != "" {
			c.SQL = c.appendString(c.SQL, s)
		}
	}
	for _, k := range sp.url {
		c.URLs = c.appendStrings(c.URLs, args[k])
	}
	for _, k := range sp.path {
		c.Paths = c.appendStrings(c.Paths, args[k])
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
				c.Content = appendRoom(c.Content, &c.content1, Content{Path: target, Text: s, Old: old, Partial: partial})
			}
			continue
		}
		items, _ := args[list].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				if s, ok := m[field].(string); ok && s != "" {
					old, _ := editOld(field, m)
					c.Content = appendRoom(c.Content, &c.content1, Content{Path: target, Text: s, Old: old, Partial: true})
				}
			}
		}
	}
	for _, k := range sp.text {
		c.Text = c.appendStrings(c.Text, args[k])
	}
	if sp.refine != nil {
		sp.refine(c, args)
	}
}

// argKind is the type an argument of a known tool must have.
type argKind uint8

const (
	kindString  argKind = iota + 1 // a string
	kindNamed                      // a non-empty string: a path, a URL
	kindScript                     // a non-empty string or a non-empty list of strings (an argv)
	kindStrings                    // a string or a list of strings
	kindObjects                    // a list of objects
	kindAny                        // anything (numbers, flags, options of their own)
)

// kinds returns the kind of each argument spec sp names.
func (sp spec) kinds() map[string]argKind {
	m := map[string]argKind{}
	set := func(keys []string, k argKind) {
		for _, key := range keys {
			if _, ok := m[key]; !ok {
				m[key] = k
			}
		}
	}
	for _, k := range sp.content {
		if list, _, nested := strings.Cut(k, "."); nested {
			m[list] = kindObjects
		}
	}
	for _, k := range append(slices.Clone(sp.path), sp.url...) {
		if listArgs[k] {
			m[k] = kindStrings
		}
	}
	if sp.emptyShell {
		set(sp.shell, kindString)
	}
	set(sp.shell, kindScript)
	set(sp.path, kindNamed)
	set(sp.url, kindNamed)
	set(sp.cwd, kindString)
	set(sp.code, kindString)
	set(sp.sql, kindString)
	set(sp.content, kindString)
	set(sp.text, kindString)
	set(sp.opt, kindAny)
	set(anyArgs, kindAny)
	for _, n := range sp.need {
		for _, k := range strings.Split(n, "|") {
			if listArgs[k] {
				set([]string{k}, kindObjects)
			}
			set([]string{k}, kindString)
		}
	}
	return m
}

// check records in c.Malformed how args do not fit known tool sp: a
// required argument missing, one of the wrong type, an argument the tool
// does not take that carries text. The text of arguments it cannot take
// as they are goes to c.Text, where it is judged as a tool the catalog
// does not know is (as possible commands).
func (c *Call) check(sp *spec, args map[string]any) {
	// most common of all: the arguments are the required ones (the first
	// alternative of each), each given and of its kind, and maybe one
	// more of the tool's usual ones: looking them up tells without a pass
	// over args (as many distinct keys as args holds, all of them given:
	// they are every key of args)
	if lk, ok := sp.firsts(); ok {
		switch len(args) - len(lk.first) {
		case 0:
			if givesExactly(args, lk.first, lk.firstKinds) {
				return
			}
		case 1:
			if givesExactly(args, lk.first, lk.firstKinds) && givesOne(args, lk.extra, lk.extraKinds) {
				return
			}
		}
	}
	// the common case first: every argument known, of its kind, and
	// every required one given, read in one pass over args (without
	// looking the required ones up again nor sorting the keys)
	infos := sp.argKinds()
	var given uint64
	for k, v := range args {
		if v == nil {
			continue
		}
		in, ok := infos[k]
		if !ok && carriesText(v, 0) || ok && misfit(in.kind, v) != "" {
			c.checkAll(sp, args, infos)
			return
		}
		given |= in.need
	}
	if len(sp.need) > 64 || given != 1<<len(sp.need)-1 {
		c.checkAll(sp, args, infos)
	}
}

// givesExactly reports whether args gives each of need, not null and of
// its kind (kinds[i] is need[i]'s).
func givesExactly(args map[string]any, need []string, kinds []argKind) bool {
	for i, k := range need {
		if v := args[k]; v == nil || misfit(kinds[i], v) != "" {
			return false
		}
	}
	return true
}

// givesOne reports whether args holds one of keys, the first it holds
// null or of its kind (kinds[i] is keys[i]'s).
func givesOne(args map[string]any, keys []string, kinds []argKind) bool {
	for i, k := range keys {
		if v, ok := args[k]; ok {
			return v == nil || misfit(kinds[i], v) == ""
		}
	}
	return false
}

// checkAll is check's general case: it says why the arguments do not fit
// sp, in a stable order.
func (c *Call) checkAll(sp *spec, args map[string]any, infos map[string]argInfo) {
	for _, n := range sp.need {
		given := false
		for rest := n; rest != "" && !given; {
			var k string
			k, rest, _ = strings.Cut(rest, "|")
			if v, ok := args[k]; ok && v != nil {
				given = true
			}
		}
		if !given {
			c.Malformed = append(c.Malformed, "missing "+quoteAlternatives(n))
		}
	}
	clean := true // the common case, checked without sorting the keys
	for k, v := range args {
		if in, ok := infos[k]; v != nil && (!ok && carriesText(v, 0) || ok && misfit(in.kind, v) != "") {
			clean = false
			break
		}
	}
	if clean {
		if len(c.Malformed) > 0 {
			c.dedupe()
		}
		return
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		v := args[k]
		if v == nil {
			continue
		}
		in, ok := infos[k]
		if !ok {
			if carriesText(v, 0) {
				c.Text = appendText(c.Text, v, 0)
				if !sp.open {
					c.Malformed = append(c.Malformed, fmt.Sprintf("%q is not an argument it takes", k))
				}
			}
			continue
		}
		if why := misfit(in.kind, v); why != "" {
			c.Malformed = append(c.Malformed, fmt.Sprintf("%q %s", k, why))
			c.Text = appendText(c.Text, v, 0)
		}
	}
	if len(c.Malformed) > 0 {
		c.dedupe()
	}
}

// quoteAlternatives quotes "a|b" as "a" or "b".
func quoteAlternatives(n string) string {
	alts := strings.Split(n, "|")
	for i, a := range alts {
		alts[i] = fmt.Sprintf("%q", a)
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return strings.Join(alts[:len(alts)-1], ", ") + " or " + alts[len(alts)-1]
}

// misfit says how v is not of kind k, "" when it is.
func misfit(k argKind, v any) string {
	switch k {
	case kindString:
		if _, ok := v.(string); !ok {
			return "must be a string, not " + jsonKind(v)
		}
	case kindNamed:
		switch x := v.(type) {
		case string:
			if strings.TrimSpace(x) == "" {
				return "is empty"
			}
		default:
			return "must be a string, not " + jsonKind(v)
		}
	case kindScript:
		switch x := v.(type) {
		case string:
			if strings.TrimSpace(x) == "" {
				return "is an empty command"
			}
		case []any:
			if len(x) == 0 {
				return "is an empty command"
			}
			if k := nonString(x); k != "" {
				return "must be a string or a list of strings, not a list holding " + k
			}
		default:
			return "must be a string or a list of strings, not " + jsonKind(v)
		}
	case kindStrings:
		switch x := v.(type) {
		case string:
		case []any:
			if k := nonString(x); k != "" {
				return "must be a list of strings, not a list holding " + k
			}
		default:
			return "must be a list of strings, not " + jsonKind(v)
		}
	case kindObjects:
		x, ok := v.([]any)
		if !ok {
			return "must be a list, not " + jsonKind(v)
		}
		for _, e := range x {
			if _, ok := e.(map[string]any); !ok {
				return "must be a list of objects, not a list holding " + jsonKind(e)
			}
		}
	}
	return ""
}

// jsonKind names the JSON type of a decoded value.
// nonString returns the JSON kind of the first element of list that is
// not a string, or "".
func nonString(list []any) string {
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return jsonKind(e)
		}
	}
	return ""
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, int, int64, json.Number:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("a %T", v)
}

// carriesText reports whether v holds a non-empty string, at any depth.
func carriesText(v any, depth int) bool {
	if depth > maxWalk {
		return false
	}
	switch x := v.(type) {
	case string:
		return x != ""
	case []any:
		for _, e := range x {
			if carriesText(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if carriesText(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// appendText adds to dst every non-empty string of v, in a deterministic
// order.
func appendText(dst []string, v any, depth int) []string {
	if depth > maxWalk {
		return dst
	}
	switch x := v.(type) {
	case string:
		if x != "" {
			dst = append(dst, x)
		}
	case []any:
		for _, e := range x {
			dst = appendText(dst, e, depth+1)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			dst = appendText(dst, x[k], depth+1)
		}
	}
	return dst
}

// maxWalk bounds the nesting read in arguments.
const maxWalk = 32

// dedupe drops the repeats that two readings of the same arguments leave,
// and content with no path whose text a content with a path holds.
func (c *Call) dedupe() {
	uniq := func(list []string) []string {
		out := list[:0]
		for i, s := range list {
			if !slices.Contains(list[:i], s) {
				out = append(out, s)
			}
		}
		return out
	}
	c.Shell, c.SQL, c.URLs, c.Paths, c.Text = uniq(c.Shell), uniq(c.SQL), uniq(c.URLs), uniq(c.Paths), uniq(c.Text)
	code := c.Code[:0]
	for i, x := range c.Code {
		if !slices.ContainsFunc(c.Code[:i], func(y Code) bool { return y.Text == x.Text }) {
			code = append(code, x)
		}
	}
	c.Code = code
	all := slices.Clone(c.Content)
	content := c.Content[:0]
	for i, x := range all {
		same := func(y Content) bool { return y.Text == x.Text && (y.Path == x.Path || x.Path == "") }
		if slices.ContainsFunc(all[:i], same) || x.Path == "" && slices.ContainsFunc(all[i+1:], func(y Content) bool { return y.Text == x.Text }) {
			continue
		}
		content = append(content, x)
	}
	c.Content = content
}

// editOld returns, for a content key that holds an edit's new text, the
// text it replaces and that the content is a fragment of the file.
func editOld(key string, args map[string]any) (string, bool) {
	switch key {
	case "new_string", "new_str", "new_text", "newText", "replacement", "insert_text":
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
			c.appendShell(x)
		}
	case []any:
		// an argv is a few words (bash -lc script): read in place
		var buf [8]string
		argv := buf[:0]
		for _, e := range x {
			if s, ok := e.(string); ok {
				argv = append(argv, s)
			}
		}
		if len(argv) == 0 {
			return
		}
		if script, ok := ShellScript(argv); ok {
			c.appendShell(script)
			return
		}
		c.appendShell(JoinArgv(argv))
	}
}

// appendShell appends script to c.Shell, the common first one into the
// room the call has for it (shell1), without growing a slice.
func (c *Call) appendShell(script string) {
	if c.Shell == nil {
		c.shell1[0] = script
		c.Shell = c.shell1[:]
		return
	}
	c.Shell = append(c.Shell, script)
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

// Quote quotes one word for bash: a plain word (see plainWord) stays as
// it is, any other is single-quoted.
func Quote(s string) string {
	if plainWord(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// plainWord reports a non-empty word made only of letters, digits and
// _@%+=:,./- (ASCII), which bash takes literally unquoted.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

var plainByte = func() (t [256]bool) {
	for _, b := range []byte("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") {
		t[b] = true
	}
	return t
}()

// appendStrings appends to dst, a list of c, the non-empty strings of v
// (a string or a list), the first into c's room if dst has none yet.
func (c *Call) appendStrings(dst []string, v any) []string {
	switch x := v.(type) {
	case string:
		if x != "" {
			dst = c.appendString(dst, x)
		}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && s != "" {
				dst = c.appendString(dst, s)
			}
		}
	}
	return dst
}

// appendString appends s to dst, a list of c: a nil dst takes a room of
// c's strs at capacity one while there is one left (an append to it
// moves it out, as for Shell).
func (c *Call) appendString(dst []string, s string) []string {
	if dst != nil || c.nstrs == len(c.strs) {
		return append(dst, s)
	}
	i := c.nstrs
	c.nstrs++
	c.strs[i] = s
	return c.strs[i : i+1 : i+1]
}

// appendRoom appends x to list, into room, at capacity one, when list is
// nil.
func appendRoom[T any](list []T, room *[1]T, x T) []T {
	if list != nil {
		return append(list, x)
	}
	room[0] = x
	return room[:]
}

// narrowEditor handles OpenHands' str_replace_editor, whose "view" command
// only reads.
func narrowEditor(c *Call, args map[string]any) {
	if cmd, _ := args["command"].(string); cmd == "view" {
		c.Class = Read
		c.Content = nil
	}
}

var browserGoto = lazyre.New(`goto\(\s*['"]([^'"]+)['"]`)

// refineBrowserGym extracts the URLs an OpenHands browser action opens.
func refineBrowserGym(c *Call, args map[string]any) {
	if s, ok := args["code"].(string); ok {
		for _, m := range browserGoto.FindAllStringSubmatch(s, -1) {
			c.URLs = append(c.URLs, m[1])
		}
	}
}

var promptURL = lazyre.New(`https?://[^\s"'<>]+`)

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
	// the added lines of each file, gathered in a buffer of its own
	// (appending to a string copied all of it again for every line)
	base, cur := len(c.Content), -1
	var texts [][]byte
	for line := range strings.SplitSeq(patch, "\n") {
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, p); ok {
				f = strings.TrimSpace(f)
				c.Paths = append(c.Paths, f)
				c.Content = append(c.Content, Content{Path: f})
				texts = append(texts, nil)
				cur = len(texts) - 1
			}
		}
		if cur >= 0 && strings.HasPrefix(line, "+") {
			texts[cur] = append(append(texts[cur], line[1:]...), '\n')
		}
	}
	for k := range texts {
		c.Content[base+k].Text = string(texts[k])
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
	var walk func(key string, v any, depth int, near string)
	walk = func(key string, v any, depth int, near string) {
		if depth > 32 {
			return
		}
		switch x := v.(type) {
		case string:
			if x == "" {
				return
			}
			c.Text = c.appendString(c.Text, x)
			k := strings.ToLower(key)
			if wholeURL(x) {
				// a tool given a web address, under whatever name, is
				// likely to open it (a path key holds no file then)
				c.URLs = c.appendString(c.URLs, x)
				k = "url:" + k
			}
			switch k {
			case "command", "cmd", "script", "shell":
				c.appendShell(x)
			case "code", "python":
				c.Code = appendRoom(c.Code, &c.code1, Code{Lang: "python", Text: x})
			case "sql":
				c.SQL = c.appendString(c.SQL, x)
			case "query":
				if looksLikeSQL(x) {
					c.SQL = c.appendString(c.SQL, x)
				}
			case "url", "uri", "href", "endpoint":
				c.URLs = c.appendString(c.URLs, x)
			case "path", "file", "file_path", "filepath", "filename", "source", "destination", "target", "dir", "directory":
				c.Paths = c.appendString(c.Paths, x)
			case "content", "text", "body", "data", "url:content", "url:text", "url:body", "url:data":
				// the file it goes to, when the same object names it
				// (file_path and content; push_files' files[].path)
				c.Content = appendRoom(c.Content, &c.content1, Content{Path: near, Text: x})
			}
		case []any:
			elemKey := key
			if k := strings.ToLower(key); k == "command" || k == "argv" {
				// One command line: its words are text, not scripts each.
				c.addShell(x)
				elemKey = ""
			}
			for _, e := range x {
				walk(elemKey, e, depth+1, "")
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys) // deterministic order
			p := filePathIn(x)
			for _, k := range keys {
				walk(k, x[k], depth+1, p)
			}
		}
	}
	walk("", args, 0, "")
}

// filePathIn returns the file an object of a tool's arguments names
// (path, file_path, filename …), "" when it names none or a URL.
func filePathIn(m map[string]any) string {
	for _, k := range [...]string{"file_path", "filePath", "path", "filepath", "filename", "file"} {
		if s, ok := m[k].(string); ok && s != "" && !wholeURL(s) {
			return s
		}
	}
	return ""
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

var sqlStart = lazyre.New(`(?i)^\s*(select|insert|update|delete|drop|truncate|alter|create|grant|revoke|with|copy|begin|merge|replace)\b`)

func looksLikeSQL(s string) bool { return sqlStart.MatchString(s) }
