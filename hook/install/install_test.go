package install

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentwarden/warden/internal/jsonenc"
	"github.com/agentwarden/warden/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

const cmd = "/usr/local/bin/warden hook "

// sample is a settings file for the round trips, written for any agent:
// $0 and $1 are its first two events, $K the key of a handler's command,
// $V a "version": 1 member for the agents whose files start with one.
type sample struct {
	name string
	text string
	// comments: the sample has comments (only for agents reading JSONC);
	// rootKeys: it has keys at the root that Codex refuses there
	comments, rootKeys bool
}

var samples = []sample{
	{name: "empty", text: ""},
	{name: "blank", text: " \n\n"},
	{name: "braces", text: "{}"},
	{name: "braces-newline", text: "{}\n"},
	{name: "braces-crlf", text: "{}\r\n"},
	{name: "braces-lines", text: "{\n}\n"},
	{name: "braces-space", text: "{ }"},
	{name: "version-only", text: "{\n  $V\n}\n"},
	{name: "claude-like", rootKeys: true, text: `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Read(~/.zshrc)"
    ],
    "deny": []
  },
  "env": {
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0"
  },
  "hooks": {
    "$0": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "$K": "~/.claude/hooks/check-bash.sh"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "$K": "notify-send done"
          }
        ]
      }
    ]
  },
  "model": "opus"
}
`},
	{name: "four-spaces-no-newline", text: "{\n    $V\n    \"hooks\": {\n        \"$1\": [\n            {\"$K\": \"audit.sh\", \"hooks\": [{\"type\": \"command\", \"$K\": \"audit.sh\"}]}\n        ]\n    }\n}"},
	{name: "tabs-crlf", text: "{\r\n\t$V\r\n\t\"hooks\": {\r\n\t\t\"$0\": []\r\n\t}\r\n}\r\n"},
	{name: "compact", text: `{$V"hooks":{"$0":[{"type":"command","$K":"a.sh","hooks":[{"type":"command","$K":"a.sh"}]}]}}`},
	{name: "hooks-empty", text: "{\n  $V\n  \"hooks\": {}\n}\n"},
	{name: "hooks-empty-lines", text: "{\n  $V\n  \"hooks\": {\n  }\n}\n"},
	{name: "event-empty-space", text: "{\n  $V\n  \"hooks\": {\"$0\": [ ], \"$1\": [\n\n  ]}\n}\n"},
	{name: "other-events", text: "{\n  $V\n  \"hooks\": {\n    \"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"$K\": \"echo hi\"}]}]\n  }\n}\n"},
	{name: "odd-indent", text: "{\n   $V\n   \"hooks\": {\n         \"$0\": [\n  {\"hooks\": [{\"type\": \"command\", \"$K\": \"x\"}]}\n      ]\n   }\n}\n"},
	{name: "comments", comments: true, text: `// user settings
{
  /* the hooks */
  "hooks": {
    "$0": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "$K": "x"}]} // theirs
    ], // after the array
    "$1": [
      // nothing yet
    ]
  },
  "theme": "dark" // trailing
  /* a block
     before the end */
}
// after
`},
	{name: "comment-empty-hooks", comments: true, text: "{\n  \"hooks\": { /* none */ }\n}\n"},
	{name: "comment-line-inline", comments: true, text: "{\"a\": 1 // x\n}"},
	{name: "unicode", rootKeys: true, text: "{\n  \"name\": \"é🎉 \\u00e9\",\n  \"hooks\": {}\n}\n"},
}

// text returns s for agent a: its events, command key and version.
func (s sample) textFor(a *Agent) string {
	v := ""
	if a.version {
		v = `"version": 1,`
	}
	t := strings.NewReplacer("$0", a.Events[0], "$1", a.Events[1], "$K", a.commandKey).Replace(s.text)
	if v == "" {
		// without a version member, drop the placeholder and what follows it
		t = strings.NewReplacer("{\n  $V\n}", "{\n}", "$V\r\n\t", "", "$V\n    ", "", "$V\n   ", "", "$V\n  ", "", "$V", "").Replace(t)
	} else {
		t = strings.NewReplacer("{\n  $V\n}", "{\n  \"version\": 1\n}", "$V", v).Replace(t)
	}
	return t
}

