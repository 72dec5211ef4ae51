// Package paths classifies the files an action touches: the filesystem
// root, system directories, the home directory itself, credential stores,
// shell start-up files, devices, the workspace and scratch space, and what
// guards the agent (warden's own files, the agents' hook settings). Every
// analyzer that judges a path (shell, code, edits) asks this package, so a
// path means the same thing wherever it appears.
package paths

import (
	"math/bits"
	"path"
	"strings"
)

// Class is what a path is to the user.
type Class int

// The classes, from the least to the most sensitive. Their order is not a
// risk order; analyzers map classes to levels for their own operation.
const (
	Temp          Class = iota // /tmp, /var/tmp, /dev/shm and below
	Workspace                  // inside the working directory
	Outside                    // anywhere else that is not more specific
	HomeData                   // a top-level user folder in home: ~/Documents, ~/src
	WorkspaceRoot              // the working directory itself, or an ancestor of it below home
	Startup                    // shell and session start-up files: ~/.bashrc, ~/.profile
	Credential                 // secrets: ~/.ssh, ~/.aws, ~/.gnupg, ~/.kube, /etc/shadow
	Device                     // a block or character device: /dev/sda
	System                     // operating-system directories: /etc, /usr, /bin, /boot, /var
	Home                       // the home directory itself, or /home, /root
	Root                       // the filesystem root
	// Guard is what guards the agent: warden's policy layers, state, audit
	// and binary, and the agents' hook and permission settings (see
	// Env.Guarded). It is checked before every other class but Root and
	// Home: ~/.config/warden is Guard, not Outside.
	Guard
	// Cache is what a tool rebuilds or downloads again on its own, outside
	// the workspace: the caches in home (~/.cache, ~/.npm, ~/.cargo/registry,
	// ~/go/pkg/mod) and build outputs and environments of other projects
	// under home (node_modules, __pycache__, .venv). Inside the workspace
	// they stay Workspace (the project's own outputs); in system
	// directories System (/usr/lib/node_modules is the machine's).
	Cache
)

var names = [...]string{"temp", "workspace", "outside", "home-data", "workspace-root", "startup", "credential", "device", "system", "home", "root", "guard", "cache"}

func (c Class) String() string {
	if int(c) < len(names) {
		return names[c]
	}
	return "class(?)"
}

// Env is what a path is resolved against: relative paths against Cwd,
// ~ against Home. Workspace is the project being worked on; it is Cwd
// when empty, and differs from it when an earlier step of a conversation
// moved the working directory (after cd build, build/* is still inside
// the workspace, not its root).
type Env struct {
	Cwd       string
	Home      string
	Workspace string
	// Links maps symbolic links to their targets (absolute paths). A path
	// that goes through a link (link/x, or link/ itself) is resolved to the
	// target; the link alone names the link.
	Links map[string]string
	// Memo, when not nil, remembers the paths Abs resolved (see AbsMemo).
	Memo *AbsMemo
}

// AbsMemo remembers the last paths Env.Abs resolved and what they resolved
// to, for an Env without Links: the analyzers of one call ask for the
// same paths again and again, each resolved (and, relative, built) anew.
// A memo remembers the Cwd and Home it was filled for, and starts afresh
// when asked with others. It is not safe for concurrent use: it belongs
// to one call (see tool.Call.Env).
type AbsMemo struct {
	cwd, home string
	n, next   int // the entries filled, and the one written next (round robin)
	keys      [absMemoSize]string
	vals      [absMemoSize]string
	// cwdCred and homeCred are credentialDir's answers for the Cwd and
	// the Home (see Env.AbsCredential), credUnknown until asked
	cwdCred, homeCred uint8
}

// absMemoSize is how many paths an AbsMemo remembers: more than most
// calls name.
const absMemoSize = 8

// Root returns the workspace: Workspace, or Cwd when that is empty.
func (e Env) Root() string {
	if e.Workspace != "" {
		return e.Workspace
	}
	return e.Cwd
}

