package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/risk"
)

// TestRequests checks the method and URL each client's spellings come to.
func TestRequests(t *testing.T) {
	for script, want := range map[string]string{
		`curl -X DELETE http://localhost:9200/idx`:                      "DELETE http://localhost:9200/idx",
		`curl -XDELETE localhost:9200/idx`:                              "DELETE http://localhost:9200/idx",
		`curl -sSX delete 'https://api.example.com/v1/a'`:               "delete https://api.example.com/v1/a",
		`curl -sXDELETE https://api.example.com/v1/a`:                   "DELETE https://api.example.com/v1/a",
		`curl --request PUT --url https://api.example.com/v1/a`:         "PUT https://api.example.com/v1/a",
		`curl --request=PATCH https://api.example.com/v1/a`:             "PATCH https://api.example.com/v1/a",
		`curl -d a=1 https://api.example.com/v1/a`:                      "POST https://api.example.com/v1/a",
		`curl -sd@body.json https://api.example.com/v1/a`:               "POST https://api.example.com/v1/a",
		`curl --json '{}' https://api.example.com/v1/a`:                 "POST https://api.example.com/v1/a",
		`curl -F f=@x https://api.example.com/v1/a`:                     "POST https://api.example.com/v1/a",
		`curl -G -d q=x https://api.example.com/v1/a`:                   "GET https://api.example.com/v1/a",
		`curl -T f.txt https://api.example.com/v1/a`:                    "PUT https://api.example.com/v1/a",
		`curl -I https://api.example.com/v1/a`:                          "HEAD https://api.example.com/v1/a",
		`curl -X DELETE -d '{}' https://api.example.com/v1/a`:           "DELETE https://api.example.com/v1/a",
		`curl -o out.json -H 'X: y' https://api.example.com/v1/a`:       " https://api.example.com/v1/a",
		`curl -X "$M" https://api.example.com/v1/a`:                     "$? https://api.example.com/v1/a",
		`curl -X DELETE "$ES/idx"`:                                      `DELETE "$ES/idx"$`,
		`curl --unix-socket /run/docker.sock -X DELETE http://d/c/x`:    "DELETE http://d/c/x unix:/run/docker.sock",
		`curlie DELETE :9200/idx`:                                       "DELETE http://localhost:9200/idx",
		`curlie post localhost:3000/api a=1`:                            "post http://localhost:3000/api",
		`curlie localhost:3000/api a=1`:                                 "POST http://localhost:3000/api",
		`wget --method=DELETE https://api.example.com/v1/a`:             "DELETE https://api.example.com/v1/a",
		`wget -qO- --method DELETE api.example.com/v1/a`:                "DELETE http://api.example.com/v1/a",
		`wget --post-data a=1 https://api.example.com/v1/a`:             "POST https://api.example.com/v1/a",
		`wget -qO out.html https://api.example.com/v1/a`:                " https://api.example.com/v1/a",
		`http DELETE :9200/idx`:                                         "DELETE http://localhost:9200/idx",
		`http delete :9200/idx`:                                         "delete http://localhost:9200/idx",
		`https PUT api.example.com/v1/a name=x`:                         "PUT https://api.example.com/v1/a",
		`http :3000/api name=x`:                                         "POST http://localhost:3000/api",
		`http :3000/api X-Token:abc q==x`:                               " http://localhost:3000/api?q=x",
		`http --auth u:p -a u:p DELETE example.org/a`:                   "DELETE http://example.org/a",
		`xh delete localhost:5984/db`:                                   "delete http://localhost:5984/db",
		`http --offline DELETE :9200/idx`:                               "",
		`http "$M" :9200/idx`:                                           "$? http://localhost:9200/idx",
		`http "$URL" name=x`:                                            `POST "$URL"$`,
		`gh api -X DELETE repos/o/r`:                                    "DELETE https://api.github.com/repos/o/r",
		`gh api --method=DELETE /repos/o/r/hooks/1`:                     "DELETE https://api.github.com/repos/o/r/hooks/1",
		`gh api repos/o/r/labels -f name=bug`:                           "POST https://api.github.com/repos/o/r/labels",
		`gh api --hostname ghe.corp -XDELETE repos/o/r`:                 "DELETE https://ghe.corp/api/v3/repos/o/r",
		`glab api -X DELETE projects/1`:                                 "DELETE https://gitlab.com/api/v4/projects/1",
		`glab api --method DELETE /projects/1/variables/K`:              "DELETE https://gitlab.com/api/v4/projects/1/variables/K",
		`glab api projects/1 --paginate`:                                " https://gitlab.com/api/v4/projects/1",
		`stripe post /v1/refunds -d charge=ch_1 --live`:                 "post https://api.stripe.com/v1/refunds",
		`stripe delete /v1/customers/cus_1`:                             "delete https://api.stripe.com/v1/customers/cus_1",
		`stripe get -d limit=3 /v1/charges`:                             "get https://api.stripe.com/v1/charges",
		`stripe refunds create --charge ch_1`:                           "",
		`gh repo delete o/r`:                                            "",
		`echo curl -X DELETE https://api.example.com/v1/a`:              "",
		`sudo -u svc curl -X DELETE https://api.example.com/v1/a`:       "DELETE https://api.example.com/v1/a",
		`env TOKEN=x curl -X DELETE https://api.example.com/v1/a`:       "DELETE https://api.example.com/v1/a",
		`bash -c 'curl -X DELETE https://api.example.com/v1/a'`:         "DELETE https://api.example.com/v1/a",
		`xargs -I{} curl -X DELETE http://localhost:9200/{} < list.txt`: "DELETE http://localhost:9200/{}$",
	} {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		var got []string
		for _, c := range cmds {
			if len(c.Args) == 0 || c.Dynamic[0] {
				continue
			}
			for _, r := range Requests(c, commandName(c.Args[0])) {
				s := r.Method
				if r.MethodDynamic {
					s = "$?"
				}
				s += " " + r.URL
				if r.Dynamic {
					s += "$"
				}
				if r.Socket != "" {
					s += " unix:" + r.Socket
				}
				got = append(got, s)
			}
		}
		if g := strings.Join(got, "; "); g != want {
			t.Errorf("%s:\n got %q\nwant %q", script, g, want)
		}
	}
}

