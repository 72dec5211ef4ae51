package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// maxLevel is the highest level among findings (safe when none).
func maxLevel(fs []risk.Finding) risk.Level {
	l := risk.Safe
	for _, f := range fs {
		if f.Level != risk.Unknown && f.Level > l {
			l = f.Level
		}
	}
	return l
}

// TestLiteralPayloads holds the decoding of encoded literals fed to an
// interpreter: what they decode to is judged as the program it is (and
// hiding a program is high by itself); what cannot be decoded stays
// high; decoding that runs nothing is no finding.
func TestLiteralPayloads(t *testing.T) {
	for script, want := range map[string]risk.Level{
		// rm -rf ~, encoded every way
		`echo cm0gLXJmIH4= | base64 -d | sh`:                                      risk.Critical,
		`echo -n cm0gLXJmIH4 | base64 --decode | bash`:                            risk.Critical,
		`base64 -d <<< cm0gLXJmIH4= | bash -s`:                                    risk.Critical,
		`bash -c "$(echo cm0gLXJmIH4= | base64 --decode)"`:                        risk.Critical,
		"sh -c \"`echo cm0gLXJmIH4= | base64 -d`\"":                               risk.Critical,
		`eval "$(echo cm0gLXJmIH4= | base64 -d)"`:                                 risk.Critical,
		`echo OJWSALLSMYQH4=== | base32 -d | sh`:                                  risk.Critical,
		`xxd -r -p <<< 726d202d7266207e | sh`:                                     risk.Critical,
		`echo 726d202d7266207e | xxd -r -p | bash`:                                risk.Critical,
		`openssl base64 -d <<< cm0gLXJmIH4= | sh`:                                 risk.Critical,
		`printf '\x72\x6d\x20\x2d\x72\x66\x20\x7e' | sh`:                          risk.Critical,
		`printf '\162\155 -rf ~' | bash`:                                          risk.Critical,
		`echo -e '\x72m -rf ~' | sh`:                                              risk.Critical,
		`printf '%s %s %s\n' rm -rf / | sh`:                                       risk.Critical,
		`rev <<< '~ fr- mr' | sh`:                                                 risk.Critical,
		`echo '~ fr- mr' | rev | bash`:                                            risk.Critical,
		`echo 'ez -es ~' | tr 'a-z' 'n-za-m' | sh`:                                risk.Critical,
		`echo H4sIAAAAAAACAyvKVdAtSlOo4wIAFYVG8wkAAAA= | base64 -d | gunzip | sh`: risk.Critical,
		// a payload inside a payload
		`echo ZWNobyBjbTBnTFhKbUlINCB8IGJhc2U2NCAtZCB8IHNo | base64 -d | sh`: risk.Critical,
		// harmless, but hidden from review: high by itself
		`echo ZWNobyBoaQ== | base64 -d | sh`: risk.High,
		// cannot be decoded statically: not seen, never safe
		`echo '%%%notbase64' | base64 -d | sh`: risk.High,
		`cat payload.b64 | base64 -d | bash`:   risk.High,
		`echo $P | base64 -d | sh`:             risk.High,
	} {
		if got := maxLevel(analyzeScript(t, script)); got != want {
			t.Errorf("%q: %s, want %s; findings:%s", script, got, want, describe(analyzeScript(t, script)))
		}
	}
	for _, script := range []string{
		`base64 -d <<< 'SGVsbG8sIHdvcmxkIQ=='`,
		`echo hello | base64`,
		`base64 image.png > out.txt`,
		`echo cm0gLXJmIH4= | base64 -d`,
		`xxd bin/server | head`,
		`echo 'olleh' | rev`,
		`printf '%s\n' a b c | sort`,
		`echo -e 'a\tb' | column -t`,
	} {
		// at most what writing a workspace file is (medium), and nothing
		// about decoding
		fs := analyzeScript(t, script)
		if _, ok := levelOf(fs, "rce.decode_to_shell"); ok || maxLevel(fs) > risk.Medium {
			t.Errorf("%q: %s; findings:%s", script, maxLevel(fs), describe(fs))
		}
	}
}

func TestPrintfText(t *testing.T) {
	for _, c := range []struct {
		format, want string
		args         []string
	}{
		{`\x72\x6d`, "rm", nil},
		{`\162\155`, "rm", nil},
		{`%s-%s\n`, "a-b\nc-\n", []string{"a", "b", "c"}},
		{`%b`, "x\ny", []string{`x\ny`}},
		{`100%%`, "100%", nil},
		{`%5d|`, "7|", []string{"7"}},
	} {
		if got := printfText(c.format, c.args); got != c.want {
			t.Errorf("printf %q %q = %q, want %q", c.format, c.args, got, c.want)
		}
	}
	if got := echoEscapes(`\0162m\x20x\\`); got != `rm x\` {
		t.Errorf("echoEscapes = %q", got)
	}
}

func FuzzLiteralDecode(f *testing.F) {
	for _, s := range []string{`\x72\x6d`, `%s%b%c%%`, `\0`, `\x`, `\1234`, "cm0gLXJmIH4=", "726d", "a-z"} {
		f.Add(s, "arg")
	}
	f.Fuzz(func(t *testing.T, s, arg string) {
		if out := printfText(s, []string{arg, arg}); len(out) > maxDecoded+len(s)+2*len(arg)+8 {
			t.Fatalf("printf %q grew to %d", s, len(out))
		}
		_ = echoEscapes(s)
		for _, name := range []string{"base64", "base32", "xxd", "rev", "gunzip"} {
			c := Command{Args: []string{name, "-d"}, Dynamic: []bool{false, false}}
			if out, ok := decodeWith(name, c, s, true); ok && len(out) > maxDecoded+len(s) {
				t.Fatalf("%s grew %q to %d", name, s, len(out))
			}
		}
		_, _ = translate(s, arg, s)
	})
}
