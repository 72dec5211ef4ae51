package webapi

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// ports are the well-known ports of the HTTP admin APIs of data stores,
// search engines, queues, orchestrators and daemons: a request that
// changes something there changes someone's data, on this machine too.
// Ports development servers share (3000, 5000, 8000, 8080, 8081, 9000,
// 9090) are not here: their path must name the service.
var ports = map[string]string{
	"9200": "Elasticsearch/OpenSearch", "9201": "Elasticsearch/OpenSearch",
	"8983": "Solr", "5984": "CouchDB", "8091": "Couchbase", "7474": "Neo4j", "8529": "ArangoDB",
	"8123": "ClickHouse", "4200": "CrateDB", "8086": "InfluxDB", "8428": "VictoriaMetrics", "3100": "Loki", "9093": "Alertmanager",
	"8500": "Consul", "2379": "etcd", "4001": "etcd", "8200": "Vault", "4646": "Nomad",
	"15672": "RabbitMQ management", "8082": "Kafka REST Proxy",
	"2375": "the Docker daemon", "2376": "the Docker daemon",
	"6443": "the Kubernetes API", "8001": "the Kubernetes API (kubectl proxy)", "10250": "the kubelet",
	"6333": "Qdrant", "8108": "Typesense", "7700": "Meilisearch", "8098": "Riak",
	"5601": "Kibana", "9600": "Logstash", "2019": "Caddy's admin API",
	"9901": "Envoy's admin API", "15000": "Envoy's admin API (Istio sidecar)", "9990": "Linkerd's admin API",
}

func portService(p string) string { return ports[p] }

// socketService names the daemon behind a Unix socket.
func socketService(s string) string {
	base := s[strings.LastIndexByte(s, '/')+1:]
	switch {
	case strings.Contains(base, "docker"):
		return "the Docker daemon"
	case strings.Contains(base, "podman"):
		return "the Podman daemon"
	case strings.Contains(base, "containerd"):
		return "containerd"
	}
	return "a daemon's socket"
}

// pathService names the admin API a path belongs to, whatever the port:
// Elasticsearch, OpenSearch and CouchDB's _-prefixed endpoints, Jenkins'
// do* actions, Prometheus' admin API, the Kubernetes, etcd, Consul, Vault
// and RabbitMQ APIs, and /admin/ paths.
func pathService(path string) string {
	p := strings.ToLower(path)
	first := true
	for seg := range segments(path) {
		switch {
		case strings.HasPrefix(seg, "_") && len(seg) > 1:
			return "a search or document store's API"
		case len(seg) > 2 && strings.HasPrefix(seg, "do") && seg[2] >= 'A' && seg[2] <= 'Z':
			return "Jenkins"
		case first && (seg == "solr"):
			return "Solr"
		}
		first = false
	}
	for _, s := range []struct{ prefix, name string }{
		{"/api/v1/admin/", "Prometheus' admin API"},
		{"/api/v1/namespaces", "the Kubernetes API"}, {"/apis/", "the Kubernetes API"},
		{"/v2/keys", "etcd"}, {"/v3/kv/", "etcd"},
		{"/v1/kv/", "Consul"}, {"/v1/acl/", "Consul"}, {"/v1/sys/", "Vault"},
		{"/api/queues", "RabbitMQ management"}, {"/api/exchanges", "RabbitMQ management"}, {"/api/vhosts", "RabbitMQ management"},
	} {
		if strings.HasPrefix(p, s.prefix) {
			return s.name
		}
	}
	for seg := range segments(p) {
		if seg == "admin" {
			return "an admin API"
		}
	}
	return ""
}

// segments yields the non-empty segments of a path.
func segments(path string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for path != "" {
			var seg string
			seg, path, _ = strings.Cut(path, "/")
			if seg != "" && !yield(seg) {
				return
			}
		}
	}
}

// pathVerbs are the words of a path that name an action: one that
// destroys data or stops a service for everyone (high), or one that
// disrupts what its opposite undoes (medium). Action endpoints (Jenkins'
// doDelete and disable, Elasticsearch's _delete_by_query, /purge_all,
// Docker's /containers/prune, /actuator/shutdown, /jobs/1/cancel) use
// them whatever the method. They are the destructive and disrupting verbs
// of the command-line verb grammar (analyze/shell/verbs.go: a test there
// holds the two together) with the differences HTTP needs: flush and
// clear empty caches on HTTP APIs (Elasticsearch's _flush, _cache/clear),
// archive more often builds an archive than retires a repository, rm,
// rb, del and their kin are no path words; shutdown is one.
var pathVerbs = map[string]risk.Level{
	"delete": risk.High, "remove": risk.High, "destroy": risk.High, "purge": risk.High, "drop": risk.High,
	"prune": risk.High, "wipe": risk.High, "erase": risk.High, "expunge": risk.High, "obliterate": risk.High,
	"nuke": risk.High, "shred": risk.High, "truncate": risk.High, "flushall": risk.High, "flushdb": risk.High,
	"empty": risk.High, "terminate": risk.High, "deprovision": risk.High, "decommission": risk.High,
	"deregister": risk.High, "unregister": risk.High, "uninstall": risk.High, "unpublish": risk.High,
	"forget": risk.High, "reset": risk.High, "revoke": risk.High, "shutdown": risk.High, "teardown": risk.High,

	"disable": risk.Medium, "deactivate": risk.Medium, "detach": risk.Medium, "disassociate": risk.Medium,
	"suspend": risk.Medium, "kill": risk.Medium, "cancel": risk.Medium, "evict": risk.Medium,
	"rollback": risk.Medium, "yank": risk.Medium, "pause": risk.Medium, "mute": risk.Medium, "silence": risk.Medium,
	"snooze": risk.Medium,
}

