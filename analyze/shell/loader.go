package shell

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"mvdan.cc/sh/v3/syntax"
)

// The loader variables: environment variables that make the dynamic
// loader, or a language runtime, load code of the caller's choosing into
// every program the command starts.
const (
	loaderLib  = iota + 1 // a library loaded first: LD_PRELOAD
	loaderPath            // directories searched for libraries first: LD_LIBRARY_PATH
	loaderOpts            // runtime options that may load a module: NODE_OPTIONS=--require
)

// loaderVar returns the kind of loader variable k is (0: none).
func loaderVar(k string) uint8 {
	switch k {
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES":
		return loaderLib
	case "LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "DYLD_FALLBACK_LIBRARY_PATH":
		return loaderPath
	case "NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "PERL5OPT", "RUBYOPT":
		return loaderOpts
	}
	return 0
}

// ruleLoader is the rule of the loader findings.
const ruleLoader = "priv.library_injection"

// loaderFinding judges the loader variable name set to value (dyn: computed
// at run time) for a command, elevated when it runs with elevated
// privileges. A library to preload is medium, high from a scratch,
// unknown or foreign place or under elevation; library directories only
// count from such places or under elevation; runtime options only when
// they load a module (--require, -javaagent, -M …), by the same measure.
// PYTHONPATH and the like are left alone: a project's own import path is
// the common case, and what it imports is the project's code.
func loaderFinding(name, value string, dyn, elevated bool, env paths.Env) (risk.Finding, bool) {
	kind := loaderVar(name)
	if kind == 0 {
		return risk.Finding{}, false
	}
	var targets []string
	switch kind {
	case loaderLib, loaderPath:
		targets = strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ' ' })
	case loaderOpts:
		targets = loadedModules(value)
		if len(targets) == 0 && !dyn {
			return risk.Finding{}, false
		}
	}
	untrusted := dyn
	for _, t := range targets {
		if strings.ContainsAny(t, "$`") || untrustedPlace(t, env) {
			untrusted = true
		}
	}
	level := risk.Medium
	switch {
	case elevated || untrusted:
		level = risk.High
	case kind == loaderPath:
		return risk.Finding{}, false // the project's or the system's own libraries
	}
	what := map[uint8]string{loaderLib: "loads " + cut(value, 80) + " into", loaderPath: "makes the libraries of " + cut(value, 80) + " load first in",
		loaderOpts: "makes " + cut(strings.Join(targets, ", "), 80) + " load into"}[kind]
	reason := name + " " + what + " every program the command starts"
	if elevated {
		reason += ", with elevated privileges"
	}
	return risk.Finding{Analyzer: "shell", Rule: ruleLoader, Level: level, Reversible: true, Reason: reason}, true
}

// untrustedPlace reports a library or module path outside the project and
// the system: in scratch space, elsewhere in home, or relative to nothing
// known.
func untrustedPlace(p string, env paths.Env) bool {
	if !strings.Contains(p, "/") && !strings.HasSuffix(p, ".so") && !strings.Contains(p, ".so.") && !strings.HasSuffix(p, ".dylib") &&
		!strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".mjs") && !strings.HasSuffix(p, ".cjs") && !strings.HasSuffix(p, ".jar") {
		return false // a package name (--require ts-node/register is a path, dotenv/config too: see below)
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, ".") {
		return false // a name the loader searches for, or a package's module
	}
	switch env.Classify(p) {
	case paths.Workspace, paths.WorkspaceRoot, paths.System:
		return false
	}
	return true
}

// loadedModules returns the modules runtime options load: node's --require,
// -r, --import, --loader, --experimental-loader; java's -javaagent: and
// -agentpath:; perl's -M and ruby's -r.
func loadedModules(opts string) []string {
	f := strings.Fields(opts)
	var out []string
	for i := 0; i < len(f); i++ {
		a := f[i]
		for _, p := range []string{"--require=", "--import=", "--loader=", "--experimental-loader=", "-javaagent:", "-agentpath:", "-agentlib:"} {
			if v, ok := strings.CutPrefix(a, p); ok {
				if j := strings.IndexByte(v, '='); j > 0 && strings.HasPrefix(p, "-a") {
					v = v[:j]
				}
				out = append(out, v)
			}
		}
		switch {
		case a == "--require" || a == "-r" || a == "--import" || a == "--loader" || a == "--experimental-loader":
			if i+1 < len(f) {
				out = append(out, f[i+1])
				i++
			}
		case strings.HasPrefix(a, "-M") && len(a) > 2, strings.HasPrefix(a, "-r") && len(a) > 2 && !strings.HasPrefix(a, "-r="):
			out = append(out, a[2:])
		}
	}
	return out
}

// loaderAssigns adds to out the findings of the loader variables that the
// assignments in front of a command set for it (LD_PRELOAD=x.so cmd).
func (r *resolver) loaderAssigns(out []risk.Finding, assigns []*syntax.Assign) []risk.Finding {
	for _, as := range assigns {
		if as == nil || as.Name == nil || loaderVar(as.Name.Value) == 0 {
			continue
		}
		var value string
		dyn := true
		if as.Value != nil {
			if v, ok := r.word(as.Value); ok && len(v) == 1 {
				value, dyn = v[0], false
			}
		}
		if f, ok := loaderFinding(as.Name.Value, value, dyn, r.elevated(), r.pathEnv()); ok {
			out = append(out, f)
		}
	}
	return out
}

// elevated reports whether the commands being emitted run through an
// elevator (sudo, doas …).
func (r *resolver) elevated() bool {
	for _, v := range r.via {
		if Elevator(path.Base(v)) {
			return true
		}
	}
	return false
}

// pathEnv is where the paths of the command being emitted resolve.
func (r *resolver) pathEnv() paths.Env {
	cwd := r.vars["PWD"]
	if r.dir != "" && !r.dirDyn {
		cwd = r.dir
	}
	return paths.Env{Cwd: cwd, Home: r.vars["HOME"]}
}

// Elevator reports whether a program (a base name) runs its command with
// elevated privileges or as another user.
func Elevator(name string) bool {
	switch name {
	case "sudo", "sudo-rs", "doas", "pkexec", "run0", "su", "runuser":
		return true
	}
	return false
}

// wrapperLoaders judges the NAME=value words a wrapper that takes them
// (env, sudo) gives the command it runs: env LD_PRELOAD=x.so cmd, sudo
// LD_PRELOAD=x.so cmd.
func wrapperLoaders(out []risk.Finding, c Command, name string, env paths.Env) []risk.Finding {
	rows := wrappersOf(name)
	if len(rows) == 0 || !rows[0].Assigns {
		return out
	}
	w := rows[0]
	elevated := Elevator(name)
	for _, v := range c.Via {
		elevated = elevated || Elevator(path.Base(v))
	}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			break
		}
		if isOpt(a) && !c.Dynamic[i] {
			if n := w.takes(a); n > 0 {
				i += n
			}
			continue
		}
		k, v, ok := strings.Cut(a, "=")
		if !ok || !validName(k) {
			break // the command
		}
		if f, ok := loaderFinding(k, v, c.Dynamic[i], elevated, runsIn(c, env)); ok {
			out = append(out, f)
		}
		if f, ok := registryFinding(k, v, c.Dynamic[i], "the command it runs"); ok {
			out = append(out, f)
		}
	}
	return out
}
