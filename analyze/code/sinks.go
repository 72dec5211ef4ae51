package code

import (
	"fmt"
	"github.com/agentwarden/warden/internal/envname"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// lockedRules are the rules whose critical findings no allow rule or mode
// overrides, only a person's approval of that exact action
// (risk.Finding.Locked): secrets sent off the machine, remote shells,
// critical destruction.
var lockedRules = map[string]bool{
	RuleExfiltration: true, RuleReverseShell: true,
	RuleFileDelete: true, RuleRecursiveDelete: true, RuleRawDiskWrite: true, RuleCredentialWrite: true,
}

// add records a finding of the code analyzer.
func (a *analysis) add(f risk.Finding) {
	f.Analyzer = Name
	f.Locked = f.Locked || f.Level == risk.Critical && lockedRules[f.Rule]
	f.Reason = validText(f.Reason)
	f.Resource = validText(f.Resource)
	for _, g := range a.findings {
		if g == f {
			return
		}
	}
	if len(a.findings) < maxFindings {
		a.findings = append(a.findings, f)
		return
	}
	// Full: the new finding replaces the least severe one, if it is less.
	low := 0
	for i, g := range a.findings {
		if rank(g.Level) < rank(a.findings[low].Level) {
			low = i
		}
	}
	if rank(f.Level) > rank(a.findings[low].Level) {
		a.findings[low] = f
	}
}

// validText is strings.ToValidUTF8(s, "\uFFFD") with a fast test
// (utf8.ValidString reads ASCII a word at a time) for the usual valid s.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// rank orders levels by how much a finding matters; Unknown counts as
// High, since it asks for a review.
func rank(l risk.Level) risk.Level {
	if l == risk.Unknown {
		return risk.High
	}
	return l
}

// maxFindings bounds the findings of one code text.
const maxFindings = 64

// maxAdded bounds what one code text adds to the call's lists (shell
// scripts, SQL and URLs, in all); past it the analysis is incomplete.
const maxAdded = 256

// appendTo adds s to one of the call's lists unless it is there already.
// dest records a URL the code requests among the call's destinations.
func (a *analysis) dest(u string) {
	for _, d := range a.call.Dests {
		if d.URL == u {
			return
		}
	}
	if a.added >= maxAdded {
		a.overrun = true
		return
	}
	a.added++
	a.call.Dests = append(a.call.Dests, tool.Dest{URL: u, Via: "python"})
}

func (a *analysis) appendTo(list *[]string, s string) {
	if slices.Contains(*list, s) {
		return
	}
	if a.added >= maxAdded {
		a.overrun = true
		return
	}
	a.added++
	*list = append(*list, s)
}

// ---------------------------------------------------------------- paths

// expanduser evaluates os.path.expanduser.
func (a *analysis) expanduser(v value) value {
	if !v.textual() {
		return derived(v)
	}
	s := v.s
	home := a.env.Home
	if home == "" {
		home = dyn
	}
	switch {
	case s == "~":
		s = home
	case strings.HasPrefix(s, "~/"):
		s = home + s[1:]
	case strings.HasPrefix(s, "~"):
		// ~name: another user's home.
		user, rest, _ := strings.Cut(s[1:], "/")
		if user == "root" {
			s = "/root"
		} else {
			s = "/home/" + user
		}
		if rest != "" {
			s += "/" + rest
		}
	}
	return value{k: v.k, s: s}.with(v)
}

// expandvars evaluates os.path.expandvars: $HOME and ${HOME} are known,
// any other variable is unknown.
func (a *analysis) expandvars(v value) value {
	if !v.textual() || !strings.Contains(v.s, "$") {
		return v
	}
	var b strings.Builder
	s := v.s
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		j, name := i+1, ""
		if s[j] == '{' {
			k := strings.IndexByte(s[j:], '}')
			if k < 0 {
				b.WriteByte(s[i])
				continue
			}
			name, j = s[j+1:j+k], j+k+1
		} else {
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			name = s[i+1 : j]
		}
		if name == "" {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(a.envVar(name, value{}).text())
		i = j - 1
	}
	return value{k: v.k, s: b.String()}.with(v)
}

// cwd is the working directory as a value.
func (a *analysis) cwd() value {
	if !a.cwdOK || a.env.Cwd == "" {
		return str(dyn)
	}
	return str(a.env.Cwd)
}

// absText renders v as an absolute path, relative ones joined to the
// working directory; unknown pieces stay unknown.
func (a *analysis) absText(v value) string {
	s := v.text()
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, dyn) {
		return s
	}
	c := a.cwd().s
	if s == "" || s == "." {
		return c
	}
	return c + "/" + s
}

// listing is the value of a directory listing of dir (glob pattern pat).
func (a *analysis) listing(dir value, pat string, recursive bool) value {
	sel := selectivePattern(pat)
	if d, rest := globDir(pat); d != "" {
		dir = pathVal(joinPath([]value{dir, str(d)})).with(dir)
		pat = rest
	}
	return value{k: kDyn, t: dir.t, src: &listing{dir: dir, recursive: recursive, selective: sel}}
}

// globDir splits a glob pattern into its literal directory part and the
// rest: "build/**/*.o" is "build" and "**/*.o".
func globDir(pat string) (string, string) {
	i := strings.IndexAny(pat, "*?[")
	if i < 0 {
		return "", pat
	}
	j := strings.LastIndexByte(pat[:i], '/')
	if j < 0 {
		return "", pat
	}
	return pat[:j], pat[j+1:]
}

// selectivePattern reports a glob pattern that matches only some
// entries: anything but *, **, .* and the like.
func selectivePattern(pat string) bool {
	if pat == "" {
		return false
	}
	for _, part := range strings.Split(pat, "/") {
		if strings.Trim(part, "*.") != "" {
			return true
		}
	}
	return false
}