// PathVerb returns the level a path word naming an action gives a
// request (see pathVerbs): High, Medium, or Safe for a word that names no
// such action. word is lower-case.
func PathVerb(word string) risk.Level {
	if l, ok := pathVerbs[word]; ok {
		return l
	}
	return risk.Safe
}

// pathAction returns the segment of path that names an action (see
// pathVerbs) and the level it gives, or "" and Safe. A segment is split
// into words at punctuation and case changes (doDelete,
// _delete_by_query, purge-all); a word may carry a plural s.
// Elasticsearch's _close (an index taken offline) destroys; a password
// reset does not.
func pathAction(path string) (string, risk.Level) {
	if seg := stopPath(path); seg != "" {
		return seg, risk.High
	}
	lower := strings.ToLower(path)
	password := strings.Contains(lower, "passw") || strings.Contains(lower, "pwd")
	best, bestSeg := risk.Safe, ""
	for seg := range segments(path) {
		if dynamicText(seg) {
			continue
		}
		if seg == "_close" {
			return seg, risk.High
		}
		words(seg, func(w string) {
			l, ok := pathVerbs[w]
			if !ok && strings.HasSuffix(w, "s") {
				l, ok = pathVerbs[w[:len(w)-1]]
			}
			if ok && !(password && strings.HasPrefix(w, "reset")) && l > best {
				best, bestSeg = l, seg
			}
		})
	}
	return bestSeg, best
}

// stopWords are the path segments of admin endpoints that stop or take out
// of service the server they are sent to, in the words servers spell them
// (Envoy's and Finagle's /quitquitquit and /abortabortabort, Prometheus'
// and Alertmanager's /-/quit), beyond the path verb shutdown.
var stopWords = map[string]bool{"quitquitquit": true, "abortabortabort": true, "killkillkill": true}

// stopPairs are the last two segments of admin endpoints that stop a
// server or take it out of its cluster or its load balancer: Prometheus'
// /-/quit, Envoy's /healthcheck/fail and /drain_listeners (as a pair with
// its parent: any), Consul's /agent/leave, Nomad's /agent/force-leave.
var stopPairs = map[[2]string]bool{
	{"-", "quit"}: true, {"healthcheck", "fail"}: true, {"agent", "leave"}: true, {"agent", "force-leave"}: true,
	{"", "drain_listeners"}: true, {"", "halt"}: true,
}

// stopPath returns the segment of path that names an endpoint stopping the
// server (see stopWords, stopPairs), or "".
func stopPath(path string) string {
	if len(path) < 5 {
		return ""
	}
	prev, last := "", ""
	for seg := range segments(strings.ToLower(path)) {
		if q := strings.IndexByte(seg, '?'); q >= 0 {
			seg = seg[:q]
		}
		if stopWords[seg] {
			return seg
		}
		prev, last = last, seg
	}
	if stopPairs[[2]string{prev, last}] || stopPairs[[2]string{"", last}] {
		return prev + "/" + last
	}
	return ""
}

// words calls f with the lower-cased words of s, split at anything but
// letters and digits and where a lower-case letter meets an upper-case one.
func words(s string, f func(string)) {
	start := -1
	var buf [32]byte
	emit := func(end int) {
		if start >= 0 && end-start <= len(buf) {
			w := buf[:0]
			for i := start; i < end; i++ {
				c := s[i]
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				w = append(w, c)
			}
			f(string(w))
		}
		start = -1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		lower, upper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
		if !lower && !upper && !(c >= '0' && c <= '9') {
			emit(i)
			continue
		}
		if upper && i > 0 && s[i-1] >= 'a' && s[i-1] <= 'z' {
			emit(i)
		}
		if start < 0 {
			start = i
		}
	}
	emit(len(s))
}

// config are the path segments of admin and configuration endpoints,
// where a PUT or PATCH changes how a service behaves or who may use it.
var config = map[string]bool{
	"_cluster": true, "_config": true, "_security": true, "_ilm": true,
	"admin": true, "config": true, "configs": true, "configuration": true, "settings": true,
	"acl": true, "acls": true, "policy": true, "policies": true, "permissions": true, "roles": true,
	"sys": true, "collaborators": true, "protection": true,
}

// configPath reports a path with a segment of config.
func configPath(path string) bool {
	for seg := range segments(strings.ToLower(path)) {
		if config[seg] {
			return true
		}
	}
	return false
}

// cacheNouns name stores whose contents are rebuilt on demand (the verb
// grammar's cacheNouns).
var cacheNouns = map[string]bool{"cache": true, "caches": true, "tmp": true, "temp": true}

// cachePath reports a path with a word of cacheNouns (/actions/caches/1,
// /purge_cache).
func cachePath(path string) bool {
	found := false
	for seg := range segments(path) {
		words(seg, func(w string) { found = found || cacheNouns[w] })
	}
	return found
}
