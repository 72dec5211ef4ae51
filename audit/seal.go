package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/agentwarden/warden/internal/jsonenc"
)

// recordDomain prefixes every hashed record, so that a record's hash is
// never the hash of anything else warden hashes.
const recordDomain = "warden audit record v1\x00"

// RecordHash returns the hash of a record's canonical JSON: SHA-256 of a
// fixed prefix and data.
func RecordHash(data []byte) []byte {
	h := sha256.New()
	h.Write([]byte(recordDomain))
	h.Write(data)
	return h.Sum(nil)
}

// Seal numbers ev after head (Seq, and Prev from head's hash), sets its
// time to UTC, and returns it as a Record: its canonical JSON (Go's JSON
// of Event: fields in a fixed order, map keys sorted, <, > and & escaped
// as json.Marshal escapes them) and its hash. ev is changed.
func Seal(ev *Event, head Head) (Record, error) {
	ev.Seq = head.Seq + 1
	ev.Prev = hex.EncodeToString(head.Hash)
	ev.Time = ev.Time.UTC()
	data, err := Canonical(ev)
	if err != nil {
		return Record{}, fmt.Errorf("audit: sealing event %d: %w", ev.Seq, err)
	}
	r := Record{Seq: ev.Seq, Time: ev.Time, Kind: ev.Kind, Session: ev.Session, Agent: ev.Agent, Tool: ev.Tool,
		Verdict: ev.Verdict(), Level: ev.Level(), Data: data, Hash: RecordHash(data)}
	return r, nil
}

// Canonical returns ev's canonical JSON, the bytes its record hashes:
// json.Marshal's, written without reflection (appendEvent) where it can.
func Canonical(ev *Event) ([]byte, error) {
	if b, ok := appendEvent(make([]byte, 0, 1024), ev); ok {
		return jsonenc.EscapeHTML(b, 0), nil
	}
	return json.Marshal(ev)
}

// Decode reads the event a record holds, and checks that the record's
// copied fields agree with it: an error names the first that does not.
func Decode(r *Record) (*Event, error) {
	var ev Event
	if err := json.Unmarshal(r.Data, &ev); err != nil {
		return nil, fmt.Errorf("event %d: the stored event is not valid JSON: %w", r.Seq, err)
	}
	switch {
	case ev.Seq != r.Seq:
		return &ev, fmt.Errorf("event %d: the stored event says it is event %d", r.Seq, ev.Seq)
	case !ev.Time.Equal(r.Time):
		return &ev, fmt.Errorf("event %d: its time column (%s) differs from the event's (%s)", r.Seq, r.Time.UTC().Format(time.RFC3339Nano), ev.Time.Format(time.RFC3339Nano))
	case ev.Kind != r.Kind, ev.Session != r.Session, ev.Agent != r.Agent, ev.Tool != r.Tool, ev.Verdict() != r.Verdict, ev.Level() != r.Level:
		return &ev, fmt.Errorf("event %d: its kind, session, agent, tool, verdict or level column differs from the event's", r.Seq)
	}
	return &ev, nil
}

// checkpointDomain prefixes every signed checkpoint message.
const checkpointDomain = "warden audit checkpoint v1\n"

// CheckpointMessage is what a checkpoint's signature signs: the chain's
// head at seq was the record of hash, at time t.
func CheckpointMessage(seq int64, hash []byte, t time.Time) []byte {
	b := make([]byte, 0, len(checkpointDomain)+96)
	b = append(b, checkpointDomain...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, '\n')
	b = hex.AppendEncode(b, hash)
	b = append(b, '\n')
	b = strconv.AppendInt(b, t.UnixNano(), 10)
	return b
}
