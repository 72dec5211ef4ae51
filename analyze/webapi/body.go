package webapi

import (
	"net/url"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// What a request carries can name its action as well as its method and
// path do: the action parameter of an admin API's query (Solr's
// ?action=DELETE, ?deleteIndex=true), a GraphQL mutation
// (deleteRepository), the commands of a bulk or update body sent to a data
// store (Elasticsearch's {"delete": …}, Solr's <delete>), and SQL sent to
// a database that takes it over HTTP (ClickHouse, InfluxDB, CrateDB,
// Druid, Trino, the _sql endpoints of search engines), which the caller
// hands to SQL analysis (see SQL).

// maxBody bounds the text of a body read for actions.
const maxBody = 64 << 10

// actionKeys are query parameters whose value names the operation.
var actionKeys = map[string]bool{"action": true, "op": true, "operation": true, "cmd": true, "command": true}

// queryAction returns the query parameter of u that names an action (see
// pathVerbs) and the level it gives: action=DELETE, or a key naming one
// set to true (deleteIndex=true).
func queryAction(u string) (string, risk.Level) {
	i := strings.IndexByte(u, '?')
	if i < 0 {
		return "", risk.Safe
	}
	q := u[i+1:]
	if j := strings.IndexByte(q, '#'); j >= 0 {
		q = q[:j]
	}
	best, what := risk.Safe, ""
	for q != "" {
		var kv string
		kv, q, _ = strings.Cut(q, "&")
		k, v, _ := strings.Cut(kv, "=")
		if dk, err := url.QueryUnescape(k); err == nil {
			k = dk
		}
		if dv, err := url.QueryUnescape(v); err == nil {
			v = dv
		}
		lv := strings.ToLower(v)
		switch {
		case actionKeys[strings.ToLower(k)]:
			if l := verbLevel(lv); l > best {
				best, what = l, k+"="+v
			}
		case lv == "true" || lv == "1" || lv == "yes":
			words(k, func(w string) {
				if l := verbLevel(w); l > best {
					best, what = l, k+"="+v
				}
			})
		}
	}
	return what, best
}

// verbLevel is PathVerb with a plural s allowed.
func verbLevel(w string) risk.Level {
	if l := PathVerb(w); l != risk.Safe {
		return l
	}
	if strings.HasSuffix(w, "s") {
		return PathVerb(w[:len(w)-1])
	}
	return risk.Safe
}

// bodyAction returns what in the texts a request carries names an action
// and the level it gives: a GraphQL mutation field whose name names one
// (deleteRepository, alertsPolicyDelete: see MutationLevel), anywhere;
// and, to a data store's admin API (service set), a command key
// ("delete": …, <delete>) of a bulk or update body.
func bodyAction(body []string, service string) (string, risk.Level) {
	best, what := risk.Safe, ""
	for _, b := range body {
		if len(b) > maxBody {
			b = b[:maxBody]
		}
		if id, l := mutationAction(b); l > best {
			best, what = l, "GraphQL mutation "+id
		}
		if service == "" {
			continue
		}
		ident(b, func(id string, end int) {
			l := PathVerb(strings.ToLower(id))
			if l <= best || end <= len(id) {
				return
			}
			before, after := b[end-len(id)-1], strings.TrimLeft(b[end:], " \t\r\n")
			switch {
			case before == '"' && strings.HasPrefix(after, `"`) && strings.HasPrefix(strings.TrimLeft(after[1:], " \t\r\n"), ":"):
				best, what = l, `"`+id+`" command`
			case before == '<' && (strings.HasPrefix(after, ">") || strings.HasPrefix(b[end:], " ")):
				best, what = l, "<"+id+"> command"
			}
		})
	}
	return what, best
}

// ident calls f with each identifier of s ([A-Za-z_][A-Za-z0-9_]*) and
// the offset just past it.
func ident(s string, f func(id string, end int)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		c := byte(0)
		if i < len(s) {
			c = s[i]
		}
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if letter || start >= 0 && c >= '0' && c <= '9' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(s[start:i], i)
			start = -1
		}
	}
}

