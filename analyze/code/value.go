package code

import (
	"path"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/tool"
)

// kind is what the analyzer knows a value to be.
type kind uint8

const (
	kDyn   kind = iota // computed at run time: unknown
	kStr               // str (s holds the text)
	kBytes             // bytes (s holds the bytes)
	kPath              // pathlib.Path (s holds the path)
	kInt               // int (n)
	kBool              // bool (n is 0 or 1)
	kNone              // None
	kList              // list, tuple or set (items)
	kDict              // dict (items: key, value, key, value …)
	kRef               // a module, class or function by dotted name (s)
	kObj               // an object a known call made (s names its type)
	kFunc              // a function or lambda defined in the code
)

// dyn marks, inside a string value, a piece whose text is only known at
// run time: "rm -rf " + user_input is "rm -rf \x00". A NUL in the code's
// own strings reads as unknown too, which errs on the careful side.
const dyn = "\x00"

// taint records where data came from, for the sinks that care.
type taint uint16

const (
	tNet       taint = 1 << iota // downloaded from the network
	tEnviron                     // the whole process environment
	tCred                        // the contents of a credential file
	tDB                          // rows read from a database
	tSocket                      // a network socket or its descriptor
	tSecretVar                   // an environment variable whose name says it holds a secret (envname.Secret)
)

// sensitive is data whose leaving the machine is exfiltration.
const sensitive = tEnviron | tCred | tDB

// value is the static view of a Python value.
type value struct {
	k     kind
	s     string
	n     int64
	items []value
	t     taint
	bin   bool // s is decoded data whose NUL bytes are real, not unknown pieces
	// loose marks a str restored from an earlier call's text: the
	// variable may have held a pathlib.Path or a number with that text.
	loose bool
	src   *listing // the directory listing this value was drawn from
	obj   *object  // kObj and kFunc: what the analyzer knows of them; else the file data came from
	// alts are other values v may have, depending on which branch of an
	// if ran (p = '/' if x else 'build'); v itself is one of them.
	alts []value
}

// maxAlts bounds the alternatives of a value.
const maxAlts = 4

// alternatives makes one value of those a name may have after branches:
// the last is the value, the others its alternatives.
func alternatives(vals []value) value {
	var distinct []value
	for _, v := range vals {
		for _, x := range expandAlts(v) {
			dup := false
			for _, d := range distinct {
				if sameValue(d, x) {
					dup = true
					break
				}
			}
			if !dup {
				distinct = append(distinct, x)
			}
		}
	}
	if len(distinct) == 0 {
		return dynValue
	}
	out := distinct[len(distinct)-1]
	out.alts = nil
	for _, d := range distinct[:len(distinct)-1] {
		if len(out.alts) < maxAlts {
			out.alts = append(out.alts, d)
		}
	}
	return out
}

// expandAlts lists a value and its alternatives, each without alternatives.
func expandAlts(v value) []value {
	if len(v.alts) == 0 {
		return []value{v}
	}
	out := make([]value, 0, len(v.alts)+1)
	for _, x := range v.alts {
		x.alts = nil
		out = append(out, x)
	}
	v.alts = nil
	return append(out, v)
}

// pick returns alternative i of v (v itself past its alternatives).
func pick(v value, i int) value {
	if i < len(v.alts) {
		x := v.alts[i]
		x.alts = nil
		return x
	}
	v.alts = nil
	return v
}

// altCount is the number of alternative combinations among vs.
func altCount(vs ...value) int {
	n := 0
	for _, v := range vs {
		n = max(n, len(v.alts))
	}
	return n
}

// object is what the analyzer knows of an object or function: the URL or
// host a connection talks to, the body and method of a urllib Request, the
// code of a function.
type object struct {
	url    *value
	body   *value
	method string
	fn     *function
	// file is the absolute path of the file that a file object reads or
	// writes, or that data was read from (it follows the data through
	// the values derived from it); effect is 1 + the index in the call's
	// Effects of the WriteFile a write handle reports (0: none), wrote 1 +
	// the count of statements that may raise at its last write.
	file   string
	effect int
	wrote  int
}

// fn returns the function a kFunc value is.
func (v value) fn() *function {
	if v.obj == nil {
		return nil
	}
	return v.obj.fn
}

// listing is a directory listing a loop or comprehension walks.
type listing struct {
	dir       value // the directory listed
	recursive bool  // walks the whole tree below dir
	selective bool  // only some entries (a pattern or a filter)
}

// function is a def or lambda of the analyzed code.
type function struct {
	def      *stmt // nil for a lambda
	lambda   *node
	params   []param
	scope    *scope
	analyzed bool // its body has been read at least once
}

var dynValue = value{k: kDyn}

func str(s string) value     { return value{k: kStr, s: s} }
func pathVal(s string) value { return value{k: kPath, s: s} }
func intVal(n int64) value   { return value{k: kInt, n: n} }
func ref(s string) value     { return value{k: kRef, s: s} }

// textual reports whether v has a text: a string, bytes or a path.
func (v value) textual() bool { return v.k == kStr || v.k == kBytes || v.k == kPath }

// text renders v as str() would, with dyn for what is unknown.
func (v value) text() string {
	switch v.k {
	case kStr, kBytes, kPath:
		return v.s
	case kInt:
		return strconv.FormatInt(v.n, 10)
	case kBool:
		if v.n != 0 {
			return "True"
		}
		return "False"
	case kNone:
		return "None"
	}
	return dyn
}

