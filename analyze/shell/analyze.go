package shell

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/sql"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Analyze judges resolved commands with the knowledge k: each command
// against its rows, each redirection by the class of the file it writes,
// downloads and decoded text flowing into interpreters, the SQL given to
// database clients, the method and target of HTTP clients' requests
// (httpFindings), and where resolution stopped seeing (see unseen).
func (k *Knowledge) Analyze(cmds []Command, env paths.Env) []risk.Finding {
	return k.analyze(nil, cmds, env, nil)
}

// analyze is Analyze, appending to out, reading the SQL given to
// database clients from the facts of call (see sqlFact; nil: none).
func (k *Knowledge) analyze(out []risk.Finding, cmds []Command, env paths.Env, call *tool.Call) []risk.Finding {
	out = unseen(out, cmds)
	fl := &flows{cmds: cmds}
	// the words of a command, split: their room is reused from command
	// to command (on the stack for most)
	var flagRoom [8]string
	var operandRoom [8]int
	w := words{flags: flagRoom[:0], operands: operandRoom[:0]}
	// the commands that may send data over the network (see mayExfil)
	var sinkRoom [4]int
	sinks := sinkRoom[:0]
	pushes := false  // a command is git's: it may push (see gitRemotes)
	commits := false // a command is git commit's (see gitCommits)
	for i := range cmds {
		c := &cmds[i] // not copied: most commands are read, and only read
		if len(c.Findings) > 0 {
			out = append(out, c.Findings...)
		}
		if len(c.Redirs) > 0 {
			out = k.redirects(out, *c, env)
		}
		if len(c.Args) == 0 || c.Dynamic[0] {
			if mayExfil(c, noSink) {
				sinks = append(sinks, i)
			}
			continue
		}
		start := len(out)
		name := commandName(c.Args[0])
		if name == "git" {
			pushes = true
			commits = commits || gitCommits(c)
		}
		if name == "env" || Elevator(name) {
			out = wrapperLoaders(out, *c, name, env)
		}
		e := k.entry(name)
		if mayExfil(c, e.sink) {
			sinks = append(sinks, i)
		}
		fired := false
		if len(e.rows) > 0 {
			w = e.split(w, c)
			for _, r := range e.rows {
				if t, ok := k.match(r, name, c, w); ok {
					if len(t) == 0 && (r.tkind == targetOperands || r.tkind == targetNames) {
						fc, ft := fedOperands(cmds, i, *c)
						c, t = &fc, ft
					}
					jc := c
					if r.tkind == targetNames && narrowedInputs(cmds, i) {
						n := named(*c, t)
						jc = &n
					}
					if f, ok := r.judge(jc, t, env); ok {
						out = append(out, mayRun(f, c))
						fired = true
					}
				}
			}
		}
		if e.judge != nil {
			n := len(out)
			jc := *c
			if name == "git" && len(c.Via) > 0 {
				jc, _ = fedOperands(cmds, i, jc) // xargs git push origin: the refspecs xargs reads
			}
			out = e.judge(out, jc, env)
			for j := n; j < len(out); j++ {
				out[j] = mayRun(out[j], c)
			}
			fired = fired || len(out) > n
		}
		n := len(out)
		if e.http != noHTTP { // Requests finds none for other commands
			out = httpFindings(out, cmds, i, name, call)
		} else if e.cli != cliPlain && e.cli != cliOwn {
			out = graphqlFindings(out, c, name)
		}
		if !fired && len(out) == n && e.mayVerb() {
			// rows, models and an HTTP client's requests win; the verb
			// grammar speaks for the rest
			if f, ok := cliVerb(c, name, e); ok {
				out = append(out, mayRun(f, c))
			}
		}
		if outreachCLIs[name] {
			out = outreachFindings(out, c, name)
		}
		if dnsCLIs[name] {
			out = dnsFindings(out, c, name)
		}
		if restorers[name] {
			out = restoreFindings(out, c, name, env)
		}
		if e.interp {
			out = k.flow(out, fl, i, name)
		}
		if len(c.Inputs) > 0 {
			out = k.fedProgram(out, cmds, i, env)
		}
		if e.sql != nil {
			out = k.sqlClient(out, cmds, i, e, call)
		} else if len(c.Args) > 1 {
			out = argSQL(out, c, name, e, call)
		}
		if e.store != nil {
			out = k.storeFindings(out, cmds, i, e.store)
		} else if name == "consul" || name == "etcdctl" {
			out = kvControlFindings(out, *c)
		}
		if e.cli != cliPlain && e.cli != cliOwn && len(c.Args) > 1 {
			out = settingsFindings(out, c, name) // protections off, snapshots cleared, policies that let others in
		}
		if e.control != controlNone {
			out = controlFindings(out, cmds, i, e.control)
		}
		out = exhaustion(out, c, name)
		if b := name[0]; b == 't' || b == 'c' || b == ':' {
			out = massTruncate(out, cmds, i, c, env, call)
		}
		if b := name[0]; b == 'p' || b == 'h' || b == 's' || b == 'l' { // python, php, http-server, serve, live-server
			out = exposeFiles(out, c, name, env)
		}
		if len(out) > start { // scopeRemoval raises a finding of c's
			out = scopeRemoval(out, start, c)
		}
		if len(out) > start && helpOnly(c, name, e) {
			out = out[:start] // it prints its help and exits (terraform destroy -help)
			continue
		}
		if !e.known && len(out) == start && !informational.has(name) && !expanded(cmds, i) && !helpOnly(c, name, e) {
			if dev, ok := deviceOperand(c, env); ok {
				out = append(out, unknownOnDevice(c, name, dev))
			} else {
				out = append(out, unknownCommand(c, name))
			}
		} else if t := storageTools[name]; t != nil && len(out) == start && !expanded(cmds, i) && !helpOnly(c, name, e) {
			// a storage tool warden knows, in a mode none of its rows
			// names, on a device (storagemodes.go)
			if f, ok := unknownStorageMode(c, t, name, env); ok {
				out = append(out, f)
			}
		}
	}
	if pushes {
		var prior *tool.Prior
		if call != nil {
			prior = call.Prior
		}
		out = gitRemotes(out, cmds, prior)
		if commits { // gitSecrets finds none without a commit
			out = k.gitSecrets(out, cmds, env)
		}
	}
	return k.exfilFlow(out, cmds, sinks, env)
}

