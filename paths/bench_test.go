package paths

import "testing"

// BenchmarkClassify classifies the paths an action typically names: in
// the workspace, in home, in the system, in temporary space, of the guard.
func BenchmarkClassify(b *testing.B) {
	env := Env{Cwd: "/home/user/project", Home: "/home/user"}
	ps := []string{"src/main.go", "./build", "README.md", "~/.ssh/id_ed25519", "~/.bashrc", "/etc/hosts", "/tmp/x.log",
		"/usr/local/bin/terraform", ".claude/settings.json", "node_modules/.bin/tsc", "/dev/null", "../../", "~/Documents/notes.txt"}
	for b.Loop() {
		for _, p := range ps {
			a := env.Abs(p)
			env.ClassifyAbs(a)
			env.Guarded(a)
			env.HoldsGuard(a)
		}
	}
}

// BenchmarkMayGuard tells, for paths an action typically names, which
// guard rows they may fall under.
func BenchmarkMayGuard(b *testing.B) {
	ps := []string{"/home/user/project/src/main.go", "/home/user/project/README.md", "/home/user/.ssh/id_ed25519",
		"/etc/hosts", "/tmp/x.log", "/usr/local/bin/terraform", "/home/user/project/.claude/settings.json",
		"/home/user/project/node_modules/.bin/tsc", "/dev/null", "/home/user/project/internal/store/testdata/golden/x.json"}
	for b.Loop() {
		for _, p := range ps {
			mayGuardRows(p)
		}
	}
}