// sqlEndpoint says how a database that takes SQL over HTTP takes it: the
// whole body (raw), and the query parameters or JSON fields that hold it.
type sqlEndpoint struct {
	raw  bool
	keys []string
}

// SQL returns the SQL texts a request gives a database that takes SQL over
// HTTP: ClickHouse (:8123, the body or ?query=), InfluxDB (:8086/query,
// q=), the _sql endpoints of Elasticsearch, OpenSearch and CrateDB
// ({"query": …}, {"stmt": …}), Druid (/druid/v2/sql), Trino and Presto
// (/v1/statement), and the SQL statement APIs of Databricks and
// Snowflake. Texts computed at run time are left out.
func SQL(r Request) []string {
	t := parse(r)
	ep, ok := sqlEndpointOf(t)
	if !ok {
		return nil
	}
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !dynamicText(s) && len(out) < 8 {
			out = append(out, s)
		}
	}
	if i := strings.IndexByte(r.URL, '?'); i >= 0 {
		for _, v := range formValues(r.URL[i+1:], ep.keys) {
			add(v)
		}
	}
	for _, b := range r.Body {
		if len(b) > maxBody {
			continue
		}
		vs := formValues(b, ep.keys)
		vs = append(vs, jsonValues(b, ep.keys)...)
		for _, v := range vs {
			add(v)
		}
		if len(vs) == 0 && ep.raw {
			add(b)
		}
	}
	return out
}

// sqlEndpointOf recognises a database that takes SQL over HTTP.
func sqlEndpointOf(t target) (sqlEndpoint, bool) {
	p := strings.ToLower(t.path)
	switch {
	case t.service == "ClickHouse":
		return sqlEndpoint{raw: true, keys: []string{"query"}}, true
	case t.service == "InfluxDB" && strings.HasPrefix(p, "/query"):
		return sqlEndpoint{keys: []string{"q"}}, true
	case strings.HasSuffix(p, "/_sql") || strings.Contains(p, "/_sql/") || strings.Contains(p, "/_plugins/_sql") || t.service == "CrateDB":
		return sqlEndpoint{keys: []string{"query", "stmt"}}, true
	case strings.HasPrefix(p, "/druid/v2/sql"):
		return sqlEndpoint{keys: []string{"query"}}, true
	case strings.HasPrefix(p, "/v1/statement"):
		return sqlEndpoint{raw: true}, true
	case strings.Contains(p, "/sql/statements") || strings.HasPrefix(p, "/api/v2/statements"):
		return sqlEndpoint{keys: []string{"statement"}}, true
	}
	return sqlEndpoint{}, false
}

// formValues returns the values of keys in form-encoded text (a=1&b=2,
// or one k=v item).
func formValues(s string, keys []string) []string {
	if strings.HasPrefix(strings.TrimSpace(s), "{") {
		return nil
	}
	var out []string
	for s != "" {
		var kv string
		kv, s, _ = strings.Cut(s, "&")
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for _, key := range keys {
			if strings.EqualFold(strings.TrimSpace(k), key) {
				if dv, err := url.QueryUnescape(strings.ReplaceAll(v, "+", " ")); err == nil {
					v = dv
				}
				out = append(out, v)
			}
		}
	}
	return out
}

// jsonValues returns the string values of keys in JSON text ("query":
// "DROP TABLE t"), escapes read.
func jsonValues(s string, keys []string) []string {
	var out []string
	for _, key := range keys {
		rest := s
		for {
			i := strings.Index(rest, `"`+key+`"`)
			if i < 0 {
				break
			}
			rest = strings.TrimLeft(rest[i+len(key)+2:], " \t\r\n")
			if !strings.HasPrefix(rest, ":") {
				continue
			}
			rest = strings.TrimLeft(rest[1:], " \t\r\n")
			if !strings.HasPrefix(rest, `"`) {
				continue
			}
			var b strings.Builder
			j := 1
			for ; j < len(rest) && rest[j] != '"'; j++ {
				if rest[j] == '\\' && j+1 < len(rest) {
					j++
					switch rest[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(rest[j])
					}
					continue
				}
				b.WriteByte(rest[j])
			}
			out = append(out, b.String())
			rest = rest[min(j+1, len(rest)):]
		}
	}
	return out
}

