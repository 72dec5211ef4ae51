// Package configcode finds the programs inside files that run things:
// CI workflows and pipelines, Dockerfiles, package.json and composer.json
// scripts, Makefiles, Jenkinsfiles, git hooks, shell start-up files and
// .envrc, crontabs, systemd units, launchd plists, pre-commit configs,
// editor tasks, dev containers, git and ssh configuration (the values
// they run as commands), desktop autostart entries and Python start-up
// files (.pth, sitecustomize.py, whose programs are Python). Writing such a file is writing code
// that runs later, unattended or on the next build: its content is
// assessed as the program it is.
//
// KindOf names the kind of a file from its path alone; Read returns the
// shell scripts a text of that kind holds, each with where it sits (a
// `run:` step, a RUN line, scripts.postinstall, ExecStart), and the
// findings the text carries as configuration (a workflow that
// interpolates untrusted event text into its shell). The engine assesses
// each script as a shell command of its own; this package runs nothing
// and parses nothing but the configuration formats.
//
// Read is bounded: it reads at most MaxText bytes of a text and returns
// at most MaxPrograms scripts of at most MaxScript bytes each. A text that
// does not parse as its format (a fragment an edit inserts) is read line
// by line for the keys that hold commands.
package configcode