// applies reports whether s is a file agent a reads.
func (s sample) applies(a *Agent) bool {
	return (!s.comments || a.comments) && (!s.rootKeys || a.Name != "codex")
}

// TestRoundTrip: for every agent and sample, install gives a file the
// agent parses with warden's entry on every event; a second install
// changes nothing; uninstall gives the sample back, byte for byte (or
// no file, where install created it from nothing).
func TestRoundTrip(t *testing.T) {
	for _, a := range Agents {
		for _, s := range samples {
			if !s.applies(a) {
				continue
			}
			t.Run(a.Name+"/"+s.name, func(t *testing.T) {
				in := []byte(s.textFor(a))
				c := cmd + a.Name
				out, done, err := a.installText("f.json", in, true, c)
				if err != nil {
					t.Fatalf("install: %v\n%s", err, in)
				}
				if bytes.Equal(out, in) || len(done) == 0 {
					t.Fatalf("install changed nothing: %q", done)
				}
				d, err := a.parse("f.json", out)
				if err != nil {
					t.Fatalf("installed file: %v\n%s", err, out)
				}
				if !a.current(d.root.get("hooks"), c) {
					t.Fatalf("installed file lacks warden's entries:\n%s", out)
				}
				again, done2, err := a.installText("f.json", out, true, c)
				if err != nil || !bytes.Equal(again, out) || !strings.Contains(done2[0], "already installed") {
					t.Fatalf("second install: %v %q\n%s", err, done2, again)
				}
				back, removed, exact, err := a.uninstallText("f.json", out)
				if err != nil || len(removed) != 1 || removed[0] != c || !exact {
					t.Fatalf("uninstall: %v %q exact %v\n%s", err, removed, exact, back)
				}
				if len(bytes.TrimSpace(in)) == 0 {
					if back != nil {
						t.Fatalf("uninstall of a created file kept it: %q", back)
					}
					return
				}
				if !bytes.Equal(back, in) {
					t.Fatalf("uninstall did not restore the file:\n--- want\n%s\n--- got\n%s\n--- installed\n%s", in, back, out)
				}
				if strings.Contains(string(in), "\r\n") && strings.Count(string(out), "\n") != strings.Count(string(out), "\r\n") {
					t.Errorf("a CRLF file got LF lines:\n%q", out)
				}
			})
		}
	}
}