// helpOnly reports a command that only prints its help: a word --help
// or -help among its own words (not a flag's value, not after --), as
// getopt and the CLI frameworks read it anywhere on the line (rm -rf /
// --help deletes nothing). Not for interpreters, shells and launchers,
// whose later words belong to the program they run (python -c CODE
// --help runs CODE).
func helpOnly(c *Command, name string, e *entry) bool {
	found := -1
	for j := 1; j < len(c.Args); j++ {
		if c.Dynamic[j] {
			continue
		}
		a := c.Args[j]
		if a == "--" {
			break
		}
		if a == "--help" || a == "-help" {
			if !e.vflags[c.Args[j-1]] {
				found = j
			}
			break
		}
	}
	return found > 0 && !e.interp && !isShell(name) && !launcher(name) && !Elevator(name) && e.runtime == ""
}

// RuleUnknownCommand is the finding on a program no knowledge of warden
// names and nothing else judged: low, as an unknown tool is (hints): what
// it does is not seen, so it is never safe, and it does not ask.
const RuleUnknownCommand = "shell.unknown_command"

// unknownCommand is the finding that warden does not know what the
// program name, run by c, does.
func unknownCommand(c *Command, name string) risk.Finding {
	return mayRun(risk.Finding{Analyzer: "shell", Rule: RuleUnknownCommand, Level: risk.Low, Reversible: true,
		Reason: "warden does not know what " + cut(name, 60) + " does; judged by its arguments only"}, c)
}

