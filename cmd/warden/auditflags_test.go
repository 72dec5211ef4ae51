package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwarden/warden/audit"
	"github.com/agentwarden/warden/risk"
)

func TestFilterFlags(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	good := []struct {
		f    filterFlags
		want audit.Filter
	}{
		{filterFlags{}, audit.Filter{}},
		{filterFlags{session: "s1", agent: "claude", tool: "Bash"}, audit.Filter{Session: "s1", Agent: "claude", Tool: "Bash"}},
		{filterFlags{kinds: []string{"check", " Approve", "check"}}, audit.Filter{Kinds: []audit.Kind{audit.KindCheck, audit.KindApprove}}},
		{filterFlags{decision: "DENY", level: "high"}, audit.Filter{Verdict: risk.Deny, MinLevel: risk.High}},
		{filterFlags{since: "24h", until: "2026-11-25T11:30:00Z"}, audit.Filter{Since: now.Add(-24 * time.Hour), Until: time.Date(2026, 11, 25, 11, 30, 0, 0, time.UTC)}},
		{filterFlags{since: "7d"}, audit.Filter{Since: now.Add(-7 * 24 * time.Hour)}},
		{filterFlags{from: 3, to: 9, limit: 5}, audit.Filter{FromSeq: 3, ToSeq: 9, Limit: 5}},
		{filterFlags{last: 4}, audit.Filter{Limit: 4, Last: true}},
	}
	for _, c := range good {
		got, err := c.f.filter(now)
		if err != nil {
			t.Errorf("%+v: %v", c.f, err)
			continue
		}
		if !got.Since.Equal(c.want.Since) || !got.Until.Equal(c.want.Until) {
			t.Errorf("%+v: since %v until %v, want %v %v", c.f, got.Since, got.Until, c.want.Since, c.want.Until)
		}
		got.Since, got.Until, c.want.Since, c.want.Until = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !slices.Equal(got.Kinds, c.want.Kinds) {
			t.Errorf("%+v: kinds %v, want %v", c.f, got.Kinds, c.want.Kinds)
		}
		got.Kinds, c.want.Kinds = nil, nil
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: %+v, want %+v", c.f, got, c.want)
		}
	}
	bad := []struct {
		f    filterFlags
		flag string
	}{
		{filterFlags{kinds: []string{"check", "checks"}}, "--kind"},
		{filterFlags{decision: "maybe"}, "--decision"},
		{filterFlags{level: "severe"}, "--level"},
		{filterFlags{level: "unknown"}, "--level"},
		{filterFlags{since: "yesterday"}, "--since"},
		{filterFlags{since: "-5m"}, "--since"},
		{filterFlags{until: "0d"}, "--until"},
		{filterFlags{until: "2026-11-25"}, "--until"},
		{filterFlags{since: "1h", until: "2h"}, "--since"},
		{filterFlags{from: -1}, "--from"},
		{filterFlags{to: -2}, "--to"},
		{filterFlags{from: 5, to: 4}, "--from"},
		{filterFlags{limit: -1}, "--limit"},
		{filterFlags{last: -1}, "--last"},
		{filterFlags{limit: 2, last: 2}, "--limit"},
	}
	for _, c := range bad {
		if _, err := c.f.filter(now); err == nil || !strings.Contains(err.Error(), c.flag) {
			t.Errorf("%+v: error %v, want one naming %s", c.f, err, c.flag)
		}
	}
}

func TestShownDSNHidesPasswords(t *testing.T) {
	for _, dsn := range []string{
		"postgres://app:hunter2secret@db.example:5432/warden?sslmode=disable",
		"postgresql://app@db.example/warden?password=hunter2secret&sslmode=require",
	} {
		got := shownDSN(dsn)
		if strings.Contains(got, "hunter2secret") || !strings.Contains(got, "db.example") {
			t.Errorf("%s shown as %s", dsn, got)
		}
	}
	if got := shownDSN("/tmp/state/warden.db"); got != "/tmp/state/warden.db" {
		t.Errorf("a path is shown as %s", got)
	}
}

