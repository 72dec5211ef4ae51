package shell

import (
	"net/netip"
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// judgeFunc judges a command whose knowledge is a model of how the
// program reads its words rather than rows (git, kill), appending its
// findings to out.
type judgeFunc func(out []risk.Finding, c Command, env paths.Env) []risk.Finding

// semantics returns the judge of the command name, or nil.
func semantics(name string) judgeFunc {
	switch name {
	case "git":
		return gitFindings
	case "kill":
		return killFindings
	case "ansible":
		return ansibleFindings
	case "salt", "salt-ssh":
		return saltFindings
	case "aws", "gcloud", "az", "doctl", "hcloud", "ufw", "firewall-cmd", "iptables", "ip6tables", "nft":
		return exposureFindings
	case "ab", "wrk", "wrk2", "hey", "siege", "vegeta", "k6", "locust", "bombardier", "h2load", "oha", "autocannon", "artillery", "jmeter":
		return loadFindings
	}
	return nil
}

// ansibleFindings judges an ad-hoc ansible module other than the ones
// that run a command (shell, command, raw: their -a text is unwrapped
// and judged as the script it is, see wrappers.yaml): a module that only
// reads (ping, setup, debug…) gives nothing; state=absent removes what
// the module manages on every targeted host (file: high; a package,
// user or service: medium); another module changes the hosts in ways
// warden does not read (low).
func ansibleFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	module, margs, dyn := "", "", false
	for i := 1; i < len(c.Args); i++ {
		a, val := c.Args[i], ""
		switch {
		case a == "-m" || a == "--module-name" || a == "-a" || a == "--args":
			if i+1 >= len(c.Args) {
				continue
			}
			i++
			val = c.Args[i]
			dyn = dyn || c.Dynamic[i]
		case strings.HasPrefix(a, "--module-name=") || strings.HasPrefix(a, "--args="):
			val = a[strings.IndexByte(a, '=')+1:]
		case len(a) > 2 && (strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "-a")):
			val = a[2:]
		default:
			continue
		}
		if strings.HasPrefix(a, "-m") || strings.HasPrefix(a, "--module-name") {
			module = val
		} else {
			margs = val
		}
	}
	if dyn {
		return out // a module or its arguments computed at run time: see unseen
	}
	short := module[strings.LastIndexByte(module, '.')+1:]
	switch short {
	case "", "shell", "command", "raw", "ping", "setup", "debug", "gather_facts", "stat", "find", "package_facts",
		"service_facts", "getent", "assert", "fail", "wait_for", "uri", "slurp":
		return out
	}
	f := risk.Finding{Analyzer: "shell", Rule: "remote.ansible_module", Level: risk.Low, Reversible: true,
		Reason: "ansible runs the module " + cut(module, 40) + " on every host it targets; warden does not read what it changes"}
	if g := ansibleGrant(short, margs); g != "" {
		f.Rule, f.Level, f.Reversible = "priv.account_change", risk.High, false
		f.Reason = "ansible " + cut(module, 40) + " " + g + " on every host it targets"
		return append(out, mayRun(f, &c))
	}
	if absent := strings.Contains(" "+margs+" ", " state=absent "); absent {
		f.Level, f.Reversible = risk.Medium, true
		f.Reason = "ansible " + cut(module, 40) + " with state=absent removes what it manages on every host it targets"
		if short == "file" {
			f.Level, f.Reversible = risk.High, false
			f.Reason = "ansible's file module with state=absent deletes the path on every host it targets (recursively for a directory)"
		}
	}
	return append(out, mayRun(f, &c))
}

