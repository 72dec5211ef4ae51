package shell

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/internal/ascii"
	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/paths"
)

// Differential tests of the fast paths of the command knowledge against
// the general paths they stand in for.

// quietEnvs are the places a command runs in for the differential tests
// of quietRead: the workspace, the home, a credential folder, /dev, the
// root, no home, no working directory, a link.
var quietEnvs = []paths.Env{
	{Home: "/home/user", Cwd: "/home/user/project"},
	{Home: "/home/user", Cwd: "/home/user"},
	{Home: "/home/user", Cwd: "/home/user/.ssh"},
	{Home: "/home/user", Cwd: "/home/user/.aws", Workspace: "/home/user/project"},
	{Home: "/home/user", Cwd: "/dev"},
	{Home: "/home/user", Cwd: "/"},
	{Home: "/home/user", Cwd: "/etc"},
	{Home: "/home/user/", Cwd: "/tmp"},
	{Home: "/root", Cwd: "/root/work"},
	{Home: "/Users/me", Cwd: "/Users/me/src/app"},
	{Cwd: "/home/user/project"},
	{Home: "/home/user"},
	{Home: "/home/user", Cwd: "/home/user/project", Links: map[string]string{"/home/user/project/keys": "/home/user/.ssh"}},
}

// quietWords are path words a command reads.
var quietWords = []string{
	"README.md", "src/main.go", "./a/b.txt", "a/b/", ".", "..", "../..", "~", "~/", "~/notes.txt", "/", "/etc/passwd",
	"/etc/shadow", "/etc/sudoers", "shadow", "../../etc/shadow", "~/.ssh/id_rsa", "~/.ssh/id_rsa.pub", ".ssh/id_rsa",
	"id_rsa", "id_ed25519", "key.pem", "server.key", "cert.p12", ".env", ".env.local", ".env.example", "config/.env",
	".netrc", "~/.netrc", ".pgpass", ".npmrc", "credentials", "credentials.json", ".aws/credentials", "~/.aws/credentials",
	"../.aws/credentials", "~/.aws/config", ".bash_history", "~/.bash_history", "~/.zsh_history", ".python_history",
	"fish_history", ".git", ".git/config", ".git/objects", "/dev/sda", "/dev/sda1", "sda", "nvme0n1", "/dev/null",
	"/dev/stdin", "/dev/tty", "/dev/shm/x", "/devices", "../dev/sda", "/x/../dev/sda", "dev/sda", "~/.kube/config",
	"~/.docker/config.json", "~/.config/gcloud/credentials.db", "~/.gnupg/private-keys-v1.d/x.key", "~/.gnupg",
	"/home/other/.ssh/id_rsa", "/root/.ssh/authorized_keys", "/proc/self/environ", "/var/run/secrets/kubernetes.io/serviceaccount/token",
	"keys/id_rsa", "keys/notes", "*.pem", "*", "~/.ssh/*", "dir/*", "a?b", "~user/x", "x//y", "a/./b", "a/../b",
	".warden/policy.yaml", "~/.config/warden/policy.yaml", "secrets.yaml", "vault.kdbx", "wallet.dat", "/etc/ssl/private/x",
	"~/.local/share/keyrings/login.keyring", "/var/lib/docker", "-", "", "x:y", "C:\\x", "ﬁle", "K", "/ROOT/.SSH/ID_RSA",
}

// slowReadFinds is what judgeEffect decides, without quietRead, for a
// read of the static, local path word p by a command running in here,
// judged in env.
func slowReadFinds(env, here paths.Env, p string) bool {
	abs := here.Abs(p)
	of := abs
	if cp := paths.Contents(p); cp != p {
		of = here.Abs(cp)
	}
	v, ok := effect.JudgeFile(effect.Read, effect.Reading(env, of), effect.Glob(p))
	return ok && v.Finds()
}

// checkQuietRead fails t when quietRead calls quiet a read the general
// path finds something in.
func checkQuietRead(t *testing.T, env paths.Env, dir, p string) bool {
	t.Helper()
	here := env
	if dir != "" {
		here.Cwd = dir
	}
	if quietRead(here, p) && slowReadFinds(env, here, p) {
		t.Errorf("quietRead(%+v, %q): quiet, but reading it finds", here, p)
		return false
	}
	return true
}

func TestQuietRead(t *testing.T) {
	if !readQuiet() {
		t.Fatal("the effect table judges a read of another target than a credential, a device or secrets: quietRead is off")
	}
	quiet := 0
	for _, env := range quietEnvs {
		for _, p := range quietWords {
			for _, dir := range []string{"", "/home/user/project/sub", "/dev/disk"} {
				checkQuietRead(t, env, dir, p)
			}
			if quietRead(env, p) {
				quiet++
			}
		}
	}
	// the fast path must serve the common case: workspace files
	for _, p := range []string{"README.md", "src/main.go", "~/notes.txt", "/etc/passwd", "id_rsa.pub"} {
		if !quietRead(quietEnvs[0], p) {
			t.Errorf("quietRead(workspace, %q) = false: the fast path does not serve it", p)
		}
	}
	if quiet == 0 {
		t.Error("quietRead never quiet")
	}
}

