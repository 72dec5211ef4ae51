package audit_test

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

func TestSealChainsAndDecodes(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 2, 3, 4, time.FixedZone("x", 3600))
	ev := &audit.Event{Time: at, Kind: audit.KindCheck, Session: "s1", Tool: "Bash",
		Action:     &risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "ls", "b": 1.5, "a": true}},
		Assessment: &risk.Assessment{Level: risk.High}, Decision: &risk.Decision{Verdict: risk.Ask, Rule: "confirm_risky"}}
	prev := audit.Head{Seq: 41, Hash: bytes.Repeat([]byte{7}, 32), First: 1}
	r, err := audit.Seal(ev, prev)
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 42 || ev.Prev != hex.EncodeToString(prev.Hash) || r.Verdict != risk.Ask || r.Level != risk.High || r.Time.Location() != time.UTC {
		t.Fatalf("record %+v, event prev %q", r, ev.Prev)
	}
	if !bytes.Equal(r.Hash, audit.RecordHash(r.Data)) || len(r.Hash) != 32 {
		t.Fatal("hash is not the record hash of the data")
	}
	// canonical: map keys sorted, so the same event seals to the same bytes
	again, _ := audit.Seal(ev, prev)
	if !bytes.Equal(again.Data, r.Data) || !strings.Contains(string(r.Data), `"arguments":{"a":true,"b":1.5,"command":"ls"}`) {
		t.Fatalf("not canonical: %s", r.Data)
	}
	got, err := audit.Decode(&r)
	if err != nil || got.Seq != 42 || got.Action.Arguments["command"] != "ls" {
		t.Fatalf("decode: %v %+v", err, got)
	}
	// a column that disagrees with the data is named
	bad := r
	bad.Session = "s2"
	if _, err := audit.Decode(&bad); err == nil || !strings.Contains(err.Error(), "event 42") {
		t.Fatalf("edited column not found: %v", err)
	}
	bad = r
	bad.Seq = 43
	if _, err := audit.Decode(&bad); err == nil {
		t.Fatal("a record moved to another seq decodes")
	}
	bad = r
	bad.Data = []byte("{")
	if _, err := audit.Decode(&bad); err == nil {
		t.Fatal("broken JSON decodes")
	}
}

func TestCheckpointMessageBindsEverything(t *testing.T) {
	h := bytes.Repeat([]byte{1}, 32)
	at := time.Unix(0, 5)
	m := string(audit.CheckpointMessage(3, h, at))
	for _, other := range []string{
		string(audit.CheckpointMessage(4, h, at)),
		string(audit.CheckpointMessage(3, bytes.Repeat([]byte{2}, 32), at)),
		string(audit.CheckpointMessage(3, h, time.Unix(0, 6))),
	} {
		if other == m {
			t.Fatalf("two different heads sign the same message %q", m)
		}
	}
}
