package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestREADMEAgentHooks runs the transcripts of the README's "Agent hooks"
// section again, in their order, on one store, and compares what warden
// prints with what the README shows: every "$ warden …" line of its
// console blocks, with the lines after it up to the next "$ " as its
// stdout then stderr, and "(exit N)" when it exits non-zero. The agents'
// payloads are the files docs/hooks.md gives ("`NAME.json`:" and a json
// block), and the set-up is the one it describes: the home /home/you
// (here a temporary directory standing for it), the project ~/project
// with a policy that denies terraform destroy, the default store and
// audit key under the XDG directories, the binary ~/go/bin/warden (here
// a script that runs this test binary as the CLI, named to install with
// --binary). What a run cannot reproduce is made alike on both sides:
// the references and hashes (12 hex digits: the audit key is new each
// run), the times, and the binary doctor reports.
func TestREADMEAgentHooks(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	start := strings.Index(section, "\n## Agent hooks\n")
	if start < 0 {
		t.Fatal(`README.md has no "## Agent hooks" section`)
	}
	section = section[start+1:]
	if end := strings.Index(section, "\n## "); end > 0 {
		section = section[:end]
	}
	docs, err := os.ReadFile("../../docs/hooks.md")
	if err != nil {
		t.Fatal(err)
	}
	payloads := regexp.MustCompile("(?m)^`([a-z-]+\\.json)`:\\n\\n```json\\n(.*)\\n```$").FindAllStringSubmatch(string(docs), -1)
	if len(payloads) < 12 {
		t.Fatalf("docs/hooks.md gives %d payloads, want two an agent at least", len(payloads))
	}

	const readmeHome = "/home/you"
	dir := t.TempDir()
	home := filepath.Join(dir, "you")
	project := filepath.Join(home, "project")
	bin := filepath.Join(home, "go", "bin")
	for _, d := range []string{filepath.Join(project, ".warden"), bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, data string) {
		t.Helper()
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(project, ".warden", "policy.yaml"), "deny:\n  - \"Bash(terraform destroy:*)\"\n")
	for _, p := range payloads {
		write(filepath.Join(project, p[1]), strings.ReplaceAll(p[2], readmeHome, home)+"\n")
	}
	binary := filepath.Join(bin, "warden")
	if err := os.WriteFile(binary, []byte("#!/bin/sh\nWARDEN_TEST_AS_CLI=1 exec "+strconv.Quote(os.Args[0])+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	org := filepath.Join(dir, "org-policy.yaml") // empty: no organization's policy from this machine
	write(org, "")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv("WARDEN_ORG_POLICY", org)
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	for _, k := range []string{"WARDEN_AUDIT_KEY_FILE", "WARDEN_AUDIT_KEY", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Chdir(project)

	hex := regexp.MustCompile(`\b[0-9a-f]{12,64}\b`) // a reference is 12 hex digits, more when those are all decimal (audit.ShortRef)
	stamp := regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	binaryLine := regexp.MustCompile(`(?m)^(  binary: [^,]*),.*$`)
	// a table's columns widen with a longer reference: only where the
	// gaps are, not how wide, is compared
	gap := regexp.MustCompile(` {2,}`)
	normal := func(s string) string {
		s = hex.ReplaceAllString(s, "<ref>")
		s = stamp.ReplaceAllString(s, "<time>")
		s = gap.ReplaceAllString(s, "  ")
		return binaryLine.ReplaceAllString(s, "$1, …")
	}
	refs := map[string]string{} // the README's references: this run's
	ran := 0
	for _, block := range consoleBlocks(section) {
		for _, c := range block {
			cmd := c.command
			for from, to := range refs {
				cmd = strings.ReplaceAll(cmd, from, to)
			}
			args := splitArgs(cmd)
			if len(args) < 2 || args[0] != "warden" {
				t.Fatalf("README: %q: only warden commands are run here", c.command)
			}
			var stdin []byte
			if n := len(args); n > 2 && args[n-2] == "<" {
				if stdin, err = os.ReadFile(args[n-1]); err != nil {
					t.Fatalf("README: %q: %v", c.command, err)
				}
				args = args[:n-2]
			}
			if args[1] == "install" && !strings.Contains(cmd, "--uninstall") {
				args = append(args, "--binary", binary)
			}
			var stdout, stderr bytes.Buffer
			code := run(args[1:], bytes.NewReader(stdin), &stdout, &stderr)
			got := strings.ReplaceAll(stdout.String()+stderr.String(), home, readmeHome)
			if code != 0 {
				got += "(exit " + strconv.Itoa(code) + ")\n"
			}
			want := c.output
			if w, g := hex.FindAllString(want, -1), hex.FindAllString(got, -1); len(w) == len(g) {
				for i := range w {
					refs[w[i]] = g[i]
				}
			}
			if normal(got) != normal(want) {
				t.Errorf("README: $ %s\nprints now (run the transcripts again and update the README):\n%s\nthe README shows:\n%s", c.command, got, want)
			}
			ran++
		}
	}
	if ran < 30 {
		t.Errorf("ran %d commands of the README's Agent hooks section, want its transcripts (30 or more)", ran)
	}
}

// transcript is one command of a console block and what it printed.
type transcript struct{ command, output string }

// consoleBlocks returns the commands of each ```console block of text:
// a line "$ COMMAND", then its output up to the next "$ " line or the
// end of the block.
func consoleBlocks(text string) [][]transcript {
	var blocks [][]transcript
	var cur []transcript
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case !in && line == "```console":
			in, cur = true, nil
		case in && line == "```":
			in = false
			blocks = append(blocks, cur)
		case in && strings.HasPrefix(line, "$ "):
			cur = append(cur, transcript{command: strings.TrimPrefix(line, "$ ")})
		case in && len(cur) > 0:
			cur[len(cur)-1].output += line + "\n"
		}
	}
	return blocks
}
