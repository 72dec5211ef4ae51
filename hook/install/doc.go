// Package install puts warden's hook into the settings of coding agents
// (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI, Windsurf) and
// takes it out again, and reads what is installed where.
//
// A settings file is edited as text, never written out again from a
// tree: warden's entries are appended between the bytes that are there,
// so other hooks, other keys, their order, the indentation, comments
// (where the agent allows them) and the end of the file stay as they
// were, and uninstall gives back the file install was given, byte for
// byte. Installing again over warden's entries with another command
// (other options, another binary) changes only the command strings, in
// place. Install keeps no record of the files it creates: a file that
// holds nothing but warden's hooks, laid out as install writes one, is
// its own, and uninstall removes it. A file that does not parse, or whose shape where warden edits is
// not what the agent reads, is refused with file:line:col: message and
// left alone.
package install