// ansibleGrant reports what an ansible module's arguments grant that
// the same change made by hand is high for (usermod -aG sudo, a key in
// authorized_keys, a line in sudoers), or "".
func ansibleGrant(module, margs string) string {
	kv := ansibleArgs(margs)
	switch module {
	case "user":
		if kv["state"] == "absent" {
			return ""
		}
		for _, g := range strings.Split(kv["groups"]+","+kv["group"], ",") {
			if privGroup(strings.TrimSpace(g)) {
				return "puts the account " + cut(kv["name"], 30) + " in the privileged group " + cut(g, 30)
			}
		}
		if kv["uid"] == "0" || kv["password"] != "" {
			return "gives the account " + cut(kv["name"], 30) + " root's uid or a new password"
		}
	case "group":
		if kv["gid"] == "0" {
			return "creates a group with root's gid"
		}
	case "authorized_key":
		if kv["state"] != "absent" {
			return "adds an SSH key that may log in as " + cut(kv["user"], 30)
		}
	case "lineinfile", "blockinfile", "copy", "template", "replace":
		dest := kv["path"]
		if dest == "" {
			dest = kv["dest"]
		}
		if strings.HasPrefix(dest, "/etc/sudoers") || strings.HasSuffix(dest, "/authorized_keys") ||
			dest == "/etc/passwd" || dest == "/etc/shadow" || dest == "/etc/group" {
			return "writes " + cut(dest, 40) + ", which decides who may log in or act as root,"
		}
	}
	return ""
}

// ansibleArgs splits an ad-hoc module's key=value arguments (values may
// be quoted); a JSON or YAML argument string gives what it can.
func ansibleArgs(margs string) map[string]string {
	kv := map[string]string{}
	for len(margs) > 0 {
		margs = strings.TrimLeft(margs, " \t")
		eq := strings.IndexAny(margs, "= ")
		if eq < 0 {
			break
		}
		if margs[eq] == ' ' {
			margs = margs[eq:]
			continue
		}
		key, rest := margs[:eq], margs[eq+1:]
		val := ""
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			if end := strings.IndexByte(rest[1:], rest[0]); end >= 0 {
				val, rest = rest[1:1+end], rest[2+end:]
			} else {
				val, rest = rest[1:], ""
			}
		} else if sp := strings.IndexByte(rest, ' '); sp >= 0 {
			val, rest = rest[:sp], rest[sp:]
		} else {
			val, rest = rest, ""
		}
		kv[key] = val
		margs = rest
	}
	return kv
}

// privGroup reports a group whose members are administrators of the
// machine (sudo, wheel, admin, root) or root in effect (docker, lxd,
// libvirt, disk), as commands.yaml's privgroup pattern says.
func privGroup(g string) bool {
	switch strings.ToLower(g) {
	case "sudo", "sudoers", "wheel", "admin", "admins", "adm", "administrators", "root", "docker", "lxd", "libvirt", "disk":
		return true
	}
	return false
}

// saltFindings judges salt's execution modules run on the minions a
// target selects: state.apply, state.highstate and state.sls change
// every one of them unless test=True makes it a dry run (high for a glob
// of minions or a production set: a fleet changed in ways warden does
// not read; medium for one named minion); a module that only reads
// (test.ping, grains.items, pillar.get…) gives nothing; cmd.run's text
// is judged through wrappers.yaml, other modules are low.
func saltFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	fn, target, test, ops := "", "", false, 0
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if strings.HasPrefix(a, "-") {
			switch a { // the flags that take the next word (-G, -L, -E… only say how the target reads)
			case "-t", "--timeout", "--out", "-b", "--batch-size", "-c", "--config-dir", "--roster", "--roster-file", "-i", "--priv",
				"--user", "--passwd", "--log-level", "-l", "--return", "--out-file", "--state-output", "--gather-job-timeout":
				i++
			}
			continue
		}
		if c.Dynamic[i] {
			return out // a target or function computed at run time: see unseen
		}
		ops++
		switch ops {
		case 1:
			target = a
		case 2:
			fn = a
		}
		if ops > 2 && strings.EqualFold(a, "test=true") {
			test = true
		}
	}
	mod, _, _ := strings.Cut(fn, ".")
	switch mod {
	case "", "test", "grains", "pillar", "sys", "network", "status", "disk", "saltutil", "config", "match", "cmd":
		return out // reads, or cmd.run, whose text is unwrapped and judged (wrappers.yaml)
	}
	if mod == "state" && test {
		return out // a dry run
	}
	f := risk.Finding{Analyzer: "shell", Rule: "remote.salt_module", Level: risk.Low, Reversible: true,
		Reason: "salt runs " + cut(fn, 40) + " on every minion it targets; warden does not read what it changes"}
	switch fn {
	case "state.apply", "state.highstate", "state.sls", "state.single", "state.template", "state.top", "state.sls_id":
		// a glob of minions ('*', 'web*') or a production set: high; one
		// named minion: medium
		f.Level = risk.Medium
		if strings.ContainsAny(target, "*?[") || strings.Contains(strings.ToLower(target), "prod") {
			f.Level = risk.High
		}
		f.Reason = "salt " + fn + " applies states to the minions " + cut(target, 40) + " without test=True; warden does not read what they change"
	}
	return append(out, mayRun(f, &c))
}

