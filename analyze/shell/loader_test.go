package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestLoaderVariables: a library or module loaded into the programs a
// command starts (LD_PRELOAD, LD_LIBRARY_PATH, DYLD_*, NODE_OPTIONS
// --require, JAVA_TOOL_OPTIONS -javaagent …), set in front of the
// command or through env and sudo, is medium, and high from a scratch,
// unknown or foreign place or with elevated privileges.
func TestLoaderVariables(t *testing.T) {
	env := Env{Cwd: "/home/user/project", Home: "/home/user"}
	for cmd, want := range map[string]risk.Level{
		"LD_PRELOAD=/tmp/x.so ls":                                                                risk.High,
		"LD_PRELOAD=/dev/shm/.h.so /usr/bin/passwd":                                              risk.High,
		"LD_PRELOAD=$LIB ./app":                                                                  risk.High,
		"LD_AUDIT=/var/tmp/a.so id":                                                              risk.High,
		"LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 ./server":                         risk.Medium,
		"LD_PRELOAD=./build/libfaketime.so ./test":                                               risk.Medium,
		"env LD_PRELOAD=/tmp/h.so sshd -t":                                                       risk.High,
		"env -u FOO LD_PRELOAD=libasan.so ./t":                                                   risk.Medium,
		"sudo LD_PRELOAD=./x.so apache2ctl":                                                      risk.High,
		"sudo -u root LD_LIBRARY_PATH=./lib ./app":                                               risk.High,
		"LD_LIBRARY_PATH=/tmp/evil:/usr/lib ls":                                                  risk.High,
		"DYLD_INSERT_LIBRARIES=~/Downloads/x.dylib /Applications/Slack.app/Contents/MacOS/Slack": risk.High,
		"NODE_OPTIONS='--require /tmp/x.js' node app.js":                                         risk.High,
		"NODE_OPTIONS=--import=./instrument.mjs node app.js":                                     risk.Medium,
		"JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar java -jar app.jar":                              risk.High,
		"PERL5OPT=-MDevel::Trace perl x.pl":                                                      risk.Medium,
		"bash -c 'LD_PRELOAD=/tmp/x.so id'":                                                      risk.High,
	} {
		cmds, err := Resolve(cmd, env)
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		got := risk.Safe
		for _, f := range DefaultKnowledge().Analyze(cmds, env) {
			if f.Rule == ruleLoader && f.Level > got {
				got = f.Level
			}
		}
		if got != want {
			t.Errorf("%s: %s, want %s", cmd, got, want)
		}
	}
	for _, cmd := range []string{
		"LD_LIBRARY_PATH=./lib ./app", "LD_LIBRARY_PATH=/usr/local/lib make", "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
		"PYTHONPATH=src pytest", "env FOO=bar make", "JAVA_TOOL_OPTIONS=-Xmx2g gradle build", "echo LD_PRELOAD=/tmp/x.so",
		"export NODE_ENV=production", "env | grep LD_", "sudo -E make install",
	} {
		cmds, err := Resolve(cmd, env)
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		for _, f := range DefaultKnowledge().Analyze(cmds, env) {
			if f.Rule == ruleLoader {
				t.Errorf("%s: %s %s", cmd, f.Level, f.Reason)
			}
		}
	}
}