// target is where a file operation lands, as far as it is known.
type target struct {
	p         string // absolute path, or a representative path below a known directory (ending in dyn)
	resource  string // what the finding names
	known     bool
	exact     bool // p is the path itself
	loop      bool // p is a directory whose listed entries are affected
	selective bool // only some entries of the listing
}

// resolve locates the path a file operation gets.
func (a *analysis) resolve(v value) target {
	if v.src != nil && (!v.textual() || strings.Contains(v.s, dyn)) {
		return a.resolveListing(v)
	}
	if v.textual() {
		s := v.s
		if s == "" {
			return target{}
		}
		if !strings.Contains(s, dyn) {
			p := a.env.Abs(s)
			if !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !a.cwdOK {
				return target{}
			}
			return target{p: p, resource: "file:" + p, known: true, exact: true}
		}
		if prefix := staticPrefix(s); prefix != "" && (strings.HasPrefix(prefix, "/") || strings.HasPrefix(prefix, "~") || a.cwdOK) {
			if strings.HasSuffix(prefix, "/") {
				dir := strings.TrimSuffix(a.env.Abs(prefix), "/")
				return target{p: dir + "/" + dyn, resource: "file:" + dir + "/*", known: true}
			}
			p := a.env.Abs(prefix)
			return target{p: p, resource: "file:" + p + "*", known: true}
		}
	}
	return target{}
}

// resolveListing locates an entry of a directory listing: the listed
// directory itself when every entry is affected, an entry below it when
// a pattern or a condition chooses some.
func (a *analysis) resolveListing(v value) target {
	d := a.resolve(v.src.dir)
	if !d.known || !d.exact {
		return target{}
	}
	sel := v.src.selective
	for k := len(a.loops) - 1; k >= 0; k-- {
		if a.loops[k].src == v.src {
			for _, depth := range a.conds {
				if depth > k {
					sel = true
				}
			}
			break
		}
	}
	t := target{p: d.p, resource: d.resource, known: true, loop: true, selective: sel}
	if sel {
		dir := strings.TrimSuffix(d.p, "/")
		t.p = dir + "/" + dyn // an entry below dir, classified as such
		t.resource = "file:" + dir + "/*"
	}
	return t
}

// classify returns the class of a target's path.
func (a *analysis) classify(t target) paths.Class {
	return a.env.Classify(t.p)
}

var classText = map[paths.Class]string{
	paths.Root:          "the filesystem root",
	paths.Home:          "a home directory",
	paths.System:        "a system location",
	paths.Credential:    "credentials",
	paths.Startup:       "a shell or session start-up file",
	paths.Device:        "a device",
	paths.HomeData:      "an entry directly in the home directory",
	paths.WorkspaceRoot: "the workspace itself or a folder holding it",
	paths.Outside:       "a location outside the workspace",
	paths.Workspace:     "the workspace",
	paths.Temp:          "a scratch location",
	paths.Guard:         "what guards the agent: warden's policy, state or binary, or an agent's hook settings",
}

// where renders a target for a reason.
func where(t target, c paths.Class) string {
	p := strings.TrimPrefix(t.resource, "file:")
	if paths.KernelControl(t.p) {
		return p + " (a kernel control file: what it names the kernel runs as root on the host)"
	}
	return p + " (" + classText[c] + ")"
}

// judged returns the finding of rule for the effect op on target t of
// class c, as the effect table judges it (effect.JudgeFile), with the
// reason's start; false when the table finds nothing to say.
func (a *analysis) judged(rule string, op effect.Op, t target, c paths.Class, reason string) (risk.Finding, bool) {
	tg := effect.FileOf(c)
	if t.exact && strings.HasPrefix(t.p, "/") {
		tg = effect.File(a.env, t.p)
		if op == effect.Read {
			tg = effect.Reading(a.env, t.p)
		}
	}
	v, ok := effect.JudgeFile(op, tg, !t.exact)
	if !ok || !v.Finds() {
		return risk.Finding{}, false
	}
	return risk.Finding{Rule: rule, Level: v.Level, Reversible: v.Reversible, Locked: v.Locked, Resource: t.resource,
		Reason: reason + where(t, c)}, true
}

// addJudged adds the finding judged returns, if any.
func (a *analysis) addJudged(rule string, op effect.Op, t target, c paths.Class, reason string) {
	if f, ok := a.judged(rule, op, t, c, reason); ok {
		a.add(f)
	}
}

// unseen adds the finding of rule for the effect op on a path the code
// computes at run time, as the effect table judges it.
func (a *analysis) unseen(rule string, op effect.Op, reason string) {
	if v, ok := effect.Judge(op, effect.Dynamic); ok && v.Finds() {
		a.add(risk.Finding{Rule: rule, Level: v.Level, Reversible: v.Reversible, Locked: v.Locked, Reason: reason})
	}
}

// remove records the deletion of v: recursive (shutil.rmtree) or of one
// file or empty directory.
func (a *analysis) remove(v value, recursive bool) {
	t := a.resolve(v)
	if !t.known {
		rule, op := RuleFileDelete, effect.Delete
		if recursive {
			rule, op = RuleRecursiveDelete, effect.DeleteTree
		}
		a.unseen(rule, op, "Code deletes a path computed at run time, which cannot be checked in advance")
		return
	}
	c := a.classify(t)
	if t.exact && a.maybe == 0 && strings.HasPrefix(t.p, "/") {
		a.effect(tool.Effect{Kind: tool.RemoveFile, Path: t.p}, false)
	}
	if tampers(strings.TrimSuffix(t.p, "/"+dyn), a.env.Home) {
		a.add(risk.Finding{Rule: RuleTamper, Level: risk.High, Resource: t.resource,
			Reason: "Code deletes " + where(t, c) + ", erasing the record of what was done"})
	}
	switch {
	case t.loop && !t.selective:
		a.addJudged(RuleRecursiveDelete, effect.DeleteTree, target{p: t.p, resource: t.resource, exact: true}, c, "Code deletes every entry it lists under ")
	case recursive:
		verb := "Code recursively deletes "
		if !t.exact {
			verb = "Code recursively deletes a path computed at run time under "
		}
		a.addJudged(RuleRecursiveDelete, effect.DeleteTree, t, c, verb)
	default:
		verb := "Code deletes "
		if !t.exact {
			verb = "Code deletes files chosen at run time under "
		}
		a.addJudged(RuleFileDelete, effect.Delete, t, c, verb)
	}
}

