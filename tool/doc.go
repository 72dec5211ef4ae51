// Package tool knows the tools of real agents — Claude Code, OpenHands,
// Codex, Gemini CLI, the MCP reference servers and python code actions — and
// turns a risk.Action into a Call: the tool's class and the arguments that
// hold its shell command, code, SQL, URLs, paths and written content.
//
// Tools it does not know are never skipped: every string in their arguments
// is kept for generic analysis, and well-known argument names (command, url,
// path, sql, code) are still recognised.
//
// It knows what each known tool requires and takes: a call that lacks a
// required argument, gives one of the wrong type or carries text under an
// argument the tool does not take is malformed (Call.Malformed), and that
// text is kept for analysis. MCP tools are known per server: mcp__S__T is
// looked up among the tools of server S only.
//
// A Call also carries the facts the engine's preparers record on it, for
// the analyzers, the policy and the session to read without parsing again:
// what each shell script runs (Call.Scripts, Command, Script), its effects
// (Effect), network destinations (Dest), secrets (Secret) and what its
// SQL texts read as (SQLText: statements, findings, personal data). Analyzers only read a Call; preparers write it.
package tool
