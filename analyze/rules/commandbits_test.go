package rules

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/shell"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// commandBitsTexts are scripts whose commands hold each command rule's
// test, alone and together, and come near it.
var commandBitsTexts = []string{
	"sudo -i", "sudo su -", "sudo bash", "doas -s", "su", "su - postgres -c id", "runuser -l x", "pkexec", "run0",
	"sudo find . -exec /bin/sh \\; ", "sudo vim -c ':!sh'", "sudo -u x bash < s.sh", "sudo sh -c 'id'",
	"pip install requests", "PIP3.12 install x", "uv pip install x", "python3 -m pip install x", "npm i x", "go get x",
	"sudo pip install x", "sudo make install", "doas ninja install", "sudo cmake --install build", "make install",
	"git commit -m x", "git -C repo push origin main", "git -c a=b commit", "sudo git push", "env git commit",
	"/usr/bin/sudo -s", "$SUDO bash", "x=sudo; $x -i", "bash -c 'sudo -i'", "echo sudo -i", "ls; sudo apt-get install x",
	"xargs sudo rm", "nohup sudo bash", "timeout 5 sudo -s", "sudo -- bash", "sudo -iu postgres", "sudo --login",
	"aptK install x", "python3.1x -m pip install y", "pip3.a install x", "", "sudo", "git", "git push",
	"\u212apt install x", "Pip3 install x", "\u0130nstall x", "'' install x", "PYTHON3.12 -m pip add x", "UV pip i x",
}

// checkCommandBits holds commandBits to each command rule's own test on
// every command of script s, and returns the bits of the tests that held.
func checkCommandBits(t *testing.T, s string) (held uint8) {
	c := tool.Normalize(&risk.Action{Tool: "Bash", Arguments: map[string]any{"command": s}}, SampleCwd, SampleHome)
	cmds, err := shell.Commands(c, s)
	if err != nil {
		return 0
	}
	for i := range cmds {
		want := uint8(0)
		for _, r := range commandRules {
			if r.holds(cmds, i) {
				want |= r.bit
			}
		}
		if got, want := installs(cmds[i].Args), installsRef(cmds[i].Args); got != want {
			t.Errorf("%q, command %d %q: installs %v, its reference %v", s, i, cmds[i].Args, got, want)
		}
		if got := commandBits(cmds, i); got != want {
			t.Errorf("%q, command %d %q: commandBits %06b, the rules' tests %06b", s, i, cmds[i].Args, got, want)
		}
		held |= want
	}
	return held
}

// TestCommandBits holds commandBits to the command rules' tests on
// commandBitsTexts, the corpora's texts and the rules' samples.
func TestCommandBits(t *testing.T) {
	bits := uint8(0)
	for _, r := range commandRules {
		if r.bit == 0 || bits&r.bit != 0 {
			t.Fatalf("command rule with bit %#x: want one bit of its own", r.bit)
		}
		bits |= r.bit
	}
	texts := append(commandBitsTexts, corpusTexts(t)...)
	for _, r := range packWithSamples(t) {
		for _, s := range append(r.Match, r.NoMatch...) {
			texts = append(texts, s.Text)
		}
	}
	held := uint8(0)
	for _, s := range texts {
		held |= checkCommandBits(t, s)
	}
	if held != bits {
		t.Errorf("the texts hold the tests %06b only, of %06b", held, bits)
	}
}

// FuzzCommandBits holds commandBits to the command rules' tests on the
// commands of any script.
func FuzzCommandBits(f *testing.F) {
	for _, s := range commandBitsTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkCommandBits(t, s) })
}

// installsRef is installs as it was before its quick test of the first
// byte and isVersioned's loop: the reference they are held to.
func installsRef(args []string) bool {
	if len(args) < 2 {
		return false
	}
	w := func(i int) string { return strings.ToLower(args[i]) }
	versioned := func(name, prog string) bool {
		rest, ok := strings.CutPrefix(name, prog)
		return ok && strings.Trim(rest, "0123456789.") == ""
	}
	name := w(0)
	switch {
	case isManager(name) || versioned(name, "pip"):
		return isInstallVerb(w(1))
	case name == "uv":
		return len(args) > 2 && w(1) == "pip" && isInstallVerb(w(2))
	case versioned(name, "python"):
		return len(args) > 3 && w(1) == "-m" && w(2) == "pip" && isInstallVerb(w(3))
	}
	return false
}
