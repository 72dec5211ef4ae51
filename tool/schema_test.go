package tool

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// sampleValue is a value of kind k that a tool takes.
func sampleValue(k argKind) any {
	switch k {
	case kindScript:
		return "ls -la"
	case kindStrings:
		return []any{"/home/user/project/a.txt"}
	case kindObjects:
		return []any{map[string]any{"old_string": "a", "new_string": "b", "oldText": "a", "newText": "b", "content": "x", "status": "pending"}}
	case kindNamed:
		return "/home/user/project/a.txt"
	}
	return "x"
}

// each calls fn with the full tool name and spec of every tool the
// catalog and the servers know.
func each(fn func(name string, sp spec)) {
	catalog, servers := known().agents, known().servers
	for _, n := range slices.Sorted(maps.Keys(catalog)) {
		fn(n, *catalog[n])
	}
	for _, srv := range slices.Sorted(maps.Keys(servers)) {
		for _, n := range slices.Sorted(maps.Keys(servers[srv])) {
			fn("mcp__"+srv+"__"+n, *servers[srv][n])
		}
	}
}

// valid returns arguments that fit sp: the first alternative of each
// required argument.
func valid(sp spec) map[string]any {
	kinds := sp.kinds()
	args := map[string]any{}
	for _, n := range sp.need {
		k, _, _ := strings.Cut(n, "|")
		args[k] = sampleValue(kinds[k])
	}
	return args
}

func normalize(name string, args map[string]any) *Call {
	return Normalize(&risk.Action{Tool: name, Arguments: args}, "/home/user/project", "/home/user")
}

// Every tool of the catalog and of the known servers takes a call that
// gives what it requires, and is malformed without each required
// argument, with one of the wrong type, or with an argument it does not
// take that carries text (unless its schema is open). Arguments of any
// tool that carry no text, and the risk labels every tool may carry, are
// never malformed.
func TestSchemas(t *testing.T) {
	n := 0
	each(func(name string, sp spec) {
		n++
		args := valid(sp)
		if c := normalize(name, args); !c.Known || len(c.Malformed) > 0 {
			t.Errorf("%s %v: Known %v, malformed %q", name, args, c.Known, c.Malformed)
		}
		for _, need := range sp.need {
			without := maps.Clone(args)
			for _, k := range strings.Split(need, "|") {
				delete(without, k)
			}
			if c := normalize(name, without); len(c.Malformed) == 0 || !strings.Contains(strings.Join(c.Malformed, ";"), "missing") {
				t.Errorf("%s without %s: malformed %q", name, need, c.Malformed)
			}
			nulled := maps.Clone(args)
			for _, k := range strings.Split(need, "|") {
				if _, ok := nulled[k]; ok {
					nulled[k] = nil
				}
			}
			if c := normalize(name, nulled); len(c.Malformed) == 0 {
				t.Errorf("%s with %s null: not malformed", name, need)
			}
			k, _, _ := strings.Cut(need, "|")
			typed := maps.Clone(args)
			typed[k] = map[string]any{"x": "rm -rf /"}
			c := normalize(name, typed)
			if len(c.Malformed) == 0 {
				t.Errorf("%s with %s an object: not malformed", name, k)
			}
			if !slices.Contains(c.Text, "rm -rf /") {
				t.Errorf("%s with %s an object: its text is not kept: %q", name, k, c.Text)
			}
		}
		extra := maps.Clone(args)
		extra["cmd_x"] = "rm -rf /"
		c := normalize(name, extra)
		if (len(c.Malformed) > 0) == sp.open {
			t.Errorf("%s (open %v) with an unknown argument carrying text: malformed %q", name, sp.open, c.Malformed)
		}
		if !slices.Contains(c.Text, "rm -rf /") {
			t.Errorf("%s: the text of an unknown argument is not kept: %q", name, c.Text)
		}
		quiet := maps.Clone(args)
		quiet["some_new_flag"], quiet["some_new_limit"], quiet["security_risk"], quiet["safety_risk"] = true, 3.0, "LOW", "LOW"
		if c := normalize(name, quiet); len(c.Malformed) > 0 {
			t.Errorf("%s with flags and a risk label: malformed %q", name, c.Malformed)
		}
	})
	if n < 70 {
		t.Errorf("only %d tools", n)
	}
}