// copy records shutil.copy/move and os.rename: src is read (or moved
// away), dst is written.
func (a *analysis) copy(src, dst value, move bool) {
	if move {
		t := a.resolve(src)
		if t.known {
			c := a.classify(t)
			// what is moved away leaves its place as a delete would, but a
			// directory moves whole (shutil.move of the home directory is
			// not a delete rm refuses): judged as a delete of what the path
			// names, never as nothing, and it can be moved back
			whole := t
			whole.exact = false
			if f, ok := a.judged(RuleFileDelete, effect.Delete, whole, c, "Code moves away "); ok && f.Level >= risk.High {
				f.Reversible, f.Locked = true, false // moved, not destroyed
				a.add(f)
			}
		}
	} else {
		a.read(src)
	}
	// Copying into a directory lands below it.
	a.write(dst, "w")
	a.copied(src, dst, move)
}

// copied reports a copy or move: a CopyFile (and the removal of what was
// moved) when both paths are known and it certainly happens, else a write
// of unknown data to dst.
func (a *analysis) copied(src, dst value, move bool) {
	if !a.session {
		return
	}
	d, ok := a.filePath(dst)
	if !ok {
		return
	}
	s, ok := a.filePath(src)
	if !ok || a.maybe > 0 {
		a.effect(tool.Effect{Kind: tool.WriteFile, Path: d}, false)
		return
	}
	a.effect(tool.Effect{Kind: tool.CopyFile, Src: s, Path: d}, false)
	if move && s != d {
		a.effect(tool.Effect{Kind: tool.RemoveFile, Path: s}, false)
	}
}

// write records a write to v with the given open mode.
func (a *analysis) write(v value, mode string) {
	t := a.resolve(v)
	if !t.known {
		a.unseen(RuleFileWrite, effect.Write, "Code writes to a path computed at run time")
		return
	}
	c := a.classify(t)
	if procMem(t.p) {
		a.add(risk.Finding{Rule: RuleMemoryAccess, Level: risk.High, Resource: t.resource,
			Reason: "Code writes another process's memory through " + where(t, c)})
		return
	}
	if strings.ContainsAny(mode, "wx") && tampers(strings.TrimSuffix(t.p, "/"+dyn), a.env.Home) {
		a.add(risk.Finding{Rule: RuleTamper, Level: risk.High, Resource: t.resource,
			Reason: "Code overwrites " + where(t, c) + ", erasing the record of what was done"})
		return
	}
	rule := RuleFileWrite
	switch c {
	case paths.Device:
		rule = RuleRawDiskWrite
	case paths.Credential:
		rule = RuleCredentialWrite
	case paths.Startup:
		rule = RuleStartupWrite
	}
	a.addJudged(rule, effect.Write, t, c, "Code writes to ")
}

// procMem reports /proc/<pid>/mem and the kernel memory devices.
func procMem(p string) bool {
	if p == "/dev/mem" || p == "/dev/kmem" || p == "/dev/port" {
		return true
	}
	if rest, ok := strings.CutPrefix(p, "/proc/"); ok {
		return strings.HasSuffix(rest, "/mem") && strings.Count(rest, "/") == 1
	}
	return false
}

// read records a read of v and returns the file object; reading a
// credential taints what is read.
func (a *analysis) read(v value) value {
	f := value{k: kObj, s: "file"}
	t := a.resolve(v)
	if !t.known || !t.exact {
		return f
	}
	c := a.classify(t)
	// read as a credential: by its class, or a shell's history by its name
	cred := c == paths.Credential || strings.HasPrefix(t.p, "/") && effect.ReadingOf(effect.FileOf(c), t.p) == effect.Credential
	if a.session && strings.HasPrefix(t.p, "/") {
		f.obj = &object{file: t.p}
		if cred || secretFile(t.p) {
			a.effect(tool.Effect{Kind: tool.ReadFile, Path: t.p, Sensitive: sensCred}, false)
		}
	}
	switch {
	case procMem(t.p):
		a.add(risk.Finding{Rule: RuleMemoryAccess, Level: risk.High, Resource: t.resource, Reversible: true,
			Reason: "Code reads another process's or the kernel's memory through " + where(t, c)})
	case cred:
		f.t |= tCred
		a.add(risk.Finding{Rule: RuleCredentialRead, Level: risk.High, Resource: t.resource, Reversible: true,
			Reason: "Code reads " + where(t, c) + ", putting secrets within reach"})
	case c == paths.Device:
		a.add(risk.Finding{Rule: RuleDeviceRead, Level: risk.High, Resource: t.resource, Reversible: true,
			Reason: "Code reads the raw device " + where(t, c) + ", which exposes everything stored on it"})
	case secretFile(t.p):
		f.t |= tCred
		if effect.Reading(a.env, t.p) == effect.Secret {
			a.addJudged(RuleSecretRead, effect.Read, t, c, "Code reads the secrets in ")
		}
	}
	return f
}

// secretFile reports files that hold a project's secrets: .env files
// (not their templates) and private keys and certificates.
func secretFile(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		switch base[min(len(base), 5):] {
		case "example", "sample", "template", "dist", "defaults":
			return false
		}
		return true
	}
	for _, ext := range []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa")
}

