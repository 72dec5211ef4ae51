package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/agentwarden/warden/internal/keywords"
)

// Finding is one secret found: where, what kind, how bad, and the match
// redacted to its first four characters. It never holds the secret.
type Finding struct {
	FilePath    string   `json:"file_path"`
	Line        int      `json:"line"`   // 1-based
	Column      int      `json:"column"` // 1-based, in characters
	Type        string   `json:"type"`
	Severity    Severity `json:"severity"`
	Match       string   `json:"match"` // redacted (Mask)
	Description string   `json:"description"`
	Suggestion  string   `json:"suggestion"`
	Rule        string   `json:"rule"`
	// Start and End are the byte offsets of the secret in the text
	// scanned; for a secret found inside an encoded blob, of the blob.
	Start int `json:"-"`
	End   int `json:"-"`
}

// Detector finds secrets in text. It is safe for concurrent use.
type Detector struct {
	rules  []*Rule
	idx    *keywords.Index
	byWord [][]*Rule // keyword number → the rules it gates
	words  []string  // the keywords, by number
	allow  string
}

// Option configures a Detector.
type Option func(*Detector)

// WithAllowMarker makes the detector skip lines that carry marker (say
// "warden:allow"). None is honoured by default: a comment that silences a
// scanner is a comment an attacker steering an agent can write.
func WithAllowMarker(marker string) Option { return func(d *Detector) { d.allow = marker } }

// New returns a detector with the given rules (nil: the embedded ones).
func New(rules []*Rule, opts ...Option) (*Detector, error) {
	var d *Detector
	if rules == nil {
		rules, err := DefaultRules()
		if err != nil {
			return nil, err
		}
		d = indexDefault(rules)
	} else {
		d = index(rules)
	}
	for _, o := range opts {
		o(d)
	}
	return d, nil
}

// index numbers the keywords of rules, in the order the rules give them,
// and makes the detector that looks for them.
func index(rules []*Rule) *Detector {
	d := &Detector{rules: rules}
	ids := map[string]int{}
	var words []string
	for _, r := range rules {
		for _, k := range r.Keywords {
			id, ok := ids[k]
			if !ok {
				id = len(words)
				ids[k] = id
				words = append(words, k)
				d.byWord = append(d.byWord, nil)
			}
			if !slices.Contains(d.byWord[id], r) {
				d.byWord[id] = append(d.byWord[id], r)
			}
		}
	}
	if slices.Equal(words, defaultKeywords) {
		// the built-in rules' keywords: their automaton is generated Go
		// data (kwindex_gen.go), so nothing is built
		d.idx = keywords.FromTables(&defaultTables)
	} else {
		d.idx = keywords.New(words)
	}
	d.words = words
	return d
}

// indexDefault is index of the built-in rules (DefaultRules), from the
// generated numbering (kwindex_gen.go: defaultKeywords, defaultByWord):
// no keyword is looked up. TestIndexDefault checks it makes what index
// makes.
func indexDefault(rules []*Rule) *Detector {
	n := 0
	for _, rs := range defaultByWord {
		n += len(rs)
	}
	all := make([]*Rule, 0, n)
	byWord := make([][]*Rule, len(defaultByWord))
	for id, rs := range defaultByWord {
		start := len(all)
		for _, i := range rs {
			all = append(all, rules[i])
		}
		byWord[id] = all[start:len(all):len(all)]
	}
	return &Detector{rules: rules, idx: keywords.FromTables(&defaultTables), byWord: byWord, words: defaultKeywords}
}

var (
	defaultOnce sync.Once
	defaultDet  *Detector
)

// Default returns the detector with the embedded rules.
func Default() *Detector {
	defaultOnce.Do(func() {
		d, err := New(nil)
		if err != nil {
			panic(err) // the embedded rules are tested
		}
		defaultDet = d
	})
	return defaultDet
}

// Rules returns the detector's rules.
func (d *Detector) Rules() []*Rule { return d.rules }

// maxWindow bounds the text a multi-line rule reads from the start of
// its keyword's line.
const maxWindow = 16 << 10

// Scan returns the secrets in text, in order, with path as their
// FilePath. Secrets inside base64, hex or percent-encoded blobs are found
// too (one decoding pass), at the blob's position.
func (d *Detector) Scan(path string, text []byte) []Finding {
	fs := d.find(text, true)
	positions(text, fs, path)
	return fs
}

// ScanString is Scan of a string.
func (d *Detector) ScanString(path, text string) []Finding {
	return d.Scan(path, []byte(text))
}