// TestHTTPFindings checks the levels scripts get from their requests'
// methods and targets, whatever else they get: the same request through
// every client, and the benign neighbours of each.
func TestHTTPFindings(t *testing.T) {
	const none = risk.Safe // no http.* finding
	for script, want := range map[string]risk.Level{
		// DELETE destroys: on another host, a host computed at run time,
		// and a data store's admin API on this machine alike
		`curl -X DELETE https://api.example.com/v1/customers/c1`:                risk.High,
		`wget --method=DELETE https://api.example.com/v1/customers/c1`:          risk.High,
		`http DELETE api.example.com/v1/customers/c1`:                           risk.High,
		`xh DELETE https://api.example.com/v1/customers/c1`:                     risk.High,
		`curlie DELETE https://api.example.com/v1/customers/c1`:                 risk.High,
		`gh api -X DELETE repos/o/r/environments/prod`:                          risk.High,
		`glab api -X DELETE projects/7/registry/repositories/1`:                 risk.High,
		`curl -XDELETE 'http://127.0.0.1:5984/orders'`:                          risk.High,
		`curl -X DELETE "http://localhost:8500/v1/kv/?recurse"`:                 risk.High,
		`http DELETE :15672/api/queues/%2F/jobs`:                                risk.High,
		`curl -s -X DELETE localhost:2379/v2/keys/app?recursive=true`:           risk.High,
		`curl --unix-socket /var/run/docker.sock -X DELETE http://x/volumes/db`: risk.High,
		`ES=http://es:9200; curl -X DELETE "$ES/logs-*"`:                        risk.High,
		`curl -X DELETE "$API_URL/users/$ID"`:                                   risk.High,
		`curl -X PURGE https://cdn.example.com/static/app.js`:                   risk.High,
		`curl -X DELETE http://localhost:3000/api/todos/1`:                      risk.Medium,
		// a destructive action through POST
		`curl -X POST https://ci.example.com/job/app/doDelete`:                       risk.High,
		`curl -X POST -u admin:x http://localhost:8080/computer/agent-1/doDelete`:    risk.High,
		`http POST :9201/logs/_delete_by_query query:='{}'`:                          risk.High,
		`curl -XPOST localhost:9200/logs/_close`:                                     risk.High,
		`curl -X POST -H 'Fastly-Key: k' https://api.fastly.com/service/s/purge_all`: risk.High,
		`curl -X POST http://localhost:9090/api/v1/admin/tsdb/delete_series`:         risk.High,
		`glab api projects/7/registry/repositories/1/bulk_delete -f name_regex=x`:    risk.High,
		`gh api repos/o/r/actions/caches/delete -f key=x`:                            risk.Low,
		// PUT and PATCH
		`curl -X PUT localhost:9200/_cluster/settings -d '{}'`:                 risk.High,
		`http PUT :9200/_cluster/settings persistent:='{}'`:                    risk.High,
		`curl -X PATCH https://flags.example.com/api/admin/features/f -d '{}'`: risk.High,
		`gh api -X PUT repos/o/r/collaborators/mallory`:                        risk.High,
		`curl -X PUT localhost:9200/new-index -d '{}'`:                         risk.Medium,
		`curl -T build.zip https://dav.example.com/builds/b.zip`:               risk.Medium,
		`curl -X "$METHOD" https://api.example.com/v1/users/1`:                 risk.Medium,
		// benign neighbours
		`curl -X GET http://localhost:9200/_cluster/health`:                none,
		`curl -s localhost:9200/_cat/indices?v`:                            none,
		`http GET :9200/_all/_mapping`:                                     none,
		`curl -I https://api.example.com/v1/delete`:                        none,
		`curl -X POST localhost:9200/logs/_search -d '{"query":{}}'`:       none,
		`curl -X POST localhost:9200/logs/_refresh`:                        none,
		`curl -X POST http://localhost:8080/api/users -d '{"name":"t"}'`:   none,
		`http :3000/api/users name=bob`:                                    none,
		`curl -X PUT http://localhost:3000/api/users/1 -d '{"name":"t"}'`:  none,
		`curl -X PATCH 127.0.0.1:8000/items/3 -d '{}'`:                     none,
		`curl -d '{"text":"done"}' https://hooks.example.com/services/T/B`: none,
		`gh api repos/o/r/issues -f title=bug`:                             none,
		`gh api repos/o/r/pulls`:                                           none,
		`glab api -X GET projects/123`:                                     none,
		`curl -X POST https://auth.example.com/api/password/reset -d e=x`:  none,
		`wget -O- https://example.com/delete-me.txt`:                       none,
		`http --offline DELETE :9200/idx`:                                  none,
		`echo curl -X DELETE http://localhost:9200/_all`:                   none,
		`grep -r "curl -X DELETE" docs/`:                                   none,
	} {
		got := none
		var fs []risk.Finding
		for _, f := range analyzeScript(t, script) {
			if strings.HasPrefix(f.Rule, "http.") {
				fs = append(fs, f)
				if f.Level > got {
					got = f.Level
				}
			}
		}
		if got != want {
			t.Errorf("%s: %v, want %v%s", script, got, want, describe(fs))
		}
	}
}