// Abs resolves p as the shell would: ~ and ~/x against Home, relative paths
// against Cwd; the result is cleaned. A path that cannot be resolved (no
// Cwd for a relative path) is cleaned as it is.
func (e Env) Abs(p string) string {
	if len(e.Links) == 0 {
		if m := e.Memo; m != nil {
			return m.abs(e, p)
		}
		return e.abs(p)
	}
	a := e.abs(p)
	if strings.HasSuffix(p, "/") && a != "/" {
		a += "/" // through the link: link/ is what it points to
	}
	for range 8 { // a chain of links, or a loop
		found := false
		for l, t := range e.Links {
			if strings.HasPrefix(a, l+"/") {
				a, found = path.Join(t, a[len(l):]), true
				break
			}
		}
		if !found {
			break
		}
	}
	return path.Clean(a)
}

// fresh empties m unless it was filled for e's Cwd and Home.
func (m *AbsMemo) fresh(e Env) {
	if m.cwd != e.Cwd || m.home != e.Home {
		*m = AbsMemo{cwd: e.Cwd, home: e.Home}
	}
}

// abs is e.abs(p), remembered in m (e has no Links).
func (m *AbsMemo) abs(e Env, p string) string {
	m.fresh(e)
	for i, k := range m.keys[:m.n] {
		if k == p {
			return m.vals[i]
		}
	}
	a := e.abs(p)
	m.keys[m.next], m.vals[m.next] = p, a
	m.next = (m.next + 1) % absMemoSize
	m.n = max(m.n, m.next)
	if m.next == 0 {
		m.n = absMemoSize
	}
	return a
}

func (e Env) abs(p string) string {
	switch {
	case p == "~" && e.Home != "":
		return e.Home
	case strings.HasPrefix(p, "~/") && e.Home != "":
		return join(e.Home, p[2:])
	case strings.HasPrefix(p, "/"):
		if clean(p) {
			return p
		}
		return path.Clean(p)
	case e.Cwd != "":
		return join(e.Cwd, p)
	}
	return path.Clean(p)
}

// join is path.Join(dir, p). When dir is absolute and clean and p is
// relative without a .. component, as they mostly are, the result is built
// in one allocation, or none when p names dir itself (., ./, empty): p's
// empty and . components are dropped, which is all path.Clean would do.
func join(dir, p string) string {
	if p == "" || p[0] == '/' || dir == "" || dir[0] != '/' || !clean(dir) {
		return path.Join(dir, p)
	}
	base := dir
	if dir == "/" {
		base = ""
	}
	var b strings.Builder
	if clean(p) { // no empty, . or .. component: nothing to drop
		b.Grow(len(base) + 1 + len(p))
		b.WriteString(base)
		b.WriteByte('/')
		b.WriteString(p)
		return b.String()
	}
	if strings.Contains(p, "..") {
		return path.Join(dir, p)
	}
	// p's components, one slash at a time (as strings.SplitSeq splits
	// them, without its calls for each)
	for rest := p; ; {
		c, i := rest, strings.IndexByte(rest, '/')
		if i >= 0 {
			c = rest[:i]
		}
		if c != "" && c != "." {
			if b.Len() == 0 {
				b.Grow(len(base) + 1 + len(p))
				b.WriteString(base)
			}
			b.WriteByte('/')
			b.WriteString(c)
		}
		if i < 0 {
			break
		}
		rest = rest[i+1:]
	}
	if b.Len() == 0 {
		return dir
	}
	return b.String()
}

// clean reports whether path.Clean(p) is p: no empty, . or .. component,
// no trailing slash (but for the root). Every empty, . or .. component
// but a leading one starts after a slash with a slash or a dot: p is read
// eight bytes at a time for its slashes (guard.go's zeroBytes), and only
// a slash followed by a slash or a dot is looked at further. One pass
// without a call for each component (IndexByte), which most paths, of
// short components, are cheaper so.
func clean(p string) bool {
	if p == "" || p[len(p)-1] == '/' {
		return p == "/"
	}
	if p[0] == '.' && dotName(p, 0) {
		return false // a leading . or .. component
	}
	for i := 0; i < len(p); i += 8 {
		var w uint64
		if len(p)-i >= 8 {
			w = load8(p[i:])
		} else {
			w = tail(p, i)
		}
		s := zeroBytes(w ^ ('/' * lowBits))
		if s == 0 {
			continue
		}
		// the slashes (high bit of their byte) the next byte of which, in
		// w, is a slash or a dot; and the slash of w's last byte, whose
		// next byte is in the next word (none is last in p: no trailing
		// slash)
		next := (s | zeroBytes(w^('.'*lowBits))) >> 8
		for m := s & next; m != 0; m &= m - 1 {
			if k := i + bits.TrailingZeros64(m)>>3 + 1; p[k] == '/' || dotName(p, k) {
				return false
			}
		}
		if s>>63 != 0 && i+8 < len(p) && (p[i+8] == '/' || dotName(p, i+8)) {
			return false
		}
	}
	return true
}

