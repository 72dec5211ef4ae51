package shell

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// scopeRemoval raises to Critical the high deletions among out[from:]
// (the verb grammar's cli.delete, a knowledge row's cloud.delete) of
// command c when what c removes holds everything else of a system — a
// namespace, a database, a cluster, a project, an account, a volume (see
// scopeNoun): gcloud projects delete, doctl kubernetes cluster delete,
// aws rds delete-db-cluster and an unknown CLI's delete-namespace are
// what kubectl delete namespace, DROP DATABASE and an MCP tool named
// delete_namespace are.
func scopeRemoval(out []risk.Finding, from int, c *Command) []risk.Finding {
	raise := -1
	for j := from; j < len(out); j++ {
		if f := out[j]; f.Level == risk.High && (f.Rule == "cli.delete" || f.Rule == "cloud.delete") {
			raise = j
			break
		}
	}
	if raise < 0 {
		return out
	}
	obj, ok := scopeObject(c)
	if !ok {
		return out
	}
	f := &out[raise]
	f.Level, f.Locked, f.Reversible = risk.Critical, true, false
	f.Reason += "; it removes a " + strings.TrimSuffix(obj, "s") + ", which holds everything else: the applications and data in it go with it"
	return out
}

// maxScopeWords bounds the subcommand words scopeObject reads.
const maxScopeWords = 8

// scopeObject returns the scope noun a command's subcommand path removes:
// the rest of the verb's word (delete-namespace, delete-db-cluster: its
// last token), else the path word before the verb (projects delete,
// cluster destroy), else the word after it when a name follows (delete
// namespace prod).
func scopeObject(c *Command) (string, bool) {
	prev := ""
	n := 0
	for i := 1; i < len(c.Args) && n < maxScopeWords; i++ {
		a := c.Args[i]
		if c.Dynamic[i] || a == "--" {
			return "", false
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if !subcommandShaped(a) {
			return "", false
		}
		n++
		for seg := range strings.SplitSeq(a, ":") {
			tok, rest := nextToken(seg)
			if !removes[strings.ToLower(tok)] {
				if seg != "" {
					prev = seg
				}
				continue
			}
			if rest != "" {
				obj := lastToken(rest)
				return obj, scopeNoun(obj)
			}
			if obj := lastToken(prev); scopeNoun(obj) {
				return obj, true
			}
			// kubectl's order, a kind and then a name: delete namespace
			// prod (a last word is the name: instances delete db)
			if i+2 < len(c.Args) && !c.Dynamic[i+1] && subcommandShaped(c.Args[i+1]) && !strings.HasPrefix(c.Args[i+2], "-") {
				obj := strings.ToLower(c.Args[i+1])
				return obj, scopeNoun(obj)
			}
			return "", false
		}
	}
	return "", false
}

// lastToken returns the last token of word w (see nextToken), in lower
// case.
func lastToken(w string) string {
	last := ""
	for w != "" {
		tok, rest := nextToken(w)
		if tok != "" {
			last = tok
		}
		w = rest
	}
	return strings.ToLower(last)
}
