// Package tool knows the tools of real agents — Claude Code, OpenHands,
// Codex, Gemini CLI, the MCP reference servers and python code actions — and
// turns a risk.Action into a Call: the tool's class and the arguments that
// hold its shell command, code, SQL, URLs, paths and written content.
//
// Tools it does not know are never skipped: every string in their arguments
// is kept for generic analysis, and well-known argument names (command, url,
// path, sql, code) are still recognised.
package tool
