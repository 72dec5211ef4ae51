package session

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// richState returns a state with something in every field, made by the
// methods the engine calls.
func richState(t testing.TB) *State {
	st := New("conv-1", Config{}, bytes.Repeat([]byte{7}, KeySize))
	c := call(
		tool.Effect{Kind: tool.Chdir, Path: "/home/user", Known: true},
		tool.Effect{Kind: tool.SetVar, Path: "DIR", Text: "/", Known: true},
		tool.Effect{Kind: tool.SetAlias, Path: "ll", Text: "ls -la", Known: true},
		tool.Effect{Kind: tool.SetFunc, Path: "f", Text: "rm -rf ~", Known: true},
		tool.Effect{Kind: tool.SetGitAlias, Path: "sync", Text: "push -f", Known: true},
		tool.Effect{Kind: tool.SetPyVar, Path: "base", Text: "http://169.254.169.254", Known: true},
		tool.Effect{Kind: tool.SetPyVar, Path: "env", Sensitive: "environment"},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/a.sh", Text: "echo a\n", Known: true},
		tool.Effect{Kind: tool.MakeExecutable, Path: "/tmp/a.sh"},
		tool.Effect{Kind: tool.WriteFile, Path: "/srv/a.sh", Text: strings.Repeat("x", 70<<10), Known: true},
		tool.Effect{Kind: tool.FetchFile, Path: "/tmp/d", URL: "https://x.example/d"},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/env", Sensitive: "environment"},
		tool.Effect{Kind: tool.CopyFile, Src: "/home/user/.ssh/id_rsa", Path: "/tmp/k"},
		tool.Effect{Kind: tool.WriteFile, Path: "/tmp/l", List: []string{"/home/user/{}", "/srv/{}"}},
		tool.Effect{Kind: tool.Symlink, Path: "/tmp/link", Src: "/home/user"},
		tool.Effect{Kind: tool.SetContext, Path: "kubernetes", Text: "prod-eu", Known: true},
		tool.Effect{Kind: tool.SetContext, Path: "terraform", Text: "workspace dev", Known: true},
	)
	c.Shell = []string{"cd ~ && DIR=/ && …"}
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.Medium, AffectedResources: []string{"file:/tmp/a.sh", "url:https://x.example/d"}}, &risk.Decision{Verdict: risk.Ask})
	read := normalized("Read", map[string]any{"file_path": "/home/user/.ssh/id_ed25519"})
	st.Enter(read, false)
	st.Observe(read, fakeKey, PersonalScanner)
	st.Record(read, &risk.Assessment{Level: risk.High}, &risk.Decision{Verdict: risk.Allow})
	denied := call(tool.Effect{Kind: tool.RemoveFile, Path: "/tmp"})
	st.Enter(denied, false)
	st.Record(denied, &risk.Assessment{Level: risk.Critical}, &risk.Decision{Verdict: risk.Deny})
	st.Approve(Approval{Exact: `Bash {"command":"ls"} /home/user`, Origin: "a person"}, Approval{Rule: "Bash(ls:*)", Origin: "approved for session conv-1"})
	if len(st.marks) == 0 || len(st.reads) == 0 || len(st.history) != 3 || len(st.files) < 5 {
		t.Fatalf("the rich state is not rich: %d marks, %d reads, %d entries, %d files", len(st.marks), len(st.reads), len(st.history), len(st.files))
	}
	return st
}

// encodingSkips are the fields of State that are not encoded, and why.
var encodingSkips = map[string]string{
	"cfg": "given to UnmarshalState",
	"key": "the store's, given to UnmarshalState", "mk": "derived from key",
}