// TestGolden: what install writes, for each agent, into no file and into
// a file with other hooks, comments or tabs (testdata/golden/*.txtar;
// -update rewrites them).
func TestGolden(t *testing.T) {
	for _, a := range Agents {
		for _, name := range []string{"empty", "claude-like", "comments", "tabs-crlf", "compact"} {
			var s sample
			for _, x := range samples {
				if x.name == name {
					s = x
				}
			}
			if !s.applies(a) {
				continue
			}
			in := s.textFor(a)
			out, _, err := a.installText("f.json", []byte(in), true, cmd+a.Name)
			if err != nil {
				t.Fatal(err)
			}
			got := txtar.Archive{Files: map[string]string{"before": in + "\n", "after": string(out)}, Order: []string{"before", "after"}}.Format()
			file := filepath.Join("testdata", "golden", a.Name+"-"+name+".txtar")
			if *update {
				os.MkdirAll(filepath.Dir(file), 0o755)
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if string(want) != got {
				t.Errorf("%s: install wrote\n%s\nwant\n%s", file, got, want)
			}
		}
	}
}

// TestRefuse: a file that does not parse, or has another shape where
// warden edits, is refused with its position, and never changed.
func TestRefuse(t *testing.T) {
	for _, tc := range []struct {
		agent, text, want string
	}{
		{"claude-code", "{\n  \"hooks\": \"none\"\n}", `f.json:2:12: "hooks" is a string; Claude Code expects an object of events`},
		{"claude-code", "{\"hooks\": {\"PreToolUse\": {}}}", `f.json:1:26: "hooks"."PreToolUse" is an object; Claude Code expects an array`},
		{"claude-code", "[]", `f.json:1:1: Claude Code's settings are a JSON object, not an array`},
		{"claude-code", "{\n  // a comment\n}", "f.json:2:3: a comment, which this agent's settings do not allow"},
		{"claude-code", "{\"a\": 1,}", "f.json:1:8: a comma before '}'"},
		{"claude-code", "{\"a\": [1,]}", "f.json:1:9: a comma before ']'"},
		{"claude-code", "{\"a\": 1, \"a\": 2}", `f.json:1:10: the key "a" twice in one object (also at 1:2)`},
		{"claude-code", "\xef\xbb\xbf{}", "f.json:1:1: the file starts with a byte order mark"},
		{"claude-code", "{\"a\": \"\xff\"}", "f.json:1:8: invalid UTF-8"},
		{"claude-code", "{\"a\": \"x\ny\"}", "f.json:1:9: a control character in a string"},
		{"claude-code", "{\"a\": 01}", "f.json:1:7: a number with a leading zero"},
		{"claude-code", "{\"a\": tru}", "f.json:1:7: unexpected 't'"},
		{"claude-code", "{\"a\": 1} x", "f.json:1:10: text after the JSON value"},
		{"claude-code", "{\"a\": [", "f.json:1:8: unexpected end of the file: the array at 1:7 is never closed"},
		{"claude-code", strings.Repeat("[", 300), "f.json:1:202: nested deeper than 200 levels"},
		{"gemini", "{\n  /* open", "f.json:2:3: a comment that is never closed"},
		{"gemini", "{\"hooks\": {\"BeforeTool\": \"x\"}} // ok", `f.json:1:26: "hooks"."BeforeTool" is a string`},
		{"codex", "{\"$schema\": \"x\", \"hooks\": {}}", `f.json:1:2: Codex refuses a hooks.json with the key "$schema" at its root`},
		{"cursor", "{\"version\": 1, \"hooks\": []}", `f.json:1:25: "hooks" is an array; Cursor expects an object of events`},
		{"copilot", "{\"version\": 1, \"hooks\": {\"preToolUse\": null}}", `f.json:1:40: "hooks"."preToolUse" is null`},
		{"windsurf", "{\"hooks\": {\"pre_run_command\": 1}}", `f.json:1:31: "hooks"."pre_run_command" is a number`},
	} {
		a, _ := Lookup(tc.agent)
		_, _, err := a.installText("f.json", []byte(tc.text), true, cmd+a.Name)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s %q: install error %v, want %q", tc.agent, tc.text, err, tc.want)
		}
		_, _, _, err = a.uninstallText("f.json", []byte(tc.text))
		if err == nil && !strings.Contains(tc.want, "Codex refuses") {
			// uninstall reads the file the same way (but finds nothing to
			// remove only where the file parses)
			t.Errorf("%s %q: uninstall accepted it", tc.agent, tc.text)
		}
	}
}

