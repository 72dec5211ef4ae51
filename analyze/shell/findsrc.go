package shell

import (
	"path"
	"slices"
	"strings"
)

// Files chosen by find, read by another command, are a source of the
// data flow (see exfilFlow) as the files themselves would be: find lists
// names, but find … -exec cat {} +, find … | xargs cat and
// find … -print0 | tar -czf - --null -T - read what its tests describe.
// A name test that describes credentials (-name 'id_*', '*.pem', .env,
// credentials, '*.kdbx') makes them credentials wherever find starts;
// without a name test, the start points decide (find ~/.ssh -type f,
// find ~ -type f: a home read whole).

// sourceAt names the sensitive data command j of cmds reads: what
// sourceOf finds, or the files a find feeding it chooses (see findFed).
func (k *Knowledge) sourceAt(cmds []Command, j int, env Env) string {
	if w := findFed(cmds, j, env); w != "" || feedingFind(cmds, j) >= 0 && slices.ContainsFunc(cmds[j].Args, braces) {
		return w // find's tests say what {} is
	}
	return k.sourceOf(cmds[j], env)
}

// braces reports a word that holds find's {}.
func braces(a string) bool { return strings.Contains(a, "{}") }

// findFed names the sensitive data of the files a find chooses that
// command j reads (a reader of file contents run by find's -exec, fed
// the names by xargs, or reading a list of files on its stdin), or "".
func findFed(cmds []Command, j int, env Env) string {
	c := cmds[j]
	if len(c.Args) == 0 || c.Dynamic[0] || !contentReaders[commandName(c.Args[0])] && !archivers[commandName(c.Args[0])] {
		return ""
	}
	if f := feedingFind(cmds, j); f >= 0 {
		return findReads(cmds[f], env)
	}
	return ""
}

// contentReaders print (or encode) what the files they are given hold.
var contentReaders = map[string]bool{"cat": true, "head": true, "tail": true, "tac": true, "nl": true, "base64": true, "basenc": true,
	"base32": true, "xxd": true, "od": true, "hexdump": true, "strings": true, "cpio": true, "zcat": true, "more": true, "less": true,
	"sed": true, "awk": true, "gawk": true, "openssl": true, "paste": true, "pr": true, "fold": true, "dd": true}

// feedingFind returns the find that chooses the files command j works
// on: the find whose -exec runs it ({} in its words, or a start point
// when find's tests choose nothing), the find whose
// listing xargs turns into its operands, or a find feeding a command
// that reads a list of files on its stdin (tar -T -, cpio -o, zip -@,
// rsync --files-from=-); -1 when none does.
func feedingFind(cmds []Command, j int) int {
	c := cmds[j]
	if n := len(c.Via); n > 0 && c.Via[n-1] == "find" {
		for f := j - 1; f >= 0; f-- {
			if g := cmds[f]; len(g.Args) > 0 && !g.Dynamic[0] && commandName(g.Args[0]) == "find" && g.Depth < c.Depth {
				return f
			}
		}
		return -1
	}
	if !slices.Contains(c.Via, "xargs") && !readsList(c) {
		return -1
	}
	for _, f := range c.Inputs {
		if g := cmds[f]; len(g.Args) > 0 && !g.Dynamic[0] && commandName(g.Args[0]) == "find" {
			return f
		}
	}
	return -1
}

// readsList reports a command that reads the names of the files it
// works on from its stdin: tar -T - / --files-from=-, cpio -o, zip -@.
func readsList(c Command) bool {
	if len(c.Args) == 0 || c.Dynamic[0] {
		return false
	}
	switch commandName(c.Args[0]) {
	case "cpio":
		return true
	case "zip":
		return slices.Contains(c.Args, "-@")
	case "tar", "bsdtar", "rsync":
		for n, a := range c.Args {
			switch {
			case (a == "-T" || a == "--files-from") && n+1 < len(c.Args) && (c.Args[n+1] == "-" || c.Args[n+1] == "/dev/stdin"):
				return true
			case a == "--files-from=-" || a == "--files-from=/dev/stdin" || a == "-T-":
				return true
			}
		}
	}
	return false
}

