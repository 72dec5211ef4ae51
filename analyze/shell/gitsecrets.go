package shell

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Secrets committed. A secret staged with git add and committed stays in
// the repository's history even after the file is deleted, and a push
// sends it to every clone of the remote: git add .env && git commit -m x
// && git push, sops -d prod.enc.yaml > config/prod.yaml && git add . &&
// git push. The files staged are secrets by their path (a credential
// file, a private key, .env) or by what the script wrote into them (the
// output of a secret store, a credential copied in). A push after the
// commit sends them (critical: secrets leaving the machine, locked);
// a commit alone keeps them in history (high).

// maxStaged bounds the sensitive files tracked in one script.
const maxStaged = 16

// gitSecrets finds secrets cmds stage, commit and push (see above).
func (k *Knowledge) gitSecrets(out []risk.Finding, cmds []Command, env Env) []risk.Finding {
	type file struct{ path, what string }
	var written, staged []file
	committed := false
	var room gitRoom
	for i := range cmds {
		c := &cmds[i]
		if len(c.Args) == 0 || c.Dynamic[0] {
			continue
		}
		here := runsIn(*c, env)
		name := commandName(c.Args[0])
		// files the script fills with sensitive data
		if len(written) < maxStaged {
			for _, rd := range c.Redirs {
				if rd.Writes() && !rd.Dynamic && !rd.FD() {
					if w := k.sensitiveInput(cmds, i, env); w != "" {
						written = append(written, file{here.Abs(rd.Target), w})
					}
				}
			}
			if name == "cp" || name == "install" {
				if p, w, ok := copiedSecret(c, here); ok {
					written = append(written, file{p, w})
				}
			}
		}
		if name != "git" {
			continue
		}
		g, ok := readGit(*c, &room)
		if !ok {
			continue
		}
		switch g.sub {
		case "add", "stage":
			all := g.has("-A", "--all") || len(g.ops)+len(g.paths) == 0 && g.has("-u", "--update")
			specs := append(append([]string(nil), g.ops...), g.paths...)
			for n, s := range specs {
				if n < len(g.opsDyn) && g.opsDyn[n] {
					continue
				}
				p := here.Abs(s)
				if w := stagedSecret(p, here); w != "" && len(staged) < maxStaged {
					staged = append(staged, file{p, w})
				}
				for _, f := range written {
					if (f.path == p || paths.Within(f.path, p)) && len(staged) < maxStaged {
						staged = append(staged, f)
					}
				}
			}
			if all {
				staged = append(staged, written...)
			}
		case "commit":
			if len(staged) > 0 || g.has("-a", "--all") && len(written) > 0 {
				if g.has("-a", "--all") {
					staged = append(staged, written...)
				}
				committed = true
			}
		case "push":
			if committed && len(staged) > 0 {
				f := staged[0]
				return append(out, risk.Finding{Analyzer: "shell", Rule: ruleFor(f.what), Level: risk.Critical, Locked: true,
					Reason: "git push sends " + cut(f.path, 80) + " (" + f.what + "), committed by this script, to the repository's remote: a secret in a repository's history stays there for every clone"})
			}
		}
	}
	if committed && len(staged) > 0 {
		f := staged[0]
		out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleFor(f.what), Level: risk.High,
			Reason: "git commit puts " + cut(f.path, 80) + " (" + f.what + ") into the repository's history, where it stays after the file is deleted; a push sends it to every clone"})
	}
	return out
}

// gitCommits reports whether git command c may be git commit: a word of
// it, seen, is commit (readGit takes its subcommand from such a word).
// gitSecrets finds nothing in a script of no such command: it reports
// only what a commit put in the history.
func gitCommits(c *Command) bool {
	for j := 1; j < len(c.Args); j++ {
		if c.Args[j] == "commit" && !c.Dynamic[j] {
			return true
		}
	}
	return false
}

// stagedSecret names the secrets the file p holds by its path: a
// credential file or a file named as a secret (.env, a private key), not
// secrets.yaml and the like, which tools such as sops keep encrypted in
// repositories.
func stagedSecret(p string, env Env) string {
	switch {
	case env.IsCredential(p):
		return srcCredentials
	case paths.SecretName(p) && !strings.HasPrefix(path.Base(p), "secrets.") && !fixturePath(p):
		return srcSecrets
	}
	return ""
}

// fixturePath reports a path in a test suite's folders (testdata,
// fixtures, test, tests, __tests__, spec, examples): keys and
// certificates there are made up for the tests.
func fixturePath(p string) bool {
	for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
		switch path.Base(d) {
		case "testdata", "test", "tests", "__tests__", "fixtures", "fixture", "spec", "examples", "example", "__fixtures__", "mocks":
			return true
		}
	}
	return false
}

// copiedSecret returns where cp (or install) c puts a credential file it
// copies, and what it holds.
func copiedSecret(c *Command, env Env) (string, string, bool) {
	var ops []string
	for j := 1; j < len(c.Args); j++ {
		if c.Dynamic[j] {
			return "", "", false
		}
		if a := c.Args[j]; !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return "", "", false
	}
	dst := env.Abs(ops[len(ops)-1])
	for _, s := range ops[:len(ops)-1] {
		src := env.Abs(s)
		w := pathSource(src, env)
		if w != srcCredentials && w != srcSecrets {
			continue
		}
		last := ops[len(ops)-1]
		if strings.HasSuffix(last, "/") || last == "." || last == ".." || len(ops) > 2 {
			return path.Join(dst, path.Base(src)), w, true
		}
		return dst, w, true
	}
	return "", "", false
}
