package shell

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// What a tool's arguments mean, whatever the tool is called: a small
// table of argument names and values that grant access, expose what was
// private, switch a protection off or take every document, read on any
// tool warden has no catalog entry for (see argMeaning), as the command
// line and the request that do the same are judged.

// The rules of the findings, those of the same effects elsewhere.
const (
	rulePublicAccess = "cloud.public_access"
	ruleDocuments    = "db.document_command"
)

// maxArgWalk bounds the values argMeaning visits.
const maxArgWalk = 256

// grantKeys name an argument that says what access someone is given.
var grantKeys = map[string]bool{"permission": true, "permissions": true, "role": true, "roles": true, "accesslevel": true,
	"access": true, "rolename": true, "memberrole": true, "grant": true, "privilege": true, "privileges": true,
	"actions": true, "scopes": true}

// privilegedValues are the access a grant argument may give that holds
// everything: an owner's or an administrator's.
var privilegedValues = map[string]bool{"admin": true, "administrator": true, "owner": true, "owners": true, "maintain": true,
	"maintainer": true, "root": true, "superuser": true, "sysadmin": true, "clusteradmin": true, "dbowner": true,
	"dbadmin": true, "dbadminanydatabase": true, "useradmin": true, "useradminanydatabase": true, "readwriteanydatabase": true,
	"all": true, "allprivileges": true, "fullaccess": true, "full": true, "superadmin": true, "globaladmin": true,
	"organizationadmin": true, "orgadmin": true, "projectowner": true, "rolesowner": true, "50": true, "40": true,
	"*": true}

// grantVerbs are the words of a tool's name (or of a command document's
// key, createUser) that give access.
var grantVerbs = map[string]bool{"add": true, "update": true, "invite": true, "grant": true, "set": true, "create": true,
	"assign": true, "put": true, "edit": true, "change": true, "modify": true, "patch": true, "upsert": true, "share": true,
	"promote": true, "attach": true}

// readVerbs are the words of a tool's name that only read or list:
// list_collaborators with permission: "admin" filters, it gives nothing.
var readVerbs = map[string]bool{"get": true, "list": true, "search": true, "find": true, "read": true, "describe": true,
	"show": true, "query": true, "count": true, "check": true, "view": true, "fetch": true}

// exposureValues are visibility values that make a thing public.
var exposureValues = map[string]bool{"public": true, "anyone": true, "everyone": true, "publicread": true,
	"publicreadwrite": true, "anonymous": true}

// controlWords are the words of an argument's name, or of a key a tool
// stores, that name a security control: setting one off, or a required
// one to nothing, switches the protection off.
var controlWords = map[string]bool{"mfa": true, "2fa": true, "twofactor": true, "otp": true, "totp": true, "audit": true,
	"auditing": true, "auditlog": true, "logging": true, "csrf": true, "xsrf": true, "ssl": true, "tls": true, "sslverify": true,
	"verifyssl": true, "captcha": true, "waf": true, "firewall": true, "encryption": true, "encrypt": true, "signing": true,
	"sso": true, "ratelimit": true, "ratelimiting": true, "scanning": true, "hsts": true}

// A protection of the data itself (backup, point-in-time recovery,
// versioning, retention, deletion protection) is a control too: see
// dataProtections (argsettings.go), which the command line reads with
// these words.

// guardWords name a control only with the word that requires it
// (auth_required, enforce_login); alone they name a feature.
var guardWords = map[string]bool{"auth": true, "authentication": true, "authorization": true, "login": true,
	"password": true, "verification": true, "verify": true, "signature": true, "reviews": true, "review": true,
	"checks": true, "approval": true, "approvals": true, "admins": true}

// requireWords make an argument's name a requirement.
var requireWords = map[string]bool{"require": true, "required": true, "requires": true, "enforce": true, "enforced": true,
	"enforcement": true, "mandatory": true}

// allowedDangers are what an allow_ argument lets through when true
// (allow_force_pushes, allow_deletions on a protected branch).
var allowedDangers = map[string]bool{"force": true, "forcepush": true, "forcepushes": true, "deletion": true,
	"deletions": true, "bypass": true, "unsigned": true, "insecure": true, "anonymous": true}

// offValues are the values that switch a control off.
var offValues = map[string]bool{"false": true, "0": true, "off": true, "disabled": true, "disable": true, "no": true,
	"none": true}