func FuzzRequests(f *testing.F) {
	for _, s := range []string{"curl -sXDELETE localhost:9200/x", "http $M :1/x a=b", "gh api --method=", "wget -qO", "curlie post", "glab api -X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := Command{Args: strings.Fields(s)}
		c.Dynamic = make([]bool, len(c.Args))
		for i, a := range c.Args {
			c.Dynamic[i] = strings.Contains(a, "$")
		}
		if len(c.Args) == 0 {
			return
		}
		_ = fmt.Sprint(Requests(c, c.Args[0]))
	})
}

// TestPathVerbsFollowVerbGrammar holds the path words webapi reads as
// actions to the command-line verb grammar's destructive and disrupting
// verbs (verbWords), apart from the differences HTTP needs, listed here
// with their reasons: a verb added to one and not the other fails.
func TestPathVerbsFollowVerbGrammar(t *testing.T) {
	notPathWords := map[string]string{
		"flush": "caches on HTTP APIs (Elasticsearch's _flush)", "clear": "caches (_cache/clear)",
		"archive": "builds an archive more often than it retires a repository",
		"del":     "no path word", "rm": "no path word", "rmi": "no path word", "rb": "no path word",
		"rmdir": "no path word", "rmdirs": "no path word", "deletefile": "no path word",
		"undefine": "no path word (virsh's)", "unset": "names documentation and settings pages more often than an action",
	}
	onlyPath := map[string]string{"shutdown": "stops a service for everyone (/actuator/shutdown)"}
	for w, class := range verbWords {
		want := risk.Safe
		switch class {
		case wordDestroy:
			want = risk.High
		case wordDisrupt:
			want = risk.Medium
		}
		if _, ok := notPathWords[w]; ok {
			want = risk.Safe
		}
		if got := webapi.PathVerb(w); got != want {
			t.Errorf("verb %q: webapi.PathVerb gives %v, the verb grammar %v", w, got, want)
		}
	}
	for w := range onlyPath {
		if _, ok := verbWords[w]; ok || webapi.PathVerb(w) == risk.Safe {
			t.Errorf("%q: listed as a path word only", w)
		}
	}
}