// dotName reports whether the component of p that starts at k is . or ..
// (p[k] being its first byte, if any).
func dotName(p string, k int) bool {
	if k >= len(p) || p[k] != '.' {
		return false
	}
	if k+1 == len(p) || p[k+1] == '/' {
		return true
	}
	return p[k+1] == '.' && (k+2 == len(p) || p[k+2] == '/')
}

// Classify returns the class of p, resolved against e. A trailing glob
// component (/*, /.*, /**) names everything in its directory, so it is
// classified as that directory: "rm -rf /*" empties the root.
func (e Env) Classify(p string) Class {
	return e.ClassifyAbs(e.Abs(Contents(p)))
}

// Contents is StripGlob that keeps, for a stripped glob, the trailing
// slash that says the directory's contents are meant (so that a symbolic
// link there is followed): build/* is build/.
func Contents(p string) string {
	s := StripGlob(p)
	if s != p && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// StripGlob removes trailing components made only of glob characters
// (*, .*, ** and the like), which name what is in the directory before
// them (see Classify).
func StripGlob(p string) string {
	if strings.IndexByte(p, '*') < 0 && strings.IndexByte(p, '?') < 0 {
		return p // no glob to strip: most paths (IndexByte is fast)
	}
	for {
		i := strings.LastIndexByte(p, '/')
		last := p[i+1:]
		if strings.IndexByte(last, '*') < 0 && strings.IndexByte(last, '?') < 0 || strings.Trim(last, "*.?") != "" {
			return p
		}
		if i == 0 {
			return "/"
		}
		if i < 0 {
			return "."
		}
		p = p[:i]
	}
}

// IsCredential reports whether ClassifyAbs(p) is Credential, testing
// first, cheaply, whether p lies in a place of credentials at all (most
// paths do not): ClassifyAbs then runs only for those that do.
func (e Env) IsCredential(p string) bool {
	rest, inHome := inAnyHome(p, strings.TrimSuffix(e.Home, "/"))
	return credentialIn(p, rest, inHome) && e.ClassifyAbs(p) == Credential
}

// AbsCredential resolves the path word p as Abs does and reports whether
// the result is a credential (IsCredential), which it returns only then.
// A relative path, or one below ~, is judged in the directory it is
// relative to without being joined to it when no path there can be a
// credential (the workspace, mostly), or by its rest below the home
// directory: most words a command names are told apart without
// allocating.
func (e Env) AbsCredential(p string) (string, bool) {
	if len(e.Links) == 0 && p != "" && p[0] != '/' {
		home := strings.TrimSuffix(e.Home, "/")
		switch {
		case p == "~" && e.Home != "":
			// Home itself: Abs returns it as it is
		case strings.HasPrefix(p, "~/") && e.Home != "":
			if rel := p[2:]; clean(rel) && rel[0] != '/' && !credentialBelow(e.dirCredential(true, home), rel) {
				return "", false
			}
		case e.Cwd != "":
			if clean(p) && !credentialBelow(e.dirCredential(false, home), p) {
				return "", false
			}
		}
	}
	a := e.Abs(p)
	if e.IsCredential(a) {
		return a, true
	}
	return "", false
}

// HoldsCredentials reports whether credential places may lie below the
// absolute, clean directory p: the root, a home directory, ~/.config,
// /etc, /var (whoever copies such a folder whole copies the keys in it),
// not the workspace or a project folder. A credential path itself is
// IsCredential's.
func (e Env) HoldsCredentials(p string) bool {
	if p == "" || p[0] != '/' || !clean(p) {
		return false
	}
	return credentialDir(p, strings.TrimSuffix(e.Home, "/")) != credNone
}

// credentialMay reports whether dir+"/"+rel may be a credential path in
// the home home (see inAnyHome): false only when it is none (credentialIn
// says no), judged without joining them. dir is absolute and clean and
// rel a clean relative path (see clean), so that the path is dir, a
// slash and rel.
func credentialMay(dir, rel, home string) bool {
	return credentialBelow(credentialDir(dir, home), rel)
}

// What a directory says of the credentials below it (credentialDir).
const (
	credUnknown uint8 = iota // not judged yet (AbsMemo)
	credNone                 // no path below it is a credential
	credMay                  // a path below it may be one
	credHome                 // it is the home: a path below is one when its rest is (credentialHomeSet)
)

// credentialBelow reports whether dir+"/"+rel may be a credential path,
// k being credentialDir's answer for dir (see credentialMay).
func credentialBelow(k uint8, rel string) bool {
	switch k {
	case credNone:
		return false
	case credHome:
		return credentialHomeSet.holds(rel)
	}
	return true
}

// credentialDir judges the directory dir for credentialMay: whether a
// path below it, in the home home, may be a credential (credMay), is none
// (credNone), or is one by its rest below the home (credHome).
func credentialDir(dir, home string) uint8 {
	if dir == "" || dir[0] != '/' || !clean(dir) {
		return credMay
	}
	// a credential place of the system at or above dir, or below it
	if credentialSystemSet.near(dir) || dir == "/proc" || strings.HasPrefix(dir, "/proc/") {
		return credMay
	}
	// r is dir below the home the path lies in, "" when dir is that home:
	// the path's rest there is r+"/"+rel, or rel
	var r string
	switch rest, ok := inAnyHome(dir, home); {
	case home != "" && dir == home:
	case home != "" && under(home, dir):
		return credMay // dir above the home: the path may be in it or not
	case ok:
		r = rest
	case strings.HasPrefix(dir, "/home/") || strings.HasPrefix(dir, "/Users/") || dir == "/root":
		// another user's home itself (/home/x: no slash in x, as dir is
		// clean and inAnyHome found no rest), or /root
	case dir == "/" || dir == "/home" || dir == "/Users":
		return credMay // above homes
	default:
		return credNone // in no home, and no credential place of the system there
	}
	if r == "" {
		return credHome
	}
	if credentialHomeSet.near(r) {
		return credMay
	}
	return credNone
}

// dirCredential is credentialDir for e's home directory (ofHome) or its
// working directory, home being e.Home without its trailing slash; with a
// memo, judged once for the memo's Cwd and Home.
func (e Env) dirCredential(ofHome bool, home string) uint8 {
	dir := e.Cwd
	if ofHome {
		dir = home
	}
	m := e.Memo
	if m == nil {
		return credentialDir(dir, home)
	}
	m.fresh(e)
	k := &m.cwdCred
	if ofHome {
		k = &m.homeCred
	}
	if *k == credUnknown {
		*k = credentialDir(dir, home)
	}
	return *k
}

// ClassifyAbs returns the class of an absolute, cleaned path.
func (e Env) ClassifyAbs(p string) Class {
	home := strings.TrimSuffix(e.Home, "/")
	cwd := strings.TrimSuffix(e.Root(), "/")
	switch {
	case p == "/":
		return Root
	case p == "/home" || p == "/root" || p == "/Users" || (home != "" && p == home):
		return Home
	case guarded(p, home) != nil:
		return Guard
	}
	rest, inHome := inAnyHome(p, home)
	switch {
	case credentialIn(p, rest, inHome):
		return Credential
	case startupIn(p, rest, inHome):
		return Startup
	case under(p, "/dev") && !under(p, "/dev/shm"):
		switch p {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full":
			return Temp // streams and generators, not storage
		}
		if under(p, "/dev/fd") {
			return Temp
		}
		return Device
	}
	if InTemp(p) {
		return Temp
	}
	if cwd != "" && cwd != "/" && cwd != home {
		if p == cwd {
			return WorkspaceRoot
		}
		if under(p, cwd) {
			return Workspace
		}
		// An ancestor of the workspace inside home (~/src when the
		// workspace is ~/src/project) holds the workspace and its siblings.
		if home != "" && under(cwd, p) && under(p, home) {
			return WorkspaceRoot
		}
	}
	if home != "" && under(p, home) {
		rest := p[len(home)+1:]
		if cacheIn(rest) {
			return Cache
		}
		if !strings.Contains(rest, "/") {
			return HomeData
		}
		return Outside
	}
	if under(p, "/home") || under(p, "/Users") {
		// another user's home, or a folder of it
		if strings.Count(p, "/") == 2 {
			return Home
		}
		return Outside
	}
	for _, s := range systemDirs {
		if p == s {
			return System
		}
		if under(p, s) {
			if s == "/var" && (Within(p, "/var/lib") || Within(p, "/var/log") || Within(p, "/var/spool") || Within(p, "/var/backups") || Within(p, "/var/mail")) {
				return System // service state, databases, logs and mail
			}
			if s == "/var" || s == "/opt" || s == "/srv" || s == "/mnt" || s == "/media" {
				return Outside
			}
			return System
		}
	}
	return Outside
}

// Within reports whether p is dir or lies below it.
func Within(p, dir string) bool { return p == dir || under(p, dir) }

func under(p, dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return len(p) > len(dir) && strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// tempDirs are the temporary directories: the usual ones, and the
// defaults of $TMPDIR on macOS (/var/folders/…/T, under /private as well).
var tempDirs = []string{"/tmp", "/var/tmp", "/dev/shm", "/private/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders"}

// tempLead marks the bytes a path of tempDirs has after its leading
// slash.
var tempLead = func() (t [256]bool) {
	for _, d := range tempDirs {
		t[d[1]] = true
	}
	return t
}()

// InTemp reports whether the absolute path p lies below a temporary
// directory (/tmp, /var/tmp, /dev/shm, $TMPDIR's defaults), not being the
// directory itself.
func InTemp(p string) bool {
	if len(p) < 2 || !tempLead[p[1]] {
		return false // most paths: no temporary directory starts so
	}
	for _, t := range tempDirs {
		if under(p, t) {
			return true
		}
	}
	return false
}

// systemDirs belong to the operating system. Deleting or writing them
// breaks the machine; /var, /opt, /srv and /mnt themselves are system, what
// lies below them is data (Outside).
var systemDirs = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/var", "/opt", "/srv", "/mnt", "/media", "/sys", "/proc", "/run", "/snap", "/System", "/Library", "/Applications", "/private"}

// credentialHome are paths below a home directory that hold secrets.
var credentialHome = []string{
	".ssh", ".aws", ".gnupg", ".kube", ".docker/config.json", ".netrc", ".git-credentials",
	".config/gcloud", ".config/gh", ".azure", ".password-store", ".vault-token", ".npmrc", ".pypirc",
	".pgpass", ".my.cnf", ".terraform.d/credentials.tfrc.json", ".cargo/credentials", ".cargo/credentials.toml",
	".gem/credentials", ".local/share/keyrings", ".mozilla", ".config/google-chrome", ".config/chromium",
	".bitcoin", ".ethereum", ".config/op", ".1password", ".oci", ".config/doctl", ".s3cfg", ".boto",
	// browsers' profiles (saved passwords, cookies, the keys that decrypt
	// them) and the desktops' keychains, on Linux and macOS
	".config/BraveSoftware", ".config/microsoft-edge", ".config/vivaldi", ".config/opera", ".thunderbird",
	".local/share/kwalletd", "snap/firefox/common/.mozilla", "snap/chromium/common/chromium",
	"Library/Keychains", "Library/Cookies", "Library/Application Support/Google/Chrome",
	"Library/Application Support/Chromium", "Library/Application Support/BraveSoftware",
	"Library/Application Support/Microsoft Edge", "Library/Application Support/Firefox",
	"Library/Application Support/Arc", "Library/Safari",
}

var credentialSystem = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/etc/ssh", "/etc/ssl/private", "/root/.ssh", "/var/lib/docker", "/run/secrets", "/var/run/secrets"}

// procSecret reports whether p is a process's environment or memory
// under /proc (/proc/1/environ, /proc/self/mem, /proc/*/task/7/environ):
// the environment holds the tokens and passwords a service was started
// with, the memory everything it has read.
func procSecret(p string) bool {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return false
	}
	pid, rest, ok := strings.Cut(rest, "/")
	if !ok || pid == "" {
		return false
	}
	if t, ok := strings.CutPrefix(rest, "task/"); ok {
		tid, r, ok := strings.Cut(t, "/")
		if !ok || tid == "" {
			return false
		}
		rest = r
	}
	return rest == "environ" || rest == "mem"
}

// credentialIn reports whether p holds credentials, rest and ok being
// inAnyHome's answer for it.
func credentialIn(p, rest string, ok bool) bool {
	if credentialSystemSet.holds(p) || procSecret(p) {
		return true
	}
	if !ok || strings.HasSuffix(rest, ".pub") || strings.HasSuffix(rest, "/known_hosts") {
		return false // public keys and host keys are not secrets
	}
	return credentialHomeSet.holds(rest)
}

var (
	credentialHomeSet, credentialSystemSet = newPrefixes(credentialHome), newPrefixes(credentialSystem)
	startupHomeSet, startupSystemSet       = newPrefixes(startupHome), newPrefixes(startupSystem)
)

// prefixes is a set of paths (none empty, "/", with a trailing slash or
// an empty component) that tells whether a path is one of them or lies
// below one (holds), or lies above one (near).
type prefixes struct {
	// set holds the paths of the set (inSet) and the directories
	// strictly above them (aboveSet; "/" for an absolute path)
	set map[string]uint8
	// depth is the most components a path of the set has
	depth int
	// lead has bit b set when a path of the set starts with the byte b
	// (after its leading slash, if any), and so does every directory
	// above it but "/"; lens has bit n set when a path of the set is n
	// bytes long (bit 0 for 64 and longer), upLens when a directory above
	// one is: a path whose lead or lengths no path of the set has is not
	// looked up
	lead         [4]uint64
	lens, upLens uint64
}

// The kinds of the paths of prefixes.set.
const (
	inSet uint8 = 1 << iota
	aboveSet
)

func newPrefixes(ps []string) prefixes {
	s := prefixes{set: make(map[string]uint8, 2*len(ps))}
	for _, p := range ps {
		s.set[p] |= inSet
		s.depth = max(s.depth, len(split(p)))
		b := p[leadAt(p)]
		s.lead[b>>6] |= 1 << (b & 63)
		s.lens |= 1 << lenBit(len(p))
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] == '/' {
				up := p[:max(i, 1)] // "/" above an absolute path's first component
				s.set[up] |= aboveSet
				s.upLens |= 1 << lenBit(len(up))
			}
		}
	}
	return s
}