// open evaluates open(file, mode): a mode that is not known is taken to
// write.
func (a *analysis) open(file, mode value) value {
	m, modeKnown := mode.static()
	if !modeKnown {
		m = "w"
	}
	if file.k == kInt { // a file descriptor
		return value{k: kObj, s: "file"}
	}
	var f value
	writes := strings.ContainsAny(m, "wax+")
	if writes {
		a.write(file, m)
		f = value{k: kObj, s: "file"}
	} else {
		f = a.read(file)
	}
	if s, ok := file.static(); ok && file.textual() {
		p := str(a.env.Abs(s))
		if f.obj == nil {
			f.obj = &object{}
		}
		f.obj.url = &p
		if strings.ContainsAny(m, "wx") {
			a.record(p.s, str(""), false)
		}
		if !a.session || !writes {
			// no effect to report
		} else if path, ok := a.filePath(file); ok {
			f.obj.file = path
			a.openedForWrite(&f, path, m, modeKnown)
		}
	}
	return f
}

// record notes text the code writes to the file at absolute path p, so
// that running the file later is read as running that text.
func (a *analysis) record(p string, text value, appending bool) {
	if a.written == nil {
		a.written = map[string]string{}
	}
	t := textOf(text)
	if appending {
		t = a.written[p] + t
	}
	if len(t) > maxText {
		t = t[:maxText]
	}
	a.written[p] = t
}

// script returns what the code wrote to a file a command names, if it
// wrote it.
func (a *analysis) script(word string) (string, bool) {
	if word == "" || strings.HasPrefix(word, "-") || strings.Contains(word, dyn) || len(a.written) == 0 {
		return "", false
	}
	text, ok := a.written[a.env.Abs(word)]
	return text, ok
}

// ranScript reads a script file a command runs, if the code wrote it:
// words are the command's words.
func (a *analysis) ranScript(words []string) {
	if len(words) == 0 || len(a.written) == 0 {
		return
	}
	prog := path.Base(words[0])
	if text, ok := a.script(words[0]); ok { // ./cleanup.sh
		if strings.HasSuffix(words[0], ".py") {
			a.nested(text)
		} else {
			a.shellLine(renderScript(text), nil, "")
		}
		return
	}
	py := strings.HasPrefix(prog, "python")
	if !py && !shells[prog] {
		return
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") {
			if w == "-c" || w == "-m" {
				return
			}
			continue
		}
		if text, ok := a.script(w); ok {
			if py {
				a.nested(text)
			} else {
				a.shellLine(renderScript(text), nil, "")
			}
		}
		return
	}
}

// stdinScript reads a script handed to a shell or Python on its standard
// input (subprocess.run(['bash'], input=…)).
func (a *analysis) stdinScript(prog string, in value) {
	if !in.textual() {
		return
	}
	switch {
	case shells[prog]:
		a.shellLine(renderScript(in.s), nil, prog)
	case strings.HasPrefix(prog, "python") && !strings.Contains(in.s, dyn):
		a.nested(in.s)
	}
}

// callTarget calls a function handed to a thread, timer, exit handler or
// executor with the arguments handed along.
func (a *analysis) callTarget(f, params, kwargs value) {
	c := &args{}
	if params.k == kList {
		c.pos = params.items
	}
	if kwargs.k == kDict {
		for i := 0; i+1 < len(kwargs.items); i += 2 {
			if k, ok := kwargs.items[i].static(); ok {
				c.kw = append(c.kw, kwValue{name: k, v: kwargs.items[i+1]})
			}
		}
	}
	switch f.k {
	case kRef:
		a.callRef(f.s, c)
	case kFunc:
		a.invoke(f.fn(), c.pos, c.kw)
	}
}

// dirArg is the directory argument of a listing function (default ".").
func (a *analysis) dirArg(c *args, name string) value {
	if v, ok := c.get(0, name); ok {
		return v
	}
	return str(".")
}

// connect records the address a socket connects to.
func (a *analysis) connect(addr value) {
	a.scan(addr)
	if addr.k == kList && len(addr.items) > 0 {
		if h, ok := addr.items[0].static(); ok && h != "" {
			port := ""
			if len(addr.items) > 1 {
				port = ":" + addr.items[1].text()
			}
			a.peer = str("tcp://" + h + port)
			return
		}
	}
	a.peer = dynValue
}

// scanTurns is how many turns of the loops around a connection to an
// address they choose make it a scan.
const scanTurns = 16

// scan reports a connection to addr inside loops over ranges whose turns
// choose the host or the port (for h in range(1, 255): for port in
// range(1, 1025): s.connect_ex((f'192.168.1.{h}', port))): a port scan
// or a sweep of a network, high as nmap is. A connection retried to one
// fixed address, and a single one, are not.
func (a *analysis) scan(addr value) {
	if addr.k != kList || len(addr.items) == 0 {
		return
	}
	chosen := false
	for _, it := range addr.items[:min(2, len(addr.items))] {
		if _, ok := it.static(); !ok {
			if _, ok := it.staticInt(); !ok {
				chosen = true
			}
		}
	}
	if !chosen {
		return
	}
	turns := int64(1)
	for _, lp := range a.loops {
		if lp.count > 1 {
			turns *= min(lp.count, 1<<20)
		}
	}
	if turns < scanTurns {
		return
	}
	a.add(risk.Finding{Rule: RuleNetworkScan, Level: risk.High, Reversible: true,
		Reason: fmt.Sprintf("Code connects to addresses or ports chosen by loops over ranges (%d attempts): a port scan or network sweep, as nmap is", turns)})
}

// osOpen evaluates os.open(path, flags).
func (a *analysis) osOpen(c *args) value {
	p, flags := c.arg(0, "path"), c.arg(1, "flags")
	n, ok := flags.staticInt()
	if !ok || n&3 != 0 || n&0o1000 != 0 {
		a.write(p, "w")
		return dynValue
	}
	f := a.read(p)
	return derived(f)
}