// killFindings judges kill: its first word may be a signal (-9, -KILL,
// -s KILL, -n 9; kill -1 1234 sends signal 1), the others are process
// ids, where -1 means every process the user may signal and 1 is init
// (or a container's main process).
func killFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	i, sig := 1, "TERM"
	if i < len(c.Args) && !c.Dynamic[i] {
		switch a := c.Args[i]; {
		case a == "-s" || a == "-n" || a == "--signal":
			if i+1 < len(c.Args) {
				sig = c.Args[i+1]
			}
			i += 2
		case a == "-l" || a == "-L" || a == "--list" || a == "--table":
			return out
		case len(a) > 1 && a[0] == '-' && a != "--":
			sig = a[1:]
			i++
		}
	}
	if i < len(c.Args) && c.Args[i] == "--" && !c.Dynamic[i] {
		i++
	}
	for ; i < len(c.Args); i++ {
		if c.Dynamic[i] {
			continue
		}
		switch c.Args[i] {
		case "-1":
			return append(out, risk.Finding{Analyzer: "shell", Rule: "sec.kill_all", Level: risk.High,
				Reason: "kill -1 signals every process the user may signal"})
		case "1":
			if gentleSignal(sig) {
				continue
			}
			return append(out, risk.Finding{Analyzer: "shell", Rule: "sec.kill_all", Level: risk.High,
				Reason: "Signalling process 1 stops init, or a container's main process and with it the container"})
		}
	}
	return out
}

// gentleSignal reports a signal that asks a process to reload or report
// rather than to end: HUP, USR1, USR2, CONT, WINCH, 0 (a probe).
func gentleSignal(sig string) bool {
	switch strings.TrimPrefix(strings.ToUpper(sig), "SIG") {
	case "HUP", "1", "USR1", "10", "USR2", "12", "CONT", "18", "WINCH", "28", "0":
		return true
	}
	return false
}

// Load generators (ab, wrk, hey, siege, vegeta, k6, locust, bombardier,
// h2load, oha, autocannon) aimed at a host: a heavy run — 100 or more
// concurrent clients or requests a second, 100 000 or more requests, or
// 10 minutes or more — against a host that is not this machine's or a
// private network's is a flood of someone's service (high); a heavy run
// whose target warden cannot see (a k6 or locust script, vegeta's
// targets on stdin) is medium; a heavy run at localhost, a private
// address or a .local/.test/.internal name is low, as a light run is.
var (
	loadConc = map[string]bool{"-c": true, "--concurrency": true, "--connections": true, "--concurrent": true, "--clients": true,
		"-u": true, "--users": true, "--vus": true, "-rate": true, "--rate": true, "-q": true, "-R": true, "--rate-limit": true, "--max-vus": true}
	loadCount = map[string]bool{"-n": true, "--requests": true, "--number": true, "-a": true, "--amount": true, "--iterations": true, "-i": true}
	loadTime  = map[string]bool{"-d": true, "--duration": true, "-duration": true, "-z": true, "-t": true, "--time": true, "--run-time": true, "-D": true}
	// locust's target host; the others take theirs as a URL operand
	loadHost = map[string]bool{"-H": true, "--host": true, "-host": true}
)