// leadAt is the index of the byte of p after its leading slash, if any.
func leadAt(p string) int {
	if p != "" && p[0] == '/' {
		return 1
	}
	return 0
}

// lenBit is the bit of prefixes.lens for a length n.
func lenBit(n int) int {
	if n >= 64 {
		return 0
	}
	return n
}

// holds reports whether p is a path of s or lies below one (Within, for
// each path of s): one look-up for each of p's first components whose
// length a path of s has, none when no path of s starts as p does.
func (s prefixes) holds(p string) bool {
	k := leadAt(p)
	if k >= len(p) || s.lead[p[k]>>6]&(1<<(p[k]&63)) == 0 {
		return false
	}
	n := 0
	for i := k + 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		if s.lens&(1<<lenBit(i)) != 0 && s.set[p[:i]]&inSet != 0 {
			return true
		}
		if n++; n >= s.depth {
			return false
		}
	}
	return false
}

// near reports whether p is a path of s, lies below one (holds) or is a
// directory strictly above one ("/" above an absolute one), so that a
// path below p may be one: a directory above a path of s starts as it
// does, so that the lead of p rules out most paths for both.
func (s prefixes) near(p string) bool {
	if k := leadAt(p); k >= len(p) || s.lead[p[k]>>6]&(1<<(p[k]&63)) == 0 {
		return p == "/" && s.upLens&(1<<1) != 0 && s.set[p]&aboveSet != 0
	}
	return s.holds(p) || s.upLens&(1<<lenBit(len(p))) != 0 && s.set[p]&aboveSet != 0
}

