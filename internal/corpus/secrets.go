package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// Secret is a text of the secrets corpus labelled as holding a secret,
// with the raw secrets the detector finds in it.
type Secret struct {
	Text string
	Raws []string
}

// Secrets returns the texts of the secrets corpus at path (JSONL with
// "text" and "expect_type", null for a text that holds none) that hold a
// secret, each with the raw secrets find (the detector's Values: this
// package is below the detector) finds in it. A labelled text where find finds
// nothing, or fewer than 15 texts, fail tb: the tests
// that look for raw secrets where none may be would otherwise look for
// nothing.
func Secrets(tb testing.TB, path string, find func(text string) (descs, raws []string)) []Secret {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []Secret
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Text       string  `json:"text"`
			ExpectType *string `json:"expect_type"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			tb.Fatal(err)
		}
		if c.ExpectType == nil {
			continue
		}
		_, raws := find(c.Text)
		s := Secret{Text: c.Text, Raws: raws}
		if len(s.Raws) == 0 {
			tb.Fatalf("the detector finds nothing in %q", c.Text)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(out) < 15 {
		tb.Fatalf("only %d secrets read from %s", len(out), path)
	}
	return out
}