func TestStateRoundTrip(t *testing.T) {
	st := richState(t)
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalState(data, Config{}, st.key)
	if err != nil {
		t.Fatal(err)
	}
	// every field of State but those named in encodingSkips comes back
	// equal: a field added to State without being encoded fails here
	a, b := reflect.ValueOf(st).Elem(), reflect.ValueOf(got).Elem()
	for i := range a.NumField() {
		name := a.Type().Field(i).Name
		if _, skip := encodingSkips[name]; skip {
			continue
		}
		x, y := reachable(a.Field(i)), reachable(b.Field(i))
		if !sameValue(x, y) {
			t.Errorf("field %s: %#v, after a round trip %#v", name, x.Interface(), y.Interface())
		}
	}
	again, err := got.MarshalBinary()
	if err != nil || !bytes.Equal(data, again) {
		t.Errorf("the encoding of the decoded state differs (%v)", err)
	}
	// what the decoded state remembers is still recognised
	line := strings.Split(fakeKey, "\n")[2]
	if got.carries("k="+line) < 0 {
		t.Error("a remembered value is not recognised after a round trip")
	}
	if other, _ := UnmarshalState(data, Config{}, bytes.Repeat([]byte{8}, KeySize)); other.carries("k="+line) >= 0 {
		t.Error("a remembered value recognised under another key")
	}
}

func TestStateRoundTripEmpty(t *testing.T) {
	st := New("", Config{}, NewKey())
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalState(data, Config{}, st.key)
	if err != nil || got.Steps() != 0 || got.Files() != 0 || got.ID() != "" {
		t.Fatalf("%+v %v", got, err)
	}
}

// TestUnmarshalRefusesCorruptData: damaged, truncated, foreign or
// oversized data is an error wrapping ErrCorrupt, never a state.
func TestUnmarshalRefusesCorruptData(t *testing.T) {
	st := richState(t)
	data, _ := st.MarshalBinary()
	key := st.key
	refuse := func(name string, data []byte, cfg Config) {
		t.Helper()
		got, err := UnmarshalState(data, cfg, key)
		if !errors.Is(err, ErrCorrupt) || got != nil {
			t.Errorf("%s: state %v, error %v", name, got != nil, err)
		}
	}
	refuse("nil", nil, Config{})
	refuse("empty", []byte{}, Config{})
	refuse("json", []byte(`{"step":3}`), Config{})
	for n := range len(data) {
		if n < 300 || n%97 == 0 {
			refuse(fmt.Sprintf("truncated to %d", n), data[:n], Config{})
		}
	}
	for i := 0; i < len(data); i += 1 + i/50 {
		bad := bytes.Clone(data)
		bad[i] ^= 0x10
		refuse(fmt.Sprintf("byte %d flipped", i), bad, Config{})
	}
	refuse("trailing byte", append(bytes.Clone(data), 0), Config{})
	for _, v := range []byte{0, Version + 1} {
		other := bytes.Clone(data)
		other[len(magic)] = v
		other = binary.LittleEndian.AppendUint32(other[:len(other)-4], crcOf(other[:len(other)-4]))
		if _, err := UnmarshalState(other, Config{}, key); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), fmt.Sprintf("version %d", v)) {
			t.Errorf("version %d: %v", v, err)
		}
	}
	// within the checksum, but beyond the bounds of the reader's Config
	refuse("more files than MaxFiles", data, Config{MaxFiles: 2})
	refuse("more history than Window", data, Config{Window: 2})
	refuse("more names than MaxNames", data, Config{MaxNames: 1})
	refuse("a file longer than MaxFileBytes", data, Config{MaxFileBytes: 10})
	refuse("longer than MaxBytes", data, Config{MaxBytes: len(data) - 1})
	if _, err := UnmarshalState(data, Config{}, key[:16]); err == nil {
		t.Error("a 16-byte key accepted")
	}
}

