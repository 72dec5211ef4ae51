package policy

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// hashPieces are the bits random strings are made of: every escape class
// of a JSON string (quote, backslash, control characters, HTML's <, >
// and &, U+2028 and U+2029), multi-byte and invalid UTF-8.
var hashPieces = []string{"", "a", "Bash(rm -rf:*)", " ", `"`, `\`, "/", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f",
	"<", ">", "&", "\u2028", "\u2029", "é", "😀", "\ufffd", "\xff", "\xc3", "\xed\xa0\x80", "**"}

// fillHashed sets v to random values; all sets every field, list and
// bool to something not empty. By reflection: a field added to
// hashedPolicy or a type it holds is filled too.
func fillHashed(r *rand.Rand, v reflect.Value, all bool) {
	switch t := v.Type(); v.Kind() {
	case reflect.String:
		var b []byte
		for range r.IntN(4) {
			b = append(b, hashPieces[r.IntN(len(hashPieces))]...)
		}
		if all && len(b) == 0 {
			b = []byte("x")
		}
		v.SetString(string(b))
	case reflect.Bool:
		v.SetBool(all || r.IntN(2) == 0)
	case reflect.Int64:
		n := r.Int64() >> r.IntN(64)
		if r.IntN(2) == 0 {
			n = -n
		}
		if all && n == 0 {
			n = 1
		}
		v.SetInt(n)
	case reflect.Slice:
		if !all && r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		n := r.IntN(4)
		if all && n == 0 {
			n = 1
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			fillHashed(r, s.Index(i), all)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && t.Field(i).Tag.Get("json") != "-" && (all || r.IntN(2) == 0) {
				fillHashed(r, v.Field(i), all)
			}
		}
	case reflect.Interface:
		// netguard's resolver: not encoded
	default:
		panic("fillHashed: no filler for " + t.String())
	}
}

func checkHashed(t *testing.T, h *hashedPolicy) {
	t.Helper()
	want, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.appendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("appendJSON wrote\n%q, json.Marshal\n%q", got, want)
	}
	// appended after other bytes, the same
	if got := h.appendJSON([]byte("<&>")); !bytes.Equal(got[3:], want) || string(got[:3]) != "<&>" {
		t.Fatalf("appendJSON after <&> wrote %q", got)
	}
}

// TestHashedJSON: the canonical form is written as json.Marshal writes
// it (the bytes Hash hashed before appendJSON), for random policies with
// every field set or unset, and for one with every field set.
func TestHashedJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		var h hashedPolicy
		fillHashed(r, reflect.ValueOf(&h).Elem(), i%10 == 0)
		checkHashed(t, &h)
	}
	checkHashed(t, &hashedPolicy{})
	checkHashed(t, &hashedPolicy{Deny: []hashedEntry{}, Analyzers: AnalyzerSettings{Disabled: []string{}}})
	p := Default()
	p.Compile()
	var h hashedPolicy
	if err := json.Unmarshal(p.canonical(), &h); err != nil {
		t.Fatal(err)
	}
	checkHashed(t, &h)
}

// FuzzHashedJSON: policies made of the fuzzer's strings are written as
// json.Marshal writes them.
func FuzzHashedJSON(f *testing.F) {
	f.Add("Bash(rm -rf:*)", "/repo<&>", `session.env == "prod"`, "\u2028\xff", int64(5), uint8(0xff))
	f.Add("", "", "", "", int64(0), uint8(0))
	f.Fuzz(func(t *testing.T, s1, s2, s3, s4 string, n int64, bits uint8) {
		b := func(i uint) bool { return bits&(1<<i) != 0 }
		list := func(i uint) []string {
			if !b(i) {
				return nil
			}
			return []string{s1, s4}
		}
		h := hashedPolicy{Version: s1, Mode: Mode(s2), DisableBypass: b(0), BypassLocked: b(1), Shadow: b(2), EnforceLocked: b(3),
			Environment: s3, Confirm: hashedConfirm{Type: s4, Name: s1, Threshold: s2, ConfirmUnknown: b(4)},
			Deny: []hashedEntry{{Rule: s1, Base: s2, If: s3, Reason: s4, Org: b(5), Exact: s1}}, Ask: []hashedEntry{{}}, ResolveTime: 0}
		h.ResolveTime = 1 << (n & 31)
		h.Netguard.Schemes, h.Netguard.AllowedHosts, h.Netguard.AllowPrivate, h.Netguard.ExtraBlockedHosts = list(5), list(6), list(7), list(0)
		h.Netguard.ResolveDNS, h.Netguard.BlockDocumentation = b(6), b(7)
		h.Analyzers.Disabled, h.Analyzers.DisabledRules, h.MCP.TrustAnnotations = list(1), list(2), list(3)
		h.Secrets.AllowMarker = s4
		checkHashed(t, &h)
	})
}