// TestHTTPCarried: the action a request's query or body names, and the
// SQL it gives a database over HTTP, count as its path does.
func TestHTTPCarried(t *testing.T) {
	const none = risk.Safe
	for script, want := range map[string]risk.Level{
		`curl 'http://localhost:8983/solr/admin/collections?action=DELETE&name=logs'`:                                         risk.High,
		`curl -s "localhost:8983/solr/admin/cores?action=UNLOAD&core=c1&deleteInstanceDir=true"`:                              risk.High,
		`curl localhost:8983/solr/c1/update?commit=true -H 'Content-Type: text/xml' -d '<delete><query>*:*</query></delete>'`: risk.High,
		`curl -XPOST localhost:9200/_bulk --data-binary '{"delete":{"_index":"logs","_id":"1"}}'`:                             risk.High,
		`curl -s 'http://localhost:8123/?query=DROP%20TABLE%20events'`:                                                        risk.High,
		`echo ok; curl -s localhost:8123 --data-binary 'TRUNCATE TABLE events'`:                                               risk.High,
		`curl -G localhost:8123 --data-urlencode 'query=DROP DATABASE analytics'`:                                             risk.Critical,
		`curl -XPOST localhost:8086/query --data-urlencode "q=DROP DATABASE metrics"`:                                         risk.Critical,
		`http POST :4200/_sql stmt='DELETE FROM orders'`:                                                                      risk.High,
		`gh api graphql -f query='mutation { deleteRepository(input: {repositoryId: "R_1"}) { clientMutationId } }'`:          risk.High,
		`gh api graphql -F query=@mutation.graphql`:                                                                           none,
		`gh api graphql -f query='query { viewer { login repositories(first: 5) { nodes { name } } } }'`:                      none,
		`curl -s localhost:8123 -d 'SELECT count() FROM events'`:                                                              risk.Low,
		`curl 'http://localhost:8983/solr/admin/collections?action=LIST'`:                                                     none,
		`curl -X POST http://localhost:8080/api/todos -d '{"delete": true}'`:                                                  none,
		`curl -X POST localhost:9200/logs/_search -d '{"query":{"match":{"msg":"delete"}}}'`:                                  none,
	} {
		got := none
		var fs []risk.Finding
		for _, f := range analyzeScript(t, script) {
			if strings.HasPrefix(f.Rule, "http.") || strings.HasPrefix(f.Rule, "sql.") {
				fs = append(fs, f)
				got = max(got, f.Level)
			}
		}
		if got != want {
			t.Errorf("%s: %v, want %v%s", script, got, want, describe(fs))
		}
	}
}

