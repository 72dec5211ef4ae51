package install

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/guard"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// TestGuarded: every settings file install writes, for every agent and
// scope, is guarded from the agent by each route that changes a file:
// the edit tools of the agents, shell redirections, cp, mv, sed -i, tee,
// rm and inline Python, by its absolute path, relative to the project
// and by ~; reading it is not a finding. The guard runs with what it
// learns from the environment of the hook (guard.FromEnvironment): here,
// with $CLAUDE_CONFIG_DIR, $CODEX_HOME and $COPILOT_HOME moved.
func TestGuarded(t *testing.T) {
	const home, cwd = "/home/user", "/home/user/project"
	moved := map[string]string{"CLAUDE_CONFIG_DIR": "/srv/cfg/claude", "CODEX_HOME": "/srv/cfg/codex", "COPILOT_HOME": "/srv/cfg/copilot"}
	for _, relocated := range []bool{false, true} {
		env := Env{Home: home, Dir: cwd}
		an := guard.Analyzer{}
		if relocated {
			env.Getenv = func(k string) string { return moved[k] }
			for k, v := range moved {
				t.Setenv(k, v)
			}
			an = guard.FromEnvironment()
		}
		for _, a := range Agents {
			for _, s := range []Scope{User, Project} {
				file, err := a.Path(s, env)
				if err != nil {
					t.Fatal(err)
				}
				names := []string{file}
				if rel, ok := strings.CutPrefix(file, cwd+"/"); ok {
					names = append(names, rel, "./"+rel)
				}
				if rel, ok := strings.CutPrefix(file, home+"/"); ok {
					names = append(names, "~/"+rel, "$HOME/"+rel)
				}
				for _, p := range names {
					q := "'" + p + "'"
					if strings.HasPrefix(p, "$") {
						q = `"` + p + `"`
					} else if strings.HasPrefix(p, "~") {
						q = p
					}
					must := []risk.Action{
						{Tool: "Write", Arguments: map[string]any{"file_path": file, "content": "{}"}},
						{Tool: "Edit", Arguments: map[string]any{"file_path": file, "old_string": "warden", "new_string": "true"}},
						{Tool: "write_file", Arguments: map[string]any{"file_path": file, "content": "{}"}},
						{Tool: "replace", Arguments: map[string]any{"file_path": file, "old_string": "a", "new_string": "b"}},
						{Tool: "apply_patch", Arguments: map[string]any{"command": "*** Begin Patch\n*** Update File: " + file + "\n@@\n-a\n+b\n*** End Patch\n"}},
					}
					for _, sh := range []string{
						"echo '{}' > " + q, "printf x >> " + q, "cp /tmp/x " + q, "mv /tmp/x " + q, "sed -i s/warden/true/ " + q,
						"tee " + q + " < /tmp/x", "rm -f " + q, "truncate -s 0 " + q, "ln -sf /tmp/x " + q,
						"python3 -c \"open('" + strings.Trim(q, "'") + "', 'w').write('{}')\"",
						"cd /tmp && cat /dev/null > " + q,
					} {
						must = append(must, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": sh}})
					}
					for _, act := range must {
						if !strings.HasPrefix(p, "/") && act.Tool != "Bash" {
							continue // the edit tools take absolute paths
						}
						if strings.HasPrefix(p, "/") || act.Tool == "Bash" {
							f := judge(an, act, cwd, home)
							if !locked(f) {
								t.Errorf("%s %s (%s): %s %v is not a locked critical finding: %+v", a.Name, s, p, act.Tool, act.Arguments, f)
							}
						}
					}
					for _, act := range []risk.Action{
						{Tool: "Read", Arguments: map[string]any{"file_path": file}},
						{Tool: "Bash", Arguments: map[string]any{"command": "cat " + q}},
						{Tool: "Bash", Arguments: map[string]any{"command": "cp " + q + " /tmp/backup.json"}},
					} {
						if !strings.HasPrefix(p, "/") && act.Tool == "Read" {
							continue
						}
						if f := judge(an, act, cwd, home); len(f) != 0 {
							t.Errorf("%s %s: reading %s is a finding: %+v", a.Name, s, p, f)
						}
					}
				}
			}
		}
	}
}

func judge(an guard.Analyzer, act risk.Action, cwd, home string) []risk.Finding {
	c := tool.Normalize(&act, cwd, home)
	f, _ := an.Analyze(context.Background(), c)
	return f
}

func locked(fs []risk.Finding) bool {
	for _, f := range fs {
		if f.Level == risk.Critical && f.Locked && (f.Rule == guard.RuleHooks || f.Rule == guard.RuleSelf) {
			return true
		}
	}
	return false
}