// find returns the findings of text, sorted by offset, without line and
// column.
func (d *Detector) find(text []byte, decode bool) []Finding {
	var fs []Finding
	// where the window each rule last read ends, so that text is read
	// once per rule
	var lastArr, coveredArr [32]int
	last, covered := lastArr[:0], coveredArr[:0]
	if len(d.rules) > len(lastArr) {
		last, covered = make([]int, len(d.rules)), make([]int, len(d.rules))
	} else {
		last, covered = lastArr[:len(d.rules)], coveredArr[:len(d.rules)]
	}
	var cli *cliState // the words a scanner read last, once one reads
	// the start of the line of the last keyword, and how far the text
	// was searched for it
	curLine, searched := 0, 0
	d.idx.Each(text, func(id, end int) bool {
		kw := len(d.words[id])
		// the keyword's line, up to maxValue bytes after it: found once,
		// when a rule first needs it
		lineStart, lineEnd := -1, -1
		for _, r := range d.byWord[id] {
			if r.scan != nil {
				if cli == nil {
					cli = cliStates.Get().(*cliState)
				}
				fs = r.scanned(cli, text, end-kw, end, d.allow, fs)
				continue
			}
			p := r.compiled()
			if p.name >= 0 && !assignmentAfter(text, end) {
				continue // a name that is not given a value here
			}
			if last[r.priority] >= end {
				continue // read with an earlier window
			}
			if end-kw < covered[r.priority] {
				continue // inside a secret the rule found: reported with it
			}
			if lineStart < 0 {
				// keywords come in order: the text before the last one
				// searched is not searched again
				if n := bytes.LastIndexByte(text[searched:end], '\n'); n >= 0 {
					curLine = searched + n + 1
				}
				searched = max(searched, end)
				lineStart = curLine
				lineEnd = min(len(text), end+maxValue)
				if n := bytes.IndexByte(text[end:lineEnd], '\n'); n >= 0 {
					lineEnd = end + n
				}
			}
			ls, le := lineStart, lineEnd
			if r.Multiline {
				le = min(len(text), ls+maxWindow)
			}
			if p.near != nil && bytes.Index(text[end:min(le, end+maxValue)], p.near) < 0 {
				continue
			}
			switch {
			case r.Anchor == "keyword":
				ls = end - kw
			case r.Anchor == "token":
				ls = max(0, end-kw-1)
			case p.name >= 0:
				// an assignment: the window starts where the name does
				ls = nameStart(text, max(ls, end-maxName), end)
			case !r.Multiline:
				// the text around the keyword
				ls = max(ls, end-kw-maxValue)
			}
			if p.anchored == nil {
				last[r.priority] = le
			}
			if d.allow != "" && !r.Multiline && bytes.Contains(lineOf(text, ls, le), []byte(d.allow)) {
				continue
			}
			n := len(fs)
			fs = r.findIn(p, text, ls, le, fs)
			for _, f := range fs[n:] {
				covered[r.priority] = max(covered[r.priority], f.End)
			}
		}
		return true
	})
	if cli != nil {
		*cli = cliState{} // nothing of text is kept
		cliStates.Put(cli)
	}
	if decode {
		fs = d.decoded(text, fs)
	}
	return dedupe(fs)
}

// cliStates keeps the scanners' states between texts: most texts a
// scanner reads are a command line each, and a state is ~100 bytes.
var cliStates = sync.Pool{New: func() any { return new(cliState) }}

// An assignment's name is read from at most maxName bytes before the
// end of its keyword, its value within maxValue bytes after.
const (
	maxName  = 96
	maxValue = 320
)