// TestUnmarshalBoundsHostileCounts: a count that claims more entries than
// the data holds fails before anything that large is allocated.
func TestUnmarshalBoundsHostileCounts(t *testing.T) {
	key := NewKey()
	var e enc
	e.b = append(e.b, magic...)
	e.uint(Version)
	e.str("x")
	e.uint(1)
	e.str("/w")
	e.str("/w")
	e.uint(200) // 200 vars, and no data for them
	e.b = binary.LittleEndian.AppendUint32(e.b, crcOf(e.b))
	if _, err := UnmarshalState(e.b, Config{MaxNames: 1 << 20}, key); !errors.Is(err, ErrCorrupt) {
		t.Errorf("200 names in no data: %v", err)
	}
	allocs := testing.AllocsPerRun(10, func() { UnmarshalState(e.b, Config{MaxNames: 1 << 20}, key) })
	if allocs > 20 {
		t.Errorf("%v allocations for a hostile count", allocs)
	}
}

func TestMarshalBoundedByMaxBytes(t *testing.T) {
	st := New("x", Config{MaxBytes: 100}, NewKey())
	c := call(tool.Effect{Kind: tool.WriteFile, Path: "/tmp/a", Text: strings.Repeat("a", 200), Known: true})
	st.Enter(c, false)
	st.Record(c, nil, nil)
	if _, err := st.MarshalBinary(); err == nil {
		t.Error("a state larger than MaxBytes encoded")
	}
}

func TestApprove(t *testing.T) {
	st := New("x", Config{MaxNames: 3}, nil)
	st.Approve(Approval{Exact: "a", Origin: "1"}, Approval{Exact: "a", Origin: "2"}, Approval{Rule: "Bash(ls:*)"}, Approval{})
	if got := st.Approvals(); len(got) != 2 || got[0].Origin != "1" {
		t.Errorf("approvals %+v", got)
	}
	st.Approve(Approval{Rule: "r1"}, Approval{Rule: "r2"}, Approval{Rule: "r3"})
	if got := st.Approvals(); len(got) != 3 {
		t.Errorf("beyond MaxNames: %d approvals", len(got))
	}
	st.Approvals()[0].Exact = "changed"
	if st.Approvals()[0].Exact != "a" {
		t.Error("Approvals returned the state's own slice")
	}
}

func TestSipHashVectors(t *testing.T) {
	// SipHash-2-4 reference vectors: key 00 01 … 0f, message 00 01 … n-1
	want := []uint64{0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d,
		0xcf2794e0277187b7, 0x18765564cd99a68d, 0xcbc9466e58fee3ce, 0xab0200f58b01d137,
		0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
		0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5, 0x3f2acc7f57c29bdb}
	k := sipKey{0x0706050403020100, 0x0f0e0d0c0b0a0908}
	msg := make([]byte, len(want))
	for i := range msg {
		msg[i] = byte(i)
	}
	for n, w := range want {
		if got := k.sum(string(msg[:n])); got != w {
			t.Errorf("SipHash of %d bytes: %#x, want %#x", n, got, w)
		}
	}
}

// crcOf is the CRC-32C of b as hash/crc32 computes it (with the SSE4.2
// instruction where there is one), to check checksum against.
func crcOf(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// TestChecksum: checksum is the CRC-32C hash/crc32 computes, byte by
// byte for the process's first sseAfter bytes and after.
func TestChecksum(t *testing.T) {
	b := make([]byte, sseAfter+100)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	summed.Store(0)
	for _, n := range []int{0, 1, 7, 64, 4097, sseAfter - 1, sseAfter + 100, 4097, 3} {
		if got, want := checksum(b[:n]), crcOf(b[:n]); got != want {
			t.Errorf("%d bytes: %#x, want %#x", n, got, want)
		}
	}
}

// BenchmarkChecksum: the checksum of a 4 KB state, the first in a process
// (byte by byte, with its table made) and later (SSE4.2).
func BenchmarkChecksum(b *testing.B) {
	state := bytes.Repeat([]byte("warden state "), 4096/13)
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			summed.Store(0)
			checksum(state)
		}
	})
	b.Run("later", func(b *testing.B) {
		summed.Store(sseAfter)
		for b.Loop() {
			checksum(state)
		}
	})
}