// TestCarriesText tries to break the gate of webapi.SQL in httpFindings
// (carriesText): requests to every kind of database webapi reads SQL
// over HTTP for, with the SQL in a body, a query string or a form, by
// every client, are read for SQL; and webapi.SQL finds none in any of
// them once its body and query string are taken away.
func TestCarriesText(t *testing.T) {
	const stmt = "DROP%20TABLE%20t"
	var scripts []string
	for _, url := range []string{
		"http://localhost:8123/", "http://ch.internal:8123", "http://localhost:8086/query", "http://es:9200/_sql",
		"http://es:9200/_sql/translate", "http://os:9200/_plugins/_sql", "http://localhost:4200/_sql",
		"http://druid:8888/druid/v2/sql", "http://trino:8080/v1/statement",
		"https://x.cloud.databricks.com/api/2.0/sql/statements", "https://a.snowflakecomputing.com/api/v2/statements",
		"http://$HOST:8123/", "$URL",
	} {
		for _, q := range []string{"query", "q", "stmt", "statement"} {
			scripts = append(scripts,
				"curl '"+url+"?"+q+"="+stmt+"'",
				"curl '"+url+"#x?"+q+"="+stmt+"'",
				"curl -d '"+q+"="+stmt+"' "+url,
				"curl --data-binary 'DROP TABLE t' "+url,
				"curl --json '{\""+q+"\": \"DROP TABLE t\"}' "+url,
				"curl -G --data-urlencode '"+q+"=DROP TABLE t' "+url,
				"wget --post-data '"+q+"="+stmt+"' "+url,
				"wget '"+url+"?"+q+"="+stmt+"'",
				"http POST "+url+" "+q+"='DROP TABLE t'",
				"xh "+url+" "+q+"=='DROP TABLE t'",
				"curlie POST "+url+" "+q+"='DROP TABLE t'")
		}
	}
	read := 0
	for _, script := range scripts {
		cmds, err := Resolve(script, testEnv)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		for _, c := range cmds {
			for _, r := range Requests(c, commandName(c.Args[0])) {
				sql := webapi.SQL(r)
				if len(sql) > 0 {
					read++
				}
				if len(sql) > 0 && !carriesText(r) {
					t.Errorf("%s: webapi.SQL reads %q, but the request carries no text", script, sql)
				}
				bare := r
				bare.Body, bare.URL = nil, strings.Split(r.URL, "?")[0]
				if sql := webapi.SQL(bare); len(sql) > 0 {
					t.Errorf("%s: webapi.SQL reads %q from a request without body or query string", script, sql)
				}
			}
		}
	}
	if read < len(scripts)/4 { // each endpoint takes some of the keys
		t.Errorf("webapi.SQL read SQL in %d of %d requests", read, len(scripts))
	}
}

// TestHTTPMoney: money moved through a payment provider's live API,
// through every client and wrapper (stripe's own get and post too); not
// a read, a sandbox or a test key (levels of http.* and
// cloud.money_movement findings only).
func TestHTTPMoney(t *testing.T) {
	const none = risk.Safe
	for script, want := range map[string]risk.Level{
		`curl -X POST https://connect.squareup.com/v2/refunds -H "Authorization: Bearer $T" -d '{"payment_id":"p","amount_money":{"amount":1}}'`: risk.High,
		`sudo curl -X POST https://api-m.paypal.com/v1/payments/payouts --json '{"items":[]}'`:                                                   risk.High,
		`env A=1 timeout 30 /usr/bin/curl --data @- https://api.stripe.com/v1/refunds -u "$STRIPE_KEY:" < refund.txt`:                            risk.High,
		`http POST https://api.stripe.com/v1/refunds charge=ch_1 -a "$STRIPE_KEY:"`:                                                              risk.High,
		`wget --post-data amount=1 https://api.stripe.com/v1/payouts`:                                                                            risk.High,
		`curl -X POST "https://connect.squareup.com/v2/subscriptions/$SUB_ID/cancel" -H "Authorization: Bearer $T"`:                              risk.High,
		`stripe post /v1/refunds -d charge=ch_1 --live`:                                                                                          risk.High,
		`stripe post /v1/payouts -d amount=1 --api-key "$STRIPE_LIVE_KEY"`:                                                                       risk.High,
		`curl https://api.stripe.com/v1/refunds -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: -d charge=ch_1`:                                             none,
		`stripe post /v1/refunds -d charge=ch_1`:                                                                                                 none,
		`stripe get /v1/refunds --live`:                                                                                                          none,
		`curl -s https://connect.squareupsandbox.com/v2/payments?limit=10 -H "Authorization: Bearer $T"`:                                         none,
		`curl -X POST https://connect.squareupsandbox.com/v2/refunds -d '{}'`:                                                                    none,
		`curl -s https://api-m.paypal.com/v1/payments/payouts/B1 -H "Authorization: Bearer $T"`:                                                  none,
	} {
		got, fs := httpLevel(t, script, none)
		if got != want {
			t.Errorf("%s: %v, want %v%s", script, got, want, describe(fs))
		}
	}
}

