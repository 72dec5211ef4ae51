package shell

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Serving files. A static file server started on a folder hands every
// file below it to whoever can reach its port: python3 -m http.server
// --directory ~ --bind 0.0.0.0 serves ~/.ssh and ~/.aws to the network.
// A folder that holds credentials (the home, /, /etc: see
// paths.HoldsCredentials) served beyond this machine is high
// (net.expose_files); the same bound to the loopback medium; a project
// folder is the development server it looks like, and gets nothing.

// RuleExposeFiles is the rule of a file server started on a folder that
// holds credentials.
const RuleExposeFiles = "net.expose_files"

// fileServer returns the folder a static file server command c serves
// (its working directory when it names none: ".") and whether it binds
// beyond the loopback; ok is false for a command that is no such server.
func fileServer(c *Command, name string) (dir string, public, ok bool) {
	args := c.Args
	dir, public = ".", true
	bind := func(v string) {
		v = strings.Trim(v, "[]")
		if host, _, found := strings.Cut(v, ":"); found && host != "" && !strings.Contains(v, "::") {
			v = host
		}
		public = !(v == "localhost" || strings.HasPrefix(v, "127.") || v == "::1")
	}
	switch {
	case interpreterName(name) == "python" || interpreterName(name) == "python3":
		// python3 -m http.server [PORT] [--bind ADDR] [--directory DIR]
		i := 1
		for i < len(args) && args[i] != "-m" {
			if !strings.HasPrefix(args[i], "-") {
				return "", false, false
			}
			i++
		}
		if i+1 >= len(args) || (args[i+1] != "http.server" && args[i+1] != "SimpleHTTPServer") {
			return "", false, false
		}
		for j := i + 2; j < len(args); j++ {
			switch a := args[j]; {
			case c.Dynamic[j]:
			case a == "-b" || a == "--bind":
				if j+1 < len(args) {
					bind(args[j+1])
					j++
				}
			case a == "-d" || a == "--directory":
				if j+1 < len(args) {
					dir = args[j+1]
					j++
				}
			case strings.HasPrefix(a, "--bind="):
				bind(a[len("--bind="):])
			case strings.HasPrefix(a, "--directory="):
				dir = a[len("--directory="):]
			}
		}
		return dir, public, true
	case strings.HasPrefix(name, "php"):
		// php -S ADDR:PORT [-t DIR]
		served := false
		for j := 1; j < len(args); j++ {
			switch a := args[j]; {
			case c.Dynamic[j]:
			case a == "-S" && j+1 < len(args):
				served = true
				bind(args[j+1])
				j++
			case a == "-t" && j+1 < len(args):
				dir = args[j+1]
				j++
			}
		}
		return dir, public, served
	case name == "http-server" || name == "serve" || name == "live-server":
		// npx serve DIR, http-server DIR -a ADDR
		for j := 1; j < len(args); j++ {
			switch a := args[j]; {
			case c.Dynamic[j]:
			case a == "-a" || a == "--address" || a == "--host" || a == "-l" || a == "--listen":
				if j+1 < len(args) {
					bind(args[j+1])
					j++
				}
			case a == "-p" || a == "--port":
				j++
			case !strings.HasPrefix(a, "-"):
				dir = a
			}
		}
		return dir, public, true
	}
	return "", false, false
}

// exposeFiles adds the finding on command c when it serves a folder that
// holds credentials (see above).
func exposeFiles(out []risk.Finding, c *Command, name string, env Env) []risk.Finding {
	dir, public, ok := fileServer(c, name)
	if !ok {
		return out
	}
	here := runsIn(*c, env)
	p := here.Abs(dir)
	if !here.HoldsCredentials(p) && !here.IsCredential(p) {
		return out
	}
	l, where := risk.High, "to whoever can reach its port"
	if !public {
		l, where = risk.Medium, "to every program and user of this machine"
	}
	return append(out, mayRun(risk.Finding{Analyzer: "shell", Rule: RuleExposeFiles, Level: l, Resource: "file:" + p, Reversible: true,
		Reason: cut(name, 40) + " serves " + p + ", which holds credentials (SSH and cloud keys, tokens), " + where}, c))
}
