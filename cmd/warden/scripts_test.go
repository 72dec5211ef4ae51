package main

import "testing"

// TestApproveScripts runs testdata/approve/*.txtar, scripts of warden
// assess --store and hook, approve, reject, explain and audit list on a
// real SQLite store, in shadow mode too (see runScript for the commands).
func TestApproveScripts(t *testing.T) { runScripts(t, "testdata/approve/*.txtar") }
