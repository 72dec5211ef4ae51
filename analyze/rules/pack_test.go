package rules

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// packWithSamples returns the built-in pack (Default: the generated Go
// data, compiled on first use) with the samples default.yaml gives its
// rules, which the generated data leaves out.
func packWithSamples(t *testing.T) []Rule {
	t.Helper()
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	src := loadYAML(t)
	if len(src) != len(rules) {
		t.Fatalf("default.yaml has %d rules, the generated pack %d: run go generate ./analyze/rules", len(src), len(rules))
	}
	for i := range rules {
		if rules[i].Name != src[i].Name {
			t.Fatalf("rule %d is %s in default.yaml, %s in the generated pack: run go generate ./analyze/rules", i, src[i].Name, rules[i].Name)
		}
		rules[i].Match, rules[i].NoMatch = src[i].Match, src[i].NoMatch
	}
	return rules
}

// TestPackSamples checks every rule of the default pack against its own
// samples: each must-match sample fires it, each must-not-match does not.
func TestPackSamples(t *testing.T) {
	rules := packWithSamples(t)
	if len(rules) < 60 {
		t.Errorf("default pack has %d rules, want at least 60", len(rules))
	}
	for i := range rules {
		r := &rules[i]
		t.Run(r.Name, func(t *testing.T) {
			if len(r.Match) == 0 || len(r.NoMatch) == 0 {
				t.Errorf("rule needs samples that must match and samples that must not")
			}
			for _, s := range r.Match {
				ok, err := s.Matches(r)
				if err != nil {
					t.Errorf("match %q: %v", s, err)
				} else if !ok {
					t.Errorf("does not fire on must-match sample %q", s)
				}
			}
			for _, s := range r.NoMatch {
				ok, err := s.Matches(r)
				if err != nil {
					t.Errorf("no_match %q: %v", s, err)
				} else if ok {
					t.Errorf("fires on must-not-match sample %q", s)
				}
			}
		})
	}
}

// TestPackLevels checks that every rule has a concrete level and reason.
func TestPackLevels(t *testing.T) {
	rules, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rules {
		if r.Level == risk.Unknown || r.Reason == "" {
			t.Errorf("%s: level %v, reason %q", r.Name, r.Level, r.Reason)
		}
	}
}

// TestPackProgramsShared: every assessor made with the built-in pack
// shares its compiled programs, so that each pattern compiles once a
// process; and a first use from many goroutines at once compiles each
// once, without a race (go test -race).
func TestPackProgramsShared(t *testing.T) {
	a1, a2 := newAssessor(t), newAssessor(t)
	for i, r := range a1.rules {
		if r.prog == nil || r.prog != a2.rules[i].prog {
			t.Errorf("%s: the assessors do not share its program", r.Name)
		}
	}
	rules := packWithSamples(t)
	for i := range rules {
		r := &rules[i]
		r.prog = newProgram(r) // not compiled yet
	}
	a := newAssessor(t, WithRules(rules))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range rules {
				for _, s := range rules[i].Match {
					if _, err := a.Analyze(context.Background(), s.Call(&rules[i])); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	for i, r := range a.rules {
		if r.prog != rules[i].prog {
			t.Errorf("%s: WithRules compiled its program again", r.Name)
		}
	}
}

// TestPackChecked checks the default pack as every user rule is checked
// (compile, unique names), which a process no longer does for the
// built-in rules (defaultRules), and that derive sets on each rule what
// compile sets.
func TestPackChecked(t *testing.T) {
	if _, err := New(WithRules(slices.Clone(defaultPack))); err != nil {
		t.Fatalf("the default pack does not pass the checks of user rules: %v", err)
	}
	def, err := defaultRules()
	if err != nil {
		t.Fatal(err)
	}
	for i := range def {
		got, want := def[i], defaultPack[i]
		want.prog = got.prog // compiled as derive's rule is, not again
		if err := want.compile(); err != nil {
			t.Fatalf("%s: %v", want.Name, err)
		}
		if reflect.ValueOf(got.Func).Pointer() != reflect.ValueOf(want.Func).Pointer() {
			t.Errorf("%s: derive set another func than compile", want.Name)
		}
		got.Func, want.Func = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: derive made\n%+v\ncompile made\n%+v", want.Name, got, want)
		}
	}
}