// loadFindings judges a load generator's run (see above).
func loadFindings(out []risk.Finding, c Command, _ paths.Env) []risk.Finding {
	name := c.Args[0]
	heavy, seen, remote := "", false, false
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		if c.Dynamic[i] {
			continue
		}
		switch a {
		case "-h", "--help", "-help", "-V", "--version", "-version":
			return out // help or a version
		case "version", "inspect", "login", "archive", "new":
			if i == 1 {
				return out // a k6 command that sends nothing
			}
		}
		flag, val := a, ""
		if strings.HasPrefix(a, "-") {
			if eq := strings.IndexByte(a, '='); eq > 0 {
				flag, val = a[:eq], a[eq+1:]
			} else if len(a) > 2 && a[1] != '-' && a[2] >= '0' && a[2] <= '9' {
				flag, val = a[:2], a[2:] // -c5000, -d1h, -t32
			} else if i+1 < len(c.Args) {
				val = c.Args[i+1]
			}
			if name == "wrk" && flag == "-t" || name == "siege" && flag == "-r" || name == "h2load" && flag == "-t" {
				continue // threads or repetitions, not clients
			}
			switch {
			case loadHost[flag] && name == "locust":
				seen, remote = true, !localTarget(val)
			case loadConc[flag]:
				if n, ok := loadNumber(val); ok && n >= 100 {
					heavy = "with " + val + " concurrent clients or requests a second"
				}
			case loadCount[flag]:
				if n, ok := loadNumber(val); ok && n >= 100000 {
					heavy = "sending " + val + " requests"
				}
			case loadTime[flag]:
				// ab -t, h2load -D and autocannon -d count bare numbers in
				// seconds; the others need a unit
				if s, ok := loadSeconds(val, name == "ab" || name == "h2load" || name == "autocannon"); ok && s >= 600 {
					heavy = "for " + val
				}
			}
			continue
		}
		if strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") {
			seen = true
			if !localTarget(a) {
				remote = true
			}
		}
	}
	if heavy == "" || seen && !remote {
		return append(out, mayRun(risk.Finding{Analyzer: "shell", Rule: "net.scan_or_flood", Level: risk.Low, Reversible: true,
			Reason: name + " sends test load to a service"}, &c))
	}
	f := risk.Finding{Analyzer: "shell", Rule: "net.scan_or_flood", Level: risk.High, Reversible: true,
		Reason: name + " floods another host " + heavy + "; a load test of a service that is not yours is a denial of service"}
	if !seen {
		f.Level = risk.Medium
		f.Reason = name + " generates heavy load " + heavy + " against a target warden cannot see"
	}
	return append(out, mayRun(f, &c))
}

// loadNumber reads a count such as 5000, 10k or 1M.
func loadNumber(s string) (int, bool) {
	mul := 1
	if n := len(s); n > 1 {
		switch s[n-1] {
		case 'k', 'K':
			mul, s = 1000, s[:n-1]
		case 'm', 'M':
			mul, s = 1000000, s[:n-1]
		}
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || n > 1e9 {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n * mul, s != ""
}

// loadSeconds reads a duration such as 30s, 10m, 1h, 1h30m or 30M
// (siege); a bare number counts as seconds only when bare is set.
func loadSeconds(s string, bare bool) (int, bool) {
	total, n, digits, unit := 0, 0, false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= '0' && ch <= '9':
			n, digits = n*10+int(ch-'0'), true
			if n > 1e7 {
				return 0, false
			}
		case ch == 'h' || ch == 'H':
			total, n, unit = total+n*3600, 0, true
		case ch == 'm' || ch == 'M':
			if i+1 < len(s) && s[i+1] == 's' {
				return total, digits // milliseconds
			}
			total, n, unit = total+n*60, 0, true
		case ch == 's' || ch == 'S':
			total, n, unit = total+n, 0, true
		default:
			return 0, false
		}
	}
	if n > 0 {
		if !unit && !bare {
			return 0, false
		}
		total += n
	}
	return total, digits
}

// localTarget reports a URL or host on this machine, a private network,
// or a name reserved for local use (.local, .test, .localhost,
// .internal, .lan).
func localTarget(u string) bool {
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	host := u
	if strings.HasPrefix(host, "[") {
		if i := strings.IndexByte(host, ']'); i > 0 {
			host = host[1:i]
		}
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || host == "::1" || host == "0.0.0.0" || !strings.Contains(host, ".") && !strings.Contains(host, ":") {
		return true // a bare name (db, web): a compose service or the local network's
	}
	for _, s := range []string{".localhost", ".local", ".test", ".internal", ".lan", ".home.arpa", ".example"} {
		if strings.HasSuffix(host, s) {
			return true
		}
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
	}
	return false
}
