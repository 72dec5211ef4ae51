package secrets

import (
	"math/rand/v2"
	"testing"
)

// gated returns the built-in rules whose anchored pattern has a gate.
func gated(t testing.TB) []*Rule {
	t.Helper()
	var out []*Rule
	for _, r := range Default().Rules() {
		if p := r.compiled(); p.anchored != nil && p.gate != nil {
			out = append(out, r)
		}
	}
	return out
}

// sameGate fails when window does not pass r's gate and r's anchored
// pattern matches at its start anyway.
func sameGate(t *testing.T, r *Rule, window []byte) {
	t.Helper()
	p := r.compiled()
	if !p.gate.pass(window) && p.anchored.Match(window) {
		t.Fatalf("%s: %q matches, yet does not pass the gate %q…%q", r.ID, window, p.gate.lit, p.gate.stop)
	}
}

// TestGate holds the gates to the anchored patterns they stand before,
// on windows made of the bytes the URL rules turn on, and checks that the
// URL rules have one.
func TestGate(t *testing.T) {
	rules := gated(t)
	ids := map[string]bool{}
	for _, r := range rules {
		ids[r.ID] = true
	}
	if !ids["url.password"] || !ids["db.url"] {
		t.Fatalf("gated rules %v: the URL rules are not among them", ids)
	}
	parts := []string{"://", ":", "@", "/", "u", "pw", " ", "\t", "\n", "\v", "\f", "\"", "'", "`", "?", "#", "\\", "<", ">", "é", "\xff", "host.example", "=", "%40"}
	rng := rand.New(rand.NewPCG(1, 2))
	matched := 0
	for range 200000 {
		w := []byte("://")
		if rng.IntN(8) == 0 {
			w = w[:rng.IntN(3)]
		}
		for n := rng.IntN(10); n > 0; n-- {
			w = append(w, parts[rng.IntN(len(parts))]...)
		}
		for _, r := range rules {
			sameGate(t, r, w)
			if r.compiled().anchored.Match(w) {
				matched++
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d windows matched", matched)
	}
}

// FuzzGate is TestGate on any window.
func FuzzGate(f *testing.F) {
	for _, s := range []string{"://u:p@h", "://git@github.com/x", "://u:p@", "://\xff:p@h", "://u\v:p@h", "://u?:p@h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range gated(t) {
			sameGate(t, r, []byte(s))
		}
	})
}

// TestNear checks that every rule's compiled pattern carries its Near,
// compiled on first use or eagerly.
func TestNear(t *testing.T) {
	n := 0
	for _, r := range Default().Rules() {
		if r.scan != nil {
			continue
		}
		p, err := r.compileProg()
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []*prog{r.compiled(), p} {
			if string(q.near) != r.Near || (q.near == nil) != (r.Near == "") {
				t.Fatalf("%s: near %q, Near %q", r.ID, q.near, r.Near)
			}
		}
		if r.Near != "" {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no rule has a Near")
	}
}
