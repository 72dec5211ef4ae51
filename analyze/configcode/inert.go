package configcode

import (
	"strings"
)

// Inert settings of a shell start-up file.
//
// Appending to ~/.bashrc is persistence: what it holds runs in every new
// shell. Most of what people append runs nothing of its own, though: a
// comment, an editor or a locale, an alias for ls -la, a tool-chain
// directory at the end of PATH, the shell integration a tool's install
// guide prints. InertShell reports text made only of such lines, so that
// writing it is judged as an ordinary change of the user's configuration
// (medium) rather than as code planted to run (high). Anything else keeps
// the write high: a variable that makes programs load or run code or
// weakens a defense (LD_PRELOAD, BASH_ENV, PROMPT_COMMAND, HISTFILE, a
// proxy, a CA bundle …), a PATH that puts a temporary or workspace
// directory first, command substitutions, redirections, network fetches,
// functions, traps, an alias of a command people use for privileged or
// security work (sudo, su, ssh, git, cd, gpg, docker, kubectl, the clouds'
// CLIs …), or an alias whose value runs a shell, an interpreter, a fetch
// or a removal.
//
// Aliases: the name must not be a command typed for privileged or
// security work (privilegedNames: sudo, su, ssh, git, cd, gpg, docker,
// kubectl, the clouds' CLIs …), whose alias sees and changes what is typed
// for it; ls, grep and the like are not among them (typed for everyday
// work: alias ls='ls --color=auto' is the idiom), but their value is
// judged as every alias's is: a plain command that runs no shell,
// interpreter, fetch, removal or privilege (riskyAliasValues), with no
// path to a program and no expansion.

// maxInert bounds the text read: a start-up snippet is a few lines.
const maxInert = 4 << 10

// InertShell reports whether text, appended to or written into a shell
// start-up file, is made only of inert settings (see above). Empty text
// is not inert (nothing to judge).
func InertShell(text string) bool {
	if len(text) > maxInert || strings.TrimSpace(text) == "" {
		return false
	}
	if strings.ContainsAny(text, "`\\") || strings.Contains(text, "$(") && !strings.Contains(text, "eval") {
		return false
	}
	for line := range strings.SplitSeq(text, "\n") {
		if !inertLine(strings.TrimSpace(line)) {
			return false
		}
	}
	return true
}

func inertLine(l string) bool {
	switch {
	case l == "" || strings.HasPrefix(l, "#"):
		return true
	case strings.ContainsAny(l, ";|&<>"):
		return false
	}
	if integration(l) {
		return true
	}
	if strings.Contains(l, "$(") {
		return false
	}
	w := strings.Fields(l)
	switch w[0] {
	case "export":
		return len(w) >= 2 && inertAssign(strings.TrimSpace(l[len("export"):]))
	case "alias":
		return inertAlias(strings.TrimSpace(strings.TrimPrefix(l, "alias")))
	case "source", ".":
		// the environment file rustup's installer writes
		return len(w) == 2 && cargoEnv[strings.Trim(w[1], `"'`)]
	case "set":
		// fish: set -gx NAME value
		if len(w) == 4 && (w[1] == "-gx" || w[1] == "-x" || w[1] == "-Ux") {
			return inertAssign(w[2] + "=" + w[3])
		}
		return len(w) == 3 && w[1] == "-o" && (w[2] == "vi" || w[2] == "emacs")
	case "bindkey":
		return len(w) == 2 && (w[1] == "-v" || w[1] == "-e")
	}
	if len(w) == 1 && strings.Contains(w[0], "=") {
		return inertAssign(w[0])
	}
	return false
}

// cargoEnv are the spellings of rustup's environment file.
var cargoEnv = map[string]bool{"~/.cargo/env": true, "$HOME/.cargo/env": true, "${HOME}/.cargo/env": true}

// integrations are tools whose shell integration is eval "$(tool init
// SHELL)" (or hook, activate, env, shellenv), as their install guides say.
var integrations = map[string]bool{"starship": true, "zoxide": true, "pyenv": true, "rbenv": true, "nodenv": true, "goenv": true,
	"jenv": true, "plenv": true, "direnv": true, "fnm": true, "mise": true, "rtx": true, "atuin": true, "mcfly": true,
	"oh-my-posh": true, "brew": true, "/opt/homebrew/bin/brew": true, "/home/linuxbrew/.linuxbrew/bin/brew": true,
	"/usr/local/bin/brew": true, "conda": true, "navi": true, "thefuck": true, "pyenv-virtualenv": true, "nodenv-init": true,
	"register-python-argcomplete": true, "kubectl": true, "helm": true, "gh": true}