// chmod records a permission change.
func (a *analysis) chmod(v, mode value) {
	t := a.resolve(v)
	c := paths.Outside
	if t.known {
		c = a.classify(t)
	}
	sensitive := c == paths.System || c == paths.Startup || c == paths.Credential || c == paths.Root || c == paths.Home || c == paths.Device
	f := risk.Finding{Rule: RulePermissions, Resource: t.resource, Reversible: true}
	place := "a path computed at run time"
	if t.known {
		place = where(t, c)
	}
	m, ok := mode.staticInt()
	if !a.session || ok && m&0o111 == 0 {
		// no effect to report
	} else if p, exact := a.filePath(v); exact {
		a.effect(tool.Effect{Kind: tool.MakeExecutable, Path: p}, false)
	}
	switch {
	case !ok:
		f.Level = risk.Medium
		if !sensitive && t.known {
			f.Level = risk.Low
		}
		f.Reason = "Code changes the permissions of " + place
	case m&0o6000 != 0:
		f.Level = risk.High
		f.Reason = fmt.Sprintf("Code sets the setuid or setgid bit (mode %#o) on %s", m, place)
	case m&0o002 != 0:
		f.Level = risk.Medium
		if sensitive {
			f.Level = risk.High
		}
		f.Reason = fmt.Sprintf("Code makes %s writable by everyone (mode %#o)", place, m)
	case c == paths.Credential && m&0o077 != 0:
		f.Level = risk.Medium
		f.Reason = fmt.Sprintf("Code makes %s readable by other users (mode %#o)", place, m)
	case sensitive:
		f.Level = risk.Medium
		f.Reason = fmt.Sprintf("Code changes the permissions of %s (mode %#o)", place, m)
	default:
		f.Level = risk.Low
		f.Reason = fmt.Sprintf("Code changes the permissions of %s (mode %#o)", place, m)
	}
	a.add(f)
}

// chown records an ownership change.
func (a *analysis) chown(v value) {
	t := a.resolve(v)
	lvl, place := risk.Medium, "a path computed at run time"
	if t.known {
		c := a.classify(t)
		place = where(t, c)
		switch c {
		case paths.System, paths.Startup, paths.Credential, paths.Root, paths.Home, paths.Device:
			lvl = risk.High
		default:
			lvl = risk.Low
		}
	}
	a.add(risk.Finding{Rule: RulePermissions, Level: lvl, Resource: t.resource, Reversible: true,
		Reason: "Code changes the owner of " + place})
}

// ---------------------------------------------------------------- processes

// subprocess evaluates subprocess.run and its siblings.
func (a *analysis) subprocess(c *args) value {
	cmd := c.arg(0, "args")
	var cwd *value
	if v, ok := c.kwarg("cwd"); ok && v.k != kNone {
		cwd = &v
	}
	shell := false
	if v, ok := c.kwarg("shell"); ok {
		shell = truthy(v) || v.k == kDyn
	}
	var stdio []value
	for _, k := range []string{"stdin", "stdout", "stderr"} {
		if v, ok := c.kwarg(k); ok {
			stdio = append(stdio, v)
		}
	}
	if exe, ok := c.kwarg("executable"); ok && cmd.k == kList && len(cmd.items) > 0 {
		items := slices.Clone(cmd.items)
		items[0] = exe
		cmd = value{k: kList, items: items}.with(cmd)
	}
	switch {
	case cmd.k == kList && shell:
		// With shell=True the first item is the script.
		if len(cmd.items) > 0 {
			a.runShell(cmd.items[0], cwd)
		}
	case cmd.k == kList:
		a.runArgv(cmd, cwd, stdio)
	default:
		a.runShell(cmd, cwd)
	}
	prog := ""
	if cmd.k == kList && len(cmd.items) > 0 && !shell {
		prog = path.Base(cmd.items[0].text())
	} else if shell || cmd.textual() {
		prog = "sh" // the shell that reads the script also reads its input
		if s, ok := cmd.static(); ok && cmd.textual() && !strings.ContainsAny(strings.TrimSpace(s), " \t") {
			prog = path.Base(s)
		}
	}
	if in, ok := c.kwarg("input"); ok {
		a.stdinScript(prog, in)
	}
	return value{k: kObj, s: "process", obj: &object{method: prog}}
}

// exec evaluates os.exec* and os.spawn*: the program, then its argv (the
// first item of which is only the name the program sees).
func (a *analysis) exec(name string, c *args) {
	pos := c.pos
	if strings.HasPrefix(name, "spawn") && len(pos) > 0 {
		pos = pos[1:] // the mode
	}
	if len(pos) == 0 {
		a.dynamicCommand()
		return
	}
	prog := pos[0]
	var argv []value
	switch {
	case strings.HasPrefix(name, "posix_spawn") || strings.Contains(name, "v"):
		if len(pos) > 1 && pos[1].k == kList {
			argv = pos[1].items
		} else if len(pos) > 1 {
			a.runArgv(value{k: kList, items: []value{prog, derived(pos[1])}}, nil, nil)
			return
		}
	default: // execl*: arg0, arg1, …; the e forms end with an environment
		argv = pos[1:]
		if strings.HasSuffix(name, "e") && len(argv) > 0 {
			argv = argv[:len(argv)-1]
		}
	}
	items := []value{prog}
	if len(argv) > 1 {
		items = append(items, argv[1:]...)
	}
	a.runArgv(value{k: kList, items: items}, nil, nil)
}

// runShell records a shell script a call runs.
func (a *analysis) runShell(script value, cwd *value) {
	if !script.textual() {
		if script.k == kList {
			a.runArgv(script, cwd, nil)
			return
		}
		a.dynamicCommand()
		return
	}
	s := script.s
	if strings.HasPrefix(strings.TrimSpace(s), dyn) {
		a.dynamicCommand()
		return
	}
	a.shellLine(renderScript(s), cwd, firstWord(s))
	if len(a.written) > 0 {
		for _, cmd := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '\n' }) {
			a.ranScript(strings.Fields(cmd))
		}
	}
}