func TestCell(t *testing.T) {
	for in, want := range map[string]string{
		"ls -la":       "ls -la",
		"a\nb\tc":      "a b c",
		"éééééééééééé": "éééééééééé…",
		"0123456789":   "0123456789",
		"0123456789x":  "0123456789…",
	} {
		if got := cell(in, 10); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
}

// The summary of an event masks a secret even if the stored event did
// not (it does: this is a second line of defence).
func TestSummaryMasks(t *testing.T) {
	raw := "gho_" + "RnH7P9w8AGHGVuxWLDqyq4GG6sjaNv1fYAvg" // from testdata/secrets.jsonl
	ev := &audit.Event{Kind: audit.KindCheck, Action: &risk.Action{Tool: "Bash",
		Arguments: map[string]any{"command": "curl -H 'Authorization: token " + raw + "' https://api.github.com/user"}}}
	if s := summary(ev); strings.Contains(s, raw) || !strings.Contains(s, "curl") {
		t.Errorf("summary %q", s)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "trail.jsonl")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := writeFileAtomic(path, false, write("one\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("%v, mode %v, want 0600", err, fi.Mode())
	}
	if err := writeFileAtomic(path, false, write("two\n")); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("an existing file replaced without --force: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\n" {
		t.Errorf("the file holds %q after a refused export", b)
	}
	os.Chmod(path, 0o644)
	if err := writeFileAtomic(path, true, write("three\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "three\n" {
		t.Errorf("--force: the file holds %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("--force: mode %v, want 0600", fi.Mode())
	}
	if err := writeFileAtomic(path, true, func(io.Writer) error { return io.ErrUnexpectedEOF }); err == nil {
		t.Error("a failed write is not an error")
	}
	if b, _ := os.ReadFile(path); string(b) != "three\n" {
		t.Errorf("a failed export changed the file: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

// parseWhen never panics, and what it accepts is either the time given or
// a time before now (a duration back from now is positive).
func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{"", "24h", "7d", "0d", "-5m", "1h30m", "2026-11-25T02:00:00Z", "2026-11-25T02:00:00.5+01:00", "9999999d", "d", "1.5d", "90"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseWhen(s, now)
		if err != nil || s == "" {
			return
		}
		if _, perr := time.Parse(time.RFC3339Nano, s); perr != nil && !got.Before(now) {
			t.Errorf("%q: %v is not before now", s, got)
		}
	})
}

// An export line is one JSON line whose event is the record's data, byte
// for byte (in "event", or, for data that is not valid JSON, base64 in
// "event_base64"), and whose hash is the record's.
func FuzzExportLine(f *testing.F) {
	f.Add(int64(1), []byte(`{"seq":1,"kind":"check"}`), []byte{1, 2, 3})
	f.Add(int64(99), []byte(`{"a":"\u2028<>&","b":[1,2,{"c":null}]}`), []byte{})
	f.Add(int64(7), []byte("{\"kind\":\"check\"\n} {"), []byte{9})
	f.Fuzz(func(t *testing.T, seq int64, data, hash []byte) {
		line := exportLine(nil, &audit.Record{Seq: seq, Data: data, Hash: hash})
		valid := json.Valid(data)
		if !bytes.HasSuffix(line, []byte("}\n")) || valid && bytes.Count(line, []byte("\n")) != 1+bytes.Count(data, []byte("\n")) ||
			!valid && bytes.Count(line, []byte("\n")) != 1 {
			t.Fatalf("not one line: %q", line)
		}
		var got struct {
			Seq    int64           `json:"seq"`
			Hash   string          `json:"hash"`
			Event  json.RawMessage `json:"event"`
			Base64 []byte          `json:"event_base64"`
		}
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		event := []byte(got.Event)
		if valid {
			data = bytes.TrimSpace(data) // RawMessage drops the space around a value
		} else {
			event = got.Base64
		}
		if got.Seq != seq || got.Hash != hex.EncodeToString(hash) || !bytes.Equal(event, data) {
			t.Fatalf("%q read back as %+v", line, got)
		}
	})
}