// The known servers under the names users give them, and names that are
// not them.
func TestServerName(t *testing.T) {
	tests := map[string]string{
		"filesystem": "filesystem", "FileSystem": "filesystem", "fs": "filesystem", "server-filesystem": "filesystem",
		"mcp-server-filesystem": "filesystem", "filesystem-mcp": "filesystem", "file_system": "filesystem",
		"postgres": "postgres", "postgresql": "postgres", "mcp-server-postgres": "postgres", "pg": "postgres",
		"sqlite": "sqlite", "sqlite3": "sqlite", "mcp-server-sqlite": "sqlite",
		"fetch": "fetch", "mcp-server-fetch": "fetch",
		"playwright": "playwright", "playwright-mcp": "playwright", "puppeteer": "puppeteer",
		// not them
		"github": "", "evil": "", "my_fs_tools": "", "filesystem2": "", "fetcher": "", "": "", "mcp": "", "postgres-admin": "",
	}
	for in, want := range tests {
		if got := serverName(in); got != want {
			t.Errorf("serverName(%q) = %q, want %q", in, got, want)
		}
	}
	for alias, srv := range serverAliases {
		if _, ok := known().servers[srv]; !ok {
			t.Errorf("alias %q names no server %q", alias, srv)
		}
	}
}

// BenchmarkNormalize measures normalizing (and checking) a well-formed
// and a malformed call of a known tool.
func BenchmarkNormalize(b *testing.B) {
	ok := &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "git status && ls -la", "description": "status", "timeout": 1.0}}
	bad := &risk.Action{Tool: "Bash", Arguments: map[string]any{"cmd": "rm -rf /", "timeout": 1.0}}
	b.Run("well-formed", func(b *testing.B) {
		for b.Loop() {
			Normalize(ok, "/home/user/project", "/home/user")
		}
	})
	b.Run("malformed", func(b *testing.B) {
		for b.Loop() {
			Normalize(bad, "/home/user/project", "/home/user")
		}
	})
}

// FuzzNormalize checks, on any arguments to any known tool, that
// normalizing never panics, and that the text of an argument the tool
// does not take is never lost: it is kept in Text, and the call is
// malformed unless the tool's schema is open.
func FuzzNormalize(f *testing.F) {
	var names []string
	each(func(name string, _ spec) { names = append(names, name) })
	f.Add(uint8(0), `{"command":"ls"}`)
	f.Add(uint8(1), `{"cmd":"rm -rf /"}`)
	f.Add(uint8(2), `{"command":{"x":["rm -rf /"]},"path":7}`)
	f.Add(uint8(3), `{"file_path":["a"],"edits":"x","content":null}`)
	f.Add(uint8(4), `["bash","-lc","rm -rf ~"]`)
	f.Fuzz(func(t *testing.T, i uint8, js string) {
		a, err := risk.ParseAction([]byte(`{"tool":"`+names[int(i)%len(names)]+`","arguments":`+js+`}`), risk.DefaultLimits)
		if err != nil {
			return
		}
		c := Normalize(&a, "/home/user/project", "/home/user")
		// into a zero Call as over another call's reading
		checkNormalizeZeroed(t, a, []risk.Action{{Tool: "Bash", Arguments: map[string]any{"command": "ls | wc", "x": "y"}},
			{Tool: "mcp__other__write_file", Arguments: map[string]any{"path": "/w/x", "content": "y"}}})
		if !c.Known {
			t.Fatalf("%s is not known", a.Tool)
		}
		sp := known().agents[strings.ToLower(a.Tool)]
		if srv, tool, ok := strings.Cut(strings.TrimPrefix(a.Tool, "mcp__"), "__"); ok && strings.HasPrefix(a.Tool, "mcp__") {
			sp = known().servers[srv][tool]
		}
		for k, v := range a.Arguments {
			if _, taken := sp.argKinds()[k]; taken || !carriesText(v, 0) {
				continue
			}
			if !sp.open && !slices.ContainsFunc(c.Malformed, func(m string) bool { return strings.Contains(m, k) }) {
				t.Errorf("%s: argument %q it does not take is not malformed: %q", a.Tool, k, c.Malformed)
			}
			for _, s := range appendText(nil, v, 0) {
				if !slices.Contains(c.Text, s) {
					t.Errorf("%s: text %q of argument %q is lost", a.Tool, s, k)
				}
			}
		}
	})
}
