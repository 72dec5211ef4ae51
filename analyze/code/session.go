package code

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agentwarden/warden/tool"
)

// A persistent interpreter (OpenHands' IPython kernel) keeps its variables
// from one call of a conversation to the next. The analysis starts from
// the variables an earlier call left (tool.Prior.PyVars) and reports what
// this call changes as effects (tool.Effect): the variables it binds, the
// files it writes, downloads, copies, makes executable, runs, reads or
// sends, the directory it enters.

// Bounds of what one code text reports.
const (
	maxVars     = 64      // variables reported with their value; others only to forget an earlier value
	maxVarText  = 4 << 10 // a variable's text; longer is reported unknown
	maxFileText = 16 << 10
	maxEffects  = 256 // effects besides variables; past it the analysis is incomplete
	maxFrom     = 8   // files named as the source of data sent
)

// The kinds of sensitive data, as tool.PyValue and tool.Effect name them.
const (
	sensEnviron = "environment"
	sensCred    = "credentials"
	sensDB      = "database rows"
)

// sensitivity names the kind of sensitive data a taint carries.
func sensitivity(t taint) string {
	switch {
	case t&tEnviron != 0:
		return sensEnviron
	case t&tCred != 0:
		return sensCred
	case t&tDB != 0:
		return sensDB
	}
	return ""
}

// sensitiveTaint is the taint of a kind of sensitive data; a kind the
// analyzer does not know counts as credentials.
func sensitiveTaint(s string) taint {
	switch s {
	case "":
		return 0
	case sensEnviron:
		return tEnviron
	case sensDB:
		return tDB
	}
	return tCred
}

// priorScope holds the variables an earlier call left: known ones as
// strings that may also be read as a path or a number (the text does not
// say which), unknown ones as unknown values, each with the taint of its
// sensitive data. An unknown value is not bound to a name the analyzer
// resolves itself (os, exec, open …): left unbound, the name keeps its
// module or builtin meaning. Nil when there is nothing to bind.
func priorScope(p *tool.Prior) *scope {
	if p == nil || len(p.PyVars) == 0 {
		return nil
	}
	sc := &scope{vars: make(map[string]value, len(p.PyVars))}
	for name, pv := range p.PyVars {
		t := sensitiveTaint(pv.Sensitive)
		if pv.Known && len(pv.Text) <= maxText {
			sc.vars[name] = value{k: kStr, s: pv.Text, t: t, loose: true}
			continue
		}
		if resolvedNames()[name] {
			continue
		}
		sc.vars[name] = value{k: kDyn, t: t}
	}
	return sc
}

// resolvedNames are the unbound names the analyzer gives a meaning of its
// own: builtins and the first components of the modules it knows.
var resolvedNames = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"__builtins__": true, "builtins": true}
	for name := range knownFuncs() {
		root, _, _ := strings.Cut(name, ".")
		m[root] = true
	}
	for root := range canonRoots() {
		m[root] = true
	}
	return m
})

// unloose settles what a restored value is from how an operator uses it:
// str / x is a path join, and arithmetic with a number is on numbers.
func unloose(op string, x, y value) (value, value) {
	if op == "/" {
		if x.loose && x.k == kStr {
			x.k = kPath
		}
		if y.loose && y.k == kStr {
			y.k = kPath // '/' / p: p is a Path
		}
		return x, y
	}
	numeric := func(v value) bool { return v.k == kInt || v.k == kBool }
	if x.loose && numeric(y) {
		if n, ok := x.staticInt(); ok {
			x = intVal(n).with(x)
		}
	}
	if y.loose && numeric(x) {
		if n, ok := y.staticInt(); ok {
			y = intVal(n).with(y)
		}
	}
	return x, y
}

// boundTop records that a module name is bound to v. Bound where it may
// not be (a branch, a loop), or after a statement that may have ended the
// cell while the name held something else, the name is partial: what it
// holds after the call is not known.
func (a *analysis) boundTop(name string, v value) {
	switch {
	case a.maybe > 0:
		a.markPartial(name)
	case a.raises > 0:
		old, ok := a.top.vars[name]
		if !ok && a.top.parent != nil {
			old, ok = a.top.parent.vars[name]
		}
		if ok && !sameText(old, v) { // unbound before, the name cannot be used
			a.markPartial(name)
		}
	}
}

