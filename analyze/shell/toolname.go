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
		prev := "" // the token before tok in the part
		for rest := part; rest != ""; {
			tok, tail := nextToken(rest)
			rest = tail
			if n++; n > 12 {
				return 0, ""
			}
			t := strings.ToLower(tok)
			kind, ok := verbWords[t]
			if !ok {
				prev = t
				continue // a noun, or a modifier (force_delete)
			}
			switch kind {
			case wordDestroy:
				if clearVerbs[t] && anyToken(strings.ToLower(rest), cacheNouns) {
					return risk.Low, t
				}
				if removes[t] && scopeNoun(toolObject(rest, prev)) {
					return risk.Critical, t
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

// toolObject is what a tool's name says its verb acts on: the last word
// after the verb (delete_namespace, dropDatabase, delete_database_user:
// user), or, when the verb ends the name, the word before it
// (namespace_delete).
func toolObject(after, before string) string {
	if obj := lastToken(after); obj != "" {
		return obj
	}
	return strings.ToLower(before)
}

// removes are the destructive verbs that take their object away (not
// reset or flush, which empty it and leave it, as rails db:reset does:
// high there too).
var removes = map[string]bool{"delete": true, "del": true, "drop": true, "destroy": true, "remove": true, "rm": true,
	"purge": true, "terminate": true, "erase": true, "wipe": true, "nuke": true}

// scopeNoun reports a word that names what holds everything else of a
// system: deleting one takes its applications and their data with it, as
// kubectl delete namespace and DROP DATABASE do (critical there too).
func scopeNoun(w string) bool {
	switch strings.TrimSuffix(w, "s") {
	case "namespace", "database", "db", "schema", "keyspace", "cluster", "project", "organization", "org", "tenant",
		"account", "volume", "persistentvolume", "pv":
		return true
	}
	return false
}
