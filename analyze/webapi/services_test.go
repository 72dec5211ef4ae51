package webapi

import (
	"strings"
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestServiceActions: what a request does to a known kind of service
// beyond its path's verb: a monitoring, alerting or security control
// turned off, a CDN's whole cache purged, a service taken down in
// production; and the benign neighbours of each (money: TestMoney).
func TestServiceActions(t *testing.T) {
	none := risk.Safe
	post := func(u string, body ...string) Request { return Request{Method: "POST", URL: u, Body: body} }
	put := func(u string, body ...string) Request { return Request{Method: "PUT", URL: u, Body: body} }
	for _, tc := range []struct {
		r    Request
		want risk.Level
		rule string
	}{
		// defenses disabled or muted
		{put("https://api.pagerduty.com/services/PABC123", `{"service":{"type":"service","status":"disabled"}}`), risk.High, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/monitor/mute_all"), risk.High, RuleImpair},
		{post("https://api.datadoghq.com/api/v2/downtime", `{"data":{"attributes":{"scope":"*"}}}`), risk.High, RuleImpair},
		{Request{Method: "PATCH", URL: "https://grafana.example.com/api/v1/provisioning/alert-rules/r1", Body: []string{`{"isPaused": true}`}}, risk.High, RuleImpair},
		{put("https://api.example.com/v1/audit/config", `{"enabled": false}`), risk.High, RuleImpair},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/security/scanners/1", Body: []string{"enabled:=false"}}, risk.High, RuleImpair},
		{post("https://api.opsgenie.com/v2/heartbeats/h1/disable"), risk.High, RuleImpair},
		{post("http://alertmanager:9093/api/v2/silences", `{"matchers":[{"name":"alertname","value":".+","isRegex":true}]}`), risk.High, RuleImpair},
		{Request{Method: "PATCH", URL: "https://api.github.com/repos/o/r", Body: []string{"security_and_analysis[secret_scanning][status]=disabled"}}, risk.High, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/monitor/123/mute"), risk.Medium, RuleImpair},
		// a silence of named things longer than a week (maxQuiet) is as good as off
		{post("https://api.pagerduty.com/maintenance_windows", `{"maintenance_window":{"start_time":"2026-11-26T00:00:00Z","end_time":"2026-12-26T00:00:00Z","services":[{"id":"PABC123"},{"id":"PXK8L2Q"}]}}`), risk.High, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/downtime", `{"scope":["host:web1"],"monitor_id":1,"start":1764115200,"end":1766707200}`), risk.High, RuleImpair},
		{post("http://alertmanager:9093/api/v2/silences", `{"matchers":[{"name":"alertname","value":"DiskFull"}],"startsAt":"2026-11-26T00:00:00Z","endsAt":"2027-01-01T00:00:00Z"}`), risk.High, RuleImpair},
		{post("https://api.pagerduty.com/maintenance_windows", `{"maintenance_window":{"start_time":"2026-11-26T00:00:00Z","end_time":"2026-11-26T02:00:00Z","services":[{"id":"PABC123"}]}}`), risk.Medium, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/downtime", `{"scope":["host:web1"],"monitor_id":1,"start":1764115200,"end":1764118800}`), risk.Medium, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/downtime", `{"scope":["host:web1"],"monitor_id":1,"end":1766707200}`), risk.Medium, RuleImpair},
		// a downtime of a scope that names no monitor silences every monitor there
		{post("https://api.datadoghq.com/api/v1/downtime", `{"scope":["env:prod"],"message":"deploy"}`), risk.High, RuleImpair},
		{post("https://api.datadoghq.com/api/v1/downtime", `{"scope":["env:prod"],"monitor_tags":["service:web"],"end":1764118800,"start":1764115200}`), risk.Medium, RuleImpair},
		{post("http://alertmanager:9093/api/v2/silences", `{"matchers":[{"name":"alertname","value":"DiskFull"}]}`), risk.Medium, RuleImpair},
		{put("http://localhost:3000/api/alerts/1", `{"enabled": false}`), risk.Medium, RuleImpair},
		// an ordinary resource turned off stays a write; turning defenses on is none
		{put("https://api.example.com/v1/users/42", `{"enabled": false}`), risk.Medium, RuleWrite},
		{put("https://api.pagerduty.com/services/P1", `{"service":{"name":"new"}}`), risk.Medium, RuleWrite},
		{put("https://api.pagerduty.com/incidents/Q1", `{"incident":{"status":"resolved"}}`), risk.Medium, RuleWrite},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/features/f", Body: []string{`{"name":"security banner","enabled":false}`}}, risk.Medium, RuleWrite},
		{post("https://api.datadoghq.com/api/v1/monitor", `{"name":"cpu","enabled":true}`), none, ""},
		{post("https://api.datadoghq.com/api/v1/monitor/123/unmute"), none, ""},
		{post("https://hooks.slack.com/services/T/B/C", `{"text":"monitor disabled: status=disabled"}`), none, ""},
		{post("https://api.example.com/v1/users", `{"name":"x","active":false}`), none, ""},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/users/me", Body: []string{`{"preferences":{"alerts":{"enabled":false}}}`}}, risk.Medium, RuleWrite},
		{Request{Method: "PATCH", URL: "https://api.example.com/v1/buckets/b", Body: []string{`{"logging":{"enabled":false}}`}}, risk.High, RuleImpair},
		{Request{URL: "https://api.datadoghq.com/api/v1/monitor?muted=true"}, none, ""},

		// a CDN's whole cache purged; listed objects are a cache's
		{post("https://api.cloudflare.com/client/v4/zones/z/purge_cache", `{"purge_everything":true}`), risk.High, RuleAction},
		{Request{Method: "POST", URL: `"https://api.cloudflare.com/client/v4/zones/$Z/purge_cache"`, Dynamic: true, Body: []string{`{"purge_everything": true}`}}, risk.High, RuleAction},
		{post("https://api.cloudflare.com/client/v4/zones/z/purge_cache", "purge_everything:=true"), risk.High, RuleAction},
		{post("https://api.fastly.com/service/s/purge_all"), risk.High, RuleAction},
		{post("https://api.bunny.net/pullzone/1/purgeCache"), risk.High, RuleAction},
		{post("https://akab-x.purge.akamaiapis.net/ccu/v3/invalidate/cpcode/production", `{"objects":[1]}`), risk.High, RuleAction},
		{post("https://api.cloudflare.com/client/v4/zones/z/purge_cache", `{"files":["https://e.com/a.css"]}`), risk.Low, RuleClearCache},
		{post("https://api.cloudflare.com/client/v4/zones/z/purge_cache", `{"purge_everything":false}`), risk.Low, RuleClearCache},
		{post("https://api.fastly.com/service/s/purge/key1"), risk.Low, RuleClearCache},
		{post("https://api.bunny.net/purge?url=https://cdn.example.com/a.js"), risk.Low, RuleClearCache},
		{post("https://akab-x.purge.akamaiapis.net/ccu/v3/delete/url/production", `{"objects":["https://e.com/a"]}`), risk.Low, RuleClearCache},
		{post("https://akab-x.purge.akamaiapis.net/ccu/v3/invalidate/url/production"), none, ""},

		// taken down in production
		{put(`"https://api.split.io/internal/api/v2/splits/ws/$WS/checkout_v2/environments/Production/kill"`), risk.High, RuleAction},
		{post("https://api.example.com/v1/environments/prod/services/api/disable"), risk.High, RuleAction},
		{put(`"https://api.split.io/internal/api/v2/splits/ws/$WS/checkout_v2/environments/Staging/kill"`), risk.Medium, RuleAction},
		{post("https://ci.example.com/api/v4/projects/1/environments/production/pipelines/9/cancel"), risk.Medium, RuleAction},
		{post("https://api.example.com/v1/products/production-line/disable"), risk.Medium, RuleAction},
	} {
		if tc.r.Dynamic == false && strings.Contains(tc.r.URL, "$") {
			tc.r.Dynamic = true
		}
		f, ok := Judge(tc.r)
		got := none
		if ok {
			got = f.Level
		}
		if got != tc.want || ok && f.Rule != tc.rule {
			t.Errorf("Judge(%s %s %q) = %v %s (%s), want %v %s", tc.r.Method, tc.r.URL, tc.r.Body, got, f.Rule, f.Reason, tc.want, tc.rule)
		}
	}
}