// reachable returns v, a field maybe unexported, as a value Interface works on.
func reachable(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// sameValue is reflect.DeepEqual, but a nil map or slice equals an empty one.
func sameValue(x, y reflect.Value) bool {
	switch x.Kind() {
	case reflect.Map:
		if x.Len() != y.Len() {
			return false
		}
		for _, k := range x.MapKeys() {
			if w := y.MapIndex(k); !w.IsValid() || !sameValue(x.MapIndex(k), w) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.Len() {
			if !sameValue(x.Index(i), y.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		return x.IsNil() == y.IsNil() && (x.IsNil() || sameValue(x.Elem(), y.Elem()))
	case reflect.Struct:
		if x.Type() == reflect.TypeFor[time.Time]() {
			return x.Interface().(time.Time).Equal(y.Interface().(time.Time))
		}
		for i := range x.NumField() {
			if !sameValue(reachable2(x, i), reachable2(y, i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x.Interface(), y.Interface())
}

func reachable2(v reflect.Value, i int) reflect.Value {
	if v.CanAddr() {
		return reachable(v.Field(i))
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	return reachable(cp.Field(i))
}

// FuzzUnmarshalState: stored data, whatever it holds, decodes to an error
// or to a state that encodes back to the same bytes; never a panic.
func FuzzUnmarshalState(f *testing.F) {
	key := bytes.Repeat([]byte{7}, KeySize)
	rich, _ := richState(f).MarshalBinary()
	empty, _ := New("x", Config{}, key).MarshalBinary()
	once := New("x", Config{}, key)
	once.Approve(Approval{Exact: "k", Once: true}, Approval{Rule: "Bash(ls:*)"})
	onceData, _ := once.MarshalBinary()
	v1, _ := richState(f).marshal(1)
	f.Add(rich)
	f.Add(v1)
	f.Add(empty)
	f.Add(onceData)
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// the checksum would stop nearly every mutation at the door: fix
		// it, so that the decoder itself is fuzzed
		if len(data) >= 4 {
			binary.LittleEndian.PutUint32(data[len(data)-4:], crcOf(data[:len(data)-4]))
		}
		st, err := UnmarshalState(data, Config{}, key)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error not ErrCorrupt: %v", err)
			}
			return
		}
		again, err := st.MarshalBinary()
		if err != nil {
			t.Fatalf("a decoded state does not encode: %v", err)
		}
		if _, err := UnmarshalState(again, Config{}, key); err != nil {
			t.Fatalf("a re-encoded state does not decode: %v", err)
		}
	})
}

// A one-time approval is saved with its flag and consumed once; a state
// without one encodes as before one-time approvals existed (no flags),
// so that the states of earlier versions and of this one read alike.
func TestApproveOnceEncoding(t *testing.T) {
	key := bytes.Repeat([]byte{7}, KeySize)
	st := New("x", Config{}, key)
	st.Approve(Approval{Exact: "k1", Origin: "a"}, Approval{Rule: "Bash(ls:*)"})
	plain, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	st.Approve(Approval{Exact: "k2", Once: true}, Approval{Exact: "k2", Once: true}, Approval{Exact: "k2"})
	if n := len(st.Approvals()); n != 4 {
		t.Fatalf("%d approvals, want 4 (a one-time approval given twice is one)", n)
	}
	data, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalState(data, Config{}, key)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Approvals(), st.Approvals()) || !got.Approvals()[2].Once || got.Approvals()[3].Once {
		t.Fatalf("approvals after a round trip: %+v", got.Approvals())
	}
	if got.Consume("k1") || !got.Consume("k2") || got.Consume("k2") {
		t.Error("Consume: only the one-time approval of k2, one time")
	}
	if as := got.Approvals(); len(as) != 3 || as[2].Exact != "k2" || as[2].Once {
		t.Errorf("after Consume: %+v", as)
	}
	got.approvals = got.approvals[:2]
	if again, _ := got.MarshalBinary(); !bytes.Equal(again, plain) {
		t.Error("a state without one-time approvals encodes otherwise than before")
	}
	// damaged flags: a count that is not the approvals', an unknown bit
	for _, bad := range []func([]byte) []byte{
		func(b []byte) []byte { b[len(b)-4-5] = 3; return b },
		func(b []byte) []byte { b[len(b)-4-1] = 2; return b },
	} {
		b := bad(bytes.Clone(data))
		b = binary.LittleEndian.AppendUint32(b[:len(b)-4], crcOf(b[:len(b)-4]))
		if _, err := UnmarshalState(b, Config{}, key); !errors.Is(err, ErrCorrupt) {
			t.Errorf("damaged approval flags: %v", err)
		}
	}
}

// TestUnmarshalVersion1: a state saved by a warden of encoding version 1,
// which knew no contexts, reads as the same state with none selected (the
// migration: it selected none that this warden could know of), and is
// saved again in this version.
func TestUnmarshalVersion1(t *testing.T) {
	st := richState(t)
	if len(st.contexts) == 0 {
		t.Fatal("the rich state selected no context")
	}
	v1, err := st.marshal(1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalState(v1, Config{}, st.key)
	if err != nil {
		t.Fatalf("version 1: %v", err)
	}
	if len(got.contexts) != 0 {
		t.Errorf("contexts from a version 1 state: %v", got.contexts)
	}
	want := st.clone()
	want.contexts = nil
	wantData, _ := want.MarshalBinary()
	if again, err := got.MarshalBinary(); err != nil || !bytes.Equal(again, wantData) {
		t.Errorf("a version 1 state saved again is not the version %d state without contexts (%v)", Version, err)
	}
	if v, _ := binary.Uvarint(wantData[len(magic):]); v != Version {
		t.Errorf("saved in version %d", v)
	}
	// the version 1 encoding of a state without contexts is the one a
	// version 1 warden wrote: the version 2 one lacks only their count
	v2, _ := want.MarshalBinary()
	v1Plain, _ := want.marshal(1)
	if len(v2) != len(v1Plain)+1 {
		t.Errorf("version 2 adds %d bytes to a state without contexts, want 1 (their count)", len(v2)-len(v1Plain))
	}
}

// TestContexts: a context selected is remembered with its step, a later
// one replaces it, one not known forgets it; Context reads it.
func TestContexts(t *testing.T) {
	st := New("x", Config{}, nil)
	rec := func(e tool.Effect) {
		c := call(e)
		st.Enter(c, false)
		st.Record(c, &risk.Assessment{Level: risk.Safe}, &risk.Decision{Verdict: risk.Allow})
	}
	rec(tool.Effect{Kind: tool.SetContext, Path: "kubernetes", Text: "prod", Known: true})
	rec(tool.Effect{Kind: tool.SetContext, Path: "terraform", Text: "workspace staging", Known: true})
	if c, ok := st.Context("kubernetes"); !ok || c != (Context{Name: "prod", Step: 0}) {
		t.Errorf("kubernetes: %+v %v", c, ok)
	}
	rec(tool.Effect{Kind: tool.SetContext, Path: "kubernetes", Text: "dev", Known: true})
	if c, _ := st.Context("kubernetes"); c != (Context{Name: "dev", Step: 2}) {
		t.Errorf("kubernetes after a switch: %+v", c)
	}
	rec(tool.Effect{Kind: tool.SetContext, Path: "terraform"})
	if c, ok := st.Context("terraform"); ok {
		t.Errorf("terraform after a switch to a context not known: %+v", c)
	}
	// a denied switch did not happen
	c := call(tool.Effect{Kind: tool.SetContext, Path: "gcloud", Text: "project prod", Known: true})
	st.Enter(c, false)
	st.Record(c, &risk.Assessment{Level: risk.High}, &risk.Decision{Verdict: risk.Deny})
	if _, ok := st.Context("gcloud"); ok {
		t.Error("a denied switch was remembered")
	}
	if cp := st.clone(); !reflect.DeepEqual(cp.contexts, st.contexts) {
		t.Errorf("clone: %v, want %v", cp.contexts, st.contexts)
	}
}