// TestReplace: entries of warden's hook with another binary or other
// fields (an older install) are replaced, and the result is what a first
// install writes.
func TestReplace(t *testing.T) {
	for _, a := range Agents {
		in := []byte(samples[8].textFor(a)) // claude-like
		if a.Name == "codex" {
			in = []byte("{\n  \"hooks\": {}\n}\n")
		}
		old, _, err := a.installText("f", in, true, "'/opt/old warden/warden' hook "+a.Name)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _, _ := a.installText("f", in, true, cmd+a.Name)
		got, done, err := a.installText("f", old, true, cmd+a.Name)
		if err != nil || !bytes.Equal(got, fresh) || !strings.Contains(done[0], "changed the command of warden's hooks for "+strings.Join(a.Events, ", ")+" in place, from '/opt/old warden/warden' hook "+a.Name+" to "+cmd+a.Name) {
			t.Errorf("%s: %v %q\n%s\nwant\n%s", a.Name, err, done, got, fresh)
		}
		// a changed timeout is replaced too
		edited := bytes.Replace(fresh, []byte(`"timeout": 30`), []byte(`"timeout": 99`), 1)
		if a.Name == "windsurf" || a.Name == "copilot" {
			continue
		}
		got, _, err = a.installText("f", edited, true, cmd+a.Name)
		if err != nil || !bytes.Equal(got, fresh) {
			t.Errorf("%s: a changed timeout stays:\n%s", a.Name, got)
		}
	}
}

// TestUninstallEdited: when the file was edited around warden's entries
// after install, uninstall still takes out exactly warden's entries and
// says the result is not the file from before.
func TestUninstallEdited(t *testing.T) {
	a, _ := Lookup("claude-code")
	in := []byte(samples[8].textFor(a))
	out, _, _ := a.installText("f", in, true, cmd+a.Name)
	// the user adds a hook after warden's, into warden's group, and a key
	edited := bytes.Replace(out, []byte(`"onFailure": "block"
          }`), []byte(`"onFailure": "block"
          },
          {"type": "command", "command": "mine.sh"}`), 1)
	edited = bytes.Replace(edited, []byte(`"model": "opus"`), []byte(`"model": "sonnet"`), 1)
	back, removed, exact, err := a.uninstallText("f", edited)
	if err != nil || len(removed) != 1 || exact {
		t.Fatalf("%v %q exact %v", err, removed, exact)
	}
	d, err := a.parse("f", back)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.find(d.root.get("hooks"))) != 0 || !bytes.Contains(back, []byte("mine.sh")) || !bytes.Contains(back, []byte("sonnet")) || !bytes.Contains(back, []byte("check-bash.sh")) {
		t.Errorf("uninstall of an edited file:\n%s", back)
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct{ bin, want, err string }{
		{"/usr/local/bin/warden", "/usr/local/bin/warden hook codex", ""},
		{"/Users/Jane Doe/bin/warden", "'/Users/Jane Doe/bin/warden' hook codex", ""},
		{"/opt/$HOME/warden", "'/opt/$HOME/warden' hook codex", ""},
		{"warden", "", "not an absolute path"},
		{"/opt/it's/warden", "", "which warden does not quote"},
		{"/opt/a\\b/warden", "", "which warden does not quote"},
		{"/opt/a\nb/warden", "", "which warden does not quote"},
	} {
		got, err := Command(tc.bin, "codex")
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Command(%q) = %q, %v; want %q, %q", tc.bin, got, err, tc.want, tc.err)
		}
		if got != "" {
			if b, ok := wardenBinary(got, "codex"); !ok || b != tc.bin {
				t.Errorf("wardenBinary(%q) = %q, %v", got, b, ok)
			}
		}
	}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{`"/opt/my warden/warden" hook codex`, true},
		{`/opt/my\ warden/warden-1.2 hook codex --shadow`, true},
		{`/usr/bin/warden hook claude-code`, false},
		{`/usr/bin/warden assess`, false},
		{`/usr/bin/not-warden hook codex`, false},
		{`python3 warden.py hook codex`, false},
	} {
		if _, ok := wardenBinary(tc.cmd, "codex"); ok != tc.want {
			t.Errorf("wardenBinary(%q) = %v", tc.cmd, ok)
		}
	}
}