// RuleUnknownOnDevice is the finding on a program no knowledge of warden
// names that is given a storage device (sg_format /dev/sdb,
// zerofree /dev/sdb1): what it does to the device is not seen, and
// what such programs do is rewrite it, so it is high, not low.
const RuleUnknownOnDevice = "disk.unknown_program"

// unknownOnDevice is the finding that warden does not know what the
// program name, run by c, does to the storage device dev.
func unknownOnDevice(c *Command, name, dev string) risk.Finding {
	return mayRun(risk.Finding{Analyzer: "shell", Rule: RuleUnknownOnDevice, Level: risk.High, Resource: "file:" + cut(dev, 200),
		Reason: "warden does not know what " + cut(name, 60) + " does to the storage device " + cut(dev, 60) + ", which it is given: it may overwrite what is stored there"}, c)
}

// deviceOperand returns the first storage device among the static
// operands of c, and the values of its --option=VALUE words: a path below
// /dev that is not a stream, a terminal or one of bash's /dev/tcp names,
// relative paths read from the folder c runs in (cd /dev && tool sdb).
func deviceOperand(c *Command, env paths.Env) (string, bool) {
	env = runsIn(*c, env)
	inDev := paths.Within(env.Cwd, "/dev")
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if c.Dynamic[j] || !inDev && !strings.Contains(a, "dev") {
			continue
		}
		if strings.HasPrefix(a, "-") {
			k := strings.IndexByte(a, '=')
			if k < 0 {
				continue
			}
			a = a[k+1:]
		}
		if p := env.Abs(a); storageDevice(p, env) {
			return p, true
		}
	}
	return "", false
}

// storageDevice reports an absolute path that names a device which may
// hold data: a disk, a partition, a volume (/dev/sdb1, /dev/nvme0n1,
// /dev/mapper/vg-root, /dev/disk/by-id/…), or raw memory; not a stream
// (/dev/null, /dev/stdin), a terminal (/dev/tty1, /dev/pts/0), or a name
// bash gives a socket (/dev/tcp/…).
func storageDevice(p string, env paths.Env) bool {
	if env.ClassifyAbs(p) != paths.Device {
		return false
	}
	rest := p[len("/dev/"):]
	for _, t := range []string{"tty", "pts/", "ptmx", "console", "tcp/", "udp/", "log", "kmsg"} {
		if strings.HasPrefix(rest, t) {
			return false
		}
	}
	return true
}

// informational are programs that only report on the system or compute
// from their arguments: warden knows them, and they need no row.
var informational = wordSet(`uname arch nproc free uptime id whoami groups logname hostname hostnamectl tty getent locale
lsb_release sw_vers seq expr bc dc factor numfmt cal sha1sum sha224sum sha256sum sha384sum sha512sum md5sum shasum cksum
b2sum sum lscpu lsblk lsusb lspci lsof vmstat iostat mpstat nvidia-smi mkfifo mktemp tempfile yes printenv blkid dumpe2fs smartctl
udevadm lshw hwinfo dmidecode inxi`)

// expanded reports a command that names an alias or a function of the
// script (or of the conversation), whose body the resolver expanded in
// place after it: the body's commands are judged, not the name.
func expanded(cmds []Command, i int) bool {
	if i+1 >= len(cmds) {
		return false
	}
	v := cmds[i+1].Via
	return len(v) > len(cmds[i].Via) && (v[len(cmds[i].Via)] == "function" || v[len(cmds[i].Via)] == "alias")
}

// readsCredential reports a command whose stdin is a credential file.
func readsCredential(c Command, env paths.Env) bool {
	for _, rd := range c.Redirs {
		if rd.Op == "<" && !rd.Dynamic && env.IsCredential(env.Abs(paths.Contents(rd.Target))) { // Classify(rd.Target) == Credential, classified only in a place of credentials
			return true
		}
	}
	return false
}