// argMeaning reads what a tool's arguments mean (see the table above),
// given the tokens of its name: it returns the level, rule and reason of
// the first that holds, or 0.
func argMeaning(name string, toks []string, args map[string]any) (risk.Level, string, string) {
	reads, writes := false, false
	for _, t := range toks {
		if readVerbs[t] && !writes {
			reads = true
		}
		writes = writes || grantVerbs[t] || t == "run" || t == "execute" || t == "command" || t == "configure" || t == "enable" || t == "disable"
	}
	if reads && !writes {
		return 0, "", ""
	}
	// every document: a bulk update or delete with an empty filter
	if l, why := everyDocument(toks, args); l > 0 {
		return l, ruleDocuments, "Tool " + name + " " + why
	}
	if !writes {
		return 0, "", ""
	}
	var level risk.Level
	var rule, why string
	n := 0
	var visit func(key string, v any, depth int)
	visit = func(key string, v any, depth int) {
		if n++; n > maxArgWalk || depth > 8 || level >= risk.High {
			return
		}
		k := normKey(key)
		switch x := v.(type) {
		case map[string]any:
			for _, kk := range slices.Sorted(maps.Keys(x)) {
				visit(kk, x[kk], depth+1)
			}
			return
		case []any:
			for _, e := range x {
				visit(key, e, depth+1)
			}
			return
		}
		val := scalarText(v)
		switch {
		case grantKeys[k] && privilegedValues[normKey(val)]:
			level, rule = risk.High, ruleIAMGrant
			why = "Tool " + name + " is given " + key + ": " + val + ": whoever it names gets an owner's or an administrator's access, with everything it holds"
		case makesPublic(k, val):
			level, rule = risk.High, rulePublicAccess
			why = "Tool " + name + " is given " + key + ": " + val + ": what it holds becomes readable by everyone"
		case argProtectionOff(key, val, v == nil):
			level, rule = risk.High, RuleImpairDefense
			why = "Tool " + name + " is given " + key + ": " + val + ", which switches a protection off: what it would stop gets through"
		}
	}
	for _, k := range slices.Sorted(maps.Keys(args)) {
		visit(k, args[k], 0)
	}
	if level == 0 {
		// a key-value store's key naming a control, set off
		if key, val := storedControl(toks, args); key != "" {
			return risk.High, RuleImpairDefense, "Tool " + name + " sets " + key + " to " + val + ", which switches a security control off: what it would stop gets through"
		}
	}
	return level, rule, why
}

// scalarText writes a scalar argument as text ("" for lists and objects;
// "null" for nil).
func scalarText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	case nil:
		return "null"
	}
	return ""
}

// makesPublic reports an argument that makes what a tool writes public:
// visibility: "public", private: false, public: true.
func makesPublic(k, val string) bool {
	v := strings.ToLower(val)
	switch k {
	case "visibility", "access", "acl", "cannedacl", "accesslevel", "audience", "sharing", "privacy", "publicaccess":
		return exposureValues[normKey(v)]
	case "private", "isprivate":
		return v == "false"
	case "public", "ispublic", "publiclyaccessible", "allowpublicaccess", "publicread":
		return v == "true"
	}
	return false
}

// argProtectionOff reports an argument that switches a protection off: one
// named for a security control (mfa, audit_logging, ssl_verify,
// enforce_admins, required_pull_request_reviews) set to an off value or,
// for a requirement, to nothing; or an allow_ argument letting a danger
// through (allow_force_pushes: true).
func argProtectionOff(key, val string, null bool) bool {
	ws := keyWords(key)
	control, guard, require, allow, danger := false, false, false, false, false
	for i, w := range ws {
		control = control || controlWords[w] || dataProtections[w]
		guard = guard || guardWords[w]
		require = require || requireWords[w] || strings.HasPrefix(w, "require") || strings.HasPrefix(w, "enforce")
		allow = allow || i == 0 && (w == "allow" || w == "allows")
		danger = danger || allowedDangers[w] || i+1 < len(ws) && allowedDangers[w+ws[i+1]]
	}
	v := strings.ToLower(val)
	if allow && danger {
		return v == "true"
	}
	if !(control || guard && require || require && len(ws) > 1) {
		return false
	}
	if null {
		return require
	}
	return offValues[v]
}

// keyWords splits an argument's name or a stored key into lower-case
// words (feature:auth:mfa_required: feature auth mfa required).
func keyWords(key string) []string { return lowerTokens(key, 16) }