// runArgv records an argv a call runs.
func (a *analysis) runArgv(argv value, cwd *value, stdio []value) {
	if argv.textual() {
		a.runShell(argv, cwd)
		return
	}
	if argv.k != kList || len(argv.items) == 0 {
		a.dynamicCommand()
		return
	}
	words := make([]string, len(argv.items))
	for i, w := range argv.items {
		if w.textual() || w.k == kInt {
			words[i] = w.text()
		} else {
			words[i] = dyn
		}
	}
	if strings.HasPrefix(words[0], dyn) || words[0] == "" {
		a.dynamicCommand()
		return
	}
	prog := path.Base(words[0])
	if shells[prog] {
		if len(words) == 1 || slices.Contains(words[1:], "-i") {
			a.interactive = true
		}
		for _, v := range stdio {
			if v.t&tSocket != 0 {
				a.shellIO = true
			}
		}
	}
	if i := tool.ShellScriptIndex(words); i > 0 && !strings.Contains(strings.Join(words[:i], " "), dyn) {
		a.shellLine(renderScript(words[i]), cwd, prog)
		return
	}
	if strings.HasPrefix(prog, "python") {
		if i := slices.Index(words, "-c"); i > 0 && i+1 < len(words) && !strings.Contains(words[i+1], dyn) {
			a.nested(words[i+1])
		}
	}
	rendered := make([]string, len(words))
	for i, w := range words {
		rendered[i] = renderShellWord(w)
	}
	a.shellLine(strings.Join(rendered, " "), cwd, prog)
	a.ranScript(words)
}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true, "ash": true, "busybox": true}

// shellLine appends a command line for shell analysis and records that a
// command runs.
func (a *analysis) shellLine(line string, cwd *value, prog string) {
	if strings.TrimSpace(line) == "" {
		return
	}
	switch {
	case cwd != nil:
		if cwd.textual() {
			line = "cd " + renderShellWord(a.absText(*cwd)) + " && " + line
		} else {
			line = "cd " + dynWord + " && " + line
		}
	case a.env.Cwd != a.call.Cwd || !a.cwdOK:
		line = "cd " + renderShellWord(a.cwd().s) + " && " + line
	}
	line = validText(line)
	a.appendTo(&a.call.Shell, line)
	what := "a shell command"
	if plainWord(prog) {
		what = "the command " + prog
	}
	a.add(risk.Finding{Rule: RuleSubprocess, Level: risk.Low, Reversible: true,
		Reason: "Code runs " + what + "; the command line is assessed as a shell command"})
}

func (a *analysis) dynamicCommand() {
	a.add(risk.Finding{Rule: RuleDynamicCommand, Level: risk.High,
		Reason: "Code runs a command computed at run time, so what runs cannot be checked"})
}

// firstWord returns the program name a script starts with.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t\n;|&"); i >= 0 {
		s = s[:i]
	}
	return path.Base(s)
}

// plainWord reports a short word made of characters safe to show.
func plainWord(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isNameByte(c) || c == '-' || c == '.' || c == '+') {
			return false
		}
	}
	return true
}

// quoteArgv quotes words for the shell (shlex.join).
func quoteArgv(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = renderQuoted(w)
	}
	return strings.Join(out, " ")
}

// renderQuoted quotes one word, keeping unknown pieces unknown.
func renderQuoted(s string) string {
	if !strings.Contains(s, dyn) {
		return tool.Quote(s)
	}
	return s
}

// fork records a fork: in a loop without end, or one of many rounds,
// every child forks again (a fork bomb).
func (a *analysis) fork() {
	for _, l := range a.loops {
		switch {
		case l.unbounded && !l.exits, l.count >= 16:
			a.add(risk.Finding{Rule: RuleForkBomb, Level: risk.Critical, Reversible: true,
				Reason: "Code forks in a loop whose every child forks again (fork bomb), exhausting the machine's processes"})
			return
		case l.unbounded:
			a.add(risk.Finding{Rule: RuleForkBomb, Level: risk.High, Reversible: true,
				Reason: "Code forks in a loop without a fixed end, which can exhaust the machine's processes"})
			return
		}
	}
}

// growth records a method that grows its receiver (append, write …):
// in a comprehension without end it grows until memory or the disk is
// full. (Loop statements are res.growth_loop's, which reads their bodies
// for pauses and breaks.)
func (a *analysis) growth(m string) {
	for _, l := range a.loops {
		if l.endless {
			a.add(risk.Finding{Rule: RuleGrowth, Level: risk.High, Reversible: true,
				Reason: "Code calls ." + m + "() on every turn of a comprehension without end, which grows memory or a file until the machine runs out"})
			return
		}
	}
}

// spawn records a process started without waiting for it: in a loop
// without end or of many rounds, processes pile up.
func (a *analysis) spawn() {
	for _, l := range a.loops {
		if l.unbounded && !l.exits || l.count >= 1000 {
			a.add(risk.Finding{Rule: RuleForkBomb, Level: risk.High, Reversible: true,
				Reason: "Code starts processes in a loop without end or of many rounds, which can exhaust the machine"})
			return
		}
	}
}

// kill records os.kill; -1 signals every process the user may signal.
func (a *analysis) kill(pid value) {
	if n, ok := pid.staticInt(); ok && (n == -1 || n == 1) {
		a.add(risk.Finding{Rule: RuleKillAll, Level: risk.High, Reversible: true,
			Reason: "Code signals every process (or init), which can take the whole session or machine down"})
	}
}

// reverseShell checks the evidence for a shell wired to a socket.
func (a *analysis) reverseShell() {
	if a.socket && (a.dup2 || a.shellIO || a.interactive) {
		a.add(risk.Finding{Rule: RuleReverseShell, Level: risk.Critical,
			Reason: "Code connects a shell's input and output to a network socket (reverse or bind shell)"})
	}
}