// cacheHome are the caches below a home directory: what package managers
// and build tools download or rebuild on their own.
var cacheHome = []string{".cache", ".npm", ".cargo/registry", ".cargo/git", ".rustup/downloads", ".rustup/tmp", ".m2/repository",
	".gradle/caches", ".gradle/wrapper/dists", "go/pkg/mod", ".yarn/cache", ".yarn/berry/cache", ".pnpm-store", ".local/share/pnpm/store",
	"Library/Caches", ".ccache", ".bun/install/cache", ".nuget/packages", ".pub-cache", ".composer/cache", ".ivy2/cache",
	".node-gyp", ".conda/pkgs", ".julia/compiled", ".stack/indices", ".deno"}

var cacheHomeSet = newPrefixes(cacheHome)

// buildDirs are the directory names of build outputs, dependency trees and
// environments that a project's tools make again (see Cache). target,
// build and dist are not among them: outside a project, a folder so named
// may be anything.
var buildDirs = map[string]bool{"node_modules": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, ".tox": true, ".nox": true, ".venv": true, ".next": true, ".nuxt": true, ".parcel-cache": true,
	".turbo": true, ".svelte-kit": true, ".angular": true}

// cacheIn reports whether rest, a path relative to the home directory,
// is a cache or lies in one (see Cache).
func cacheIn(rest string) bool {
	if cacheHomeSet.holds(rest) {
		return true
	}
	for c := range strings.SplitSeq(rest, "/") {
		if buildDirs[c] {
			return true
		}
	}
	return false
}