// integration reports eval "$(TOOL VERB [ARGS])" of a known tool and a
// shell-integration verb.
func integration(l string) bool {
	rest, ok := strings.CutPrefix(l, "eval ")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 5 || rest[0] != '"' || !strings.HasSuffix(rest, ")\"") || !strings.HasPrefix(rest, "\"$(") {
		return false
	}
	inner := rest[3 : len(rest)-2]
	if strings.ContainsAny(inner, "$\"'()") {
		return false
	}
	w := strings.Fields(inner)
	if len(w) < 2 || !integrations[w[0]] {
		return false
	}
	switch w[1] {
	case "init", "hook", "activate", "env", "shellenv", "completion", "virtualenv-init", "shell.bash", "shell.zsh", "--alias", "widget":
	default:
		return false
	}
	for _, a := range w[2:] {
		if len(a) > 16 {
			return false
		}
	}
	return true
}

// riskyVars are variables that make programs load or run code, change
// what a shell runs or records, send traffic elsewhere or trust other
// certificates; riskyVarParts are words of such names.
var riskyVars = map[string]bool{"BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS0": true, "IFS": true, "SHELLOPTS": true,
	"BASHOPTS": true, "CDPATH": true, "ZDOTDIR": true, "HOME": true, "SHELL": true, "XDG_CONFIG_HOME": true, "PYTHONSTARTUP": true,
	"PYTHONPATH": true, "PYTHONHOME": true, "PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true,
	"NODE_PATH": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "LESSOPEN": true,
	"LESSCLOSE": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true,
	"GIT_CONFIG_GLOBAL": true, "GIT_CONFIG": true, "DOCKER_HOST": true, "TMOUT": true, "SUDO_ASKPASS": true, "BROWSER": true,
	"MANPAGER": true, "GIT_PAGER": true, "GIT_EDITOR": true, "SUDO_EDITOR": true, "TERMINAL": true}

var riskyVarParts = []string{"LD_", "DYLD_", "HIST", "PROXY", "SSL", "TLS", "CERT", "CA_BUNDLE", "CAINFO", "VERIFY", "ASKPASS",
	"GIT_SSH", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "_KEY", "CREDENTIAL", "AUTH"}

// toolchainDirs may come first in PATH: the directories tool chains
// install their programs into under the home, and the system's own.
var toolchainDirs = map[string]bool{"/.local/bin": true, "/bin": true, "/go/bin": true, "/.cargo/bin": true, "/.npm-global/bin": true,
	"/.yarn/bin": true, "/.deno/bin": true, "/.bun/bin": true, "/.pyenv/bin": true, "/.pyenv/shims": true, "/.rbenv/bin": true,
	"/.rbenv/shims": true, "/.poetry/bin": true, "/.dotnet/tools": true, "/.krew/bin": true, "/.fly/bin": true, "/.volta/bin": true,
	"/.local/share/pnpm": true, "/.foundry/bin": true, "/.pulumi/bin": true, "/.nix-profile/bin": true, "/.asdf/shims": true,
	"/.asdf/bin": true, "/.tfenv/bin": true, "/.linkerd2/bin": true, "/.rd/bin": true}

var systemDirs = map[string]bool{"/usr/local/go/bin": true, "/usr/local/bin": true, "/opt/homebrew/bin": true, "/opt/homebrew/sbin": true,
	"/home/linuxbrew/.linuxbrew/bin": true, "/usr/local/sbin": true, "/snap/bin": true}

// inertAssign reports NAME=VALUE with an ordinary name and a literal value
// (PATH: see inertPath).
func inertAssign(a string) bool {
	name, val, ok := strings.Cut(a, "=")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	if q := unquote(val); q != val {
		val = q
	} else if strings.ContainsAny(val, " \t") {
		return false // A=1 B=2: more than one assignment
	}
	up := strings.ToUpper(name)
	if up == "PATH" {
		return inertPath(val)
	}
	if riskyVars[up] || strings.HasPrefix(up, "PS") && up != "PS1" && up != "PS2" {
		return false
	}
	for _, p := range riskyVarParts {
		if strings.Contains(up, p) {
			return false
		}
	}
	if up == "NODE_OPTIONS" && (strings.Contains(val, "-r") || strings.Contains(val, "require") || strings.Contains(val, "import") ||
		strings.Contains(val, "loader")) {
		return false // code loaded into every node process
	}
	return literal(val)
}

