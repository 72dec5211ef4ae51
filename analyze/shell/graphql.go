package shell

import (
	"strings"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// minMutation is the length of the shortest text in which
// webapi.Mutations finds a field (mutation{x): shorter words are not read,
// nor words without {.
const minMutation = len("mutation{x")

// graphqlFindings judges the GraphQL mutations command c, named name,
// hands a service in its operands and flag values (newrelic nerdgraph
// query 'mutation { alertsPolicyDelete(…) { id } }', a client's --query
// flag) by the names of their fields, as webapi judges those a request's
// body carries: each name is read by the verb grammar's words (see
// webapi.MutationLevel, which TestMutationLevelFollowsVerbGrammar holds to
// it). HTTP clients' bodies are webapi's; plain commands (echo, grep)
// and own ones (git commit -m) send nothing; words computed at run time
// are not read.
func graphqlFindings(out []risk.Finding, c *Command, name string) []risk.Finding {
	best, field := risk.Safe, ""
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		// a mutation opens its selection with {: rare in words, cheap to
		// find
		if len(a) < minMutation || c.Dynamic[j] || strings.IndexByte(a, '{') < 0 || !strings.Contains(a, "mutation") {
			continue
		}
		webapi.Mutations(a, func(f string) {
			if l := webapi.MutationLevel(f); l > best {
				best, field = l, f
			}
		})
	}
	if best == risk.Safe {
		return out
	}
	kind := "a destructive action"
	if best < risk.High {
		kind = "an action that disrupts a service until it is undone"
	}
	return append(out, mayRun(risk.Finding{
		Analyzer: "shell",
		Rule:     webapi.RuleAction,
		Level:    best,
		Reason:   name + " sends the GraphQL mutation " + field + ", which names " + kind,
	}, c))
}
