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