// grantKeys are the body fields that set what an account, team or
// member may do (GitHub's permission and default_repository_permission,
// GitLab's access_level, Slack's and others' role, base_role, org_role);
// a key ending in one of them counts (repository_role, member_role).
var grantKeys = []string{"permission", "role", "access_level"}

// grantField returns the field of a request body (JSON, form or gh api
// -f key=value) that sets a permission or role to an administrator's
// (admin, owner, maintain, write-all; GitLab's 40 and 50), and the value;
// "" when none does. read, pull, write and none are not.
func grantField(body []string) (string, string) {
	for _, b := range body {
		if len(b) > maxBody {
			b = b[:maxBody]
		}
		lb := strings.ToLower(b)
		for _, key := range grantKeys {
			for off := 0; ; {
				i := strings.Index(lb[off:], key)
				if i < 0 {
					break
				}
				i += off
				off = i + len(key)
				start := i // the whole field name: default_repository_permission
				for start > 0 && (lb[start-1] == '_' || lb[start-1] >= 'a' && lb[start-1] <= 'z') {
					start--
				}
				if start < i && lb[i-1] != '_' {
					continue // parole, controle: another word
				}
				if val := grantValue(lb[off:]); val != "" {
					return lb[start:off], val
				}
			}
		}
		if strings.IndexByte(b, '*') >= 0 || strings.Contains(lb, "privileges") {
			if field := wildcardField(lb); field != "" {
				return field, "*"
			}
		}
	}
	return "", ""
}

// wildcardKeys are the body fields that list what a key, token, role or
// policy may do: Meilisearch's and others' "actions", "permissions",
// OAuth "scopes", a policy's "Action", a database's "privileges".
var wildcardKeys = []string{"actions", "action", "permissions", "scopes", "privileges"}

// wildcardField returns the field of lower-cased body lb that gives every
// permission (see wildcardKeys): a value of "*", a list whose item is
// "*", or privileges "all"; "" when none does. ["search"] does not.
func wildcardField(lb string) string {
	for _, key := range wildcardKeys {
		for off := 0; ; {
			i := strings.Index(lb[off:], key)
			if i < 0 {
				break
			}
			i += off
			off = i + len(key)
			if i > 0 && (lb[i-1] == '_' || lb[i-1] >= 'a' && lb[i-1] <= 'z') {
				continue // transactions, subscopes
			}
			s := strings.TrimPrefix(lb[off:], `"`)
			s = strings.TrimLeft(s, " \t")
			if s == "" || s[0] != '=' && s[0] != ':' {
				continue
			}
			s = strings.TrimLeft(strings.TrimPrefix(s[1:], "="), " \t[\"'") // httpie's scopes:='["*"]'
			if strings.HasPrefix(s, "*") && (len(s) == 1 || strings.IndexByte("\"' ,]&", s[1]) >= 0) {
				return key
			}
			if key == "privileges" && strings.HasPrefix(s, "all") && (len(s) == 3 || strings.IndexByte("\"' ,]&_", s[3]) >= 0) {
				return key
			}
		}
	}
	return ""
}

// grantValue reads the value that follows a field name ("…": "admin",
// =admin, :owner) and returns it when it is an administrator's.
func grantValue(s string) string {
	s = strings.TrimPrefix(s, `"`)
	s = strings.TrimLeft(s, " \t")
	if s == "" || s[0] != '=' && s[0] != ':' {
		return ""
	}
	s = strings.TrimLeft(s[1:], " \t\"'")
	end := 0
	for end < len(s) && (s[end] == '_' || s[end] == '-' || s[end] >= 'a' && s[end] <= 'z' || s[end] >= '0' && s[end] <= '9') {
		end++
	}
	switch v := s[:end]; v {
	case "admin", "administrator", "owner", "maintain", "maintainer", "write-all", "write_all", "superuser", "super_admin", "org_admin", "organization_admin", "40", "50":
		return v
	}
	return ""
}
