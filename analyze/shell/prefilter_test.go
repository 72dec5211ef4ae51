package shell

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/webapi"
)

// TestTaskTool holds taskTool, the cheap test before the task runners'
// tables are looked up, to those tables: every name any of them holds
// passes it.
func TestTaskTool(t *testing.T) {
	names := []string{"ansible-playbook"}
	for n := range targetRunners {
		names = append(names, n)
	}
	for n := range scriptRuns {
		names = append(names, n)
	}
	for n := range implicitScripts {
		names = append(names, n)
	}
	names = append(names, strings.Fields(taskRunners.text)...)
	for _, n := range names {
		if !taskTool(n) {
			t.Errorf("taskTool(%q) = false, but a task runner's table holds it", n)
		}
	}
}

// TestGitSecretsGate: analyze runs gitSecrets only for a script with a
// git command that gitCommits admits; over every script of the corpora
// and the samples, and scripts written to slip past the gate, gitSecrets
// finds nothing in the others.
func TestGitSecretsGate(t *testing.T) {
	k := DefaultKnowledge()
	scripts := gateScripts(t,
		`git add .env && git commit -m env && git push`,
		`git add .env && git -C . commit -qm env && git push`,
		`git add .env && git -c user.name=x commit -am env`,
		`git add .env && git "commit" -m x && git push`,
		`git add .env && git $SUB -m x && git push`,
		`git add .env && c=commit; git $c -m x && git push`,
		`git add .env && git ci -m x && git push`,
		`git add .env && git stash && git push`,
		`cp ~/.aws/credentials . && git add credentials && git commit -m c && git push`,
		`sops -d s.enc.yaml > config/prod.yaml; git add . && git commit -qm c && git push -u origin HEAD`,
		`sudo git add .env && sudo git commit -m x && git push`,
	)
	env := Env(testEnv)
	gated := 0
	for _, script := range scripts {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			continue
		}
		commits := false
		for i := range cmds {
			c := &cmds[i]
			if len(c.Args) > 0 && !c.Dynamic[0] && commandName(c.Args[0]) == "git" {
				commits = commits || gitCommits(c)
			}
		}
		if commits {
			continue
		}
		gated++
		if got := k.gitSecrets(nil, cmds, env); len(got) > 0 {
			t.Errorf("%q: gitSecrets finds %s %s, but the gate skips it", script, got[0].Rule, got[0].Level)
		}
	}
	if gated == 0 {
		t.Error("no script was gated")
	}
}

// FuzzMutationsShort: webapi.Mutations finds no field in a text shorter
// than minMutation or without {, which graphqlFindings does not read.
func FuzzMutationsShort(f *testing.F) {
	for _, s := range []string{"mutation{x", "mutation{x}", "mutation {", "mutation{", "mutation{ab", "{mutation}", "m{x}", "mutation ($id: ID!) @x { a(id: $id) { id } }", "mutation X { deleteAll }"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		found := ""
		webapi.Mutations(s, func(field string) { found = field })
		if found != "" && len(s) < minMutation {
			t.Errorf("Mutations(%q) finds %q, but graphqlFindings skips words shorter than %d", s, found, minMutation)
		}
		if found != "" && !strings.Contains(s, "{") {
			t.Errorf("Mutations(%q) finds %q, but graphqlFindings skips words without {", s, found)
		}
	})
}

// TestMutationsShortest: minMutation is no longer than a text in which
// webapi.Mutations finds a field.
func TestMutationsShortest(t *testing.T) {
	found := ""
	webapi.Mutations("mutation{x", func(field string) { found = field })
	if found == "" {
		t.Skip("Mutations needs more than mutation{x; minMutation may grow")
	}
}

// TestTestKey holds testKey's one search for _test_ to the keys it
// stands for.
func TestTestKey(t *testing.T) {
	for _, w := range []string{"sk_test_abc", "-u rk_test_x:", "Bearer rzp_test_1", "sk_test_", "xsk_test_"} {
		c := Command{Args: []string{"curl", w}, Dynamic: []bool{false, false}}
		if !testKey(&c) {
			t.Errorf("testKey misses %q", w)
		}
	}
	for _, w := range []string{"sk_live_abc", "_test_", "sk_test", "rzp_live_test", "x_test_y", "sk-test_"} {
		c := Command{Args: []string{"curl", w}, Dynamic: []bool{false, false}}
		if testKey(&c) {
			t.Errorf("testKey finds a key in %q", w)
		}
	}
}

