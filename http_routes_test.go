package warden_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// httpRoutes are the ways an agent makes one HTTP request with method m
// to URL u: command-line clients, Python through the code tool and
// through python -c, JavaScript through node, deno and bun, Perl's LWP.
var httpRoutes = []struct {
	name string
	act  func(m, u string) risk.Action
}{
	{"curl", func(m, u string) risk.Action { return bash("curl -s -X " + m + " '" + u + "'") }},
	{"curl glued", func(m, u string) risk.Action { return bash("curl -sX" + m + " " + u) }},
	{"wget", func(m, u string) risk.Action { return bash("wget -qO- --method=" + m + " '" + u + "'") }},
	{"httpie", func(m, u string) risk.Action { return bash("http " + m + " '" + u + "'") }},
	{"xh", func(m, u string) risk.Action { return bash("xh " + strings.ToLower(m) + " '" + u + "'") }},
	{"python tool", func(m, u string) risk.Action {
		return risk.Action{Tool: "python", Arguments: map[string]any{"code": fmt.Sprintf("import requests\nr = requests.request(%q, %q)\nprint(r.status_code)", m, u)}}
	}},
	{"python -c", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`python3 -c "import httpx; httpx.%s('%s')"`, strings.ToLower(m), u))
	}},
	{"node fetch", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`node -e "fetch('%s', {method: '%s'}).then(r => console.log(r.status))"`, u, m))
	}},
	{"node axios", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`node -e "require('axios').%s('%s')"`, strings.ToLower(m), u))
	}},
	{"deno fetch", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`deno eval "await fetch('%s', {method: '%s'})"`, u, m))
	}},
	{"bun fetch", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`bun -e "await fetch('%s', {method: '%s'})"`, u, m))
	}},
	{"perl LWP", func(m, u string) risk.Action {
		return bash(fmt.Sprintf(`perl -MLWP::UserAgent -e 'LWP::UserAgent->new->%s("%s")'`, strings.ToLower(m), u))
	}},
}

// TestHTTPRouteConsistency: one request gets one level (package webapi's
// judgement of its method and target), whichever client makes it.
func TestHTTPRouteConsistency(t *testing.T) {
	e := guardEngine(t)
	for _, tc := range []struct {
		method, url string
		want        risk.Level // the request's http.* level (Safe: none)
		level       risk.Level // the assessment's level
	}{
		{"DELETE", "https://api.example.com/v1/customers/c1", risk.High, risk.High},
		{"DELETE", "http://localhost:9200/logs-2024", risk.High, risk.High},
		{"DELETE", "http://127.0.0.1:8500/v1/kv/app", risk.High, risk.High},
		{"POST", "http://localhost:9200/logs/_delete_by_query", risk.High, risk.High},
		{"POST", "https://ci.example.com/job/app/doDelete", risk.High, risk.High},
		{"PUT", "http://localhost:9200/_cluster/settings", risk.High, risk.High},
		{"PATCH", "https://api.example.com/v1/users/1", risk.Medium, 0},
		{"DELETE", "http://localhost:3000/api/todos/1", risk.Medium, risk.Medium},
		{"PUT", "http://localhost:9200/new-index", risk.Medium, risk.Medium},
		{"GET", "http://localhost:9200/_cat/indices", risk.Safe, 0},
	} {
		for _, r := range httpRoutes {
			if r.name == "perl LWP" && tc.method == "PATCH" {
				continue // LWP::UserAgent has no patch method
			}
			as, _, err := e.Check(context.Background(), r.act(tc.method, tc.url))
			if err != nil {
				t.Fatal(err)
			}
			got := risk.Safe
			for _, f := range as.Findings {
				if strings.HasPrefix(f.Rule, "http.") && f.Level > got {
					got = f.Level
				}
			}
			if got != tc.want || tc.level != 0 && as.Level != tc.level {
				t.Errorf("%s %s via %s: http.* %v, level %v; want %v, %v\n%v", tc.method, tc.url, r.name, got, as.Level, tc.want, tc.level, as.Reasons)
			}
		}
	}
}

// TestHTTPCarriedRouteConsistency: what a request carries (SQL for a
// database that takes it over HTTP, a GraphQL mutation) gets one level
// whichever client sends it.
func TestHTTPCarriedRouteConsistency(t *testing.T) {
	e := guardEngine(t)
	for _, tc := range []struct {
		name string
		acts []risk.Action
		want risk.Level
	}{
		{"DROP TABLE to ClickHouse", []risk.Action{
			bash(`curl -s http://localhost:8123/ --data-binary 'DROP TABLE events'`),
			bash(`curl -s 'http://localhost:8123/?query=DROP%20TABLE%20events'`),
			bash(`wget -qO- --post-data 'DROP TABLE events' http://localhost:8123/`),
			bash(`http --raw 'DROP TABLE events' POST :8123/`),
			{Tool: "python", Arguments: map[string]any{"code": "import requests\nrequests.post('http://localhost:8123/', data='DROP TABLE events')"}},
			bash(`node -e "fetch('http://localhost:8123/', {method: 'POST', body: 'DROP TABLE events'})"`),
			{Tool: "python", Arguments: map[string]any{"code": "import requests\nrequests.get('http://localhost:8123/', params={'query': 'DROP TABLE events'})"}},
		}, risk.High},
		{"Solr collection deleted by its action parameter", []risk.Action{
			bash(`curl -s 'http://localhost:8983/solr/admin/collections?action=DELETE&name=logs'`),
			bash(`http :8983/solr/admin/collections action==DELETE name==logs`),
			{Tool: "python", Arguments: map[string]any{"code": "import requests\nrequests.get('http://localhost:8983/solr/admin/collections', params={'action': 'DELETE', 'name': 'logs'})"}},
		}, risk.High},
		{"DELETE through a fetch Request", []risk.Action{
			bash(`node -e "fetch(new Request('https://api.example.com/v1/customers/c1', {method: 'DELETE'}))"`),
			bash(`curl -X DELETE https://api.example.com/v1/customers/c1`),
		}, risk.High},
		{"GraphQL deleteRepository", []risk.Action{
			bash(`gh api graphql -f query='mutation { deleteRepository(input: {repositoryId: "R_1"}) { clientMutationId } }'`),
			bash(`curl -s https://api.github.com/graphql -d '{"query": "mutation { deleteRepository(input: {repositoryId: \"R_1\"}) { clientMutationId } }"}'`),
			{Tool: "python", Arguments: map[string]any{"code": "import requests\nrequests.post('https://api.github.com/graphql', json={'query': 'mutation { deleteRepository(input: {repositoryId: \"R_1\"}) { clientMutationId } }'})"}},
			bash(`node -e "fetch('https://api.github.com/graphql', {method: 'POST', body: JSON.stringify({query: 'mutation { deleteRepository(input: {repositoryId: 1}) { clientMutationId } }'})})"`),
		}, risk.High},
	} {
		for _, a := range tc.acts {
			as, _, err := e.Check(context.Background(), a)
			if err != nil {
				t.Fatal(err)
			}
			if as.Level != tc.want {
				t.Errorf("%s: %v, level %v, want %v\n%v", tc.name, a.Arguments, as.Level, tc.want, as.Reasons)
			}
		}
	}
}