// static returns v's text and whether all of it is known.
func (v value) static() (string, bool) {
	if !v.textual() {
		return "", false
	}
	return v.s, v.bin || !strings.Contains(v.s, dyn)
}

// staticInt returns v's integer value when it is known.
func (v value) staticInt() (int64, bool) {
	if v.k == kInt || v.k == kBool {
		return v.n, true
	}
	if v.loose && v.k == kStr {
		if n, err := strconv.ParseInt(v.s, 10, 64); err == nil && strconv.FormatInt(n, 10) == v.s {
			return n, true
		}
	}
	return 0, false
}

// derived is an unknown value made from others: it keeps their taint, the
// listing they were drawn from and the file their data was read from.
func derived(vs ...value) value {
	out := value{k: kDyn}
	for _, v := range vs {
		out.t |= v.t
		if out.src == nil {
			out.src = v.src
		}
		if out.obj == nil && v.obj != nil && v.obj.file != "" {
			out.obj = v.obj.provenance()
		}
	}
	return out
}

// with returns v carrying the taint, listing and file of the others too.
func (v value) with(others ...value) value {
	for _, o := range others {
		v.t |= o.t
		if v.src == nil {
			v.src = o.src
		}
		if v.obj == nil && o.obj != nil && o.obj.file != "" && v.k != kObj && v.k != kFunc {
			v.obj = o.obj.provenance()
		}
	}
	return v
}

// provenance returns an object that only names o's file: data drawn
// from a file object is not the file object.
func (o *object) provenance() *object {
	if o.url == nil && o.body == nil && o.fn == nil && o.effect == 0 && o.method == "" {
		return o
	}
	return &object{file: o.file}
}

// fileOf is the file v's data was read from, or that the file object v
// reads or writes ("" when none is known).
func (v value) fileOf() string {
	if v.obj == nil {
		return ""
	}
	return v.obj.file
}

// maxText bounds the length of string values the analyzer computes; a
// longer result is unknown.
const maxText = 1 << 16

// maxItems bounds the items of list values.
const maxItems = 256

// concat adds two values as Python's + does for strings, bytes and lists.
func concat(a, b value) value {
	switch {
	case a.k == kList && b.k == kList:
		if len(a.items)+len(b.items) > maxItems {
			return derived(a, b)
		}
		items := make([]value, 0, len(a.items)+len(b.items))
		items = append(append(items, a.items...), b.items...)
		return value{k: kList, items: items}.with(a, b)
	case a.k == kInt && b.k == kInt:
		return intVal(a.n+b.n).with(a, b)
	}
	if a.textual() || b.textual() {
		k := a.k
		if !a.textual() {
			k = b.k
		}
		if k == kPath {
			k = kStr
		}
		s := textOf(a) + textOf(b)
		if len(s) > maxText {
			return derived(a, b)
		}
		return value{k: k, s: s}.with(a, b)
	}
	return derived(a, b)
}

// textOf is the text a value contributes to a string: its own if it is
// textual, else one unknown piece.
func textOf(v value) string {
	if v.textual() {
		return v.s
	}
	return dyn
}

// joinPath joins path components as os.path.join does. A component
// computed at run time is taken to be relative.
func joinPath(parts []value) string {
	var b strings.Builder
	for i, p := range parts {
		s := p.text()
		if p.k == kList || p.k == kDict || p.k == kNone {
			s = dyn
		}
		if strings.HasPrefix(s, "/") {
			b.Reset()
		} else if i > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "/") {
			b.WriteByte('/')
		}
		b.WriteString(s)
		if b.Len() > maxText {
			return dyn
		}
	}
	return b.String()
}

// cleanPath cleans a path that is fully known; one with unknown pieces is
// kept as it is, since "..", after an unknown piece, cannot be resolved.
func cleanPath(s string) string {
	if s == "" || strings.Contains(s, dyn) {
		return s
	}
	return path.Clean(s)
}

// truthy reports whether v is a constant that is always true (while
// True:, while 1:).
func truthy(v value) bool {
	switch v.k {
	case kBool, kInt:
		return v.n != 0
	case kStr, kBytes:
		return v.s != "" && !strings.Contains(v.s, dyn)
	}
	return false
}

// renderShellWord quotes one argv word for the shell, rendering unknown
// pieces as "$WARDEN_DYNAMIC" so that shell analysis sees a variable.
func renderShellWord(s string) string {
	if !strings.Contains(s, dyn) {
		return tool.Quote(s)
	}
	var b strings.Builder
	for i, piece := range strings.Split(s, dyn) {
		if i > 0 {
			b.WriteString(dynWord)
		}
		if piece != "" {
			b.WriteString(tool.Quote(piece))
		}
	}
	return b.String()
}

// dynWord is how an unknown piece of a command appears to shell analysis.
const dynWord = `"$WARDEN_DYNAMIC"`

// renderScript renders a shell script with unknown pieces as
// "$WARDEN_DYNAMIC".
func renderScript(s string) string {
	return strings.ReplaceAll(s, dyn, dynWord)
}

// staticPrefix returns the known text before the first unknown piece.
func staticPrefix(s string) string {
	if i := strings.Index(s, dyn); i >= 0 {
		return s[:i]
	}
	return s
}