// sameText reports two values that are the same known text.
func sameText(x, y value) bool {
	s, ok1 := varText(x)
	t, ok2 := varText(y)
	return ok1 && ok2 && s == t
}

// mayRaise reports a statement that may raise an exception: all but
// plain assignments of constants to names, docstrings, pass, global and
// definitions whose defaults are constants.
func mayRaise(st *stmt) bool {
	switch st.kind {
	case sOther, sGlobal:
		return false
	case sExpr:
		v := st.value
		return len(st.items) > 0 || v == nil || v.kind != nStr || v.str.fmt || v.str.value == ""
	case sAssign:
		if st.annotated || !constExpr(st.value) {
			return true
		}
		for _, t := range st.targets {
			if t.kind != nName {
				return true
			}
		}
		return false
	case sDef:
		for _, p := range st.params {
			if p.def != nil && !constExpr(p.def) {
				return true
			}
		}
		return false
	}
	return true
}

// constExpr reports an expression that evaluates without fail: literals,
// and tuples, lists and concatenations of them.
func constExpr(n *node) bool {
	if n == nil {
		return false
	}
	switch n.kind {
	case nStr:
		return !n.str.fmt
	case nNum, nConst:
		return true
	case nTuple, nList:
		for _, x := range n.args {
			if !constExpr(x) {
				return false
			}
		}
		return true
	case nUnary:
		return (n.op == "-" || n.op == "+") && n.args[0].kind == nNum
	case nBin:
		x, y := n.args[0], n.args[1]
		return n.op == "+" && x.kind == nStr && y.kind == nStr && constExpr(x) && constExpr(y) && x.str.bytes == y.str.bytes
	}
	return false
}

// markPartial records a module name bound where it may not be.
func (a *analysis) markPartial(name string) {
	if a.partial == nil {
		a.partial = map[string]bool{}
	}
	a.partial[name] = true
}

// effect reports an effect of the call and returns its index in the
// call's Effects (-1 when none was added). An effect that repeats the last
// one this text reported on the same path is not repeated (loops,
// alternatives), unless it adds text to a file; a write handle's effect
// (handle set) is its own, since its text grows as it is written.
func (a *analysis) effect(e tool.Effect, handle bool) int {
	if !a.session {
		return -1
	}
	if !handle && !(e.Append && e.Known && e.Text != "") {
		for i := len(a.call.Effects) - 1; i >= len(a.call.Effects)-a.effects; i-- {
			if x := a.call.Effects[i]; x.Path == e.Path || x.Src == e.Path && e.Path != "" {
				if sameEffect(x, e) {
					return i
				}
				break
			}
		}
	}
	if a.effects >= maxEffects {
		a.overrun = true
		return -1
	}
	a.effects++
	a.call.Effects = append(a.call.Effects, e)
	return len(a.call.Effects) - 1
}

func sameEffect(x, y tool.Effect) bool {
	return x.Kind == y.Kind && x.Path == y.Path && x.Src == y.Src && x.Text == y.Text && x.Known == y.Known &&
		x.Append == y.Append && x.URL == y.URL && x.Lang == y.Lang && x.Sensitive == y.Sensitive &&
		slices.Equal(x.Args, y.Args) && slices.Equal(x.From, y.From)
}

// filePath is the absolute path v names, when it is known exactly.
func (a *analysis) filePath(v value) (string, bool) {
	if !v.textual() {
		return "", false
	}
	t := a.resolve(v)
	if !t.known || !t.exact || !strings.HasPrefix(t.p, "/") {
		return "", false
	}
	return t.p, true
}

// staticURL is u's text when all of it is known.
func staticURL(u value) string {
	if u.k == kObj && u.obj != nil && u.obj.url != nil {
		u = *u.obj.url
	}
	if s, ok := u.static(); ok && u.textual() && utf8.ValidString(s) && !strings.Contains(s, dyn) {
		return s
	}
	return ""
}

