package configcode

import (
	"path"
	"strings"
)

// Kind is what a file that runs things is, and so how its text holds
// programs.
type Kind uint8

// The kinds. None is a file that runs nothing of its own.
const (
	None Kind = iota
	// ShellFile is a shell script run on its own: git hooks, husky hooks,
	// shell start-up files, .envrc, /etc/profile.d, init and cron.daily
	// scripts.
	ShellFile
	// Executable is a file in a directory of the PATH: a shell script
	// when its #! line names a shell (or it has none).
	Executable
	// Workflow is CI configuration in YAML (GitHub workflows and composite
	// actions, GitLab, CircleCI, Travis, Azure, Bitbucket, Drone,
	// Woodpecker, Buildkite, Cloud Build, CodeBuild, Taskfile, lefthook):
	// the values of the keys that hold commands (run, script, command …).
	Workflow
	// Dockerfile is a Dockerfile or Containerfile: RUN, CMD, ENTRYPOINT.
	Dockerfile
	// PackageScripts is package.json or composer.json: the scripts.
	PackageScripts
	// Makefile is a Makefile: its recipe lines and $(shell …) calls.
	Makefile
	// Jenkinsfile is a Jenkins pipeline: its sh steps.
	Jenkinsfile
	// Crontab is a user's crontab; SystemCrontab is /etc/crontab or a
	// file of /etc/cron.d, whose lines name a user before the command.
	Crontab
	SystemCrontab
	// SystemdUnit is a systemd service or socket unit: its Exec lines.
	SystemdUnit
	// Launchd is a launchd agent or daemon: Program, ProgramArguments.
	Launchd
	// PreCommit is a pre-commit configuration: the hooks' entry.
	PreCommit
	// EditorTasks is .vscode/tasks.json: command and args.
	EditorTasks
	// DevContainer is devcontainer.json: the …Command keys.
	DevContainer
	// GitConfig is a git configuration file: the values git runs as
	// commands (core.fsmonitor, core.sshCommand, pagers and editors,
	// ! aliases, filter and diff drivers, credential helpers …).
	GitConfig
	// SSHConfig is an ssh client configuration: ProxyCommand,
	// LocalCommand, KnownHostsCommand, Match exec.
	SSHConfig
	// DesktopEntry is an XDG autostart or application entry: Exec.
	DesktopEntry
	// PythonStartup is what every Python start runs: a .pth file's
	// import lines, sitecustomize.py and usercustomize.py (Python, not
	// shell: Program.Lang).
	PythonStartup
	// PackageIndex says where a package manager installs from (.npmrc,
	// pip.conf, .cargo/config.toml, .gemrc, settings.xml, NuGet.Config,
	// .condarc, Go's env): it runs nothing, but the registry it names
	// serves every later install (IndexURLs).
	PackageIndex
)

