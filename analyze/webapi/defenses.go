package webapi

import (
	"strconv"
	"strings"
	"time"

	"github.com/agentwarden/warden/risk"
)

// RuleImpair is the finding on a request that turns off what watches a
// system: a monitor, an alerting or on-call service, an audit log or a
// security control disabled or muted through its API.
const RuleImpair = "http.impair_defenses"

// defenseHosts are the APIs of monitoring, alerting, on-call and security
// services, by the domain the host ends with: whatever they hold watches
// something.
var defenseHosts = []string{
	"pagerduty.com", "datadoghq.com", "datadoghq.eu", "ddog-gov.com", "opsgenie.com", "newrelic.com",
	"victorops.com", "sentry.io", "crowdstrike.com", "sentinelone.net", "sumologic.com", "signalfx.com",
	"honeycomb.io", "incident.io", "firehydrant.io", "rootly.com", "betteruptime.com", "uptimerobot.com",
	"statuscake.com", "pingdom.com", "lacework.net", "wiz.io", "snyk.io",
}

// defenseWords are the path words of what watches a system, on any host:
// monitors and alerts (Grafana's /api/v1/provisioning/alert-rules,
// Alertmanager), audit logs, security controls.
var defenseWords = map[string]bool{
	"monitor": true, "monitors": true, "monitoring": true, "alert": true, "alerts": true, "alerting": true,
	"alertmanager": true, "alertrules": true, "audit": true, "audits": true, "auditing": true, "auditlog": true,
	"auditlogs": true, "security": true, "detector": true, "detectors": true, "detection": true, "detections": true,
	"guardduty": true, "waf": true, "firewall": true, "siem": true, "oncall": true, "escalation": true,
	"uptime": true, "healthcheck": true, "healthchecks": true, "synthetics": true, "logging": true,
}

// muteWords name silencing what watches: Datadog's /monitor/1/mute and
// /monitor/mute_all, Alertmanager's /silences, a snooze; a downtime or a
// maintenance window,
// Datadog's /downtime and PagerDuty's /maintenance_windows too.
var muteWords = map[string]bool{"mute": true, "silence": true, "silences": true, "snooze": true,
	"downtime": true, "downtimes": true, "maintenance": true}

// defenseTarget reports whether t is a monitoring, alerting, audit or
// security API: by its host, its service, or a word of its path.
func defenseTarget(t target) bool {
	if t.service == "Alertmanager" {
		return true
	}
	if t.known {
		host := strings.ToLower(t.authority)
		if i := strings.LastIndexByte(host, ':'); i >= 0 {
			host = host[:i]
		}
		for _, d := range defenseHosts {
			if endsLike(host, d) && UnderDomain(host, d, "") {
				return true
			}
		}
	}
	found := false
	for seg := range segments(t.path) {
		if dynamicText(seg) {
			continue
		}
		words(seg, func(w string) { found = found || defenseWords[w] })
	}
	return found
}

// impair returns the finding on a request to a monitoring, alerting,
// audit or security API (defenseTarget) that disables or mutes it: its
// body turns it off ("enabled": false, "status": "disabled"), or its path
// mutes, silences or disables it (mute_all, /silences, /disable).
func impair(r Request, t target, m, via, where string) (risk.Finding, bool) {
	if !defenseTarget(t) {
		// a body that turns off a defense it names itself: GitHub's
		// security_and_analysis[secret_scanning][status]=disabled
		if what, ok := disablingBody(r.Body, true); ok {
			f := risk.Finding{Rule: RuleImpair, Level: risk.High, Resource: "url:" + t.shown, Reversible: true}
			f.Reason = via + " sends " + m + " to " + where + " (" + what + "), turning off a security or monitoring control"
			if t.local && t.service == "" {
				f.Level--
			}
			return f, true
		}
		return risk.Finding{}, false
	}
	what, mute, all := "", false, false
	for seg := range segments(t.path) {
		if dynamicText(seg) {
			continue
		}
		words(seg, func(w string) {
			switch {
			case w == "disable" || w == "deactivate" || w == "pause":
				what, mute = seg, false
			case muteWords[w] && what == "":
				what, mute = seg, true
			case w == "all" && what == seg:
				all = true
			}
		})
	}
	if what == "" {
		what, _ = disablingBody(r.Body, false)
	}
	if what == "" {
		return risk.Finding{}, false
	}
	long := false
	if mute && !all {
		all = matchesAll(r.Body) || everyMonitor(t.path, r.Body)
		long = !all && longWindow(r.Body)
	}
	f := risk.Finding{Rule: RuleImpair, Level: risk.High, Resource: "url:" + t.shown, Reversible: true}
	if t.shown == "" {
		f.Resource = ""
	}
	f.Reason = via + " sends " + m + " to " + where + " (" + what + "), turning off monitoring, alerting or a security control: what it watched then goes unseen"
	if long {
		f.Reason = via + " sends " + m + " to " + where + " (" + what + "), muting what it names for more than a week: its alerts go unseen long after any maintenance"
	}
	if mute && !all && !long {
		// one monitor or alert muted: the rest still watch
		f.Level = risk.Medium
		f.Reason = via + " sends " + m + " to " + where + " (" + what + "), muting what it names: its alerts go unseen until the mute ends"
	}
	if t.local && t.service == "" {
		f.Level-- // a development server's own alerts
	}
	return f, true
}