// FuzzMerge: install then uninstall of any file an agent parses gives it
// back byte for byte (a whitespace-only file: none), or install refuses
// it with a position; a second install changes nothing.
func FuzzMerge(f *testing.F) {
	for i, a := range Agents {
		for _, s := range samples {
			if s.applies(a) {
				f.Add(byte(i), s.textFor(a))
			}
		}
	}
	f.Add(byte(0), `{"hooks":{"PreToolUse":[{"hooks":[]}],"PostToolUse":[1,"x",null]}}`)
	f.Add(byte(2), "{\"hooks\"://x\n{\"BeforeTool\"/**/:[/**/]}}")
	f.Fuzz(func(t *testing.T, which byte, text string) {
		a := Agents[int(which)%len(Agents)]
		in := []byte(text)
		if _, err := parse(in, a.comments); err != nil && len(bytes.TrimSpace(in)) > 0 {
			return
		}
		if d, err := a.parse("f", in); err == nil && len(bytes.TrimSpace(in)) > 0 {
			if h := d.root.get("hooks"); h != nil && len(a.find(h)) > 0 {
				return // warden's entries already: not a file before install
			}
		}
		c := cmd + a.Name
		out, _, err := a.installText("f", in, true, c)
		if err != nil {
			var se *SyntaxError
			if !strings.HasPrefix(err.Error(), "f:") || strings.Contains(err.Error(), "a bug in warden") {
				t.Fatalf("install: %v (%T %v)\n%q", err, err, se, in)
			}
			return
		}
		if again, _, err := a.installText("f", out, true, c); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("second install changed the file: %v\n%q\n%q", err, out, again)
		}
		back, _, exact, err := a.uninstallText("f", out)
		if err != nil || !exact {
			t.Fatalf("uninstall: %v exact %v\n%q\n%q", err, exact, in, out)
		}
		if len(bytes.TrimSpace(in)) == 0 {
			if back != nil {
				t.Fatalf("a created file is kept: %q", back)
			}
			return
		}
		if !bytes.Equal(back, in) {
			t.Fatalf("not restored:\n%q\n%q\n%q", in, out, back)
		}
	})
}

// TestEditedCommand: the command of warden's entries edited by hand (an
// option appended, options reordered, another binary), in a file install
// created and in one it added to, for every agent. Installing again
// leaves the entries alone when the options asked for are the same set,
// and otherwise changes only the command strings, in place, saying so
// (never "added"); uninstall takes the entries out whatever they run,
// removes the file install created, and gives the other back.
func TestEditedCommand(t *testing.T) {
	for _, a := range Agents {
		base := []byte(samples[8].textFor(a)) // claude-like
		if a.Name == "codex" {
			base = []byte("{\n  \"hooks\": {}\n}\n")
		}
		plain := cmd + a.Name
		opt := "--shadow"
		if a.Name == "claude-code" {
			opt = "--authoritative --shadow"
		}
		for _, in := range [][]byte{nil, base} {
			for _, tc := range []struct {
				name      string
				installed string // the command install wrote
				edited    string // the command after the user's edit
				again     string // the command installed again
				same      bool   // the same command: nothing changes
			}{
				{"flag appended by hand, installed again plain", plain, plain + " --shadow", plain, false},
				{"flag appended by hand, installed again with it", plain, plain + " " + opt, plain + " " + opt, true},
				{"options reordered by hand", plain + " --shadow --policy /p.yaml", plain + " --policy /p.yaml --shadow", plain + " --shadow --policy /p.yaml", true},
				{"flag removed by hand, installed again with it", plain + " --shadow", plain, plain + " --shadow", false},
				{"another binary, by hand", plain, "/opt/warden2/warden hook " + a.Name, plain, false},
				{"a value changed by hand", plain + " --policy /a.yaml", plain + " --policy /b.yaml", plain + " --policy /a.yaml", false},
			} {
				t.Run(fmt.Sprintf("%s/%s/file=%v", a.Name, tc.name, in != nil), func(t *testing.T) {
					out, _, err := a.installText("f", in, in != nil, tc.installed)
					if err != nil {
						t.Fatal(err)
					}
					q := func(s string) string { return string(jsonenc.String(nil, s)) }
					edited := bytes.ReplaceAll(out, []byte(q(tc.installed)), []byte(q(tc.edited)))
					if bytes.Count(edited, []byte(q(tc.edited))) != len(a.Events) {
						t.Fatalf("the edit did not take:\n%s", edited)
					}
					got, done, err := a.installText("f", edited, true, tc.again)
					if err != nil {
						t.Fatal(err)
					}
					report := strings.Join(done, "\n")
					if strings.Contains(report, "added") {
						t.Errorf("the report says added: %q", done)
					}
					if tc.same {
						if !bytes.Equal(got, edited) || !strings.HasPrefix(report, "already installed") {
							t.Errorf("the same options: %q\n%s", done, got)
						}
					} else {
						want := bytes.ReplaceAll(edited, []byte(q(tc.edited)), []byte(q(tc.again)))
						if !bytes.Equal(got, want) {
							t.Errorf("not only the command changed:\n--- got\n%s\n--- want\n%s", got, want)
						}
						if !strings.Contains(report, "changed the command") || !strings.Contains(report, "from "+tc.edited+" to "+tc.again) {
							t.Errorf("the report: %q", done)
						}
					}
					// uninstall, from the edited file and from the reinstalled one
					for _, f := range [][]byte{edited, got} {
						back, removed, _, err := a.uninstallText("f", f)
						if err != nil || len(removed) != 1 {
							t.Fatalf("uninstall: %v %q", err, removed)
						}
						if in == nil {
							if back != nil {
								t.Errorf("the file install created is kept as %q", back)
							}
						} else if !bytes.Equal(back, in) {
							t.Errorf("uninstall did not give the file back:\n%s", back)
						}
					}
				})
			}
		}
	}
}

