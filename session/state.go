package session

import (
	"maps"
	"path"
	"slices"
	"strings"
	"time"
	"unsafe"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/secrets"
	"github.com/agentwarden/warden/tool"
)

// State is what one conversation has done so far. It is not safe for
// concurrent use: a Store hands it to one Update at a time, so the calls
// of a session are assessed one at a time, in order.
type State struct {
	id  string
	cfg Config

	step      int
	workspace string // the first working directory seen
	cwd       string // the persistent shell's directory ("" until known)
	prior     tool.Prior
	files     map[string]*File
	byBase    map[string][]string // base name → tracked paths
	reads     []Read              // sensitive data read into the conversation
	marks     map[uint64]uint16   // keyed hashes of sensitive values seen → index in reads
	key       []byte              // the store's hash key (nil: a random one is made when needed)
	mk        sipKey              // the marks' hash key, derived from key
	history   []Entry             // the last cfg.Window actions
	approvals []Approval
	contexts  map[string]Context // family of tools → the context they act on (SetContext)
}

// Context is the context a family of tools acts on, as the conversation
// selected it (kubectl config use-context prod: family kubernetes, Name
// "prod"), and the step that did.
type Context struct {
	Name string
	Step int
}

// Context returns the context the conversation selected for a family of
// tools (kubernetes, terraform, gcloud, azure), if it did.
func (st *State) Context(family string) (Context, bool) {
	c, ok := st.contexts[family]
	return c, ok
}

// File is what the session knows of one file the conversation touched.
type File struct {
	Path string
	// Text is the file's content as the conversation wrote it, when
	// Known; otherwise the fragments it is known to contain (edits,
	// appended lines), possibly none.
	Text      string
	Known     bool
	Truncated bool // Text was cut at MaxFileBytes
	// Step is the step (0-based) that last wrote the file.
	Step       int
	Written    bool
	Downloaded string // the URL it was downloaded from ("network" when unknown)
	Executable bool
	// Sensitive names the sensitive data the file holds (credentials, the
	// environment, database rows), "" when none is known.
	Sensitive string

	// buf holds Text's bytes while the file is appended to (appendText),
	// with room to grow; any other Text leaves it stale (ownText).
	buf []byte
}

// NewState returns the state of a conversation that no Store holds
// (zero Config fields take the defaults). The values it remembers are
// hashed under a random key of its own.
func NewState(cfg Config) *State { return newState("", cfg.withDefaults()) }

// Reset empties st, a state that no Store holds, to what NewState(cfg)
// returns: nothing of what it held is kept, its random key neither.
func (st *State) Reset(cfg Config) { *st = *newState("", cfg.withDefaults()) }

// New returns the empty state of conversation id (zero Config fields take
// the defaults), whose remembered values are hashed under key: a Store
// hands every State it holds its own key, so that a value observed in one
// process is recognized in the next. New panics when key is shorter than
// KeySize; a nil key is a random one.
func New(id string, cfg Config, key []byte) *State {
	st := newState(id, cfg.withDefaults())
	if key != nil {
		if err := checkKey(key); err != nil {
			panic(err)
		}
		st.setKey(key)
	}
	return st
}

// newState returns an empty state; its maps of files are made when the
// first file is recorded (most lone calls record none).
func newState(id string, cfg Config) *State {
	return &State{id: id, cfg: cfg}
}

func (st *State) setKey(key []byte) {
	st.key = key
	st.mk = markKey(key)
}

// ID returns the session's identifier.
func (st *State) ID() string { return st.id }

// Steps returns how many actions the session has seen.
func (st *State) Steps() int { return st.step }

// Cwd returns the persistent shell's directory, "" when no call told.
func (st *State) Cwd() string { return st.cwd }

// Workspace returns the first working directory of the session.
func (st *State) Workspace() string { return st.workspace }

// File returns what the session knows of the file at the absolute path p.
func (st *State) File(p string) (File, bool) {
	f, ok := st.files[p]
	if !ok {
		return File{}, false
	}
	cp := *f
	cp.buf = nil
	return cp, true
}

// Files returns how many files the session tracks.
func (st *State) Files() int { return len(st.files) }

// Prior returns the persistent shell and interpreter state (read-only).
func (st *State) Prior() *tool.Prior { return &st.prior }