// startupHome are files a shell or session runs on its own.
var startupHome = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".config/fish/config.fish", ".config/autostart", ".xinitrc", ".xprofile", ".inputrc", ".vimrc", ".gitconfig", ".config/systemd/user", ".local/share/systemd/user", ".ssh/rc", ".pam_environment",
	// tools' settings that run commands or choose what gets installed, and
	// the folders on PATH and of launch agents
	".config/git", ".config/pip", ".pip/pip.conf", ".local/bin", ".cargo/config", ".cargo/config.toml", ".m2/settings.xml",
	".tmux.conf", "Library/LaunchAgents"}

var startupSystem = []string{"/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/zsh", "/etc/environment", "/etc/ld.so.preload", "/etc/rc.local", "/etc/cron.d", "/etc/crontab", "/etc/systemd", "/etc/init.d", "/var/spool/cron"}

// startupIn reports whether p is run on its own by a shell or the
// system, rest and ok being inAnyHome's answer for it.
func startupIn(p, rest string, ok bool) bool {
	return startupSystemSet.holds(p) || ok && startupHomeSet.holds(rest)
}

// inAnyHome returns p relative to the home directory holding it: the
// user's own, another user's under /home or /Users, or /root.
func inAnyHome(p, home string) (string, bool) {
	if home != "" && under(p, home) {
		// under reads home without its trailing slash: the root as home
		// ("/", or "//" trimmed once) is the empty prefix
		return p[len(strings.TrimSuffix(home, "/"))+1:], true
	}
	for _, h := range []string{"/home/", "/Users/"} {
		if strings.HasPrefix(p, h) {
			rest := p[len(h):]
			if i := strings.IndexByte(rest, '/'); i > 0 {
				return rest[i+1:], true
			}
			return "", false
		}
	}
	if under(p, "/root") {
		return p[len("/root/"):], true
	}
	return "", false
}