// storedControl returns the key and value a key-value store's tool
// (set, put, hset) is given when the key names a security control
// (feature:auth:mfa_required, config/security/audit_enabled) and the
// value switches it off; "" when not.
func storedControl(toks []string, args map[string]any) (string, string) {
	if !slices.ContainsFunc(toks, func(t string) bool { return t == "set" || t == "put" || t == "hset" || t == "write" || t == "upsert" }) {
		return "", ""
	}
	key, _ := args["key"].(string)
	if key == "" {
		key, _ = args["name"].(string)
	}
	val := ""
	for _, k := range [...]string{"value", "val", "data"} {
		if v, ok := args[k]; ok {
			val = scalarText(v)
			break
		}
	}
	if key == "" || !ControlKeyOff(key, val) {
		return "", ""
	}
	return key, val
}

// ControlKeyOff reports whether storing value under key switches a
// security control off: the key names one (mfa, audit, csrf, ssl …, or
// auth with required/enforce) and the value is an off value (false, 0,
// off, disabled). feature:new_checkout false does not.
func ControlKeyOff(key, value string) bool {
	if !offValues[strings.ToLower(strings.TrimSpace(value))] {
		return false
	}
	control, guard, require := false, false, false
	for _, w := range keyWords(key) {
		control = control || controlWords[w] || dataProtections[w]
		guard = guard || guardWords[w]
		require = require || requireWords[w] || w == "enabled" || w == "enable" || w == "on"
	}
	return control || guard && require
}

// everyDocument judges a bulk update or delete of a document store
// (update-many, delete_many, updateMany, bulk_delete) by its filter: none,
// or an empty one, takes every document (high, as DELETE or UPDATE
// without WHERE is); one with a field changes what it matches (medium).
func everyDocument(toks []string, args map[string]any) (risk.Level, string) {
	verb, many := "", false
	for _, t := range toks {
		switch t {
		case "update", "delete", "remove", "replace":
			if verb == "" {
				verb = t
			}
		case "many", "all", "bulk":
			many = true
		}
	}
	if verb == "" || !many {
		return 0, ""
	}
	filter, ok := args["filter"]
	if !ok {
		if filter, ok = args["query"]; !ok {
			filter, ok = args["where"]
		}
	}
	if !ok {
		return 0, ""
	}
	if m, isMap := filter.(map[string]any); isMap && len(m) == 0 || filter == nil {
		return risk.High, verb + "s every document of the collection (its filter is empty), as a DELETE or UPDATE without WHERE does"
	}
	if s, isStr := filter.(string); isStr && strings.TrimSpace(s) == "{}" {
		return risk.High, verb + "s every document of the collection (its filter is empty), as a DELETE or UPDATE without WHERE does"
	}
	return risk.Medium, verb + "s the documents its filter matches"
}

// kvControlFindings judges a key-value store's command line that stores
// a key naming a security control with an off value (consul kv put
// config/auth/mfa_required false, etcdctl put /cfg/security/audit_enabled
// 0): high, as the store's MCP tool is (see ControlKeyOff). The key and
// value are the last two words after put, past its flags.
func kvControlFindings(out []risk.Finding, c Command) []risk.Finding {
	put := -1
	for i := 1; i < len(c.Args); i++ {
		if c.Args[i] == "put" && !c.Dynamic[i] {
			put = i
			break
		}
	}
	if put < 0 {
		return out
	}
	var kv []string
	for i := put + 1; i < len(c.Args); i++ {
		if a := c.Args[i]; a != "" && a[0] != '-' && !c.Dynamic[i] {
			kv = append(kv, a)
		}
	}
	if len(kv) < 2 {
		return out
	}
	return appendControlOff(out, commandName(c.Args[0]), kv[len(kv)-2], kv[len(kv)-1])
}

// appendControlOff appends the finding that prog stores value under key
// when that switches a security control off (see ControlKeyOff).
func appendControlOff(out []risk.Finding, prog, key, value string) []risk.Finding {
	if !ControlKeyOff(key, value) {
		return out
	}
	return append(out, risk.Finding{Analyzer: "shell", Rule: RuleImpairDefense, Level: risk.High, Reversible: true,
		Reason: prog + " sets " + key + " to " + value + ", which switches a security control off: what it would stop gets through"})
}
