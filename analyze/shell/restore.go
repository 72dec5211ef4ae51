package shell

import (
	"path"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Restores and extractions over a live system. A backup restored, or an
// archive extracted, into the root, the home directory or a tree of the
// operating system (/etc, /usr, /var/lib, /boot) writes over the files
// the running machine and its users live on: every file the backup or
// archive holds replaces the current one, and what changed since is
// gone. restic restore --target /, borg extract run in /, kopia restore
// ID /, tar -x -C / (or run in /), unzip -o -d /, 7z x -o/ are high
// (fs.restore_over_system). Into a fresh folder (/tmp/restore,
// ./restore-test) nothing live is touched: nothing here. Archive
// extractions are read only for the trees themselves, since installing
// software by extracting it below /usr/local or /opt (the Go and Node
// tarballs) is the documented way; a backup restore is read for any
// system path (restic restore --target /var/lib/postgresql).

// RuleRestoreOverSystem is the rule of the findings on restores and
// extractions over a live system.
const RuleRestoreOverSystem = "fs.restore_over_system"

// liveTrees are the directories an archive extracted into overwrites the
// running system's files: the root and the operating system's trees.
var liveTrees = map[string]bool{"/": true, "/etc": true, "/usr": true, "/var": true, "/var/lib": true, "/boot": true,
	"/bin": true, "/sbin": true, "/lib": true, "/lib64": true, "/root": true, "/home": true, "/usr/bin": true,
	"/usr/lib": true, "/usr/sbin": true, "/usr/share": true}

// restoreFindings judges command c, named name, as a restore or an
// extraction (see above).
func restoreFindings(out []risk.Finding, c *Command, name string, env paths.Env) []risk.Finding {
	var dest string
	var ok, backup bool
	switch name {
	case "restic":
		dest, ok = resticTarget(c)
		backup = true
	case "borg", "borgmatic":
		if argWord(c, "extract") {
			dest, ok = cwdOf(c, env), true
			backup = true
		}
	case "kopia", "duplicity", "rdiff-backup":
		if argWord(c, "restore") || name == "rdiff-backup" && (argWord(c, "-r") || argWord(c, "--restore-as-of")) {
			dest, ok = lastOperand(c)
			backup = true
		}
	case "tar", "gtar", "bsdtar", "tarsnap":
		dest, ok = tarDest(c, env)
	case "unzip":
		dest, ok = unzipDest(c, env)
	case "7z", "7za", "7zz":
		dest, ok = sevenDest(c, env)
	case "cpio":
		if argWord(c, "-i") || argWord(c, "--extract") || clusterHas(c, 'i') {
			dest, ok = cwdOf(c, env), true
		}
	default:
		return out
	}
	if !ok || dest == "" {
		return out
	}
	abs := path.Clean(env.Abs(dest))
	live := liveTrees[abs] || abs == path.Clean(env.Home)
	if !live && backup && !strings.HasPrefix(abs, "/usr/local") && !strings.HasPrefix(abs, "/opt") {
		switch env.ClassifyAbs(abs) {
		case paths.Root, paths.System, paths.Home, paths.Startup, paths.Credential:
			live = true
		}
	}
	if !live {
		return out
	}
	what := "extracts an archive"
	if backup {
		what = "restores a backup"
	}
	return append(out, mayRun(risk.Finding{Analyzer: "shell", Rule: RuleRestoreOverSystem, Level: risk.High,
		Resource: "file:" + abs,
		Reason: "`" + cut(c.Line(), 100) + "` " + what + " over " + abs + ", where the running system and its users' files live: " +
			"each file it holds replaces the current one, and what changed since is lost"}, c))
}

// argWord reports a static word w among c's arguments.
func argWord(c *Command, w string) bool {
	for i := 1; i < len(c.Args); i++ {
		if !c.Dynamic[i] && c.Args[i] == w {
			return true
		}
	}
	return false
}

// clusterHas reports a cluster of one-letter flags (-idv) holding f.
func clusterHas(c *Command, f byte) bool {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if !c.Dynamic[i] && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], f) >= 0 {
			return true
		}
	}
	return false
}

