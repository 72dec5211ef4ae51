package warden_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/risk"
)

// TestSSRFThroughEngine sends every URL of testdata/ssrf.jsonl through
// the engine as an agent's fetch tool, a shell curl and Python requests.
// The engine never resolves names, so it must decide every case by what
// the URL shows: a URL the guard blocks is high or above for a fetch
// tool, unless it is blocked for its destination's class alone (this
// machine, the local network: package effect judges those as it judges
// curl's, a development server on localhost low); an allowed one is below
// high everywhere; a metadata endpoint is critical everywhere.
func TestSSRFThroughEngine(t *testing.T) {
	f, err := os.Open("testdata/ssrf.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	eng := corpusEngine(t)
	ctx := context.Background()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var c struct {
			URL, Expect, Category string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		check := func(tool string, args map[string]any, wantHigh bool) risk.Assessment {
			as, _, err := eng.Check(ctx, risk.Action{Tool: tool, Arguments: args})
			if err != nil {
				t.Fatal(err)
			}
			if high := as.Level.AtLeast(risk.High); high != wantHigh {
				t.Errorf("%s %s (%s, expect %s): level %s: %v", tool, c.URL, c.Category, c.Expect, as.Level, as.Reasons)
			}
			return as
		}
		v := netguard.Default().Check(ctx, c.URL)
		byClass := !v.Allowed && !v.Disguised && (v.Category.Local() || v.Category.Internal())
		fetch := check("WebFetch", map[string]any{"url": c.URL, "prompt": "summarize"}, c.Expect == "block" && !byClass)
		if byClass {
			// the same effect through curl gets the same level
			if as, _, _ := eng.Check(ctx, risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "curl -sS '" + c.URL + "'"}}); as.Level != fetch.Level || fetch.Level < risk.Low {
				t.Errorf("%s: WebFetch %s, curl %s", c.URL, fetch.Level, as.Level)
			}
		}
		if c.Category == "metadata" && fetch.Level != risk.Critical {
			t.Errorf("WebFetch %s: metadata at %s", c.URL, fetch.Level)
		}
		if c.Expect == "allow" {
			check("Bash", map[string]any{"command": "curl -sS '" + c.URL + "'"}, false)
			check("python", map[string]any{"code": "import requests\nprint(requests.get(" + pyQuote(c.URL) + ").text)"}, false)
		}
		if c.Category == "metadata" {
			for _, a := range []struct {
				tool string
				args map[string]any
			}{
				{"Bash", map[string]any{"command": "curl -sS '" + c.URL + "'"}},
				{"python", map[string]any{"code": "import requests\nprint(requests.get(" + pyQuote(c.URL) + ").text)"}},
			} {
				if as := check(a.tool, a.args, true); as.Level != risk.Critical {
					t.Errorf("%s %s: metadata at %s", a.tool, c.URL, as.Level)
				}
			}
		}
	}
	if n < 40 {
		t.Fatalf("only %d cases", n)
	}
}

func pyQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