// History returns the last actions, oldest first.
func (st *State) History() []Entry { return slices.Clone(st.history) }

// Enter prepares call c to be assessed in this session: it runs in the
// persistent shell's directory unless the action names its own (given
// reports that it does), inside the session's workspace, with the shell
// and interpreter state earlier calls left.
func (st *State) Enter(c *tool.Call, given bool) {
	if st.workspace == "" {
		st.workspace = c.Cwd
	}
	switch {
	case given && c.Cwd != "":
		st.cwd = c.Cwd
	case st.cwd != "":
		c.Cwd = st.cwd
	}
	c.Workspace = st.workspace
	c.Prior = &st.prior
}

// Record replays what call c did into the state, after it was assessed
// as as and decided d. A denied call did not run: only its history entry
// is kept.
func (st *State) Record(c *tool.Call, as *risk.Assessment, d *risk.Decision) {
	defer func() { st.step++ }()
	st.remember(c, as, d)
	if d != nil && d.Verdict == risk.Deny {
		return
	}
	for _, ct := range c.Content {
		if ct.Path == "" {
			continue
		}
		st.edit(c, c.Abs(ct.Path), ct)
	}
	st.contextReads(c)
	for i := range c.Effects {
		st.apply(c, &c.Effects[i])
	}
}

// remember adds c to the history window.
func (st *State) remember(c *tool.Call, as *risk.Assessment, d *risk.Decision) {
	e := Entry{Step: st.step, Tool: c.Action.Tool, Summary: summary(c), Time: time.Now().Round(0)}
	if as != nil {
		e.Level, e.Resource = as.Level, as.AffectedResources
	}
	if d != nil {
		e.Verdict = d.Verdict
	}
	if len(st.history) == st.cfg.Window {
		copy(st.history, st.history[1:])
		st.history = st.history[:len(st.history)-1]
	}
	st.history = append(st.history, e)
}

// maxSummary bounds an entry's summary.
const maxSummary = 300

func summary(c *tool.Call) string {
	var s string
	switch {
	case len(c.Shell) > 0:
		s = c.Shell[0]
	case len(c.Code) > 0:
		s = c.Code[0].Text
	case len(c.SQL) > 0:
		s = c.SQL[0]
	case len(c.URLs) > 0:
		s = c.URLs[0]
	case len(c.Paths) > 0:
		s = c.Paths[0]
	}
	s = secrets.MaskURLPasswords(secrets.MaskKnown(s, c.Secrets))
	if len(s) > maxSummary {
		s = s[:maxSummary] + "…"
	}
	return s
}

// edit applies a Write or Edit tool's content to the file p.
func (st *State) edit(c *tool.Call, p string, ct tool.Content) {
	f := st.file(p)
	f.Written, f.Downloaded, f.Sensitive = true, "", ""
	switch {
	case !ct.Partial:
		st.setText(c, f, ct.Text, true)
	case ct.Old != "" && f.Known && strings.Contains(f.Text, ct.Old):
		st.setText(c, f, strings.Replace(f.Text, ct.Old, ct.Text, 1), true)
	default:
		// an edit of text the session never saw: keep what it adds
		st.setText(c, f, f.Text+"\n"+ct.Text, false)
	}
}

// setText sets the text f is known to hold, written by step c, cut at
// MaxFileBytes. The secrets the call carries (c.Secrets) are kept masked,
// never raw:
// the state is saved in the store, and a file that held one is marked as
// holding credentials (its Sensitive), which is what later steps that
// run, send or copy it are judged by.
func (st *State) setText(c *tool.Call, f *File, text string, known bool) {
	if masked := secrets.MaskKnown(text, c.Secrets); masked != text {
		text, f.Sensitive = masked, "credentials"
	}
	f.Truncated = false
	if len(text) > st.cfg.MaxFileBytes {
		text, f.Truncated = text[:st.cfg.MaxFileBytes], true
	}
	f.Text, f.Known, f.Step = text, known && !f.Truncated, st.step
}