// Secret reports a file that holds secrets by its name, wherever it is: a
// credential file (see Classify), a dotenv file (.env, .env.production;
// not .env.example and other templates), a private key or keystore
// (id_rsa, *.pem, *.key, *.p12), a client's password file (.netrc,
// .pgpass, .pypirc, .npmrc, .git-credentials), a service account key.
func (e Env) Secret(p string) bool {
	return SecretName(p) || e.IsCredential(p)
}

// SecretName reports a file that holds secrets by its name alone (Secret
// without its credential paths): a reader that has classified the path
// already asks this.
func SecretName(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env."):
		switch base[min(len(base), 5):] {
		case "example", "sample", "template", "dist", "defaults", "schema":
			return false
		}
		return true
	case strings.HasSuffix(base, ".pub"):
		return false
	case strings.HasPrefix(base, "id_rsa") || strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa") || strings.HasPrefix(base, "id_dsa"):
		return true
	}
	switch path.Ext(base) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore":
		return true
	}
	switch base {
	case ".netrc", ".pgpass", ".pypirc", ".npmrc", ".git-credentials", ".htpasswd", "credentials.json", "service-account.json", "secrets.yaml", "secrets.yml", "secrets.json",
		"database.yml", "wp-config.php": // Rails' and WordPress's database passwords

		return true
	}
	return false
}
