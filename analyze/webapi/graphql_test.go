package webapi

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestMutations reads the top-level fields of mutations, however the
// document is written, and none of a query's.
func TestMutations(t *testing.T) {
	for text, want := range map[string]string{
		`mutation { deleteRepository(input: {repositoryId: "R_1"}) { clientMutationId } }`:          "deleteRepository",
		`{"query":"mutation { deleteUser(id: 1) { id } }"}`:                                         "deleteUser",
		`{"query":"mutation Del($id: ID!) { a: deleteUser(id: $id) { id } b: createUser { id } }"}`: "deleteUser createUser",
		`mutation{alertsPolicyDelete(accountId:1,id:"98765"){id}}`:                                  "alertsPolicyDelete",
		`query=mutation { addComment(input: {body: "please deleteRepository now"}) { id } }`:        "addComment",
		"{\"query\": \"mutation {\\n  removeLabel(input: {label: \\\"x { y }\\\"}) { ok }\\n}\"}":   "removeLabel",
		`mutation @live { x: entityDelete(guids: ["a"]) { deletedEntities { guid } } }`:             "entityDelete",
		`query { viewer { login } }`:                                "",
		`{"mutation": true, "deleteAll": 1}`:                        "",
		`subscription { onDelete { id } }`:                          "",
		`clientMutationId deleteMutation`:                           "",
		`mutation { a { deleteNested } } mutation Two { purgeAll }`: "a purgeAll",
		`query Q { x } mutation M($v: [String!]! = ["}"]) @d(k: "{") { resetPassword(email: $v) { ok } }`: "resetPassword",
	} {
		var got []string
		Mutations(text, func(f string) { got = append(got, f) })
		if g := strings.Join(got, " "); g != want {
			t.Errorf("Mutations(%q) = %q, want %q", text, g, want)
		}
	}
}

func TestMutationLevel(t *testing.T) {
	for name, want := range map[string]risk.Level{
		"deleteRepository": risk.High, "alertsPolicyDelete": risk.High, "apiAccessDeleteKeys": risk.High,
		"bulkDeleteUsers": risk.High, "delete_users": risk.High, "removeOutsideCollaborator": risk.High,
		"scheduleKeyDeletion": risk.High, "entityDelete": risk.High, "revokeToken": risk.High,
		"disableWorkflow": risk.Medium, "cancelSubscription": risk.Medium, "userSuspend": risk.Medium,
		"createIssue": none(), "updateUser": none(), "alertsMutingRuleCreate": none(), "addComment": none(),
		"createDeletionRequest": none(), "cancelKeyDeletion": none(), "enableAutoMerge": none(),
		"undeleteItem": none(), "login": none(), "": none(),
	} {
		if got := MutationLevel(name); got != want {
			t.Errorf("MutationLevel(%q) = %v, want %v", name, got, want)
		}
	}
}

func none() risk.Level { return risk.Safe }

func FuzzMutations(f *testing.F) {
	for _, s := range []string{"mutation { a(b: {c: \"}\"}) { d } }", "mutation ( { ", "mutation{\\\"", "mutation {x:", "mutation M(\"\") {"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		Mutations(s, func(name string) {
			n++
			if name == "" || !strings.Contains(s, name) {
				t.Fatalf("Mutations(%q) reported %q", s, name)
			}
		})
		if n > maxFields {
			t.Fatalf("Mutations(%q) reported %d fields", s, n)
		}
	})
}
