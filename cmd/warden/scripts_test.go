package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestApproveScripts runs testdata/approve/*.txtar, scripts of warden
// assess --store and hook, approve, explain and audit list on a real
// SQLite store, in shadow mode too (see runScript for the commands).
func TestApproveScripts(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/approve/*.txtar")
	if len(scripts) < 1 {
		t.Fatalf("only %d scripts", len(scripts))
	}
	for _, script := range scripts {
		t.Run(filepath.Base(script), func(t *testing.T) {
			data, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			runScript(t, parseTxtar(string(data)))
		})
	}
}