// cwdOf returns the directory c runs in.
func cwdOf(c *Command, env paths.Env) string {
	if c.DirDynamic {
		return ""
	}
	if c.Dir != "" {
		return c.Dir
	}
	return env.Cwd
}

// flagValue returns the value of the first of flags in c (-t X, --target
// X, --target=X, and -tX for a one-letter flag when attached is set).
func flagValue(c *Command, attached bool, flags ...string) (string, bool) {
	for i := 1; i < len(c.Args); i++ {
		if c.Dynamic[i] {
			continue
		}
		a := c.Args[i]
		for _, f := range flags {
			switch {
			case a == f:
				if i+1 < len(c.Args) && !c.Dynamic[i+1] {
					return c.Args[i+1], true
				}
				return "", false
			case strings.HasPrefix(a, f+"=") && strings.HasPrefix(f, "--"):
				return a[len(f)+1:], true
			case attached && len(f) == 2 && len(a) > 2 && strings.HasPrefix(a, f):
				return a[2:], true
			}
		}
	}
	return "", false
}

// resticTarget returns the --target of a restic restore.
func resticTarget(c *Command) (string, bool) {
	if !argWord(c, "restore") {
		return "", false
	}
	return flagValue(c, false, "--target", "-t")
}

// lastOperand returns c's last word when it is static and no flag.
func lastOperand(c *Command) (string, bool) {
	n := len(c.Args) - 1
	if n < 2 || c.Dynamic[n] || strings.HasPrefix(c.Args[n], "-") {
		return "", false
	}
	return c.Args[n], true
}

// tarDest returns where a tar that extracts writes: its -C or
// --directory, else the directory it runs in.
func tarDest(c *Command, env paths.Env) (string, bool) {
	extract := false
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] {
			continue
		}
		switch {
		case a == "--extract" || a == "--get":
			extract = true
		case strings.HasPrefix(a, "--"):
		case len(a) > 1 && a[0] == '-':
			// a cluster of one-letter flags: -xzf; a value flag ends it
			for _, b := range []byte(a[1:]) {
				if b == 'x' {
					extract = true
				}
				if b == 'C' || b == 'f' || b == 'T' || b == 'X' {
					break
				}
			}
		case i == 1 && strings.IndexByte(a, 'x') >= 0 && strings.Trim(a, "xzjJvfpaSOkmUwtcrudAZ") == "":
			extract = true // tar xzf: the old form
		}
	}
	if !extract {
		return "", false
	}
	if d, ok := flagValue(c, true, "-C", "--directory"); ok {
		return d, true
	}
	for i := 1; i < len(c.Args); i++ {
		if c.Dynamic[i] && (strings.HasPrefix(c.Args[i], "-C") || strings.HasPrefix(c.Args[i], "--directory")) {
			return "", false
		}
	}
	return cwdOf(c, env), true
}

// unzipDest returns where an unzip that extracts writes: its -d, else the
// directory it runs in.
func unzipDest(c *Command, env paths.Env) (string, bool) {
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] || len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		if strings.ContainsAny(a[1:], "lvtZpcz") && !strings.HasPrefix(a, "-d") {
			return "", false // lists, tests, or prints: writes nothing
		}
	}
	if d, ok := flagValue(c, true, "-d"); ok {
		return d, true
	}
	return cwdOf(c, env), true
}

// sevenDest returns where a 7z x or e writes: its -o, else the directory
// it runs in.
func sevenDest(c *Command, env paths.Env) (string, bool) {
	if len(c.Args) < 2 || c.Dynamic[1] || c.Args[1] != "x" && c.Args[1] != "e" {
		return "", false
	}
	for i := 2; i < len(c.Args); i++ {
		if a := c.Args[i]; !c.Dynamic[i] && strings.HasPrefix(a, "-o") && len(a) > 2 {
			return a[2:], true
		}
	}
	return cwdOf(c, env), true
}

// restorers are the names restoreFindings reads.
var restorers = map[string]bool{"restic": true, "borg": true, "borgmatic": true, "kopia": true, "duplicity": true,
	"rdiff-backup": true, "tar": true, "gtar": true, "bsdtar": true, "tarsnap": true, "unzip": true, "7z": true,
	"7za": true, "7zz": true, "cpio": true}
