package shell

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// ToolVerb reads the name of a tool warden has no catalog entry for (an
// MCP server's delete_repository, deleteNamespace, branch-delete) with
// the command-line verb grammar (see verbWords): an agent's tool named
// for a destructive verb is what a CLI subcommand of that name is. It
// returns High and the verb for a destructive verb, Medium for one its
// opposite undoes (disable, cancel, kill), Low when the verb empties a
// cache (clear_cache), and 0 when the name holds no verb or a verb that
// reads or creates comes first (list_deleted_items, get_delete_policy).
func ToolVerb(name string) (risk.Level, string) {
	n := 0
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == ':' || r == '/' || r == ' ' }) {
		for rest := part; rest != ""; {
			tok, tail := nextToken(rest)
			rest = tail
			if n++; n > 12 {
				return 0, ""
			}
			t := strings.ToLower(tok)
			kind, ok := verbWords[t]
			if !ok {
				continue // a noun, or a modifier (force_delete)
			}
			switch kind {
			case wordDestroy:
				if clearVerbs[t] && anyToken(strings.ToLower(rest), cacheNouns) {
					return risk.Low, t
				}
				return risk.High, t
			case wordDisrupt:
				return risk.Medium, t
			case wordBenign, wordHelp:
				return 0, ""
			}
			// a verb that is a noun too (run_query, backup_restore):
			// read on
		}
	}
	return 0, ""
}
