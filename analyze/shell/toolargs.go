package shell

import (
	"maps"
	"slices"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// ToolArgs reads the arguments of a tool warden has no catalog entry for
// as the options of the command its name reads as (see ToolVerb): an
// option that destroys or discards (destroy: true, purge: true; mode:
// "hard" or force: true on a push, reset, checkout, clean, apply, deploy
// or sync) makes the call at least High, as --destroy, --hard and
// --force do on the command line; a kind argument naming what holds
// everything else (resourceType: "namespace", kind: "Database") makes a
// tool named for removing Critical, as kubectl delete namespace is.
// verbLevel and verb are what ToolVerb returns for name. It returns the
// level and the argument that decides it (0 and "" when none does); the
// arguments are read in the order of their names, so that the one a
// reason names does not depend on map order.
func ToolArgs(name string, verbLevel risk.Level, verb string, args map[string]any) (risk.Level, string) {
	keys := slices.Sorted(maps.Keys(args))
	if verbLevel == risk.High && removes[verb] {
		for _, k := range keys {
			if s, ok := args[k].(string); ok && kindKeys[normKey(k)] && scopeNoun(strings.ToLower(s)) {
				return risk.Critical, k + ": " + s
			}
		}
	}
	forced := false
	for _, w := range nameTokens(name) {
		forced = forced || forceVerbs[w]
	}
	for _, k := range keys {
		key := normKey(k)
		switch v := args[k].(type) {
		case bool:
			if v && (destroyOptions[key] || forced && forceOptions[key]) {
				return risk.High, k + ": true"
			}
		case string:
			if forced && modeKeys[key] && strings.EqualFold(v, "hard") {
				return risk.High, k + ": " + v
			}
		}
	}
	return 0, ""
}

// normKey folds an argument's name to lower case without separators
// (resource_type, resourceType and resource-type are one).
func normKey(k string) string {
	k = strings.ToLower(k)
	if strings.ContainsAny(k, "_-") {
		k = strings.NewReplacer("_", "", "-", "").Replace(k)
	}
	return k
}

// nameTokens splits a tool's name into lower-case words, at most 12.
func nameTokens(name string) []string { return lowerTokens(name, 12) }

// lowerTokens splits s into lower-case words, at most max: at . : / and
// spaces, then as nextToken does (at - and _, and where lower case turns
// upper: eraseDisk).
func lowerTokens(s string, max int) []string {
	var out []string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == ':' || r == '/' || r == ' ' }) {
		for rest := part; rest != "" && len(out) < max; {
			tok, tail := nextToken(rest)
			rest = tail
			if tok != "" {
				out = append(out, strings.ToLower(tok))
			}
		}
	}
	return out
}

// kindKeys name the argument that says what kind of thing a tool acts on.
var kindKeys = map[string]bool{"kind": true, "type": true, "resourcetype": true, "resourcekind": true, "resource": true,
	"objecttype": true, "object": true, "targettype": true, "scope": true}

// destroyOptions are boolean options that destroy or discard whatever
// the tool's verb is (terraform apply -destroy, docker compose down
// --volumes, helm uninstall --purge).
var destroyOptions = map[string]bool{"destroy": true, "purge": true, "wipe": true, "drop": true, "nuke": true,
	"deletedata": true, "deletevolumes": true, "removevolumes": true, "dropdatabase": true,
	"deleteall": true, "removeall": true, "hard": true, "forcedelete": true}

// forceVerbs are the verbs on which force discards or overwrites what
// is there (a remote's history, uncommitted work, deployed resources).
var forceVerbs = map[string]bool{"push": true, "reset": true, "checkout": true, "clean": true, "apply": true,
	"deploy": true, "sync": true, "restore": true, "switch": true, "overwrite": true, "rebase": true}

var forceOptions = map[string]bool{"force": true, "forcepush": true, "forcewithlease": true, "overwrite": true}

// modeKeys name an option whose value "hard" discards work (git reset's
// mode).
var modeKeys = map[string]bool{"mode": true, "resettype": true, "type": true, "strategy": true}
