package webapi

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// A GraphQL mutation names its action in its top-level fields:
// deleteRepository (GitHub), alertsPolicyDelete (New Relic's NerdGraph),
// removeOutsideCollaborator. The document may be a request's body, a
// JSON string inside one ({"query": "mutation { … }"}), or a command-line
// operand (newrelic nerdgraph query 'mutation { … }'): Mutations reads
// all three alike.

// maxFields bounds the fields Mutations reports of one text.
const maxFields = 64

// Mutations calls f with the name of each top-level field of each
// mutation operation in text, in order: deleteRepository in
// mutation Del($id: ID!) { a: deleteRepository(input: {…}) { id } }.
// Aliases, arguments, nested selections and string contents are skipped;
// \" and \n, as in a GraphQL document inside a JSON string, read as " and
// a space. At most maxBody bytes of text are read and maxFields names
// reported; a query or subscription reports none.
func Mutations(text string, f func(field string)) {
	if len(text) > maxBody {
		text = text[:maxBody]
	}
	n := 0
	for from := 0; from < len(text) && n < maxFields; {
		i := strings.Index(text[from:], "mutation")
		if i < 0 {
			return
		}
		i += from
		end := i + len("mutation")
		from = end
		if i > 0 && identByte(text[i-1]) || end < len(text) && identByte(text[end]) {
			continue // deleteMutation, mutationId
		}
		open, ok := operationBody(text, end)
		if !ok {
			continue
		}
		from = selection(text, open+1, func(name string) {
			if n < maxFields {
				f(name)
				n++
			}
		})
	}
}

// operationBody returns the offset of the { that opens the selection set
// of a mutation whose keyword ends at i: past an operation name, variable
// definitions in parentheses and directives; false when anything else
// comes first (a JSON key "mutation": …, prose).
func operationBody(s string, i int) (int, bool) {
	depth := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' && depth == 0:
			return i, true
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth > 0, space(c), identByte(c), c == '@', c == '\\':
		default:
			return 0, false
		}
	}
	return 0, false
}

// selection reads the selection set that starts at i (just past its {)
// and calls f with each field name at its top level; it returns the
// offset past its closing }.
func selection(s string, i int, f func(string)) int {
	depth, parens := 1, 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"' || c == '\\' && i+1 < len(s) && s[i+1] == '"':
			i = skipString(s, i)
			continue
		case c == '\\' && i+1 < len(s):
			i += 2 // \n, \t: a JSON string's escapes
			continue
		case c == '(':
			parens++
		case c == ')' && parens > 0:
			parens--
		case parens > 0:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case depth == 1 && identByte(c) && !(c >= '0' && c <= '9'):
			j := i
			for j < len(s) && identByte(s[j]) {
				j++
			}
			k := j
			for k < len(s) && (space(s[k]) || s[k] == '\\' && k+1 < len(s) && s[k+1] == 'n') {
				k++
			}
			if k < len(s) && s[k] == ':' {
				i = k + 1 // an alias: the field's name follows
				continue
			}
			f(s[i:j])
			i = j
			continue
		}
		i++
	}
	return i
}

// skipString returns the offset past the string that starts at i, with a
// " or, inside a JSON string, a \".
func skipString(s string, i int) int {
	escaped := s[i] == '\\'
	if escaped {
		i += 2
	} else {
		i++
	}
	for i < len(s) {
		switch {
		case escaped && s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			return i + 2
		case !escaped && s[i] == '\\':
			i += 2
			continue
		case !escaped && s[i] == '"':
			return i + 1
		}
		i++
	}
	return i
}

func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func space(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' }

// MutationLevel returns the level a mutation field's name gives the
// request that sends it, by the words of the name as the command-line verb
// grammar reads a subcommand (analyze/shell: a test holds the two
// together): a name that starts with a verb (after modifiers such as
// bulk or force) is that verb's (deleteRepository high,
// disableWorkflow medium, createIssue and updateUser nothing); a name
// that starts with a noun takes the first verb that follows it
// (alertsPolicyDelete, apiAccessDeleteKeys high; alertsMutingRuleCreate
// nothing), or ends in a destructive verb's noun
// (scheduleKeyDeletion).
func MutationLevel(name string) risk.Level {
	var ws [8]string
	n := 0
	words(name, func(w string) {
		if n < len(ws) {
			ws[n] = w
			n++
		}
	})
	i := 0
	for i < n-1 && mutationModifiers[ws[i]] {
		i++
	}
	if i >= n {
		return risk.Safe
	}
	if l := PathVerb(ws[i]); l != risk.Safe {
		if ws[i] == "cancel" && n > i+1 && destroyNoun[ws[n-1]] {
			return risk.Safe // cancelKeyDeletion undoes a deletion
		}
		return l
	}
	if benignVerbs[ws[i]] {
		return risk.Safe
	}
	for _, w := range ws[i+1 : n] {
		if l := PathVerb(w); l != risk.Safe {
			return l
		}
		if benignVerbs[w] {
			return risk.Safe
		}
	}
	if n > i+1 && destroyNoun[ws[n-1]] {
		return risk.High
	}
	return risk.Safe
}

// mutationModifiers may precede the verb of a mutation's name
// (bulkDelete, forceReset): the verb grammar's verbModifiers.
var mutationModifiers = map[string]bool{"force": true, "hard": true, "soft": true, "bulk": true, "batch": true,
	"mass": true, "permanent": true, "permanently": true, "recursive": true, "multi": true}

// benignVerbs read, create or change without removing: in a mutation's
// name they say what it does, and any destructive word after them is its
// object (createDeletionRequest): the verb grammar's benign verbs.
var benignVerbs = map[string]bool{
	"list": true, "ls": true, "get": true, "describe": true, "show": true, "view": true, "status": true,
	"inspect": true, "browse": true, "whoami": true, "create": true, "add": true, "new": true, "init": true,
	"update": true, "edit": true, "open": true, "clone": true, "pull": true, "fetch": true, "download": true,
	"exec": true, "start": true, "validate": true, "lint": true, "diff": true, "login": true, "logout": true,
	"enable": true, "merge": true, "lookup": true, "wait": true, "explain": true, "apply": true, "scale": true,
	"put": true, "upload": true, "cp": true, "mv": true, "move": true, "cat": true,
}

// destroyNoun are the nouns of destructive verbs, which name the act as
// the last word of a name that starts with a noun (scheduleKeyDeletion):
// the verb grammar's destroyNouns.
var destroyNoun = map[string]bool{"deletion": true, "removal": true, "destruction": true, "termination": true,
	"erasure": true, "revocation": true, "deprovisioning": true, "decommissioning": true, "deregistration": true,
	"uninstallation": true, "purging": true, "wiping": true}

// mutationAction returns the mutation field of text that names the most
// destructive action (see MutationLevel) and its level.
func mutationAction(text string) (string, risk.Level) {
	best, what := risk.Safe, ""
	if !strings.Contains(text, "mutation") {
		return what, best
	}
	Mutations(text, func(name string) {
		if l := MutationLevel(name); l > best {
			best, what = l, name
		}
	})
	return what, best
}