// fedOperands returns, for a command run by xargs without operands of
// its own, the operands xargs will give it: the words echo or printf
// print (echo ~ | xargs rm -rf deletes the home), the files an upstream
// find lists, each a path below find's starting points (find ~ | xargs
// rm -rf deletes what is in home), and otherwise (another producer, or
// none in the script: xargs then reads the agent's stdin) an operand
// computed at run time.
func fedOperands(cmds []Command, i int, c Command) (Command, []int) {
	if !slices.Contains(c.Via, "xargs") {
		return c, nil
	}
	var fed []string
	var dyn []bool
	add := func(s string, d bool) {
		if len(fed) < maxFeeds*4 {
			fed, dyn = append(fed, s), append(dyn, d)
		}
	}
	for _, j := range cmds[i].Inputs {
		in := cmds[j]
		if len(in.Args) == 0 || in.Dynamic[0] {
			add(xargsInput, true)
			continue
		}
		switch commandName(in.Args[0]) {
		case "find":
			n := len(fed)
			for k := 1; k < len(in.Args); k++ {
				a := in.Args[k]
				if !in.Dynamic[k] && (strings.HasPrefix(a, "-") || a == "(" || a == "!") {
					break
				}
				if in.Dynamic[k] {
					add(a, true)
				} else {
					add(strings.TrimSuffix(a, "/")+"/{}", false)
				}
			}
			if len(fed) == n {
				add("./{}", false)
			}
		case "echo", "printf":
			args := in.Args[1:]
			d := in.Dynamic[1:]
			if commandName(in.Args[0]) == "printf" && len(args) > 1 {
				args, d = args[1:], d[1:] // the format's arguments
			}
			for k, a := range args {
				if k == 0 && !d[k] && commandName(in.Args[0]) == "echo" && (a == "-n" || a == "-e" || a == "-E" || a == "-ne" || a == "-en") {
					continue
				}
				if d[k] {
					add(a, true)
					continue
				}
				for _, f := range strings.Fields(strings.NewReplacer(`\n`, " ", `\t`, " ").Replace(a)) {
					add(f, false)
				}
			}
		default:
			add(xargsInput, true)
		}
	}
	if len(fed) == 0 {
		add(xargsInput, true)
	}
	out := Command{Args: append(slices.Clone(c.Args), fed...), Dynamic: append(slices.Clone(c.Dynamic), dyn...)}
	var t []int
	for k := range fed {
		t = append(t, len(c.Args)+k)
	}
	return out, t
}

// narrowedInputs reports whether a command feeding command i (through a
// pipe or a substitution, directly or upstream) narrows what is listed:
// a filter by identity (docker ps --filter name=web), a label selector
// (kubectl get -l app=x) or a text filter (grep, awk, head…). The names
// it feeds are then a chosen few, not every container there is. A filter
// by state (status=exited) does not narrow.
func narrowedInputs(cmds []Command, i int) bool {
	for _, j := range cmds[i].Inputs {
		c := cmds[j]
		if len(c.Args) == 0 || c.Dynamic[0] {
			continue
		}
		switch commandName(c.Args[0]) {
		case "grep", "egrep", "fgrep", "rg", "awk", "gawk", "head", "tail", "sed":
			return true
		}
		for k := 1; k < len(c.Args); k++ {
			a := c.Args[k]
			if c.Dynamic[k] {
				continue
			}
			switch {
			case a == "-l" || a == "--selector" || strings.HasPrefix(a, "--selector="):
				return true // a label selector
			case (a == "-f" || a == "--filter") && k+1 < len(c.Args) && !c.Dynamic[k+1] && narrowingFilter(c.Args[k+1]),
				strings.HasPrefix(a, "--filter=") && narrowingFilter(a[len("--filter="):]):
				return true
			}
		}
	}
	return false
}