// fileText is the text data puts in a file, when it is known and the
// write certainly happens.
func (a *analysis) fileText(data value) (string, bool) {
	if a.maybe > 0 || !data.textual() || len(data.alts) > 0 {
		return "", false
	}
	s, ok := data.static()
	if !ok || len(s) > maxFileText || strings.Contains(s, dyn) || !utf8.ValidString(s) {
		return "", false
	}
	return s, true
}

// wrote reports a write of data (nil: unknown) to the file p names, in
// open's mode. Downloaded data makes it a FetchFile.
func (a *analysis) wrote(p value, mode string, data *value) {
	if !a.session {
		return
	}
	path, ok := a.filePath(p)
	if !ok {
		return
	}
	e := tool.Effect{Kind: tool.WriteFile, Path: path, Append: strings.Contains(mode, "a")}
	if data != nil {
		e.Sensitive = sensitivity(data.t)
		if data.t&tNet != 0 {
			e.Kind, e.URL, e.Append = tool.FetchFile, a.fetchURL(), false
		} else {
			e.Text, e.Known = a.fileText(*data)
		}
	}
	a.effect(e, false)
}

// openedForWrite reports the WriteFile of a file opened for writing and
// ties it to the file object f, whose writes complete it.
func (a *analysis) openedForWrite(f *value, p string, mode string, modeKnown bool) {
	// r+ overwrites part of what is there; a mode not known may too.
	known := modeKnown && a.maybe == 0 && !strings.Contains(mode, "r")
	e := tool.Effect{Kind: tool.WriteFile, Path: p, Append: strings.Contains(mode, "a"), Known: known}
	if i := a.effect(e, true); i >= 0 {
		f.obj.effect = i + 1
	}
}

// wroteTo adds data written through the file object h to its effect. A
// statement between two writes that may fail may leave the file with the
// first only: its text is then not known.
func (a *analysis) wroteTo(h value, data value) {
	if h.obj == nil || h.obj.effect == 0 {
		return
	}
	e := &a.call.Effects[h.obj.effect-1]
	if h.obj.wrote != 0 && h.obj.wrote != a.raises {
		e.Text, e.Known = "", false
	}
	h.obj.wrote = a.raises + 1
	if e.Sensitive == "" {
		e.Sensitive = sensitivity(data.t)
	}
	if data.t&tNet != 0 {
		e.Kind, e.URL, e.Append, e.Text, e.Known = tool.FetchFile, a.fetchURL(), false, "", false
	}
	if e.Kind != tool.WriteFile || !e.Known {
		return
	}
	if s, ok := a.fileText(data); ok && len(e.Text)+len(s) <= maxFileText {
		e.Text += s
		return
	}
	e.Text, e.Known = "", false
}

// escape records that a write handle went where the analysis does not
// follow it (an argument, an attribute): what is written is not known.
func (a *analysis) escape(v value) {
	if v.k != kObj || v.obj == nil || v.obj.effect == 0 {
		return
	}
	if e := &a.call.Effects[v.obj.effect-1]; e.Kind == tool.WriteFile {
		e.Text, e.Known = "", false
	}
}

// fetched records a URL the code requests, for the files its responses
// are written to.
func (a *analysis) fetched(u string) {
	switch {
	case !a.session:
	case u == "":
		a.netMany = true
	case a.netURL == "":
		a.netURL = u
	case a.netURL != u:
		a.netMany = true
	}
}

// fetchURL is where downloaded data comes from, when only one URL was
// requested.
func (a *analysis) fetchURL() string {
	if a.netMany {
		return ""
	}
	return a.netURL
}

// fileData lists the files whose data (or file objects) the values carry,
// looking into containers (files={'f': open(p, 'rb')}) one level deep.
// The file skip (that of the URL) is not counted.
func fileData(vals []value, nested bool, skip string, out []string) []string {
	for _, v := range vals {
		if f := v.fileOf(); f != "" && f != skip && !slices.Contains(out, f) && len(out) < maxFrom {
			out = append(out, f)
		}
		if (v.k == kList || v.k == kDict) && !nested {
			out = fileData(v.items, true, skip, out)
		}
	}
	return out
}

// downloaded reports the file f that the download from u is saved in.
func (a *analysis) downloaded(u, f value) {
	if !a.session {
		return
	}
	if p, ok := a.filePath(f); ok {
		a.effect(tool.Effect{Kind: tool.FetchFile, Path: p, URL: staticURL(u)}, false)
	}
}