var kindNames = [...]string{"", "shell script", "executable", "CI configuration", "Dockerfile", "package scripts", "Makefile",
	"Jenkinsfile", "crontab", "crontab", "systemd unit", "launchd job", "pre-commit configuration", "editor tasks", "dev container configuration",
	"git configuration", "ssh configuration", "desktop entry", "Python start-up file", "package index configuration"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Contained reports whether a program of a kind, sitting at where (see
// Program.Where), runs in a throwaway machine of its own: a container
// image being built, a CI runner, a dev container (but its
// initializeCommand, which runs on the host). What it does to that
// machine's files, accounts and services (sudo apt-get install on a
// runner) harms nothing outside it; what it fetches, runs, pushes and
// sends still counts.
func (k Kind) Contained(where string) bool {
	switch k {
	case Dockerfile, Workflow, Jenkinsfile:
		return true
	case DevContainer:
		return where != "initializeCommand"
	}
	return false
}

// KindOf returns the kind of the file at p, a cleaned path (absolute, or
// relative to the project), from its name and directory alone.
func KindOf(p string) Kind {
	base := path.Base(p)
	dir := path.Dir(p)
	switch base {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin",
		".zlogout", ".envrc", ".xinitrc", ".xprofile", ".xsessionrc", "rc.local", "bash.bashrc", ".kshrc", ".mkshrc":
		return ShellFile
	case "Dockerfile", "Containerfile", "dockerfile", "containerfile":
		return Dockerfile
	case "package.json", "composer.json":
		return PackageScripts
	case "Makefile", "makefile", "GNUmakefile":
		return Makefile
	case "Jenkinsfile":
		return Jenkinsfile
	case ".gitlab-ci.yml", ".gitlab-ci.yaml", ".travis.yml", "bitbucket-pipelines.yml", "azure-pipelines.yml", "azure-pipelines.yaml",
		".drone.yml", "appveyor.yml", ".appveyor.yml", ".woodpecker.yml", "cloudbuild.yaml", "cloudbuild.yml", "buildspec.yml",
		"lefthook.yml", ".lefthook.yml", "lefthook.yaml", "Taskfile.yml", "Taskfile.yaml", "taskfile.yml", ".cirrus.yml", "codemagic.yaml":
		return Workflow
	case ".pre-commit-config.yaml", ".pre-commit-config.yml", ".pre-commit-hooks.yaml":
		return PreCommit
	case "tasks.json":
		if path.Base(dir) == ".vscode" {
			return EditorTasks
		}
	case "devcontainer.json", ".devcontainer.json":
		return DevContainer
	case "crontab":
		if dir == "/etc" {
			return SystemCrontab
		}
	case ".gitconfig", "gitconfig":
		return GitConfig
	case "config":
		switch path.Base(dir) {
		case ".git":
			return GitConfig
		case "git":
			if path.Base(path.Dir(dir)) == ".config" {
				return GitConfig
			}
		case ".ssh":
			return SSHConfig
		}
	case "ssh_config":
		return SSHConfig
	case "sitecustomize.py", "usercustomize.py":
		return PythonStartup
	case "profile", "environment":
		if dir == "/etc" {
			return ShellFile
		}
	}
	if k := indexKind(p, base, dir); k != None {
		return k
	}
	ext := path.Ext(base)
	switch {
	case strings.HasPrefix(base, "Dockerfile.") || strings.HasPrefix(base, "Containerfile.") || ext == ".dockerfile" || ext == ".Dockerfile":
		return Dockerfile
	case ext == ".mk":
		return Makefile
	case ext == ".yml" || ext == ".yaml":
		if within(p, ".github/workflows") || within(p, ".github/actions") || within(p, ".circleci") || within(p, ".gitlab") ||
			within(p, ".buildkite") || within(p, ".woodpecker") || base == "action.yml" || base == "action.yaml" {
			return Workflow
		}
	case ext == ".service" || ext == ".socket":
		return SystemdUnit
	case ext == ".plist":
		if strings.Contains(p, "/LaunchAgents/") || strings.Contains(p, "/LaunchDaemons/") {
			return Launchd
		}
	case ext == ".fish" && within(p, ".config/fish"):
		return ShellFile
	case ext == ".desktop":
		if within(p, "autostart") || within(p, "applications") {
			return DesktopEntry
		}
	case ext == ".pth":
		return PythonStartup
	case ext == ".conf" && path.Base(dir) == "ssh_config.d":
		return SSHConfig
	}
	switch {
	case within(p, ".git/hooks"):
		if ext != ".sample" {
			return ShellFile
		}
	case within(p, ".husky"):
		if path.Base(dir) != "_" {
			return ShellFile
		}
	case dir == "/etc/profile.d" || dir == "/etc/init.d" || dir == "/etc/zsh" || strings.HasPrefix(dir, "/etc/rc") && strings.HasSuffix(dir, ".d") ||
		dir == "/etc/cron.hourly" || dir == "/etc/cron.daily" || dir == "/etc/cron.weekly" || dir == "/etc/cron.monthly":
		return ShellFile
	case dir == "/etc/cron.d":
		return SystemCrontab
	case strings.HasPrefix(p, "/var/spool/cron/"):
		return Crontab
	case pathDir(dir):
		return Executable
	}
	return None
}

// within reports whether p lies below a directory whose path ends in
// dir (p relative: starts with it).
func within(p, dir string) bool {
	return strings.HasPrefix(p, dir+"/") || strings.Contains(p, "/"+dir+"/")
}

// pathDir reports a directory of the usual PATH: the system's bin
// directories and a home's bin and .local/bin.
func pathDir(dir string) bool {
	switch dir {
	case "/usr/local/bin", "/usr/local/sbin", "/usr/bin", "/usr/sbin", "/bin", "/sbin", "/opt/homebrew/bin", "/root/bin", "/root/.local/bin":
		return true
	}
	if strings.HasSuffix(dir, "/.local/bin") || strings.HasSuffix(dir, "/.cargo/bin") || strings.HasSuffix(dir, "/go/bin") {
		return true
	}
	// /home/NAME/bin, /Users/NAME/bin
	for _, h := range []string{"/home/", "/Users/"} {
		if rest, ok := strings.CutPrefix(dir, h); ok && strings.Count(rest, "/") == 1 && strings.HasSuffix(rest, "/bin") {
			return true
		}
	}
	return false
}