// appendText is setText of f.Text+add, as f.Known says. The text grows in
// f.buf, whose room doubles (up to MaxFileBytes): a file appended to line
// by line (echo … >> log, for each of a script's steps) costs its length
// once, where a new string for each line copied all the lines before it.
// Bytes past the end of a string made of buf are never written again, so
// every text it held stays as it was.
func (st *State) appendText(c *tool.Call, f *File, add string) {
	n := len(f.Text) + len(add)
	if !f.ownText() || cap(f.buf)-len(f.buf) < len(add) {
		room := max(n, min(2*n, st.cfg.MaxFileBytes))
		f.buf = append(make([]byte, 0, room), f.Text...)
	}
	f.buf = append(f.buf, add...)
	st.setText(c, f, unsafe.String(unsafe.SliceData(f.buf), len(f.buf)), f.Known)
}

// ownText reports whether f.Text is made of f.buf, all of it.
func (f *File) ownText() bool {
	return len(f.buf) == len(f.Text) && len(f.buf) > 0 && unsafe.SliceData(f.buf) == unsafe.StringData(f.Text)
}

// file returns the record of p, creating it (and forgetting the oldest
// record beyond MaxFiles).
func (st *State) file(p string) *File {
	if f, ok := st.files[p]; ok {
		return f
	}
	if len(st.files) >= st.cfg.MaxFiles {
		oldest := ""
		for q, f := range st.files {
			if oldest == "" || f.Step < st.files[oldest].Step {
				oldest = q
			}
		}
		st.forget(oldest)
	}
	f := &File{Path: p, Step: st.step}
	if st.files == nil {
		st.files, st.byBase = map[string]*File{}, map[string][]string{}
	}
	st.files[p] = f
	b := path.Base(p)
	st.byBase[b] = append(slices.Clip(st.byBase[b]), p) // never in place: copies share them
	return f
}

func (st *State) forget(p string) {
	if _, ok := st.files[p]; !ok {
		return
	}
	delete(st.files, p)
	b := path.Base(p)
	st.byBase[b] = slices.DeleteFunc(slices.Clone(st.byBase[b]), func(q string) bool { return q == p })
	if len(st.byBase[b]) == 0 {
		delete(st.byBase, b)
	}
	delete(st.prior.Lists, p)
}

// fileView returns a copy of st's file records (and the listings they
// hold) that apply may change without changing st: what one call does,
// seen by the rest of the same call before it is recorded.
func (st *State) fileView() *State {
	v := newState(st.id, st.cfg)
	v.step, v.workspace, v.cwd = st.step, st.workspace, st.cwd
	v.prior = st.prior
	v.prior.Lists = maps.Clone(st.prior.Lists)
	// what the conversation read, which apply never changes
	v.reads, v.marks, v.key, v.mk = st.reads, st.marks, st.key, st.mk
	v.contexts = st.contexts // which apply changes only in Record, on st
	if len(st.files) > 0 {
		v.files = make(map[string]*File, len(st.files))
	}
	for p, f := range st.files {
		cp := *f
		cp.buf = nil // the view's appends must not write into f's room
		v.files[p] = &cp
	}
	v.byBase = maps.Clone(st.byBase) // its lists are never changed in place
	return v
}