// wgetName is the file wget.download saves u in without out: the last
// name of the URL's path, in the working directory.
func wgetName(u string) string {
	if pu, err := url.Parse(u); err == nil {
		if b := pu.Path[strings.LastIndexByte(pu.Path, '/')+1:]; b != "" && b != "." && b != ".." {
			return b
		}
	}
	return "download.wget"
}

// ranFile reports a Python file the code runs in its own interpreter.
func (a *analysis) ranFile(p value) {
	if !a.session {
		return
	}
	if path, ok := a.filePath(p); ok {
		a.effect(tool.Effect{Kind: tool.RunFile, Path: path, Lang: "python"}, false)
	}
}

// chdir moves the analysis to the directory p ("" when it is not known)
// and reports it: the interpreter's working directory stays where it
// moved, and is unknown after a move that may not happen.
func (a *analysis) chdir(p string) {
	switch {
	case p == "":
		a.cwdOK = false
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~"):
		a.env.Cwd = a.env.Abs(p)
		a.cwdOK = strings.HasPrefix(a.env.Cwd, "/")
	default:
		a.env.Cwd = a.env.Abs(p) // still unknown after an unknown move
	}
	e := tool.Effect{Kind: tool.Chdir}
	if a.cwdOK && a.maybe == 0 && strings.HasPrefix(a.env.Cwd, "/") {
		e.Path, e.Known = a.env.Cwd, true
	}
	a.effect(e, false)
}

// pyVars reports the module variables the code bound, sorted by name:
// known strings and numbers with their text, anything else unknown (a
// name bound again to something unknown is reported so that an older
// value is forgotten); modules and functions only to forget a value an
// earlier call left under their name. When code the analysis cannot read
// ran (exec of unknown text, import *), every variable is unknown.
func (a *analysis) pyVars() {
	if !a.session {
		return
	}
	var prior map[string]tool.PyValue
	if a.call.Prior != nil {
		prior = a.call.Prior.PyVars
	}
	n := 0
	for name, v := range a.top.vars {
		if _, had := prior[name]; had || (v.k != kRef && v.k != kFunc) {
			n++
		}
	}
	if a.forget {
		n += len(prior)
	}
	if n == 0 {
		return
	}
	names := make([]string, 0, len(a.top.vars))
	for name := range a.top.vars {
		names = append(names, name)
	}
	slices.Sort(names)
	a.call.Effects = slices.Grow(a.call.Effects, min(n, maxVars+len(prior)))
	reported := 0
	for _, name := range names {
		v := a.top.vars[name]
		old, had := prior[name]
		if !had && (v.k == kRef || v.k == kFunc) {
			continue
		}
		e := tool.Effect{Kind: tool.SetPyVar, Path: name}
		t := v.t
		for _, x := range v.alts {
			t |= x.t
		}
		if a.partial[name] || a.forget {
			t |= sensitiveTaint(old.Sensitive) // the earlier value may remain
		} else {
			e.Text, e.Known = varText(v)
		}
		e.Sensitive = sensitivity(t)
		if reported >= maxVars {
			if !had {
				continue
			}
			e.Text, e.Known = "", false
		}
		reported++
		a.call.Effects = append(a.call.Effects, e)
	}
	if !a.forget {
		return
	}
	for _, name := range sortedKeys(prior) {
		if _, bound := a.top.vars[name]; !bound {
			a.call.Effects = append(a.call.Effects, tool.Effect{Kind: tool.SetPyVar, Path: name, Sensitive: prior[name].Sensitive})
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// varText renders a variable's value for the next call: known strings,
// bytes, paths and integers (in decimal).
func varText(v value) (string, bool) {
	if len(v.alts) > 0 {
		return "", false
	}
	switch v.k {
	case kStr, kBytes, kPath:
		s, ok := v.static()
		if !ok || len(s) > maxVarText || strings.Contains(s, dyn) || !utf8.ValidString(s) {
			return "", false
		}
		return s, true
	case kInt:
		return strconv.FormatInt(v.n, 10), true
	}
	return "", false
}