// matchesAll reports a body whose matcher or scope takes in everything: a
// regular expression .+ or .*, or a scope of *.
func matchesAll(body []string) bool {
	for _, b := range body {
		if strings.Contains(b, `".+"`) || strings.Contains(b, `".*"`) || strings.Contains(b, `"*"`) ||
			strings.Contains(b, `=~.+`) || strings.Contains(b, `=~.*`) {
			return true
		}
	}
	return false
}

// offKeys are the body keys whose value turns a thing off: enabled or
// active false; disabled, muted, paused, silenced true; a status or state
// of disabled, inactive, paused, off or muted.
var offKeys = map[string]string{
	"enabled": "false", "enable": "false", "active": "false", "is_active": "false", "isactive": "false",
	"is_enabled": "false", "isenabled": "false", "disabled": "true", "is_disabled": "true", "isdisabled": "true",
	"muted": "true", "paused": "true", "ispaused": "true", "is_paused": "true", "silenced": "true", "suspended": "true",
	"status": "off", "state": "off",
}

// offStates are the values of a status or state that turn a thing off.
var offStates = map[string]bool{"disabled": true, "disable": true, "inactive": true, "paused": true, "off": true,
	"muted": true, "suspended": true, "deactivated": true}

// disablingBody returns the key=value of the texts a request carries that
// turns what it names off ({"enabled": false}, {"service": {"status":
// "disabled"}}, httpie's enabled:=false, a form's enabled=false), or "".
// With named, only a body that also names a defense (see defenseWords)
// in one of its keys counts ({"secret_scanning": {"status": "disabled"}}),
// and ok says whether it does.
func disablingBody(body []string, named bool) (string, bool) {
	for _, b := range body {
		if len(b) > maxBody {
			b = b[:maxBody]
		}
		found, defense := "", false
		ident(b, func(id string, end int) {
			rest := strings.TrimLeft(b[end:], "\"'] \t\r\n")
			if rest == "" || !strings.ContainsRune(":=[", rune(rest[0])) {
				return // no key
			}
			if named && !defense {
				words(id, func(w string) { defense = defense || namedDefenses[w] })
			}
			if found != "" {
				return
			}
			want, ok := offKeys[strings.ToLower(id)]
			if !ok || rest[0] == '[' {
				return
			}
			if strings.HasPrefix(rest, ":=") { // httpie's raw JSON item
				rest = rest[1:]
			}
			rest = strings.TrimLeft(rest[1:], "\"' \t\r\n")
			v := rest
			if i := strings.IndexFunc(v, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }); i >= 0 {
				v = v[:i]
			}
			v = strings.ToLower(v)
			if want == "off" && offStates[v] || want != "off" && v == want {
				found = id + "=" + v
			}
		})
		if found != "" && (!named || defense) {
			return found, true
		}
	}
	return "", false
}

// TurnsOff reports whether setting key (lower case) to value (lower
// case: "false", "disabled" …) switches a thing off, as a body's field
// does (see offKeys): enabled false, paused true, status disabled.
func TurnsOff(key, value string) bool {
	want, ok := offKeys[key]
	return ok && (want == "off" && offStates[value] || want != "off" && value == want)
}

// namedDefenses are the words of a body's key that name a security
// control it turns off wherever it is sent (secret_scanning,
// audit_log, firewall, logging): not alerts or monitors, which a body
// also names for a user's notification preferences.
var namedDefenses = map[string]bool{"security": true, "scanning": true, "audit": true, "audits": true,
	"auditing": true, "auditlog": true, "auditlogs": true, "firewall": true, "waf": true, "guardduty": true,
	"siem": true, "detector": true, "detectors": true, "detection": true, "detections": true, "logging": true,
	"cloudtrail": true, "defender": true}

// productionWords are path segments that name a production environment.
var productionWords = map[string]bool{"production": true, "prod": true, "prd": true}

// takesDown are the disrupting path words that take something out of
// service (a feature flag killed, a service disabled) rather than stop a
// job or roll back a change: in production they reach everyone.
var takesDown = map[string]bool{"kill": true, "disable": true, "deactivate": true, "suspend": true}