func (a *analysis) native(name string) {
	a.add(risk.Finding{Rule: RuleNative, Level: risk.High,
		Reason: "Code calls native code or raw memory through " + name + ", which bypasses Python's checks"})
}

// ---------------------------------------------------------------- network

// http records an HTTP request. bodyPos is the position of the body
// argument (-1 when it is keyword-only).
func (a *analysis) http(method string, u value, c *args, bodyPos int) value {
	var data []value
	hasBody := false
	if c != nil {
		for _, k := range []string{"data", "json", "files", "body", "content", "fields"} {
			if v, ok := c.kwarg(k); ok && v.k != kNone {
				data = append(data, v)
				hasBody = true
			}
		}
		if bodyPos >= 0 && bodyPos < len(c.pos) && c.pos[bodyPos].k != kNone {
			data = append(data, c.pos[bodyPos])
			hasBody = true
		}
	}
	body := data
	if c != nil {
		data = append(data[:len(data):len(data)], c.pos...)
		for _, kw := range c.kw {
			v := kw.v
			switch kw.name {
			case "headers", "auth", "cookies":
				// what authenticates the request is not what it sends: a
				// token there goes to the service it is for, as curl's -H
				// and -u are read
				v.t &^= tSecretVar
			}
			data = append(data, v)
		}
	}
	send := hasBody
	switch method {
	case "GET", "HEAD", "OPTIONS", "":
	default:
		send = true
	}
	a.sendOrFetch(u, send, data)
	if c != nil {
		if p, ok := c.kwarg("params"); ok {
			u = withParams(u, p) // requests.get(url, params={"action": "DELETE"})
		}
	}
	a.request(method, u, body)
	return value{k: kObj, s: "response", t: tNet}
}

// urlopen evaluates urllib.request.urlopen(url or Request, data).
func (a *analysis) urlopen(c *args) value {
	u := c.arg(0, "url")
	var data []value
	send := false
	if d, ok := c.get(1, "data"); ok && d.k != kNone {
		data = append(data, d)
		send = true
	}
	if u.k == kObj && u.s == "urllib.request.Request" && u.obj != nil {
		if u.obj.body != nil && u.obj.body.k != kNone {
			data = append(data, *u.obj.body)
			send = true
		}
		switch u.obj.method {
		case "", "GET", "HEAD", "OPTIONS":
		default:
			send = true
		}
		data = append(data, u)
		method := u.obj.method
		if method == "" && send {
			method = "POST"
		}
		var body []value
		if u.obj.body != nil && u.obj.body.k != kNone {
			body = append(body, *u.obj.body)
		}
		if d, ok := c.get(1, "data"); ok && d.k != kNone {
			body = append(body, d)
		}
		a.request(method, *u.obj.url, body)
		u = *u.obj.url
	}
	a.sendOrFetch(u, send, data)
	return value{k: kObj, s: "response", t: tNet}
}

// inlineText returns the text a request to URL u carries inline: the
// URL's data and the text of the values sent with it; whole is false when
// some of it is computed at run time.
func inlineText(u string, data []value) (text string, whole bool) {
	parts := tool.URLData(strings.ReplaceAll(u, dyn, ""))
	whole = !strings.Contains(u, dyn)
	for _, d := range data {
		if !d.textual() {
			if d.k != kNone && d.k != kInt && d.k != kBool {
				whole = false
			}
			continue
		}
		t := d.text()
		if t == u || slices.Contains(parts, t) {
			continue
		}
		if strings.Contains(t, dyn) {
			whole = false
			t = strings.ReplaceAll(t, dyn, "")
		}
		parts = append(parts, t)
	}
	return tool.InlineText(parts), whole
}

// sendOrFetch records a request to u that sends data (send) or only
// fetches; data are every value that goes along.
func (a *analysis) sendOrFetch(u value, send bool, data []value) {
	var t taint
	for _, d := range data {
		t |= d.t
	}
	t |= u.t
	s := u.text()
	if u.k == kObj && u.obj != nil && u.obj.url != nil {
		s = u.obj.url.text()
	}
	host, local, known := hostOf(s)
	// The URL is judged by URL analysis as a fetch tool's would be; the
	// code's own machine (loopback) is not a server-side request forgery
	// target for code that runs there anyway.
	if known && !strings.Contains(s, dyn) && utf8.ValidString(s) {
		if !local && webURL(s) {
			a.appendTo(&a.call.URLs, s)
		}
		a.dest(s) // the destination is judged, whatever it is
	}
	if a.session {
		full := ""
		if !strings.Contains(s, dyn) && utf8.ValidString(s) {
			full = s
		}
		a.fetched(full)
		// Data read from files goes along (the URL itself may come from a
		// file without being sent).
		from := fileData(data, false, u.fileOf(), nil)
		inline := send || len(tool.URLData(full)) > 0 || strings.Contains(s, dyn) && known
		if len(from) > 0 || inline {
			text, whole := inlineText(s, data)
			a.effect(tool.Effect{Kind: tool.SendData, URL: full, From: from, Inline: inline, Text: text, Known: inline && whole}, false)
		}
	}
	dest := "a host computed at run time"
	resource := ""
	if known {
		dest = host
		resource = "url:" + redactURL(s)
	}
	switch {
	case t&sensitive != 0:
		lvl := risk.Critical
		if local {
			lvl = risk.High
		}
		what := "data read from a database"
		switch {
		case t&tEnviron != 0:
			what = "the process environment (tokens and keys)"
		case t&tCred != 0:
			what = "the contents of a credential file"
		}
		a.add(risk.Finding{Rule: RuleExfiltration, Level: lvl, Resource: resource,
			Reason: "Code sends " + what + " to " + dest + " (exfiltration)"})
	case t&tSecretVar != 0 && a.foreignSecret(host) != "":
		// a token the environment holds, sent in a URL or body to a host
		// that is not its service's: judged as $NPM_TOKEN in curl's URL
		v := a.foreignSecret(host)
		lvl := risk.High
		switch {
		case local:
			lvl = risk.Medium
		case strings.HasPrefix(strings.ToUpper(v), "AWS_"):
			lvl = risk.Critical // AWS's keys sign requests and never travel
		}
		a.add(risk.Finding{Rule: RuleExfiltration, Level: lvl, Resource: resource,
			Reason: "Code sends the secret in $" + v + " to " + dest + " (exfiltration)"})
	case send:
		lvl := risk.High
		if local {
			lvl = risk.Medium
		}
		a.add(risk.Finding{Rule: RuleNetworkSend, Level: lvl, Resource: resource,
			Reason: "Code sends data to " + dest + ", changing or leaking something outside this machine"})
	default:
		a.add(risk.Finding{Rule: RuleNetworkRead, Level: risk.Low, Resource: resource, Reversible: true,
			Reason: "Code fetches a resource from " + dest})
	}
}

