package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// The encoding of a State: magic, version, the fields, a CRC-32C of all
// that precedes it. Version 2 added the contexts the conversation selected
// (after the listings); UnmarshalState reads a version 1 state as one that
// selected none, which is what a warden of version 1 knew of it, and
// MarshalBinary writes version 2 only. Integers are varints, strings their length and bytes,
// maps their size and entries in key order, so that equal states encode
// to equal bytes.
//
// The approvals are followed, only when one of them is for one time only
// (Approval.Once), by their count again and a flags varint for each (bit
// 0: Once): a state without such an approval encodes as it always did,
// and a warden that does not know one-time approvals refuses a state
// that holds one (bytes after the end) instead of letting it be used
// more than once.
const (
	magic = "WDNS"
	// Version is the version of the State encoding MarshalBinary writes;
	// UnmarshalState reads it and MinVersion, and the versions between.
	Version = 2
	// MinVersion is the oldest version UnmarshalState reads.
	MinVersion = 1
)

// checksum returns the CRC-32C of b. hash/crc32 computes it with the
// SSE4.2 instruction once crc32.MakeTable(crc32.Castagnoli) has made its
// tables, which costs about 1.3M instructions (0.3 ms): more than a
// hook's process, which reads and writes one state of a few KB, spends
// on the rest of the encoding. So a process sums its first sseAfter bytes
// with a table of 256 entries (made in a few thousand instructions; about
// 9 instructions a byte), and what follows with the SSE4.2 instruction
// (a quarter of an instruction a byte): the same sums. BenchmarkChecksum.
func checksum(b []byte) uint32 {
	if summed.Add(int64(len(b))) <= sseAfter {
		return crc32.Checksum(b, castagnoliBytes())
	}
	return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli))
}

// sseAfter is how many bytes a process sums byte by byte before checksum
// makes the SSE4.2 tables: summing about 150 KB byte by byte costs what
// making them does.
const sseAfter = 128 << 10

// summed is how many bytes checksum was given, in this process.
var summed atomic.Int64

// castagnoliBytes is the CRC-32C table of one byte, made on first use. A
// table of its own, not crc32.MakeTable's: crc32.Checksum sums with it
// byte by byte, and makes no tables of its own.
var castagnoliBytes = sync.OnceValue(func() *crc32.Table {
	t := new(crc32.Table)
	for i := range t {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ crc32.Castagnoli
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
})

// ErrCorrupt is wrapped by the errors of UnmarshalState for data that is
// not a state this version of warden wrote: damaged, truncated, of another
// version, or beyond the Config's bounds.
var ErrCorrupt = errors.New("session: stored state is not valid")

// MarshalBinary encodes everything in st that a later verdict depends on:
// the steps, workspace and directory, the shell and interpreter state, the
// files, the sensitive reads and the hashes of the values remembered, the
// history and the approvals. Neither the hash key (the store keeps it) nor
// the Config is encoded. It fails when the encoding exceeds MaxBytes.
func (st *State) MarshalBinary() ([]byte, error) { return st.marshal(Version) }

// marshal encodes st in the encoding version given (tests write the
// older ones): version 1 leaves the contexts out.
func (st *State) marshal(version uint64) ([]byte, error) {
	var e enc
	e.b = make([]byte, 0, 256)
	e.b = append(e.b, magic...)
	e.uint(version)
	e.str(st.id)
	e.uint(uint64(st.step))
	e.str(st.workspace)
	e.str(st.cwd)

	p := &st.prior
	for _, m := range []map[string]string{p.Vars, p.Aliases, p.Funcs, p.GitAliases, p.Links} {
		e.uint(uint64(len(m)))
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(k)
			e.str(m[k])
		}
	}
	e.uint(uint64(len(p.PyVars)))
	for _, k := range slices.Sorted(maps.Keys(p.PyVars)) {
		v := p.PyVars[k]
		e.str(k)
		e.str(v.Text)
		e.bool(v.Known)
		e.str(v.Sensitive)
	}
	e.uint(uint64(len(p.Lists)))
	for _, k := range slices.Sorted(maps.Keys(p.Lists)) {
		e.str(k)
		e.strs(p.Lists[k])
	}
	if version >= 2 {
		e.uint(uint64(len(st.contexts)))
		for _, k := range slices.Sorted(maps.Keys(st.contexts)) {
			e.str(k)
			e.str(st.contexts[k].Name)
			e.uint(uint64(st.contexts[k].Step))
		}
	}

	// files, grouped by base name in the order lookup reads them
	e.uint(uint64(len(st.byBase)))
	for _, b := range slices.Sorted(maps.Keys(st.byBase)) {
		e.str(b)
		e.uint(uint64(len(st.byBase[b])))
		for _, q := range st.byBase[b] {
			f := st.files[q]
			if f == nil {
				return nil, fmt.Errorf("session: state %q: file %s indexed but not tracked", st.id, q)
			}
			e.str(f.Path)
			e.str(f.Text)
			e.uint(flags(f.Known, f.Truncated, f.Written, f.Executable))
			e.uint(uint64(f.Step))
			e.str(f.Downloaded)
			e.str(f.Sensitive)
		}
	}

	e.uint(uint64(len(st.reads)))
	for _, r := range st.reads {
		e.uint(uint64(r.Step))
		e.str(r.What)
	}
	e.uint(uint64(len(st.marks)))
	for _, h := range slices.Sorted(maps.Keys(st.marks)) {
		e.b = binary.LittleEndian.AppendUint64(e.b, h)
		e.uint(uint64(st.marks[h]))
	}

	e.uint(uint64(len(st.history)))
	for _, h := range st.history {
		e.uint(uint64(h.Step))
		e.str(h.Tool)
		e.str(h.Summary)
		e.uint(uint64(h.Level))
		e.str(string(h.Verdict))
		e.strs(h.Resource)
		e.b = binary.AppendVarint(e.b, h.Time.Unix())
		e.uint(uint64(h.Time.Nanosecond()))
	}

	e.uint(uint64(len(st.approvals)))
	once := false
	for _, a := range st.approvals {
		e.str(a.Exact)
		e.str(a.Rule)
		e.str(a.Origin)
		once = once || a.Once
	}
	if once {
		e.uint(uint64(len(st.approvals)))
		for _, a := range st.approvals {
			e.uint(flags(a.Once))
		}
	}

	e.b = binary.LittleEndian.AppendUint32(e.b, checksum(e.b))
	if len(e.b) > st.cfg.MaxBytes {
		return nil, fmt.Errorf("session: state %q encodes to %d bytes, more than MaxBytes (%d)", st.id, len(e.b), st.cfg.MaxBytes)
	}
	return e.b, nil
}