// literal reports a value with no expansion but $HOME and no temporary
// directory.
func literal(v string) bool {
	v = strings.NewReplacer("${HOME}", "", "$HOME", "").Replace(v)
	if strings.ContainsAny(v, "$`;|&<>'\"") {
		return false
	}
	return !strings.Contains(v, "/tmp") && !strings.Contains(v, "/dev/shm")
}

// inertPath reports a PATH that adds directories after $PATH, or puts a
// tool chain's directory first.
func inertPath(v string) bool {
	parts := strings.Split(v, ":")
	at := -1
	for i, p := range parts {
		if p == "$PATH" || p == "${PATH}" {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at < 0 {
		return false // PATH replaced
	}
	for i, p := range parts {
		if i == at {
			continue
		}
		if p == "" || p == "." || !literal(p) || !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "$HOME") &&
			!strings.HasPrefix(p, "${HOME}") && !strings.HasPrefix(p, "~") {
			return false
		}
		if i > at {
			continue // appended: found after the system's own programs
		}
		home := ""
		for _, h := range []string{"$HOME", "${HOME}", "~"} {
			if r, ok := strings.CutPrefix(p, h); ok {
				home = r
			}
		}
		if !(home != "" && toolchainDirs[strings.TrimSuffix(home, "/")] || systemDirs[strings.TrimSuffix(p, "/")]) {
			return false
		}
	}
	return true
}

// privilegedNames are commands typed for privileged or security work: an
// alias by their name sees what is typed for them (a password, a host, a
// key) and changes what runs as them.
var privilegedNames = map[string]bool{"sudo": true, "su": true, "doas": true, "pkexec": true, "run0": true, "ssh": true, "scp": true,
	"sftp": true, "rsync": true, "git": true, "gh": true, "cd": true, "passwd": true, "gpg": true, "gpg2": true, "ssh-add": true,
	"ssh-keygen": true, "ssh-agent": true, "kinit": true, "login": true, "docker": true, "podman": true, "kubectl": true, "aws": true,
	"gcloud": true, "az": true, "vault": true, "op": true, "pass": true, "bw": true, "mysql": true, "psql": true, "curl": true,
	"wget": true, "exit": true, "logout": true, "history": true, "unalias": true, "alias": true, "command": true, "builtin": true,
	"exec": true, "eval": true, "source": true, ".": true, "export": true, "set": true, "unset": true}

// riskyAliasValues are programs an alias's value must not run: shells,
// interpreters, fetches, removals, privileges.
var riskyAliasValues = map[string]bool{"sudo": true, "su": true, "doas": true, "sh": true, "bash": true, "zsh": true, "dash": true,
	"ksh": true, "fish": true, "python": true, "python3": true, "perl": true, "ruby": true, "node": true, "php": true, "curl": true,
	"wget": true, "nc": true, "ncat": true, "socat": true, "rm": true, "dd": true, "shred": true, "mkfs": true, "chmod": true,
	"chown": true, "eval": true, "exec": true, "source": true, ".": true, "base64": true, "xxd": true, "ssh": true, "scp": true,
	"crontab": true, "tee": true, "kill": true, "pkill": true, "killall": true, "history": true}

// inertAlias reports NAME='VALUE' whose name is no privileged command and
// whose value is a plain command: the same command with options (ls
// --color=auto), or another that is not risky.
func inertAlias(a string) bool {
	name, val, ok := strings.Cut(a, "=")
	if !ok || name == "" || strings.ContainsAny(name, " \t'\"$/") || privilegedNames[name] {
		return false
	}
	val = unquote(val)
	if val == "" || strings.ContainsAny(val, "$`;|&<>'\"\\(){}") {
		return false
	}
	w := strings.Fields(val)
	if len(w) == 0 {
		return false
	}
	prog := w[0]
	if strings.ContainsRune(prog, '/') || riskyAliasValues[prog] {
		return false
	}
	for _, x := range w[1:] {
		if strings.Contains(x, "/tmp") || strings.Contains(x, "/dev/shm") {
			return false
		}
	}
	return true
}

// unquote removes one pair of matching quotes around v.
func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}