// TestHTTPServiceActions: a defense turned off, a CDN's whole cache
// purged, a service taken down in production, through every client and
// wrapper and with the body on stdin; and their benign neighbours (levels
// of http.* findings only).
func TestHTTPServiceActions(t *testing.T) {
	const none = risk.Safe
	for script, want := range map[string]risk.Level{
		`curl -X PUT https://api.pagerduty.com/services/PABC123 -H "Authorization: Token token=$PD" -d '{"service":{"type":"service","status":"disabled"}}'`: risk.High,
		`echo '{"service":{"status":"disabled"}}' | http PUT https://api.pagerduty.com/services/P1`:                                                          risk.High,
		`curl -X PUT https://api.pagerduty.com/services/P1 -d @- <<'EOF'
{"service": {"status": "disabled"}}
EOF`: risk.High,
		`curl -X POST "https://api.datadoghq.com/api/v1/monitor/mute_all" -H "DD-API-KEY: $K"`:         risk.High,
		`http PATCH https://api.example.com/v1/security/scanners/1 enabled:=false`:                     risk.High,
		`gh api -X PATCH repos/o/r -f 'security_and_analysis[secret_scanning][status]=disabled'`:       risk.High,
		`curl -X PUT https://api.example.com/v1/users/42 -d '{"enabled": false}'`:                      risk.Medium,
		`curl -X POST "https://api.datadoghq.com/api/v1/monitor/123/mute" -H "DD-API-KEY: $K"`:         risk.Medium,
		`curl -X PUT https://api.pagerduty.com/services/PABC123 -d '{"service":{"name":"payments"}}'`:  risk.Medium,
		`curl -X POST https://api.datadoghq.com/api/v1/monitor -d '{"name":"cpu","enabled":true}'`:     none,
		`curl -s "https://api.datadoghq.com/api/v1/monitor?monitor_tags=disabled" -H "DD-API-KEY: $K"`: none,

		`curl -X POST "https://api.cloudflare.com/client/v4/zones/$ZONE/purge_cache" -H "Authorization: Bearer $CF" --data '{"purge_everything":true}'`: risk.High,
		`echo '{"purge_everything":true}' | curl -X POST "https://api.cloudflare.com/client/v4/zones/$Z/purge_cache" -d @-`:                             risk.High,
		`curl -X POST https://api.cloudflare.com/client/v4/zones/z/purge_cache --data-binary @- <<< '{"purge_everything": true}'`:                       risk.High,
		`xh POST https://api.cloudflare.com/client/v4/zones/z/purge_cache purge_everything:=true`:                                                       risk.High,
		`curl -X POST -H "Fastly-Key: $K" https://api.fastly.com/service/SVC/purge_all`:                                                                 risk.High,
		`curl -X POST "https://api.cloudflare.com/client/v4/zones/$ZONE/purge_cache" --data '{"files":["https://example.com/a.css"]}'`:                  risk.Low,
		`curl -X POST -H "Fastly-Key: $K" https://api.fastly.com/service/SVC/purge/key-1`:                                                               risk.Low,

		`curl -X PUT -H "Authorization: Bearer $K" "https://api.split.io/internal/api/v2/splits/ws/$WS/checkout_v2/environments/Production/kill"`: risk.High,
		`curl -X PUT -H "Authorization: Bearer $K" "https://api.split.io/internal/api/v2/splits/ws/$WS/checkout_v2/environments/Staging/kill"`:    risk.Medium,
		`curl -X POST https://ci.example.com/api/v4/projects/1/environments/production/pipelines/9/cancel`:                                        risk.Medium,
	} {
		got, fs := httpLevel(t, script, none)
		if got != want {
			t.Errorf("%s: %v, want %v%s", script, got, want, describe(fs))
		}
	}
}

// httpLevel is the highest level the http.* rules and money movement give
// script (none when neither fires), and those findings.
func httpLevel(t *testing.T, script string, none risk.Level) (risk.Level, []risk.Finding) {
	got := none
	var fs []risk.Finding
	for _, f := range analyzeScript(t, script) {
		if strings.HasPrefix(f.Rule, "http.") || f.Rule == webapi.RuleMoney {
			fs = append(fs, f)
			got = max(got, f.Level)
		}
	}
	return got, fs
}