// apply replays one effect of c.
func (st *State) apply(c *tool.Call, e *tool.Effect) {
	switch e.Kind {
	case tool.WriteFile:
		f := st.file(e.Path)
		f.Written, f.Downloaded, f.Sensitive = true, "", ""
		switch {
		case e.Known && e.Append && f.Truncated && len(f.Text) >= st.cfg.MaxFileBytes:
			// already cut at MaxFileBytes: what is appended lies past
			// the cut (setText of the whole would cut it off again)
			f.Known, f.Step = false, st.step
		case e.Known && e.Append:
			st.appendText(c, f, e.Text)
		case e.Known:
			st.setText(c, f, e.Text, true)
		case !e.Append:
			st.setText(c, f, "", false)
		default:
			f.Known = false
		}
		if from := st.sensitive(c, e); from != "" {
			f.Sensitive = from // else "credentials" when setText masked a secret it holds
		}
		if len(e.List) > 0 {
			setMap(&st.prior.Lists, e.Path, slices.Clone(e.List), st.cfg.MaxNames)
		} else if !e.Append {
			delete(st.prior.Lists, e.Path)
		}
	case tool.FetchFile:
		f := st.file(e.Path)
		f.Written, f.Downloaded, f.Sensitive = true, e.URL, ""
		if f.Downloaded == "" {
			f.Downloaded = "network"
		}
		st.setText(c, f, "", false)
		delete(st.prior.Lists, e.Path)
	case tool.Symlink:
		if e.Path != e.Src {
			setMap(&st.prior.Links, e.Path, e.Src, st.cfg.MaxNames)
		}
	case tool.MakeExecutable:
		st.file(e.Path).Executable = true
	case tool.CopyFile:
		src, ok := st.files[e.Src]
		switch {
		case ok:
			cp := *src
			cp.Path, cp.Step, cp.buf = e.Path, st.step, nil // appends to one must not write into the other's room
			*st.file(e.Path) = cp
			if l, ok := st.prior.Lists[e.Src]; ok {
				setMap(&st.prior.Lists, e.Path, l, st.cfg.MaxNames)
			}
		case c.Env().IsCredential(e.Src):
			f := st.file(e.Path)
			f.Written, f.Sensitive = true, "credentials"
			st.setText(c, f, "", false)
		}
	case tool.RemoveFile:
		delete(st.prior.Links, e.Path)
		for p := range st.files {
			if paths.Within(p, e.Path) {
				st.forget(p)
			}
		}
	case tool.Chdir:
		if e.Known {
			st.cwd = e.Path
		}
	case tool.SetVar:
		if e.Known {
			setMap(&st.prior.Vars, e.Path, e.Text, st.cfg.MaxNames)
		} else {
			delete(st.prior.Vars, e.Path)
		}
	case tool.UnsetVar:
		delete(st.prior.Vars, e.Path)
	case tool.SetContext:
		if e.Known && e.Text != "" {
			setMap(&st.contexts, e.Path, Context{Name: e.Text, Step: st.step}, st.cfg.MaxNames)
		} else {
			delete(st.contexts, e.Path) // one not known: not known to be production
		}
	case tool.SetAlias:
		setOrDelete(&st.prior.Aliases, e, st.cfg.MaxNames)
	case tool.SetFunc:
		setOrDelete(&st.prior.Funcs, e, st.cfg.MaxNames)
	case tool.SetGitAlias:
		setOrDelete(&st.prior.GitAliases, e, st.cfg.MaxNames)
	case tool.SetPyVar:
		if st.prior.PyVars == nil {
			st.prior.PyVars = map[string]tool.PyValue{}
		}
		if _, ok := st.prior.PyVars[e.Path]; ok || len(st.prior.PyVars) < st.cfg.MaxNames {
			v := tool.PyValue{Text: e.Text, Known: e.Known, Sensitive: e.Sensitive}
			if len(v.Text) > st.cfg.MaxFileBytes {
				v = tool.PyValue{Sensitive: e.Sensitive}
			}
			st.prior.PyVars[e.Path] = v
		}
	}
}

// sensitive names the sensitive data a write carries: what the effect
// says, or what a file it copies from holds.
func (st *State) sensitive(c *tool.Call, e *tool.Effect) string {
	if e.Sensitive != "" {
		return e.Sensitive
	}
	for _, p := range e.From {
		if f, ok := st.files[p]; ok && f.Sensitive != "" {
			return f.Sensitive
		}
		if env := c.Env(); env.IsCredential(p) {
			return "credentials"
		} else if env.HoldsCredentials(p) {
			return "the credentials of " + p // tar czf x.tgz ~: the home, keys and all
		}
	}
	// a folder that holds a sensitive file (tar czf x.tgz stash/)
	for q, f := range st.files {
		if f.Sensitive == "" {
			continue
		}
		for _, p := range e.From {
			if paths.Within(q, p) {
				return f.Sensitive
			}
		}
	}
	return ""
}

func setMap[V any](m *map[string]V, k string, v V, limit int) {
	if *m == nil {
		*m = map[string]V{}
	}
	if _, ok := (*m)[k]; ok || len(*m) < limit {
		(*m)[k] = v
	}
}

func setOrDelete(m *map[string]string, e *tool.Effect, limit int) {
	if e.Known {
		setMap(m, e.Path, e.Text, limit)
	} else {
		delete(*m, e.Path)
	}
}
