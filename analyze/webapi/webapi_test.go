package webapi

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

func TestJudge(t *testing.T) {
	none := risk.Safe // no finding
	for _, tc := range []struct {
		r    Request
		want risk.Level
		rule string
	}{
		// DELETE: high anywhere but a development server on this machine
		{Request{Method: "DELETE", URL: "https://api.example.com/v1/customers/c1"}, risk.High, RuleDelete},
		{Request{Method: "delete", URL: "http://10.0.0.5:5984/orders"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://127.0.0.1:8983/solr/admin/cores"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://localhost:8500/v1/kv/app?recurse"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://[::1]:2379/v2/keys/app"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://localhost:8080/_snapshot/repo/s1"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://localhost/containers/web?force=1", Socket: "/var/run/docker.sock"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "$API/users/1", Dynamic: true}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://localhost:9200/\x00", Dynamic: true}, risk.High, RuleDelete},
		{Request{Method: "PURGE", URL: "https://cdn.example.com/assets/app.js"}, risk.High, RuleDelete},
		{Request{Method: "DELETE", URL: "http://localhost:3000/api/todos/1"}, risk.Medium, RuleDelete},
		// POST to a destructive action
		{Request{Method: "POST", URL: "http://ci.internal/job/build/doDelete"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:8080/job/build/doWipeOutWorkspace"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:9201/logs/_delete_by_query"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:9200/logs/_close"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "https://api.fastly.com/service/s1/purge_all"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:9090/api/v1/admin/tsdb/delete_series?match[]=up"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "https://app.example.com/actuator/shutdown"}, risk.High, RuleAction},
		// admin endpoints that stop the server or take it out of service
		{Request{Method: "POST", URL: "http://edge-proxy-1.prod:9901/quitquitquit"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:9901/quitquitquit"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://10.0.0.5:9990/abortabortabort"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://prometheus.internal:9090/-/quit"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://envoy.internal:9901/healthcheck/fail"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://envoy.internal:9901/drain_listeners?graceful"}, risk.High, RuleAction},
		{Request{Method: "PUT", URL: "http://localhost:8500/v1/agent/leave"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "https://es.internal:9200/_cluster/nodes/_local/_shutdown"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "https://app.example.com/admin/shutdown"}, risk.High, RuleAction},
		{Request{Method: "GET", URL: "http://edge-proxy-1.prod:9901/stats"}, none, ""},
		{Request{Method: "GET", URL: "http://prometheus.internal:9090/-/healthy"}, none, ""},
		{Request{Method: "GET", URL: "http://localhost:9901/ready"}, none, ""},
		{Request{Method: "GET", URL: "https://app.example.com/actuator/health"}, none, ""},
		{Request{Method: "POST", URL: "http://prometheus.internal:9090/-/reload"}, none, ""},
		{Request{Method: "POST", URL: "http://envoy.internal:9901/healthcheck/ok"}, none, ""},
		{Request{Method: "POST", URL: "https://api.example.com/v1/teams/1/leave-requests"}, none, ""},
		{Request{MethodDynamic: true, URL: "https://api.example.com/v2/projects/p/destroy"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:5000/api/cache/purge"}, risk.Low, RuleClearCache},
		{Request{Method: "POST", URL: "http://localhost:5000/api/db/purge"}, risk.Medium, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:2375/v1.43/containers/prune"}, risk.High, RuleAction},
		{Request{Method: "POST", URL: "https://ci.example.com/api/v4/projects/1/pipelines/9/cancel"}, risk.Medium, RuleAction},
		{Request{Method: "POST", URL: "http://localhost:3000/api/jobs/9/cancel"}, risk.Low, RuleAction},
		{Request{Method: "DELETE", URL: "https://api.github.com/repos/o/r/actions/caches/9"}, risk.Low, RuleClearCache},
		{Request{Method: "POST", URL: "https://api.cloudflare.com/client/v4/zones/z/purge_cache"}, risk.Low, RuleClearCache},
		{Request{Method: "POST", URL: "https://api.fastly.com/service/s/purge_all"}, risk.High, RuleAction},
		// PUT and PATCH
		{Request{Method: "PUT", URL: "http://localhost:9200/logs/_settings"}, risk.Medium, RuleWrite},
		{Request{Method: "PUT", URL: "http://localhost:9200/_cluster/settings"}, risk.High, RuleConfig},
		{Request{Method: "PATCH", URL: "https://flags.example.com/api/admin/features/x"}, risk.High, RuleConfig},
		{Request{Method: "PUT", URL: "https://api.example.com/repos/o/r/collaborators/u"}, risk.High, RuleConfig},
		{Request{Method: "PUT", URL: "http://localhost:9200/new-index"}, risk.Medium, RuleWrite},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/users/1"}, risk.Medium, RuleWrite},
		{Request{Method: "MOVE", URL: "https://dav.example.com/a"}, risk.Medium, RuleWrite},
		{Request{Method: "PUT", URL: "http://localhost:3000/api/settings"}, risk.Medium, RuleConfig},
		{Request{MethodDynamic: true, URL: "https://api.example.com/v1/users/1"}, risk.Medium, RuleDynamicMethod},
		{Request{Method: "$M", URL: "https://api.example.com/v1/users/1"}, risk.Medium, RuleDynamicMethod},
		// access granted: a write whose body sets a permission or role to
		// an administrator's (cloud.iam_grant); read, pull, member are not
		{Request{Method: "PATCH", URL: "https://api.github.com/orgs/acme", Body: []string{"default_repository_permission=admin"}}, risk.High, RuleGrant},
		{Request{Method: "PUT", URL: "https://api.github.com/orgs/acme/teams/t/repos/acme/r", Body: []string{`{"permission": "maintain"}`}}, risk.High, RuleGrant},
		{Request{Method: "POST", URL: "https://gitlab.example.com/api/v4/groups/1/members", Body: []string{"user_id=5", "access_level=50"}}, risk.High, RuleGrant},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/members/7", Body: []string{`{"base_role":"owner"}`}}, risk.High, RuleGrant},
		{Request{Method: "POST", URL: "http://localhost:3000/api/users", Body: []string{`{"name":"t","role":"admin"}`}}, risk.Medium, RuleGrant},
		{Request{Method: "PATCH", URL: "https://api.github.com/orgs/acme", Body: []string{"default_repository_permission=read"}}, risk.Medium, RuleWrite},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/members/7", Body: []string{`{"role":"viewer"}`}}, risk.Medium, RuleWrite},
		{Request{Method: "POST", URL: "https://api.example.com/v1/posts", Body: []string{`{"title":"parole:owner"}`}}, none, ""},
		// wildcard grants: a key, token or role that may do everything
		{Request{Method: "POST", URL: "https://search.acme.io/keys", Body: []string{`{"description":"tmp","actions":["*"],"indexes":["*"],"expiresAt":null}`}}, risk.High, RuleGrant},
		{Request{Method: "POST", URL: "https://api.acme.io/tokens", Body: []string{`scopes:=["*"]`, "name=ci"}}, risk.High, RuleGrant},
		{Request{Method: "POST", URL: "https://api.acme.io/roles", Body: []string{`{"name":"app","privileges":["ALL"]}`}}, risk.High, RuleGrant},
		{Request{Method: "PUT", URL: "https://api.acme.io/policies/p1", Body: []string{`{"Statement":[{"Effect":"Allow","Action":"*"}]}`}}, risk.High, RuleGrant},
		{Request{Method: "POST", URL: "https://search.acme.io/keys", Body: []string{`{"description":"ro","actions":["search"],"indexes":["*"]}`}}, none, ""},
		{Request{Method: "POST", URL: "https://api.acme.io/roles", Body: []string{`{"name":"app","privileges":["SELECT"]}`}}, none, ""},
		{Request{Method: "POST", URL: "https://api.acme.io/search", Body: []string{`{"q":"*","transactions":"*"}`}}, none, ""},
		{Request{URL: "https://search.acme.io/keys?actions=*"}, none, ""},
		{Request{Method: "POST", URL: "https://gitlab.example.com/api/v4/groups/1/members", Body: []string{"user_id=5", "access_level=30"}}, none, ""},
		// benign neighbours: reads, searches, test data on a dev server
		{Request{URL: "http://localhost:9200/_cat/indices"}, none, ""},
		{Request{Method: "GET", URL: "http://localhost:9200/_all"}, none, ""},
		{Request{Method: "HEAD", URL: "https://api.example.com/v1/delete"}, none, ""},
		{Request{Method: "POST", URL: "http://localhost:9200/logs/_search"}, none, ""},
		{Request{Method: "POST", URL: "http://localhost:9200/_reindex"}, none, ""},
		{Request{Method: "POST", URL: "http://localhost:9200/logs/_flush"}, none, ""},
		{Request{Method: "POST", URL: "https://hooks.example.com/services/T/B"}, none, ""},
		{Request{Method: "POST", URL: "http://localhost:8080/api/users"}, none, ""},
		{Request{Method: "PUT", URL: "http://localhost:3000/api/users/1"}, none, ""},
		{Request{Method: "PATCH", URL: "http://127.0.0.1:8000/items/3"}, none, ""},
		{Request{Method: "POST", URL: "https://auth.example.com/password/reset"}, none, ""},
		{Request{Method: "POST", URL: "https://api.example.com/search?q=delete"}, none, ""},
		{Request{MethodDynamic: true, URL: "http://localhost:3000/api/x"}, none, ""},
	} {
		f, ok := Judge(tc.r)
		got := none
		if ok {
			got = f.Level
		}
		if got != tc.want || ok && f.Rule != tc.rule {
			t.Errorf("Judge(%+v) = %v %s (%s), want %v %s", tc.r, got, f.Rule, f.Reason, tc.want, tc.rule)
		}
		if ok && (f.Reason == "" || strings.Contains(f.Resource, "?")) {
			t.Errorf("Judge(%+v): reason %q, resource %q", tc.r, f.Reason, f.Resource)
		}
	}
}

// TestResourceHidesSecrets checks that a finding's resource and reason
// leave out a URL's user information and query, which may hold secrets.
func TestResourceHidesSecrets(t *testing.T) {
	f, ok := Judge(Request{Method: "DELETE", URL: "https://admin:hunter2@api.example.com/v1/x?token=abc123", Via: "curl"})
	if !ok {
		t.Fatal("no finding")
	}
	for _, s := range []string{"hunter2", "abc123", "admin:"} {
		if strings.Contains(f.Resource, s) || strings.Contains(f.Reason, s) {
			t.Errorf("%q shows %q", f.Resource+" "+f.Reason, s)
		}
	}
}

func TestPathAction(t *testing.T) {
	for path, want := range map[string]string{
		"/job/x/doDelete":               "doDelete high",
		"/idx/_delete_by_query":         "_delete_by_query high",
		"/service/1/purge_all":          "purge_all high",
		"/v1/Projects/p/WipeOutData":    "WipeOutData high",
		"/api/queues/%2F/jobs/contents": " safe",
		"/api/users/removeAll":          "removeAll high",
		"/api/v1/deletes":               "deletes high",
		"/api/account/reset-password":   " safe",
		"/api/password/reset":           " safe",
		"/api/db/reset":                 "reset high",
		"/api/deleted-items":            " safe",
		"/api/$ACTION":                  " safe",
		"/api/removebg":                 " safe",
		"/idx/_close":                   "_close high",
		"/idx/_open":                    " safe",
		"/idx/_flush":                   " safe",
		"/_cache/clear":                 " safe",
		"/containers/prune":             "prune high",
		"/api/v1/jobs/7/cancel":         "cancel medium",
		"/job/app/disable/doDelete":     "doDelete high",
		"/job/app/disable":              "disable medium",
	} {
		seg, l := pathAction(path)
		if got := seg + " " + l.String(); got != want {
			t.Errorf("pathAction(%q) = %q, want %q", path, got, want)
		}
	}
}

func FuzzJudge(f *testing.F) {
	for _, s := range []string{"http://localhost:9200/_all", "$X/y", "https://a@b:1/c?d#e", "http://[::1", ":9200", "\x00/x"} {
		f.Add("DELETE", s, false, "mutation { deleteX }")
	}
	f.Fuzz(func(t *testing.T, m, u string, dyn bool, body string) {
		r := Request{Method: m, URL: u, Dynamic: dyn, Body: []string{body}}
		Judge(r)
		SQL(r)
	})
}

// TestCarriedActions: what the query and the body carry names the action
// as the path does.
func TestCarriedActions(t *testing.T) {
	none := risk.Safe
	for _, tc := range []struct {
		r    Request
		want risk.Level
	}{
		{Request{URL: "http://localhost:8983/solr/admin/collections?action=DELETE&name=logs"}, risk.High},
		{Request{URL: "http://localhost:8983/solr/admin/cores?action=UNLOAD&core=c&deleteIndex=true"}, risk.High},
		{Request{URL: "https://app.example.com/index.php?op=purge&id=3"}, risk.High},
		{Request{Method: "POST", URL: "http://localhost:8983/solr/core/update?commit=true", Body: []string{"<delete><query>*:*</query></delete>"}}, risk.High},
		{Request{Method: "POST", URL: "http://localhost:8983/solr/core/update", Body: []string{`{"delete": {"query": "*:*"}}`}}, risk.High},
		{Request{Method: "POST", URL: "http://localhost:9200/_bulk", Body: []string{"{\"delete\":{\"_index\":\"logs\",\"_id\":\"1\"}}\n"}}, risk.High},
		{Request{Method: "POST", URL: "https://api.github.com/graphql", Body: []string{`query=mutation { deleteRepository(input: {repositoryId: "R_1"}) { clientMutationId } }`}}, risk.High},
		{Request{Method: "POST", URL: "https://api.example.com/graphql", Body: []string{`{"query": "mutation { cancelSubscription(id: 1) { ok } }"}`}}, risk.Medium},
		// benign neighbours
		{Request{URL: "http://localhost:8983/solr/admin/collections?action=LIST"}, none},
		{Request{URL: "https://api.example.com/search?q=delete&deleted=true"}, none},
		{Request{Method: "POST", URL: "https://api.github.com/graphql", Body: []string{`query=query { repository(owner: "o", name: "r") { deleteBranchOnMerge } }`}}, none},
		{Request{Method: "POST", URL: "https://api.github.com/graphql", Body: []string{`query=mutation { addComment(input: {body: "please delete this"}) { id } }`}}, none},
		{Request{Method: "POST", URL: "http://localhost:8080/api/todos", Body: []string{`{"delete": true}`}}, none},
		{Request{Method: "POST", URL: "http://localhost:9200/logs/_search", Body: []string{`{"query": {"match": {"msg": "delete"}}}`}}, none},
	} {
		f, ok := Judge(tc.r)
		got := none
		if ok {
			got = f.Level
		}
		if got != tc.want {
			t.Errorf("Judge(%+v) = %v (%s), want %v", tc.r, got, f.Reason, tc.want)
		}
	}
}

func TestSQL(t *testing.T) {
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{Request{URL: "http://localhost:8123/?query=DROP%20TABLE%20events"}, "DROP TABLE events"},
		{Request{Method: "POST", URL: "http://localhost:8123/", Body: []string{"TRUNCATE TABLE events"}}, "TRUNCATE TABLE events"},
		{Request{Method: "POST", URL: "http://localhost:8086/query", Body: []string{"q=DROP DATABASE metrics"}}, "DROP DATABASE metrics"},
		{Request{Method: "POST", URL: "http://localhost:4200/_sql", Body: []string{`{"stmt": "DELETE FROM t"}`}}, "DELETE FROM t"},
		{Request{Method: "POST", URL: "http://localhost:9200/_sql?format=txt", Body: []string{`{"query": "SELECT * FROM \"logs\""}`}}, `SELECT * FROM "logs"`},
		{Request{Method: "POST", URL: "http://broker:8082/druid/v2/sql", Body: []string{`{"query":"SELECT 1"}`}}, "SELECT 1"},
		{Request{Method: "POST", URL: "http://trino:8080/v1/statement", Body: []string{"DROP SCHEMA s CASCADE"}}, "DROP SCHEMA s CASCADE"},
		{Request{Method: "POST", URL: "http://localhost:8123/", Body: []string{"$Q"}}, ""},
		{Request{Method: "POST", URL: "http://localhost:3000/api", Body: []string{"query=DROP TABLE x"}}, ""},
	} {
		if got := strings.Join(SQL(tc.r), "; "); got != tc.want {
			t.Errorf("SQL(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
