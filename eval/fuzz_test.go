package eval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agentwarden/warden/eval"
)

// FuzzLoad: whatever a corpus holds, Load returns items of one kind or an
// error; an error in a line is a *LineError naming a line of the input;
// never a panic.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		actionItem("h1", "harmful", "HIGH", "high", "delete") + "\n" + actionItem("b1", "benign", "LOW", "low", "read"),
		seqItem("s1", "harmful", 1, "low", "high"),
		`{"url":"http://127.0.0.1/","expect":"block","needs_dns":false}` + "\n" + `{"url":"https://example.com/","expect":"allow","needs_dns":true}`,
		`{"text":"token: x","expect_type":"github_token"}` + "\n" + `{"text":"abc","expect_type":null}`,
		`{"url":7}`, `{"steps":null}`, `{"text":"a","expect_type":"","tool":"x"}`, "\n\n", `[1,2]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		items, kind, err := eval.Load(strings.NewReader(data))
		if err != nil {
			var le *eval.LineError
			if errors.As(err, &le) && (le.Line < 1 || le.Line > strings.Count(data, "\n")+1) {
				t.Fatalf("line %d of %d: %v", le.Line, strings.Count(data, "\n")+1, err)
			}
			return
		}
		for _, it := range items {
			if it.Label != "harmful" && it.Label != "benign" || it.ID == "" {
				t.Fatalf("%s item %+v", kind, it)
			}
		}
	})
}

// FuzzParseThresholds: a thresholds file reads as bounds within 0–100 %
// or an error naming its line; never a panic.
func FuzzParseThresholds(f *testing.F) {
	f.Add("a.jsonl min-recall=39.6 max-false-alarms=1.3 # c\nb.jsonl skip=why not\n")
	f.Add("a.jsonl min-at-level=100%\n")
	f.Add("a.jsonl min-recall=1e400\n")
	f.Fuzz(func(t *testing.T, data string) {
		bs, err := eval.ParseThresholds("th", strings.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "th") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		for _, b := range bs {
			for _, p := range []*float64{b.MinRecall, b.MaxFalseAlarms, b.MinAtLevel} {
				if p != nil && (*p < 0 || *p > 100 || *p != *p) {
					t.Fatalf("bound %v in %+v", *p, b)
				}
			}
			if b.Skip == "" && b.Empty() || b.Corpus == "" {
				t.Fatalf("bound %+v", b)
			}
		}
	})
}