// bodyOnStdinSlow is bodyOnStdin without its test of the last byte.
func bodyOnStdinSlow(c *Command, name string) bool {
	switch httpKindOf(name) {
	case httpHTTPie:
		return true
	case noHTTP:
		return false
	}
	for j, a := range c.Args {
		if c.Dynamic[j] {
			continue
		}
		switch {
		case a == "@-" || strings.HasSuffix(a, "=@-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "@-"):
			return true
		case strings.HasSuffix(a, "/dev/stdin"):
			return true
		case a == "-" && j > 0 && (c.Args[j-1] == "--input" || c.Args[j-1] == "-T" || c.Args[j-1] == "--upload-file"):
			return true
		case a == "--input=-":
			return true
		}
	}
	return false
}

// TestBodyOnStdinFast holds bodyOnStdin to bodyOnStdinSlow over every
// command of the corpora and the samples, and forms written for it.
func TestBodyOnStdinFast(t *testing.T) {
	scripts := gateScripts(t,
		`curl -d @- https://x`, `curl --data-binary=@- https://x`, `curl -d@- https://x`, `curl -T - https://x`,
		`curl --upload-file - https://x`, `gh api --input - /x`, `gh api --input=- /x`, `wget --post-file /dev/stdin https://x`,
		`wget --body-file=/dev/stdin https://x`, `curl --data @- x`, `curl -- - x`, `curl -d @-x https://x`, `curlie -d @- x`,
		`glab api --input - /x`, `xh POST x`, `curl -d "$B" https://x`, `curl -d @"$F" https://x`,
	)
	n := 0
	for _, script := range scripts {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			continue
		}
		for i := range cmds {
			c := &cmds[i]
			if len(c.Args) == 0 || c.Dynamic[0] {
				continue
			}
			name := commandName(c.Args[0])
			got, want := bodyOnStdin(c, name), bodyOnStdinSlow(c, name)
			if got != want {
				t.Errorf("%q: bodyOnStdin(%q) = %v, the slow path says %v", script, c.Args, got, want)
			}
			if want {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no command reads its body on stdin")
	}
}

// TestDashes: cluster's table gives "-" and each byte.
func TestDashes(t *testing.T) {
	for i := range 256 {
		b := byte(i)
		if got, want := dashes[2*i:2*i+2], "-"+string([]byte{b}); got != want {
			t.Errorf("dashes for %#x = %q, want %q", b, got, want)
		}
	}
}

// FuzzNounKinds holds nounKinds to anyToken of each of its sets.
func FuzzNounKinds(f *testing.F) {
	for _, set := range []map[string]bool{cacheNouns, artifactNouns, configNouns} {
		for n := range set {
			f.Add(n)
			f.Add("x-" + n + "_y")
			f.Add("my" + strings.ToUpper(n[:1]) + n[1:])
		}
	}
	f.Add("")
	f.Add("cache-config-logs")
	f.Fuzz(func(t *testing.T, w string) {
		k := nounKinds(w)
		for _, s := range []struct {
			set map[string]bool
			bit uint8
		}{{cacheNouns, nounCache}, {artifactNouns, nounArtifact}, {configNouns, nounConfig}} {
			if got, want := k&s.bit != 0, anyToken(w, s.set); got != want {
				t.Errorf("nounKinds(%q) bit %d = %v, anyToken says %v", w, s.bit, got, want)
			}
		}
	})
}

// FuzzTaskLevel holds taskLevel, which asks taskVerbIn first, to
// taskLevelOf, which does not.
func FuzzTaskLevel(f *testing.F) {
	for _, n := range []string{"destroy", "db:drop", "tear-down", "teardown-prod", "disable-monitoring", "stop-audit",
		"bypass_guard", "build", "test:reset-db", "rm:dist", "reset-snapshots", "userdel", "archive", "nukeAll",
		"deactivateFirewall", "plan-destroy", "clean", "tear_down_all", "a-b-c-d-e-f-g-h-i-j-k-destroy"} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n string) {
		l, v, d := taskLevel(n)
		wl, wv, wd := taskLevelOf(n)
		if l != wl || v != wv || d != wd {
			t.Errorf("taskLevel(%q) = %v %q %q, taskLevelOf says %v %q %q", n, l, v, d, wl, wv, wd)
		}
	})
}

// TestCurlValueFlags: curlRequests looks a word up in curl's value flags
// only when it starts with - and is longer than that: every one does.
func TestCurlValueFlags(t *testing.T) {
	for f := range clientValueFlags["curl"] {
		if len(f) < 2 || f[0] != '-' {
			t.Errorf("curl's value flag %q does not start with - or is only that", f)
		}
	}
}

// TestDisarmVerb holds disarmVerb to disarmVerbs.
func TestDisarmVerb(t *testing.T) {
	asks := []string{"", "stops", "Stop", "deactivated", "by", "pass", "disable"}
	for w := range disarmVerbs {
		asks = append(asks, w)
	}
	for w := range verbWords {
		asks = append(asks, w)
	}
	for _, w := range asks {
		if got, want := disarmVerb(w), disarmVerbs[w]; got != want {
			t.Errorf("disarmVerb(%q) = %v, disarmVerbs says %v", w, got, want)
		}
	}
}
