package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestWriteAnswer: an answer written without reflection is the line
// encoding/json writes, and an answer it cannot write fails as
// encoding/json does.
func TestWriteAnswer(t *testing.T) {
	f := risk.Finding{Analyzer: "shell", Rule: "shell.x", Level: risk.High, Reason: "a <b> & \"c\"\n\xff", Resource: "file:/x", Locked: true}
	for _, v := range []any{
		&assessLine{},
		&assessLine{Assessment: risk.Combine([]risk.Finding{f}), Decision: risk.Deny, DecisionRule: "deny[0]", DecisionStage: risk.StagePolicy, DecisionRef: "3f9a1c0d2b7e", DecisionShadow: true},
		&assessLine{Assessment: risk.UnknownAssessment("input", "input.invalid", "bad"), Decision: risk.Ask, Error: "invalid action: \u2028"},
		&assessLine{Assessment: risk.Assessment{Level: risk.Level(42)}, Decision: risk.Allow},
		&observedLine{Observed: true, Findings: []risk.Finding{f}},
		// every verdict and stage, written as constants, and others
		&assessLine{Decision: risk.Allow, DecisionStage: risk.StageReview},
		&assessLine{Decision: risk.Ask, DecisionStage: risk.StageRecord},
		&assessLine{Decision: "maybe \"so\"\n", DecisionStage: "x<y>\u2028"},
		&assessLine{Decision: "Allow", DecisionStage: "Policy"},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		werr := enc.Encode(v)

		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		enc = json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		err := writeAnswer(w, enc, v)
		w.Flush()
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Errorf("%+v: error %v, encoding/json %v", v, err, werr)
		}
		if got.String() != want.String() {
			t.Errorf("writeAnswer:\n %s\nencoding/json:\n %s", got.String(), want.String())
		}
	}
}
