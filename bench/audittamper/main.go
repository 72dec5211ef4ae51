// Command audittamper edits one event of a SQLite store's audit trail in
// place, as someone with write access to the file could: for the README's
// demonstration that warden audit verify detects it (the sqlite3 shell
// need not be installed). It replaces the first occurrence of -old with
// -new in the stored JSON of event -seq, and leaves its hash as it was.
//
// Usage: audittamper -store FILE -seq N -old TEXT -new TEXT
package main

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"os"

	_ "modernc.org/sqlite"
)

func main() {
	file := flag.String("store", "", "the SQLite store")
	seq := flag.Int64("seq", 0, "the event to edit")
	old := flag.String("old", "", "text of the event to replace")
	repl := flag.String("new", "", "what to put instead")
	flag.Parse()
	if *file == "" || *seq < 1 || *old == "" {
		fmt.Fprintln(os.Stderr, "usage: audittamper -store FILE -seq N -old TEXT -new TEXT")
		os.Exit(2)
	}
	if err := edit(*file, *seq, *old, *repl); err != nil {
		fmt.Fprintln(os.Stderr, "audittamper:", err)
		os.Exit(1)
	}
}

func edit(file string, seq int64, old, repl string) error {
	if _, err := os.Stat(file); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", file)
	if err != nil {
		return err
	}
	defer db.Close()
	var data []byte
	if err := db.QueryRow("SELECT data FROM warden_audit WHERE seq = ?", seq).Scan(&data); err != nil {
		return fmt.Errorf("event %d: %w", seq, err)
	}
	if !bytes.Contains(data, []byte(old)) {
		return fmt.Errorf("event %d does not hold %q", seq, old)
	}
	data = bytes.Replace(data, []byte(old), []byte(repl), 1)
	_, err = db.Exec("UPDATE warden_audit SET data = ? WHERE seq = ?", data, seq)
	return err
}
