// Package weaken judges edits and writes that weaken a project's
// defences: a CI check made non-blocking or a security scanner's step
// removed, a scanner's or a commit hook's configuration emptied or told
// to allow everything, TLS verification and other safety switches turned
// off in code or configuration, and an agent's own configuration widened
// (an MCP server registered, tools approved without asking, a terminal
// profile that runs a program).
//
// Judge compares the text an edit removes with the text it adds, line by
// line (a whole-file write adds every line and removes none), and reads
// which file it is from its path alone. Each class is a table of data
// (file names, check commands, scanners, switches) with must-match and
// must-not-match samples in weaken_test.go. It parses nothing beyond
// lines and runs nothing; the work is gated by cheap byte checks, so that
// a write of ordinary source costs a few substring searches.
package weaken