// TestEditedFieldOwnFile: a file install created, with a field of
// warden's entries edited by hand (not the command), installed again:
// it is written as install creates it, and uninstall removes it.
func TestEditedFieldOwnFile(t *testing.T) {
	for _, a := range Agents {
		out, _, err := a.installText("f", nil, false, cmd+a.Name)
		if err != nil {
			t.Fatal(err)
		}
		edited := bytes.ReplaceAll(out, []byte(`"type": "command"`), []byte(`"type": "commandx"`))
		if a.Name == "windsurf" {
			edited = bytes.ReplaceAll(out, []byte(`"show_output": true`), []byte(`"show_output": false`))
		}
		got, done, err := a.installText("f", edited, true, cmd+a.Name+" --shadow")
		want, _, _ := a.installText("f", nil, false, cmd+a.Name+" --shadow")
		if err != nil || !bytes.Equal(got, want) || strings.Contains(strings.Join(done, " "), "added") {
			t.Errorf("%s: %v %q\n%s", a.Name, err, done, got)
		}
		if back, _, _, err := a.uninstallText("f", edited); err != nil || back != nil {
			t.Errorf("%s: uninstall kept the file: %v %q", a.Name, err, back)
		}
	}
}

func TestCommandOptions(t *testing.T) {
	for _, tc := range []struct {
		agent string
		opts  []string
		want  string
		err   string
	}{
		{"claude-code", []string{"--authoritative"}, "/w/warden hook claude-code --authoritative", ""},
		{"claude-code", []string{"--shadow", "--authoritative", "--shadow"}, "/w/warden hook claude-code --authoritative --shadow", ""},
		{"codex", []string{"--shadow"}, "/w/warden hook codex --shadow", ""},
		{"codex", []string{"--authoritative"}, "", "claude-code hook only"},
		{"windsurf", []string{"--store"}, "", "install writes only"},
	} {
		got, err := Command("/w/warden", tc.agent, tc.opts...)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Command(%s, %q) = %q, %v", tc.agent, tc.opts, got, err)
		}
	}
	if got := CommandOptions("'/a b/warden' hook codex --policy '/x y' --shadow"); !slices.Equal(got, []string{"--policy", "/x y", "--shadow"}) {
		t.Errorf("CommandOptions = %q", got)
	}
}