// productionAction reports whether path names a production environment
// in a segment of its own and its action (one of pathAction's segments)
// takes something down: Split's /environments/Production/kill.
func productionAction(path, action string) bool {
	down := false
	words(action, func(w string) { down = down || takesDown[w] || takesDown[strings.TrimSuffix(w, "s")] })
	if !down {
		return false
	}
	for seg := range segments(path) {
		if productionWords[strings.ToLower(strings.Trim(seg, `"'`))] {
			return true
		}
	}
	return false
}

// purgeAll returns what in a request to a CDN's API purges every cached
// object of a zone, service or property, or "": Cloudflare's purge_cache
// with {"purge_everything": true}, Fastly's /purge_all, Bunny's
// /pullzone/ID/purgeCache, Akamai's purge by CP code. Purging listed
// files, URLs, tags or keys refills them one by one (http.clear_cache).
func purgeAll(path string, body []string) string {
	p := strings.ToLower(strings.TrimRight(path, `"'`)) // a quoted word computed at run time keeps its quotes
	switch {
	case strings.HasSuffix(p, "/purge_cache") && strings.HasPrefix(p, "/client/v4/zones/"):
		for _, b := range body {
			if i := strings.Index(b, "purge_everything"); i >= 0 {
				rest := strings.TrimLeft(b[i+len("purge_everything"):], "\"' \t\r\n:=")
				if strings.HasPrefix(strings.ToLower(rest), "true") {
					return "purge_everything"
				}
			}
		}
	case strings.HasSuffix(p, "/purge_all") || strings.HasSuffix(p, "/purgeall"):
		return "purge_all"
	case strings.HasPrefix(p, "/pullzone/") && strings.HasSuffix(p, "/purgecache"):
		return "a pull zone's purgeCache"
	case strings.HasPrefix(p, "/ccu/") && strings.Contains(p, "/cpcode"):
		return "a purge by CP code"
	}
	return ""
}

// cdnPurge reports a purge of listed objects through a CDN's API
// (Akamai's /ccu/ by URL or tag, Fastly's /service/ID/purge/KEY, Bunny's
// /purge?url=): a
// cache's contents, refilled on demand.
func cdnPurge(t target) bool {
	p := strings.ToLower(t.path)
	switch strings.ToLower(t.authority) {
	case "api.fastly.com":
		return strings.Contains(p, "/purge/")
	case "api.bunny.net":
		return strings.HasPrefix(p, "/purge")
	}
	return strings.HasPrefix(p, "/ccu/")
}

// maxQuiet is the longest a silence, downtime or maintenance window of
// named monitors or services may last and still read as maintenance
// (medium): a week. Longer, what it silences is as good as off (high).
const maxQuiet = 7 * 24 * time.Hour

// windowKeys are the body fields that start and end a silence, downtime or
// maintenance window (PagerDuty's start_time/end_time, Datadog's
// start/end, Alertmanager's startsAt/endsAt).
var windowKeys = [...][2]string{{"start_time", "end_time"}, {"startsat", "endsat"}, {"starts_at", "ends_at"}, {"start", "end"}}

// longWindow reports a body whose window lasts longer than maxQuiet.
func longWindow(body []string) bool {
	for _, b := range body {
		if len(b) > maxBody {
			b = b[:maxBody]
		}
		lb := strings.ToLower(b)
		for _, k := range windowKeys {
			from, ok1 := fieldTime(lb, k[0])
			to, ok2 := fieldTime(lb, k[1])
			if ok1 && ok2 && to.Sub(from) > maxQuiet {
				return true
			}
		}
	}
	return false
}

// fieldTime reads the time of field key in lower-cased body lb: an RFC
// 3339 time or Unix seconds.
func fieldTime(lb, key string) (time.Time, bool) {
	i := strings.Index(lb, `"`+key+`"`)
	if i < 0 {
		return time.Time{}, false
	}
	s := strings.TrimLeft(lb[i+len(key)+2:], " \t")
	if s == "" || s[0] != ':' {
		return time.Time{}, false
	}
	s = strings.TrimLeft(s[1:], " \t")
	quoted := strings.HasPrefix(s, `"`)
	s = strings.TrimPrefix(s, `"`)
	end := strings.IndexAny(s, "\",} \t")
	if end < 0 {
		end = len(s)
	}
	v := s[:end]
	if quoted {
		if t, err := time.Parse(time.RFC3339, strings.ToUpper(v)); err == nil {
			return t, true
		}
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
		return time.Unix(n, 0), true
	}
	return time.Time{}, false
}

// everyMonitor reports a downtime whose body names a scope but no monitor
// (Datadog's {"scope": ["env:prod"]} without monitor_id, monitor_tags or
// monitor_identifier): it silences every monitor of that scope.
func everyMonitor(path string, body []string) bool {
	if !strings.Contains(strings.ToLower(path), "downtime") {
		return false
	}
	for _, b := range body {
		if strings.Contains(b, `"scope"`) && !strings.Contains(b, `"monitor_`) {
			return true
		}
	}
	return false
}