// foreignSecret returns a secret variable the code reads that is not for
// host's service (see envname.OwnService), "" when every one is. Which of
// them a request carries is not tracked: one sent to its own service
// clears the request only when all are.
func (a *analysis) foreignSecret(host string) string {
	for _, v := range a.secretVars {
		if !envname.OwnService(v, host) {
			return v
		}
	}
	return ""
}

// webURL reports a URL of a scheme that URL analysis reads.
func webURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "ftp://")
}

// hostOf returns the host of a URL whose scheme and host are known, and
// whether it is this machine.
func hostOf(s string) (host string, local, known bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", false, false
	}
	rest := s[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority := rest[:end]
	if strings.Contains(authority, dyn) || authority == "" {
		return "", false, false
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	h, _, ok := netguard.PlainAuthority(authority)
	if !ok {
		h = parsedHostname(authority)
	}
	return h, isLocal(h), true
}

// parsedHostname returns the host of an authority as url.Parse reads it,
// the authority itself when url.Parse reads none.
func parsedHostname(authority string) string {
	if u, err := url.Parse("http://" + authority); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	return authority
}

// isLocal reports a host that is this machine, in any form.
func isLocal(h string) bool { return netguard.Local(h) }

// redactURL drops a URL's user information, query and fragment, which may
// hold secrets.
func redactURL(s string) string {
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		rest := s[i+3:]
		end := strings.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
			s = s[:i+3] + rest[at+1:]
		}
	}
	return strings.ReplaceAll(s, dyn, "…")
}

// ---------------------------------------------------------------- SQL and code

// sqlText appends SQL a call runs for the SQL analyzer. db tells a
// receiver known to be a database connection: then unknown SQL is a
// finding, and any literal is SQL.
func (a *analysis) sqlText(v value, db bool) {
	if !v.textual() {
		if db {
			a.add(risk.Finding{Rule: RuleDynamicSQL, Level: risk.Medium, Reversible: true,
				Reason: "Code runs SQL computed at run time, so what it does to the database cannot be checked"})
		}
		return
	}
	s := v.s
	if strings.TrimSpace(strings.ReplaceAll(s, dyn, "")) == "" {
		if db {
			a.add(risk.Finding{Rule: RuleDynamicSQL, Level: risk.Medium, Reversible: true,
				Reason: "Code runs SQL computed at run time, so what it does to the database cannot be checked"})
		}
		return
	}
	if !db && !looksLikeSQL(s) {
		return
	}
	s = validText(strings.ReplaceAll(s, dyn, "warden_dynamic"))
	a.appendTo(&a.call.SQL, s)
}

var sqlWords = []string{"select", "insert", "update", "delete", "drop", "create", "alter", "truncate", "with", "pragma",
	"replace", "grant", "revoke", "begin", "commit", "rollback", "copy", "merge", "attach", "detach", "vacuum", "analyze",
	"explain", "show", "set", "use", "call", "do", "upsert", "rename", "comment", "lock", "reindex", "load", "exec", "execute"}

// looksLikeSQL reports text whose first word is an SQL statement keyword.
func looksLikeSQL(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n(")
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z') {
		end++
	}
	if end == 0 || end < len(s) && isNameByte(s[end]) {
		return false
	}
	w := strings.ToLower(s[:end])
	return slices.Contains(sqlWords, w)
}

// execCode records exec/eval of v; known code is analyzed in turn.
func (a *analysis) execCode(v value) {
	if f := v.fileOf(); f != "" {
		a.effect(tool.Effect{Kind: tool.RunFile, Path: f, Lang: "python"}, false)
	}
	if v.t&tNet != 0 {
		a.forget = true
		a.add(risk.Finding{Rule: RuleRemoteCode, Level: risk.High,
			Reason: "Code executes text downloaded from the network (remote code execution)"})
		return
	}
	if s, ok := v.static(); ok && v.textual() {
		a.add(risk.Finding{Rule: RuleEval, Level: risk.Medium, Reversible: true,
			Reason: "Code executes a string of code with exec or eval"})
		a.nested(s)
		return
	}
	a.forget = true // the code it runs may bind any variable
	a.add(risk.Finding{Rule: RuleEval, Level: risk.Medium, Reversible: true,
		Reason: "Code executes code computed at run time with exec or eval"})
}

// deserialize records pickle.loads and the like, which run code hidden in
// the data.
func (a *analysis) deserialize(v value) {
	if v.t&tNet != 0 {
		a.add(risk.Finding{Rule: RuleRemoteCode, Level: risk.High,
			Reason: "Code unpickles data downloaded from the network, which runs any code the sender chose"})
	}
}

// nested analyzes code that the analyzed code runs (exec, python -c).
func (a *analysis) nested(src string) {
	if a.depth >= maxExecDepth {
		a.add(risk.Finding{Rule: RuleTooComplex, Level: risk.Unknown,
			Reason: "Code executes code nested too deeply to follow"})
		return
	}
	a.depth++
	defer func() { a.depth-- }()
	a.run(src)
}
