package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExplainScripts runs testdata/explain/*.txtar, scripts of warden
// assess --store, approve and explain on a real SQLite store (see
// runScript for the commands).
func TestExplainScripts(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/explain/*.txtar")
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