// narrowingFilter reports a docker or podman filter that picks containers
// by what they are (name, label, image, id, network, volume, port), not
// by a state all of them may share (status=exited, dangling=true).
func narrowingFilter(v string) bool {
	k, _, _ := strings.Cut(v, "=")
	switch k {
	case "name", "label", "ancestor", "id", "reference", "network", "volume", "publish", "expose", "pod":
		return true
	}
	return false
}

// named is c with the words at targets t read as the names they stand
// for (see narrowedInputs), not as a set computed at run time.
func named(c Command, t []int) Command {
	c.Dynamic = slices.Clone(c.Dynamic)
	for _, k := range t {
		if k > 0 && k < len(c.Dynamic) {
			c.Dynamic[k] = false
		}
	}
	return c
}

// mayRun says, in the reason of a finding on a command that a program
// warden does not know may run (see resolver.mayRun), that it is a guess.
func mayRun(f risk.Finding, c *Command) risk.Finding {
	for _, v := range c.Via {
		if name, ok := strings.CutSuffix(v, mayRunVia); ok {
			f.Reason = name + " may run `" + cut(c.Line(), 80) + "`: " + f.Reason
			break
		}
	}
	return f
}

// xargsInput stands for the words xargs reads from an input warden does
// not see.
const xargsInput = "$(xargs input)"

// redirects judges the files a command's redirections write, and those
// they read (cat < ~/.ssh/id_rsa reads the key as cat ~/.ssh/id_rsa does).
func (k *Knowledge) redirects(out []risk.Finding, c Command, env paths.Env) []risk.Finding {
	for _, rd := range c.Redirs {
		if rd.Stdin() {
			continue
		}
		if rd.Op == "<" {
			if k.RedirectIn.Rule != "" {
				c := Command{Args: []string{"<", rd.Target}, Dynamic: []bool{false, rd.Dynamic}}
				target := [1]int{1}
				if f, ok := k.RedirectIn.judge(&c, target[:], env); ok {
					out = append(out, f)
				}
			}
			continue
		}
		if strings.HasPrefix(rd.Target, "/dev/tcp/") || strings.HasPrefix(rd.Target, "/dev/udp/") {
			l, why := risk.High, "The command opens a raw network connection through "+rd.Target
			if len(c.Args) > 0 && k.interp[commandName(c.Args[0])] {
				l, why = risk.Critical, "An interpreter wired to "+rd.Target+" is a remote shell"
			}
			out = append(out, risk.Finding{Analyzer: "shell", Rule: "net.dev_tcp", Level: l, Locked: l == risk.Critical, Reason: why, Resource: "url:tcp://" + strings.TrimPrefix(strings.TrimPrefix(rd.Target, "/dev/tcp/"), "/dev/udp/")})
			continue
		}
		if !rd.Writes() {
			continue
		}
		c := Command{Args: []string{">", rd.Target}, Dynamic: []bool{false, rd.Dynamic}}
		target := [1]int{1} // on the stack
		if f, ok := k.Redirect.judge(&c, target[:], env); ok {
			out = append(out, f)
		}
	}
	return out
}