// assignmentAfter reports whether, after a keyword ending at end, the
// name goes on (letters, digits, _ . -), maybe closes a quote, and is
// given a value (= : := =>).
func assignmentAfter(text []byte, end int) bool {
	i := end
	for i < len(text) && i-end < maxName && nameByte(text[i]) {
		i++
	}
	if i < len(text) && text[i] == '\\' {
		i++ // an escaped quote, in a string that holds code or JSON
	}
	if i < len(text) && (text[i] == '"' || text[i] == '\'' || text[i] == '`') {
		i++
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i < len(text) && (text[i] == '=' || text[i] == ':')
}

// nameStart returns where the name holding text[:end] starts, at from
// or later.
func nameStart(text []byte, from, end int) int {
	i := end
	for i > from && nameByte(text[i-1]) {
		i--
	}
	return i
}

// schemeStart returns where the URL scheme that ends at end starts
// (mongodb+srv, jdbc:mysql).
func schemeStart(text []byte, end int) int {
	i := end
	for i > 0 && end-i < 32 && (isAlnum(text[i-1]) || text[i-1] == '+' || text[i-1] == ':' || text[i-1] == '.' || text[i-1] == '-') {
		i--
	}
	return i
}

// lineOf returns the whole lines around text[ls:le].
func lineOf(text []byte, ls, le int) []byte {
	s := bytes.LastIndexByte(text[:ls], '\n') + 1
	e := le
	if n := bytes.IndexByte(text[le:], '\n'); n >= 0 {
		e = le + n
	} else {
		e = len(text)
	}
	return text[s:e]
}

// findIn appends the secrets rule r finds in text[ls:le].
func (r *Rule) findIn(p *prog, text []byte, ls, le int, fs []Finding) []Finding {
	window := text[ls:le]
	var ms [][]int
	switch {
	case p.anchored == nil && p.keyBlocks:
		ms = findKeyBlocks(window, 8)
	case !containsFold(window, p.need):
		return fs // no match: every match holds need
	case p.anchored != nil:
		if p.gate != nil && !p.gate.pass(window) {
			return fs // no match at the window's start (see gate)
		}
		m, ok := []int(nil), false
		if p.assign != nil {
			m, ok = p.assign.matchAssignment(window)
		}
		if !ok {
			m = p.anchored.FindSubmatchIndex(window)
		}
		if m != nil {
			ms = [][]int{m}
		}
	default:
		ms = p.re.FindAllSubmatchIndex(window, 8)
	}
	for _, m := range ms {
		s0, s1 := m[0], m[1]
		if p.s >= 0 && m[2*p.s] >= 0 {
			s0, s1 = m[2*p.s], m[2*p.s+1]
		}
		c := candidate{secret: string(window[s0:s1])}
		if p.name >= 0 && m[2*p.name] >= 0 {
			c.name = string(window[m[2*p.name]:m[2*p.name+1]])
		} else if p.key >= 0 && m[2*p.key] >= 0 {
			c.name = string(window[m[2*p.key]:m[2*p.key+1]])
		}
		if r.Anchor == "keyword" {
			c.name = string(text[schemeStart(text, ls):ls])
		}
		if p.q >= 0 && m[2*p.q] >= 0 {
			c.quoted = m[2*p.q+1] > m[2*p.q]
			if c.quoted && s1 < len(window) && !closes(window[s1]) {
				continue // the quoted text goes on: words, not a value
			}
		}
		if !r.accept(c) {
			continue
		}
		fs = append(fs, Finding{Type: r.Type, Severity: r.Severity, Description: r.Description, Suggestion: r.Suggestion,
			Rule: r.ID, Start: ls + s0, End: ls + s1, Match: Mask(c.secret)})
	}
	return fs
}

// scanned appends the secrets a rule's scanner finds at the keyword
// text[ks:ke].
func (r *Rule) scanned(st *cliState, text []byte, ks, ke int, allow string, fs []Finding) []Finding {
	if st.found == nil {
		st.spans = st.spanBuf[:0]
		st.found = &st.spans
	}
	*st.found = (*st.found)[:0]
	r.scan(st, text, ks, ke)
	for _, sp := range *st.found {
		s, e := sp[0], sp[1]
		if allow != "" && bytes.Contains(lineOf(text, s, e), []byte(allow)) {
			continue
		}
		fs = append(fs, Finding{Type: r.Type, Severity: r.Severity, Description: r.Description, Suggestion: r.Suggestion,
			Rule: r.ID, Start: s, End: e, Match: Mask(string(text[s:e]))})
	}
	return fs
}

// closes reports a byte that may follow a quoted value: its closing
// quote (maybe escaped).
func closes(b byte) bool { return b == '"' || b == '\'' || b == '`' || b == '\\' }

// accept applies the rule's filters to a candidate.
func (r *Rule) accept(c candidate) bool {
	// Placeholders are values that stand for a secret; a key block is
	// judged by its body instead (keyBody).
	if r.Check != "private_key" && placeholder(c.secret) {
		return false
	}
	if r.Entropy > 0 && entropy(c.secret) < r.Entropy {
		return false
	}
	return r.check == nil || r.check(c)
}

// dedupe sorts findings by offset and drops those that overlap an earlier
// rule's finding.
func dedupe(fs []Finding) []Finding {
	if len(fs) < 2 {
		return fs
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Start < fs[j].Start })
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && f.Start < out[n-1].End {
			if prio(f) < prio(out[n-1]) {
				out[n-1] = f
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// prio orders the rules of overlapping findings: specific before generic.
func prio(f Finding) int {
	switch f.Type {
	case "generic_api_key":
		return 3
	case "password_in_code":
		return 2
	case "command_line_password":
		return 1
	}
	return 0
}

// ---------------------------------------------------------------- decoding

// minBlob is the shortest encoded run that is decoded.
const minBlob = 32

// decoded scans, once, the base64, hex and percent-encoded blobs of text
// that no finding covers, and adds the secrets they hold at the blob's
// position.
func (d *Detector) decoded(text []byte, fs []Finding) []Finding {
	covered := func(s, e int) bool {
		for _, f := range fs {
			if f.Start < e && s < f.End {
				return true
			}
		}
		return false
	}
	n := 0
	eachBlob(text, func(s, e int, kind byte) bool {
		if covered(s, e) {
			return true
		}
		plain := decodeBlob(text[s:e], kind)
		if plain == nil {
			return true
		}
		n++
		for _, f := range d.find(plain, false) {
			f.Start, f.End = s, e
			f.Description += " (" + kindName(kind) + "-encoded)"
			fs = append(fs, f)
		}
		return n < 64
	})
	return fs
}

func kindName(k byte) string {
	switch k {
	case 'h':
		return "hex"
	case '%':
		return "percent"
	}
	return "base64"
}

// b64Class marks the bytes of base64 text (both alphabets; padding is
// left out, so that "key=…" does not join the name to the value).
var b64Class = func() (t [256]bool) {
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	t['+'], t['/'], t['-'], t['_'] = true, true, true, true
	return
}()

// eachBlob calls fn with every run of at least minBlob base64 characters
// (kind 'b', or 'h' when they are all hex digits) and every run of
// percent-encoded text with at least three escapes (kind '%').
func eachBlob(text []byte, fn func(s, e int, kind byte) bool) {
	n := len(text)
	// A run of minBlob bytes starting at i or later holds the byte at
	// i+minBlob-1: when that one is not a blob byte, skip past it.
	for i := 0; i+minBlob <= n; {
		p := i + minBlob - 1
		if !blobByte[text[p]] {
			i = p + 1
			continue
		}
		s := p
		for s > i && blobByte[text[s-1]] {
			s--
		}
		if s > i {
			// text[s-1] is not a blob byte: a run holding text[p] starts
			// at s, and if it is long enough holds text[s+minBlob-1],
			// read next (TestEachBlob)
			i = s
			continue
		}
		// text[i:p+1] are blob bytes, and text[i-1] is not one (i is
		// always past a byte that is not): a run starts at i
		e := p + 1
		for e < n && blobByte[text[e]] {
			e++
		}
		// the run is at least minBlob long: text[i:p+1] is
		kind, pct, hexOnly := byte('b'), 0, true
		for _, c := range text[s:e] {
			if c == '%' {
				pct++
			} else if hexOnly && !isHex(c) {
				hexOnly = false
			}
		}
		switch {
		case pct >= 3:
			kind = '%'
		case hexOnly:
			kind = 'h'
		}
		if !fn(s, e, kind) {
			return
		}
		i = e + 1
	}
}

// blobByte marks the bytes of base64 text (both alphabets) and '%'.
// Padding is left out, so that "key=…" does not join the name to the
// value.
var blobByte = func() (t [256]bool) {
	for c := range t {
		t[c] = b64Class[c]
	}
	t['%'] = true
	return
}()

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// decodeBlob decodes a blob and returns the text it holds, or nil when it
// does not decode to mostly printable text.
func decodeBlob(b []byte, kind byte) []byte {
	var out []byte
	switch kind {
	case '%':
		s, err := url.PathUnescape(string(b))
		if err != nil {
			return nil
		}
		out = []byte(s)
	case 'h':
		if len(b)%2 != 0 {
			return nil
		}
		out = make([]byte, len(b)/2)
		if _, err := hex.Decode(out, b); err != nil {
			return nil
		}
	default:
		if !mixed(b) {
			return nil // a long identifier, not an encoding
		}
		s := bytes.TrimRight(b, "=")
		enc := base64.RawStdEncoding
		if bytes.ContainsAny(s, "-_") {
			enc = base64.RawURLEncoding
		}
		out = make([]byte, enc.DecodedLen(len(s)))
		n, err := enc.Decode(out, s)
		if err != nil {
			return nil
		}
		out = out[:n]
	}
	if !printable(out) {
		return nil
	}
	return out
}

// mixed reports base64 text with upper case, lower case and digits.
func mixed(b []byte) bool {
	var u, l, d bool
	for _, c := range b {
		switch {
		case c >= 'A' && c <= 'Z':
			u = true
		case c >= 'a' && c <= 'z':
			l = true
		case c >= '0' && c <= '9':
			d = true
		}
	}
	return u && l && d
}

// printable reports text that is valid UTF-8 with few control bytes.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	bad := 0
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			bad++
		}
	}
	return bad*20 <= len(b)
}

// ---------------------------------------------------------------- positions

// positions sets the line and column (in characters) of each finding.
// Findings are in order: the text is read once.
func positions(text []byte, fs []Finding, path string) {
	line, at, col := 1, 0, 0 // col: the characters of the line before at
	for i := range fs {
		start := min(fs[i].Start, len(text))
		if start > at {
			seg := text[at:start]
			if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
				line += n
				col = utf8.RuneCount(seg[bytes.LastIndexByte(seg, '\n')+1:])
			} else {
				col += utf8.RuneCount(seg)
			}
			at = start
		}
		fs[i].FilePath, fs[i].Line = path, line
		fs[i].Column = col + 1
	}
}
