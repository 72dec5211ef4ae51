// Package guard is the analyzer by which warden guards itself: any effect
// of a tool call on the files that guard the agent (warden's policy
// layers, state, audit store and binary, and the agents' hook and
// permission settings: paths class Guard), any warden command that
// changes policy, state or hooks, any use of an agent's own CLI that
// changes its settings or starts it without its permission checks, and
// any setting of warden's environment variables. It reads every route a call can take to a file — edit tools,
// MCP filesystem tools, the shell's resolved commands and redirections,
// the effects the preparers report, and the string literals of code — and
// applies one check to what they touch. Its findings are Locked: no allow
// rule and no permission mode opens them.
//
// What it does not see: the text of files a command runs or applies
// (python script.py, git apply x.patch, make), what an archive or a copied
// directory holds (cp -r x/. ., tar -x into a directory above the
// guard), symbolic links made outside the conversation, and paths
// computed at run time (other analyzers flag those as dynamic).
package guard