// TestQuietReadRows: the read row judges every command of the samples as
// it does without quietRead.
func TestQuietReadRows(t *testing.T) {
	k := DefaultKnowledge()
	var rows []*Row
	for _, r := range k.entry("cat").rows {
		if r.eff == effect.Read {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no read row for cat")
	}
	for _, env := range quietEnvs {
		for _, p := range quietWords {
			c := &Command{Args: []string{"cat", p}, Dynamic: []bool{false, false}}
			for _, r := range rows {
				f, ok := r.judgeEffect(c, []int{1}, env)
				want := false
				if p != "-" && !isRemote(p) {
					want = slowReadFinds(env, runsIn(*c, env), p)
				}
				if ok != want {
					t.Errorf("%s %+v cat %q: finds %v (%v), the general path %v", r.Rule, env, p, ok, f, want)
				}
			}
		}
	}
}

func FuzzQuietRead(f *testing.F) {
	for i, p := range quietWords {
		f.Add(uint8(i), p, "")
	}
	f.Add(uint8(4), "sda", "")
	f.Add(uint8(0), "x", "/dev")
	f.Fuzz(func(t *testing.T, e uint8, p, dir string) {
		env := quietEnvs[int(e)%len(quietEnvs)]
		if strings.IndexByte(dir, 0) >= 0 {
			return
		}
		checkQuietRead(t, env, dir, p)
	})
}

// urlRE is what webURL matches, as a pattern.
var urlRE = lazyre.New(`^(?i:https?|ftp)://`)

// patternWords are words webURL and secretPattern are tried on.
var patternWords = []string{"https://x.example/a", "HTTP://x", "Ftp://h/f", "httpſ://x", "httpſ:/x", "hTtPs://x", "https:/x", "x://y",
	"https//x", "//x", "", "h", "http", "https", "http:", "ftp:/", "ftps://x", "sftp://x", " https://x", "ｈttp://x",
	"key", "KEY", "apiKey", "AWS_SECRET", "token", "tOkEn", "passwd", "pwd", "Authorization", "credentials", "cookie", "session_id",
	"gcp", "Azure", "api", "private", ".", "..", ".*", "^.*", "^.", "^\\.*", "x.*", "error", "TODO", "k", "ke", "ſecret", "\u212aey",
	"\xff", "pa\xffss", "sessio", "tok", "awS", "priv", "privatE_", "Kelvin \u212a", "ﬁle"}

func TestWebURL(t *testing.T) {
	for _, w := range patternWords {
		if got, want := webURL(w), urlRE.MatchString(w); got != want {
			t.Errorf("webURL(%q) = %v, the pattern %v", w, got, want)
		}
	}
}

func TestSecretPattern(t *testing.T) {
	for _, w := range patternWords {
		if got, want := secretPattern(w), secretWord.MatchString(w); got != want {
			t.Errorf("secretPattern(%q) = %v, the pattern %v", w, got, want)
		}
	}
}

func FuzzWordPatterns(f *testing.F) {
	for _, w := range patternWords {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if got, want := webURL(w), urlRE.MatchString(w); got != want {
			t.Errorf("webURL(%q) = %v, the pattern %v", w, got, want)
		}
		if got, want := secretPattern(w), secretWord.MatchString(w); got != want {
			t.Errorf("secretPattern(%q) = %v, the pattern %v", w, got, want)
		}
	})
}

// sameEntry reports whether a and b say the same of a name: what entry
// returns from its recent slots and what a lookup of its own says.
func sameEntry(a, b *entry) bool {
	return a.name == b.name && slices.Equal(a.rows, b.rows) && maps.Equal(a.vflags, b.vflags) &&
		(a.sql == nil) == (b.sql == nil) && (a.sql == nil || reflect.DeepEqual(*a.sql, *b.sql)) &&
		(a.judge == nil) == (b.judge == nil) && a.interp == b.interp && a.down == b.down && a.printer == b.printer &&
		a.archiver == b.archiver && a.cli == b.cli && a.nameVerb == b.nameVerb && a.runtime == b.runtime &&
		a.store == b.store && a.sink == b.sink && a.http == b.http && a.known == b.known
}

// entryNames are names the tests of entry ask about: every name of the
// built-in knowledge, and as many others, so that names share slots.
func entryNames(k *Knowledge) []string {
	var names []string
	for n := range k.byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for i := range 2 * len(names) {
		names = append(names, fmt.Sprintf("tool%d", i))
	}
	return append(names, "", "mkfs.ext4", "python3.12", "/bin/rm", "git", "GIT")
}

