package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwarden/warden/hook"
	"github.com/agentwarden/warden/internal/txtar"
)

// TestEventsMatchAdapters: every event install registers for an agent is
// one its adapter reads, before or after a call as the event's name
// says, in the documented payloads of hook/testdata; and every adapter
// has an agent here.
func TestEventsMatchAdapters(t *testing.T) {
	for _, a := range Agents {
		ad, ok := hook.Lookup(a.Name)
		if !ok {
			t.Errorf("%s: no adapter", a.Name)
			continue
		}
		seen := map[string]hook.Event{} // event name → what the adapter read it as
		files, _ := filepath.Glob(filepath.Join("..", "testdata", a.Name, "*"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			payload := data
			switch {
			case strings.HasSuffix(f, ".txtar"):
				p, ok := txtar.Parse(string(data)).Files["payload"]
				if !ok {
					continue
				}
				payload = []byte(p)
			case !strings.HasSuffix(f, ".json"):
				continue
			}
			c, err := ad.Parse(payload)
			if err != nil {
				continue
			}
			var m map[string]any
			json.Unmarshal(payload, &m)
			name, _ := m["hook_event_name"].(string)
			if n, ok := m["agent_action_name"].(string); ok {
				name = n
			}
			if a.Name == "copilot" && name == "" { // Copilot sends no event name
				name = map[hook.Event]string{hook.Before: "preToolUse", hook.After: "postToolUse"}[c.Event]
			}
			seen[name] = c.Event
		}
		for _, ev := range a.Events {
			want := hook.After
			if l := strings.ToLower(ev); strings.HasPrefix(l, "pre") || strings.HasPrefix(l, "before") {
				want = hook.Before
			}
			got, ok := seen[ev]
			if !ok {
				t.Errorf("%s: install registers %s, which no documented payload of the adapter's tests has", a.Name, ev)
			} else if got != want {
				t.Errorf("%s: the adapter reads %s as %q, install means %q", a.Name, ev, got, want)
			}
		}
		if seen[a.Before] != hook.Before {
			t.Errorf("%s: Before is %s, which the adapter does not read before a call", a.Name, a.Before)
		}
	}
	for _, name := range hook.Names() {
		if _, ok := Lookup(name); !ok {
			t.Errorf("adapter %s: install does not know the agent", name)
		}
	}
}