// flow finds program text an interpreter, command i named name, takes
// from a download or from text decoded at run time.
func (k *Knowledge) flow(out []risk.Finding, fl *flows, i int, name string) []risk.Finding {
	c := fl.cmds[i]
	if len(c.Inputs) == 0 || !programFromInput(name, c) {
		return out
	}
	if fl.download == nil {
		fl.download, fl.decode = newMemo(len(fl.cmds)), newMemo(len(fl.cmds))
	}
	download := func(j int) bool {
		a := fl.cmds[j].Args
		return len(a) > 0 && !fl.cmds[j].Dynamic[0] && k.down[commandName(a[0])]
	}
	if j := fl.upstream(i, fl.download, download); j >= 0 {
		return append(out, risk.Finding{Analyzer: "shell", Rule: "rce.download_to_interpreter", Level: risk.Critical, Locked: true,
			Reason: "Program text downloaded by `" + cut(fl.cmds[j].Line(), 80) + "` runs in " + name + " without being seen"})
	}
	decode := func(j int) bool {
		a := fl.cmds[j].Args
		return len(a) > 0 && !fl.cmds[j].Dynamic[0] && decoder(commandName(a[0]), fl.cmds[j])
	}
	if j := fl.upstream(i, fl.decode, decode); j >= 0 {
		if _, ok := literalOut(fl.cmds, slices.Max(c.Inputs)); ok && (shells[name] || name == "eval") {
			// decoded here and read as the program it is (resolver.echoed):
			// what it does is judged too; hiding a program from review is
			// high by itself (no agent needs to)
			return append(out, risk.Finding{Analyzer: "shell", Rule: "rce.decode_to_shell", Level: risk.High,
				Reason: "Program text hidden in an encoded literal (`" + cut(fl.cmds[j].Line(), 80) + "`) runs in " + name + "; warden decoded it and judged what it runs as well"})
		}
		return append(out, risk.Finding{Analyzer: "shell", Rule: "rce.decode_to_shell", Level: risk.High,
			Reason: "Program text decoded at run time by `" + cut(fl.cmds[j].Line(), 80) + "` runs in " + name + ", hidden from review"})
	}
	return out
}

// flows answers, for the commands of one script, which command upstream
// of another (through pipes and substitutions, transitively) has a
// property. Answers are memoized, so a long pipeline costs linear time.
type flows struct {
	cmds             []Command
	download, decode memo // nil until built
}

// memo is one property's answers, by command, each found when first
// asked (a command no flow reaches is never asked about): one allocation
// for them all.
type memo []memoCell

// memoCell is the answers for command j: has says whether it has the
// property itself (0 not yet known, 1 no, 2 yes); up is the nearest
// command upstream of it that has it (-1 none, -2 not yet known, -3
// being computed).
type memoCell struct {
	has int8
	up  int
}

func newMemo(n int) memo {
	m := make(memo, n)
	for j := range m {
		m[j].up = -2
	}
	return m
}

// holds reports whether command j has the property, which is tells.
func (m memo) holds(j int, is func(j int) bool) bool {
	if m[j].has == 0 {
		m[j].has = 1
		if is(j) {
			m[j].has = 2
		}
	}
	return m[j].has == 2
}

// upstream returns a command feeding command i (directly or through
// others) that has the property m memoizes, which is tells.
func (fl *flows) upstream(i int, m memo, is func(j int) bool) int {
	switch m[i].up {
	case -2:
	case -3:
		return -1 // a cycle: nothing new on it
	default:
		return m[i].up
	}
	m[i].up = -3
	found := -1
	for _, j := range fl.cmds[i].Inputs {
		if m.holds(j, is) {
			found = j
			break
		}
		if u := fl.upstream(j, m, is); u >= 0 {
			found = u
			break
		}
	}
	m[i].up = found
	return found
}

// interpreterName drops a version suffix: python3.12 → python3.
func interpreterName(n string) string {
	if i := strings.IndexByte(n, '.'); i > 0 && n != "." {
		if v := n[i+1:]; v != "" && strings.Trim(v, "0123456789.") == "" {
			return n[:i]
		}
	}
	return n
}

// programFromInput reports whether an interpreter reads its program from
// its input: eval and source take it from their words (a substitution);
// other interpreters from stdin when no script file or -c/-e/-m program is
// given, or from a -c/-e word that is computed at run time.
func programFromInput(name string, c Command) bool {
	switch name {
	case "eval", "source", ".":
		return true
	}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-" || a == "-s" || a == "/dev/stdin":
			return true
		case a == "-c" || a == "-e" || a == "-E" || a == "-r" || a == "--eval" || a == "--command" || a == "-Command" || a == "-command":
			return i+1 < len(c.Args) && c.Dynamic[i+1]
		case a == "-m" || a == "-f":
			return false
		case strings.HasPrefix(a, "-"):
			// other flags, such as -x, -i, -u, -l
		default:
			return c.Dynamic[i] // a script file; computed means unknown
		}
	}
	return true
}