// TestEntryRecent: entry, read from its recent slots, returns what a
// lookup says of each name, the names asked in any order, concurrently.
func TestEntryRecent(t *testing.T) {
	k := DefaultKnowledge()
	names := entryNames(k)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 3 {
				for i := range names {
					n := names[(i*(g+1)+round)%len(names)]
					if e := k.entry(n); !sameEntry(e, k.lookup(n)) {
						t.Errorf("entry(%q) = %+v, lookup says %+v", n, *e, *k.lookup(n))
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzEntry(f *testing.F) {
	f.Add("git", "rm", "tool1")
	f.Add("", "mkfs.ext4", "python3.12")
	k := DefaultKnowledge()
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, n := range []string{a, b, c, a, c, b} {
			if e := k.entry(n); !sameEntry(e, k.lookup(n)) {
				t.Fatalf("entry(%q) = %+v, lookup says %+v", n, *e, *k.lookup(n))
			}
		}
	})
}

// mayMatchAll is mayMatch trying every string of n at every byte that
// some string starts with: what mayMatch did before it tried only the
// strings that start with the byte.
func mayMatchAll(w string, n *wordNeeds) bool {
	if n == nil {
		return true
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return true
		}
		c = ascii.Lower(c)
		for _, s := range n.list {
			if s[0] == c && ascii.HasPrefixFold(w[i:], s) {
				return true
			}
		}
	}
	return false
}

// needWords are words mayMatch is tried on, with every row's samples.
func needWords(k *Knowledge) []string {
	words := []string{"", "x", "id_rsa", "ID_RSA", "~/.bash_history", "https://x.example", "GIT@x", "cap_sys_admin", "Kelvin",
		"roles/owner", "allUsers", "delete-stack", "/var/run/docker.sock", "--volume=/:/host", "0.0.0.0/0", "a\xffb", "é"}
	for _, r := range k.Rows {
		for m := range r.Match {
			words = append(words, strings.Fields(m)...)
		}
		for _, m := range r.NoMatch {
			words = append(words, strings.Fields(m)...)
		}
	}
	return words
}

// TestMayMatchByFirst: mayMatch, trying only the strings that start with
// each byte, says what trying them all says, for every row's pattern.
func TestMayMatchByFirst(t *testing.T) {
	k := yamlKnowledge(t)
	words := needWords(k)
	for _, r := range k.Rows {
		if r.ArgMatch == "" {
			continue
		}
		n := needsOf(r.ArgMatch)
		for _, w := range words {
			if got, want := mayMatch(w, n), mayMatchAll(w, n); got != want {
				t.Errorf("%s: mayMatch(%q) = %v, trying every string %v", r.Rule, w, got, want)
			}
		}
	}
}

func FuzzMayMatch(f *testing.F) {
	k := DefaultKnowledge()
	var needs []*wordNeeds
	for _, r := range k.Rows {
		if r.ArgMatch != "" {
			needs = append(needs, needsOf(r.ArgMatch))
		}
	}
	for _, w := range needWords(k) {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w string) {
		for _, n := range needs {
			if got, want := mayMatch(w, n), mayMatchAll(w, n); got != want {
				t.Fatalf("mayMatch(%q) with %q = %v, trying every string %v", w, n.list, got, want)
			}
		}
	})
}

// checkSplit fails t when e.split, asking the value flags only about
// the flags their mask holds, splits c otherwise than splitInto.
func checkSplit(t *testing.T, e *entry, c *Command) {
	t.Helper()
	got, want := e.split(words{}, c), splitInto(words{}, e.vflags, c)
	if !slices.Equal(got.flags, want.flags) || !slices.Equal(got.operands, want.operands) {
		t.Errorf("%s %q: split %+v, splitInto %+v", e.name, c.Args, got, want)
	}
}

// splitWords are the words of the commands the split tests build.
func splitWords(k *Knowledge) []string {
	ws := []string{"x", "-", "--", "-o", "-O", "--output", "--output=f", "-rf", "--", "a=b", "-", "--x", "-xyz", "-\xff"}
	for _, fs := range k.ValueFlags {
		ws = append(ws, fs...)
	}
	return ws
}

// TestSplitMask: every command with value flags, given words of every
// kind (each command's value flags among them), splits as splitInto
// splits it.
func TestSplitMask(t *testing.T) {
	k := DefaultKnowledge()
	ws := splitWords(k)
	rnd := rand.New(rand.NewPCG(3, 4))
	for name := range k.ValueFlags {
		e := k.entry(name)
		for range 200 {
			c := &Command{Args: []string{name}, Dynamic: []bool{false}}
			for range rnd.IntN(8) {
				c.Args, c.Dynamic = append(c.Args, ws[rnd.IntN(len(ws))]), append(c.Dynamic, rnd.IntN(8) == 0)
			}
			checkSplit(t, e, c)
		}
	}
}

func FuzzSplitMask(f *testing.F) {
	k := DefaultKnowledge()
	var names []string
	for name := range k.ValueFlags {
		names = append(names, name)
	}
	slices.Sort(names)
	f.Add(uint8(0), "-o x --output=y -rf z")
	f.Add(uint8(3), "-H h --context c -- -x")
	f.Fuzz(func(t *testing.T, n uint8, line string) {
		name := names[int(n)%len(names)]
		c := &Command{Args: append([]string{name}, strings.Fields(line)...)}
		c.Dynamic = make([]bool, len(c.Args))
		checkSplit(t, k.entry(name), c)
	})
}