func flags(bs ...bool) uint64 {
	var f uint64
	for i, b := range bs {
		if b {
			f |= 1 << i
		}
	}
	return f
}

type enc struct{ b []byte }

func (e *enc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *enc) str(s string)  { e.uint(uint64(len(s))); e.b = append(e.b, s...) }
func (e *enc) bool(v bool)   { e.uint(flags(v)) }
func (e *enc) strs(l []string) {
	e.uint(uint64(len(l)))
	for _, s := range l {
		e.str(s)
	}
}

// UnmarshalState decodes a state MarshalBinary encoded, bounded by cfg
// (zero fields take the defaults), its remembered values hashed under key
// (the key of the store that holds it, at least KeySize bytes).
//
// Data that is damaged, truncated, of another version or larger than cfg
// allows (more files, names, reads, history or bytes) is an error wrapping
// ErrCorrupt, never an empty state: a conversation that cannot be read
// must not start again with a clean slate. What decoding allocates is
// bounded by the size of data, at most MaxBytes.
func UnmarshalState(data []byte, cfg Config, key []byte) (*State, error) {
	cfg = cfg.withDefaults()
	if err := checkKey(key); err != nil {
		return nil, err
	}
	if len(data) > cfg.MaxBytes {
		return nil, fmt.Errorf("%w: %d bytes, more than MaxBytes (%d)", ErrCorrupt, len(data), cfg.MaxBytes)
	}
	if len(data) < len(magic)+1+4 || string(data[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a warden session state", ErrCorrupt)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	d := &dec{b: body[len(magic):]}
	version := d.uint()
	if d.err == nil && (version < MinVersion || version > Version) {
		return nil, fmt.Errorf("%w: encoding version %d (this warden reads versions %d to %d)", ErrCorrupt, version, MinVersion, Version)
	}
	if checksum(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	st := newState(d.str(-1), cfg)
	st.setKey(key)
	st.step = d.int(-1)
	st.workspace = d.str(-1)
	st.cwd = d.str(-1)

	p := &st.prior
	for _, m := range []*map[string]string{&p.Vars, &p.Aliases, &p.Funcs, &p.GitAliases, &p.Links} {
		n := d.count(cfg.MaxNames, "names")
		if n == 0 {
			continue
		}
		*m = make(map[string]string, n)
		for range n {
			k := d.str(-1)
			(*m)[k] = d.str(-1)
		}
		d.unique(len(*m), n)
	}
	if n := d.count(cfg.MaxNames, "Python variables"); n > 0 {
		p.PyVars = make(map[string]tool.PyValue, n)
		for range n {
			k := d.str(-1)
			p.PyVars[k] = tool.PyValue{Text: d.str(cfg.MaxFileBytes), Known: d.bool(), Sensitive: d.str(-1)}
		}
		d.unique(len(p.PyVars), n)
	}
	if n := d.count(cfg.MaxNames, "listings"); n > 0 {
		p.Lists = make(map[string][]string, n)
		for range n {
			k := d.str(-1)
			p.Lists[k] = d.strs()
		}
		d.unique(len(p.Lists), n)
	}
	if version >= 2 {
		if n := d.count(cfg.MaxNames, "contexts"); n > 0 {
			st.contexts = make(map[string]Context, n)
			for range n {
				k := d.str(-1)
				st.contexts[k] = Context{Name: d.str(-1), Step: d.int(-1)}
			}
			d.unique(len(st.contexts), n)
		}
	}

	nb, files := d.count(cfg.MaxFiles, "base names"), 0
	for range nb {
		b := d.str(-1)
		n := d.count(cfg.MaxFiles, "files")
		if files += n; files > cfg.MaxFiles {
			d.fail("more than %d files", cfg.MaxFiles)
		}
		if d.err != nil {
			break
		}
		if _, dup := st.byBase[b]; dup || n == 0 {
			d.fail("base name %q repeated or empty", b)
		}
		for range n {
			f := &File{Path: d.str(-1), Text: d.str(cfg.MaxFileBytes)}
			fl := d.uint()
			f.Known, f.Truncated, f.Written, f.Executable = fl&1 != 0, fl&2 != 0, fl&4 != 0, fl&8 != 0
			f.Step = d.int(-1)
			f.Downloaded = d.str(-1)
			f.Sensitive = d.str(-1)
			if d.err != nil {
				break
			}
			if _, dup := st.files[f.Path]; dup || path.Base(f.Path) != b || fl > 15 {
				d.fail("file %q misplaced or repeated", f.Path)
				break
			}
			if st.files == nil {
				st.files, st.byBase = map[string]*File{}, map[string][]string{}
			}
			st.files[f.Path] = f
			st.byBase[b] = append(st.byBase[b], f.Path)
		}
	}

	if n := d.count(cfg.MaxNames, "reads"); n > 0 {
		st.reads = make([]Read, n)
		for i := range st.reads {
			st.reads[i] = Read{Step: d.int(-1), What: d.str(-1)}
		}
	}
	if n := d.count(4*cfg.MaxNames, "remembered values"); n > 0 {
		st.marks = make(map[uint64]uint16, n)
		if len(st.reads) == 0 {
			d.fail("remembered values without reads")
		}
		for range n {
			h := d.u64()
			st.marks[h] = uint16(d.int(len(st.reads) - 1))
		}
		d.unique(len(st.marks), n)
	}

	if n := d.count(cfg.Window, "history entries"); n > 0 {
		st.history = make([]Entry, n)
		for i := range st.history {
			h := &st.history[i]
			h.Step = d.int(-1)
			h.Tool = d.str(-1)
			h.Summary = d.str(-1)
			h.Level = risk.Level(d.int(int(risk.Critical)))
			h.Verdict = risk.Verdict(d.str(-1))
			h.Resource = d.strs()
			sec := d.varint()
			h.Time = time.Unix(sec, int64(d.int(999999999)))
			switch h.Verdict {
			case "", risk.Allow, risk.Ask, risk.Deny:
			default:
				d.fail("verdict %q", h.Verdict)
			}
		}
	}

	if n := d.count(cfg.MaxNames, "approvals"); n > 0 {
		st.approvals = make([]Approval, n)
		for i := range st.approvals {
			st.approvals[i] = Approval{Exact: d.str(-1), Rule: d.str(-1), Origin: d.str(-1)}
		}
	}
	if d.err == nil && len(d.b) != 0 && len(st.approvals) > 0 { // their flags
		if n := d.int(-1); d.err == nil && n != len(st.approvals) {
			d.fail("flags of %d approvals, not %d", n, len(st.approvals))
		}
		for i := 0; d.err == nil && i < len(st.approvals); i++ {
			f := d.uint()
			if f > 1 {
				d.fail("approval flags %#x", f)
			}
			st.approvals[i].Once = f&1 != 0
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the end", len(d.b))
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, d.err)
	}
	return st, nil
}

// dec reads an encoding; the first error stops it (every read after it
// returns zero values).
type dec struct {
	b   []byte
	err error
}

func (d *dec) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
	d.b = nil
}

func (d *dec) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("truncated")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("truncated")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int reads a number of at most max (-1: any int32).
func (d *dec) int(max int) int {
	v := d.uint()
	if max < 0 {
		max = 1<<31 - 1
	}
	if v > uint64(max) {
		d.fail("number %d out of range", v)
		return 0
	}
	return int(v)
}

func (d *dec) bool() bool {
	return d.int(1) == 1
}

func (d *dec) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b) < 8 {
		d.fail("truncated")
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

// str reads a string of at most max bytes (-1: any that fits).
func (d *dec) str(max int) string {
	n := d.uint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.b)) || max >= 0 && n > uint64(max) {
		d.fail("string of %d bytes out of range", n)
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

func (d *dec) strs() []string {
	n := d.count(len(d.b), "strings")
	if n == 0 {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = d.str(-1)
	}
	return l
}

// count reads how many entries follow: at most max, and no more than
// bytes are left (every entry takes one at least), so that what it
// allocates is bounded by the data.
func (d *dec) count(max int, what string) int {
	n := d.uint()
	if d.err != nil {
		return 0
	}
	if n > uint64(max) || n > uint64(len(d.b)) {
		d.fail("%d %s, more than %d", n, what, min(max, len(d.b)))
		return 0
	}
	return int(n)
}

// unique checks that the n entries read into a map of size got had
// distinct keys.
func (d *dec) unique(got, n int) {
	if d.err == nil && got != n {
		d.fail("repeated keys")
	}
}