// decoder reports a command that turns encoded text back into program
// text: base64 -d, xxd -r, openssl enc -d, gunzip and the like.
func decoder(n string, c Command) bool {
	switch n {
	case "base64", "base32", "basenc":
		return hasFlag(c.Args[1:], "-d") || hasFlag(c.Args[1:], "--decode") || hasFlag(c.Args[1:], "-D")
	case "xxd":
		return hasFlag(c.Args[1:], "-r")
	case "openssl":
		return hasFlag(c.Args[1:], "-d") || hasFlag(c.Args[1:], "-base64") && hasFlag(c.Args[1:], "-A")
	case "gunzip", "zcat", "bunzip2", "bzcat", "xzcat", "unxz", "zstdcat", "uudecode", "rev":
		return true
	case "gzip", "bzip2", "xz", "zstd":
		return hasFlag(c.Args[1:], "-d") || hasFlag(c.Args[1:], "--decompress")
	case "tr":
		return len(c.Args) > 2 // rot13 and the like
	}
	return false
}

// sqlClient analyzes the SQL a database client is given on its command
// line or stdin, escalating destructive statements on production hosts or
// databases.
func (k *Knowledge) sqlClient(out []risk.Finding, cmds []Command, i int, e *entry, call *tool.Call) []risk.Finding {
	texts, conn := sqlOf(cmds, i, e)
	prod, looked := "", false // the production system conn names, looked up once
	for _, t := range texts {
		n := len(out)
		out = append(out, sqlFact(call, t).Findings...) // copied: EscalateOn changes them in place
		if len(out) > n {
			if !looked {
				prod, looked = tool.FirstProduction(conn...), true
			}
			sql.EscalateOn(out[n:], prod)
		}
	}
	return out
}

// sqlFact returns what the SQL text t a command gives a database client
// reads as (see tool.SQLText): the fact call holds for it, or t read now
// and recorded on call (unless call is nil), so that the effects and the
// analysis of a script read each text once. The fact must not be
// modified.
func sqlFact(call *tool.Call, t string) *tool.SQLText {
	if call == nil {
		f := sql.Fact(t)
		return &f
	}
	if f, ok := call.SQLText(t); ok {
		return f
	}
	call.AddSQLText(sql.Fact(t))
	f, _ := call.SQLText(t)
	return f
}

// sqlOf returns the SQL texts database client command i (whose entry is
// e) is given, on its command line or stdin, and the words that name its
// connection (hosts, databases, URLs).
func sqlOf(cmds []Command, i int, e *entry) (texts, conn []string) {
	cl := e.sql
	if cl == nil {
		return nil, nil
	}
	c := &cmds[i]
	var flagRoom [8]string // on the stack for most commands
	var operandRoom [8]int
	w := e.split(words{flags: flagRoom[:0], operands: operandRoom[:0]}, c)
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		for _, f := range cl.Flags {
			switch {
			case a == f && j+1 < len(c.Args):
				texts = append(texts, c.Args[j+1])
			case hasValue(a, f) && strings.HasPrefix(f, "--"):
				texts = append(texts, a[len(f)+1:])
			case len(f) == 2 && strings.HasPrefix(a, f) && len(a) > 2 && !strings.HasPrefix(f, "--") && a[1] != '-':
				texts = append(texts, a[2:]) // -e"DROP …"
			}
		}
	}
	conn = appendFlagValues(conn, c.Args, cl.Conn)
	for n, j := range w.operands {
		if cl.Operand > 0 && n+1 >= cl.Operand {
			texts = append(texts, c.Args[j])
		} else {
			conn = append(conn, c.Args[j]) // database name, URL or file
		}
	}
	return append(texts, stdinTexts(cmds, i)...), conn
}

// cut shortens a text shown in a finding to n bytes and a mark, never
// splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