// findReads names the sensitive data the files find f chooses hold:
// credentials when one of its name tests (not negated) describes
// credentials (see globKind); when none names a kind of file, what its
// start points hold (a credential place, a folder that holds
// credentials); "" else.
func findReads(f Command, env Env) string {
	here := runsIn(f, env)
	named := false
	var starts []string
	opts := false // past the start points
	neg := false
	for n := 1; n < len(f.Args); n++ {
		a := f.Args[n]
		if f.Dynamic[n] {
			neg = false
			continue
		}
		switch a {
		case "!", "-not":
			neg = true
			continue
		case "-exec", "-execdir", "-ok", "-okdir":
			for n+1 < len(f.Args) && f.Args[n+1] != ";" && f.Args[n+1] != "+" {
				n++
			}
			n++
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			if n+1 < len(f.Args) && !neg {
				switch globKind(f.Args[n+1], a[1] == 'i') {
				case globCredentials:
					return srcCredentials
				case globOther:
					named = true // a few files of a kind named: not the place's credentials
				}
			}
			n++
		default:
			if !opts && !strings.HasPrefix(a, "-") && a != "(" {
				starts = append(starts, a)
			}
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			opts = true
		}
		neg = false
	}
	if named || f.DirDynamic {
		return ""
	}
	if len(starts) == 0 {
		starts = append(starts, ".")
	}
	for _, s := range starts {
		p := here.Abs(s)
		if w := pathSource(p, here); w != "" {
			return w
		}
		if w := folderSource(p, here); w != "" {
			return w
		}
	}
	return ""
}

// credNames are names of files of credentials, and plainNames of files
// that hold none: a name pattern describes credentials when it matches
// one of the first and none of the second ('id_*', '*.pem', '.env',
// '*.kdbx'; not '*', '*.json', '.*').
var (
	credNames = [...]string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "server.key", "tls.key", "private.key", "privkey.pem", "key.pem",
		".env", ".env.production", "credentials", "credentials.json", "secrets.yaml", "secrets.json", ".netrc", ".pgpass",
		".git-credentials", ".npmrc", ".pypirc", "passwords.kdbx", "keystore.jks", "cert.p12", "cert.pfx", "key.ppk", "wallet.dat",
		"service-account-key.json", ".htpasswd", "secring.gpg", "vault-token", ".vault-token"}
	plainNames = [...]string{"main.go", "index.js", "readme.md", "notes.txt", "config.yaml", "package.json", "data.csv", "image.png",
		"app.log", "makefile", ".gitignore", ".bashrc", "settings.py", "build.sh", "report.pdf"}
)

// The kinds of files a find name pattern describes (see globKind).
const (
	globAny         = iota // files of any kind (*, *.json): the place they lie in decides
	globCredentials        // files of credentials
	globOther              // files of some other kind (*.pub, config)
)

// globKind reads what a find name pattern (lower-cased first when fold;
// for a -path pattern, its last element) describes: credentials when it
// matches one of credNames and none of plainNames, any file when it
// matches many of plainNames (*, *.*), another kind else (*.go, *.pub).
func globKind(pat string, fold bool) int {
	if i := strings.LastIndexByte(pat, '/'); i >= 0 {
		pat = pat[i+1:]
	}
	if pat == "" || len(pat) > 64 {
		return globAny
	}
	if fold {
		pat = strings.ToLower(pat)
	}
	plain := 0
	for _, n := range plainNames {
		if ok, _ := path.Match(pat, n); ok {
			plain++
		}
	}
	switch {
	case plain > 4:
		return globAny
	case plain > 0:
		return globOther
	}
	for _, n := range credNames {
		if ok, _ := path.Match(pat, n); ok {
			return globCredentials
		}
	}
	return globOther
}

// sendsFound reports a sink that sends a file named {} (a file sent as it
// is, or a word that is the file: -T {}, -d @{}, -F f=@{}): the files a
// find chooses, when a find feeds it.
func sendsFound(c Command, s sink) bool {
	for _, p := range s.files {
		if strings.Contains(p, "{}") {
			return true
		}
	}
	for _, j := range s.data {
		if a := strings.Trim(c.Args[j], `"'`); a == "{}" || strings.Contains(a, "@{}") || strings.Contains(a, "<{}") {
			return true
		}
	}
	return false
}
