package shell

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// TestGraphQLOperands: a mutation a command hands a service in an
// operand or a flag's value is judged by its fields' names, as in a
// request's body; commands that only print, search or record text are
// not judged.
func TestGraphQLOperands(t *testing.T) {
	const none = risk.Safe
	for script, want := range map[string]risk.Level{
		`newrelic nerdgraph query 'mutation { alertsPolicyDelete(accountId: 1234567, id: "98765") { id } }'`:                                             risk.High,
		`sudo -E newrelic nerdgraph query 'mutation { entityDelete(guids: ["x"]) { deletedEntities { guid } } }'`:                                        risk.High,
		`timeout 30 hasura-cli graphql --query='mutation { delete_users(where: {}) { affected_rows } }'`:                                                 risk.High,
		`shopify app graphql --query 'mutation { webhookSubscriptionDelete(id: "gid://1") { userErrors { field } } }'`:                                   risk.High,
		`newrelic nerdgraph query 'mutation { userDisable(id: 1) { id } }'`:                                                                              risk.Medium,
		`gh api graphql -f query='mutation { deleteRepository(input:{repositoryId:"R_1"}) { clientMutationId } }'`:                                       risk.High,
		`curl -X POST https://api.example.com/graphql -d '{"query":"mutation { deleteUser(id: 1) { id } }"}'`:                                            risk.High,
		`curl -X POST https://api.example.com/graphql --json '{"query":"mutation { a: apiAccessDeleteKeys(keys: {ids: [1]}) { errors { message } } }"}'`: risk.High,
		`newrelic nerdgraph query 'mutation { alertsMutingRuleCreate(accountId: 1, rule: {name: "x"}) { id } }'`:                                         none,
		`newrelic nerdgraph query '{ actor { account(id: 1) { alerts { policiesSearch { policies { id } } } } } }'`:                                      none,
		`gh api graphql -f query='mutation { createIssue(input:{repositoryId:"R_1", title:"delete me"}) { issue { id } } }'`:                             none,
		`curl -X POST https://api.example.com/graphql -d '{"query":"mutation { updateUser(id: 1, input: {deleted: true}) { id } }"}'`:                    none,
		`newrelic nerdgraph query "$Q"`:                                   none,
		`echo 'mutation { deleteUser(id: 1) { id } }'`:                    none,
		`grep -r "mutation { deleteUser" src/`:                            none,
		`git commit -m 'mutation { deleteUser } is gone'`:                 none,
		`printf '%s' 'mutation { deleteUser(id: 1) { id } }' > q.graphql`: none,
	} {
		got := none
		var fs []risk.Finding
		for _, f := range analyzeScript(t, script) {
			if strings.HasPrefix(f.Rule, "http.") {
				fs = append(fs, f)
				got = max(got, f.Level)
			}
		}
		if got != want {
			t.Errorf("%s: %v, want %v%s", script, got, want, describe(fs))
		}
	}
}

// TestMutationLevelFollowsVerbGrammar holds webapi.MutationLevel, which
// judges the GraphQL mutations of requests and operands, to the verb
// grammar: a name made of a verb and a noun, in either order, gets the
// level the grammar gives the verb (apart from the words that are no path
// words, see TestPathVerbsFollowVerbGrammar), and its word lists are the
// grammar's.
func TestMutationLevelFollowsVerbGrammar(t *testing.T) {
	notMutationWords := map[string]bool{"flush": true, "clear": true, "archive": true, "del": true, "rm": true,
		"rmi": true, "rb": true, "rmdir": true, "rmdirs": true, "deletefile": true, "undefine": true, "unset": true}
	for w, class := range verbWords {
		want := risk.Safe
		switch class {
		case wordDestroy:
			want = risk.High
		case wordDisrupt:
			want = risk.Medium
		}
		if notMutationWords[w] {
			want = risk.Safe
		}
		verbFirst := w + "Widget"
		if got := webapi.MutationLevel(verbFirst); got != want {
			t.Errorf("%s: webapi.MutationLevel gives %v, the verb grammar %v", verbFirst, got, want)
		}
		if class == wordNounVerb || class == wordHelp {
			continue // a noun after a noun
		}
		nounFirst := "widget" + strings.ToUpper(w[:1]) + w[1:]
		if got := webapi.MutationLevel(nounFirst); got != want {
			t.Errorf("%s: webapi.MutationLevel gives %v, the verb grammar %v", nounFirst, got, want)
		}
		if class == wordBenign {
			// a destructive word after a benign verb is its object
			if got := webapi.MutationLevel(w + "DeleteRequest"); got != risk.Safe {
				t.Errorf("%sDeleteRequest: webapi.MutationLevel gives %v, want safe", w, got)
			}
		}
	}
	for m := range verbModifiers {
		if got := webapi.MutationLevel(m + "DeleteWidgets"); got != risk.High {
			t.Errorf("modifier %q: %sDeleteWidgets is %v", m, m, got)
		}
	}
	for n := range strings.FieldsSeq(destroyNouns.text) {
		name := "scheduleWidget" + strings.ToUpper(n[:1]) + n[1:]
		if got := webapi.MutationLevel(name); got != risk.High {
			t.Errorf("destroy noun %q: %s is %v", n, name, got)
		}
	}
}
