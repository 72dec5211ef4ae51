package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// A function that starts copies of itself is a fork bomb wherever it is
// defined: on the command line, in bash -c, eval, sh -c under timeout, a
// heredoc fed to a shell. Recursion that does not multiply, and a fork
// bomb's text that is only written, are not.
func TestForkBomb(t *testing.T) {
	bombs := []string{
		`:(){ :|:& };:`,
		`bash -c ':(){ :|:& };:'`,
		`eval 'bomb(){ bomb|bomb& }; bomb'`,
		`timeout 60 sh -c ':(){ :|:& };:'`,
		`env FOO=1 bash -c 'f(){ f & f; }; f'`,
		`function bomb { bomb | bomb & }; bomb`,
		"bash <<'EOF'\nx() { x |& x & }\nx\nEOF",
		`f() { while true; do f & done; }; f`,
	}
	for _, s := range bombs {
		fs := analyzeScript(t, s)
		if l, ok := levelOf(fs, ruleForkBomb); !ok || l != risk.Critical {
			t.Errorf("%s: no critical %s;%s", s, ruleForkBomb, describe(fs))
		}
	}
	for _, s := range []string{
		`walk(){ for d in "$1"/*; do [ -d "$d" ] && walk "$d"; done; }; walk .`,
		`f(){ echo hi | f2; }; f`,
		`f(){ g & }; g(){ echo; }; f`,
		`echo ':(){ :|:& };:' > docs/forkbomb.txt`,
		`retry(){ "$@" || { sleep 1; retry "$@"; }; }; retry make`,
	} {
		if fs := analyzeScript(t, s); func() bool { _, ok := levelOf(fs, ruleForkBomb); return ok }() {
			t.Errorf("%s: reported as a fork bomb;%s", s, describe(fs))
		}
	}
}
