package shell

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Settings on a command line. A service CLI (any cloud's, or a tool warden
// has no rows for) says by its arguments what the tool argument table of
// toolmeaning.go says for an MCP tool, in other shapes; settingsFindings
// reads them with the same words (controlWords, offValues):
//
//   - a protection switched off, in key=value shorthand, JSON or a flag
//     (cli.impair_defense, high): aws dynamodb update-continuous-backups
//     --point-in-time-recovery-specification PointInTimeRecoveryEnabled=false,
//     --backup-retention-period 0, --no-backup, --no-enable-logging,
//     --logging-configuration '{"Enabled": false}', and a bare --no-enable
//     on a path that names a defense (guardduty update-detector). Turning
//     one on, a dry run, a read (describe, get, list) and a resource being
//     created (nothing it held is lost) are not; nor a client's own TLS
//     check (--no-verify-ssl), which protects the call, not the resource.
//   - snapshots or backups cleared (sec.backup_delete): a clear, flush,
//     purge, prune, delete or remove verb whose object is snapshots,
//     backups, archives or recovery points (nodetool clearsnapshot) is
//     high with --all or with nothing named (the tool then takes every
//     one), medium for one named snapshot (the others still restore).
//   - a resource policy or grant that lets someone else in (cloud.iam_grant,
//     high): put-resource-policy, put-bucket-policy, put-key-policy,
//     set-repository-policy, add-permission, create-grant … whose Allow
//     statement names a principal of "*", allUsers, allAuthenticatedUsers, an
//     account or an ARN, or an Action of "*"; likewise --principal and
//     --grantee-principal flags. A policy that only denies, and a service
//     principal (s3.amazonaws.com), are not.

// dataProtections are the words of a setting that name a protection of the
// data itself, read with controlWords: a setting that names one and is
// switched off leaves the data without it.
var dataProtections = map[string]bool{"backup": true, "backups": true, "recovery": true, "pitr": true,
	"versioning": true, "retention": true, "protection": true}

// switchWords are the last words of a setting that turn what its context
// names on or off (Enabled=false under --logging-configuration).
var switchWords = map[string]bool{"enabled": true, "enable": true, "status": true, "state": true}

// clientOnly are the control words of a flag that protect the CLI's own
// call rather than the resource (--no-verify-ssl).
var clientOnly = map[string]bool{"ssl": true, "tls": true, "sslverify": true, "verifyssl": true, "verify": true}

// protects reports whether words name a protection (controlWords or
// dataProtections); client: only counting words that are not clientOnly.
func protects(ws []string, client bool) bool {
	for _, w := range ws {
		if (controlWords[w] || dataProtections[w]) && !(client && clientOnly[w]) {
			return true
		}
	}
	return false
}

// settingOff reports whether setting leaf (under the flag or object named
// ctx, "" when none) to val switches a protection off: the setting, or its
// context when the setting is a switch (enabled, status), names a
// protection, and val is an off value (or suspended, as versioning is; 0
// only for a switch or a retention).
func settingOff(ctx, leaf, val string, client bool) bool {
	v := strings.ToLower(strings.TrimSpace(val))
	if !offValues[v] && v != "suspended" {
		return false
	}
	lw := keyWords(leaf)
	if len(lw) == 0 {
		return false
	}
	sw := switchWords[lw[len(lw)-1]]
	own := protects(lw, client)
	if v == "0" && !sw && !slices.Contains(lw, "retention") {
		return false
	}
	if own {
		return true
	}
	return sw && ctx != "" && protects(keyWords(ctx), client)
}

// settingsFindings appends what command c, a service CLI named name, does
// by its settings (see above).
func settingsFindings(out []risk.Finding, c *Command, name string) []risk.Finding {
	args, dyn := c.Args, c.Dynamic
	var path []string // the subcommand words before the first flag
	for i := 1; i < len(args) && len(path) < 4; i++ {
		if dyn[i] || !subcommandShaped(args[i]) {
			break
		}
		path = append(path, args[i])
	}
	// settingsOff and policyGrant read only a --flag or a JSON document:
	// without one, the path's verbs need no reading
	flagged := false
	for i := 1; i < len(args); i++ {
		if dyn[i] {
			continue
		}
		a := args[i]
		if a == "--help" || isDryRun(a) {
			return out
		}
		if len(a) >= 4 && a[0] == '-' && a[1] == '-' || len(a) > 20 && a[0] == '{' {
			flagged = true
		}
	}
	if f, ok := snapshotsCleared(c, name); ok {
		out = append(out, f)
	}
	if !flagged {
		return out
	}
	reads, creates, policy := false, false, false
	for _, p := range path {
		tokens(p, func(t string) bool {
			switch {
			case readVerbs[t]:
				reads = true
			case t == "create" || t == "new" || t == "run" || t == "launch" || t == "restore":
				creates = true
			case t == "policy" || t == "permission" || t == "grant" || t == "binding":
				policy = true
			}
			return true
		})
	}
	if reads {
		return out
	}
	if !creates {
		if shown := settingsOff(args, dyn, path); shown != "" {
			out = append(out, risk.Finding{Analyzer: "shell", Rule: RuleImpairDefense, Level: risk.High, Reversible: true,
				Resource: "cli:" + name,
				Reason:   "`" + leadWords(name, args, dyn, 1) + "` switches a protection off (" + cut(shown, 80) + "): what it kept safe is then lost or unwatched"})
		}
	}
	if policy || creates {
		if who := policyGrant(args, dyn); who != "" {
			out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleIAMGrant, Level: risk.High, Reversible: true,
				Resource: "cli:" + name,
				Reason:   "`" + leadWords(name, args, dyn, 1) + "` writes a policy that grants access to " + cut(who, 80) + ": whoever it names can then use the resource"})
		}
	}
	return out
}

// settingsOff returns the argument (and its value) of args that switches
// a protection off, or "".
func settingsOff(args []string, dyn []bool, path []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if dyn[i] || len(a) < 4 || a[0] != '-' || a[1] != '-' {
			continue
		}
		flag, val, eq := strings.Cut(a[2:], "=")
		if len(flag) > 64 {
			continue
		}
		lf := strings.ToLower(flag)
		if rest, ok := strings.CutPrefix(lf, "no-"); ok && !eq {
			// --no-backup, --no-enable-logging; --no-enable where the
			// path names a defense (guardduty update-detector)
			ws := keyWords(rest)
			if protects(ws, true) {
				return a
			}
			if (rest == "enable" || rest == "enabled") && pathDefense(path) {
				return a
			}
			continue
		}
		if rest, ok := strings.CutPrefix(lf, "disable-"); ok && !eq && protects(keyWords(rest), true) {
			return a // --disable-logging
		}
		if !eq {
			if i+1 >= len(args) || dyn[i+1] {
				continue
			}
			val = args[i+1]
		}
		if settingOff("", flag, val, true) && !strings.ContainsAny(val, "={") {
			if eq {
				return a
			}
			return a + " " + val
		}
		if (lf == "enable" || lf == "enabled") && falseWord(val) && pathDefense(path) {
			return a + " " + val
		}
		if s := valueOff(flag, val); s != "" {
			return a + " " + s
		}
	}
	return ""
}

// pathDefense reports a subcommand path that names a defense (guardduty
// update-detector, cloudtrail update-trail).
func pathDefense(path []string) bool {
	for _, p := range path {
		if defenseIn(p) != "" {
			return true
		}
	}
	return false
}

// valueOff reads a flag's value written as key=value shorthand
// (PointInTimeRecoveryEnabled=false, Status=Suspended) or JSON
// ({"Enabled": false}) and returns the setting that switches a protection
// off under the flag, or "".
func valueOff(flag, val string) string {
	if len(val) > 4096 {
		return ""
	}
	v := strings.TrimSpace(val)
	if strings.HasPrefix(v, "{") {
		if !offLiteral(v) {
			return "" // a cheap test before the parse
		}
		var doc any
		if json.Unmarshal([]byte(v), &doc) != nil {
			return ""
		}
		found, n := "", 0
		var walk func(ctx, key string, x any, depth int)
		walk = func(ctx, key string, x any, depth int) {
			if n++; found != "" || n > maxArgWalk || depth > 8 {
				return
			}
			switch y := x.(type) {
			case map[string]any:
				for k, e := range y {
					walk(ctx+"."+key, k, e, depth+1)
				}
			case []any:
				for _, e := range y {
					walk(ctx, key, e, depth+1)
				}
			default:
				if s := scalarText(y); key != "" && settingOff(ctx, key, s, false) {
					found = key + "=" + s
				}
			}
		}
		walk(flag, "", doc, 0)
		return found
	}
	if !strings.Contains(v, "=") {
		return ""
	}
	for pair := range strings.SplitSeq(v, ",") {
		k, x, ok := strings.Cut(pair, "=")
		if ok && settingOff(flag, k, x, false) {
			return pair
		}
	}
	return ""
}

// backupClears are the verbs that, joined to what they take
// (clearsnapshot, delete-backups), remove snapshots or backups.
var backupClears = []string{"clear", "flush", "purge", "prune", "delete", "remove", "wipe"}

// backupObjects are what such a verb removes that a restore needs.
var backupObjects = map[string]bool{"snapshot": true, "snapshots": true, "backup": true, "backups": true,
	"archive": true, "archives": true, "recoverypoint": true, "recoverypoints": true, "localsnapshots": true}

// snapshotsCleared judges a word of c that clears snapshots or backups
// (see above): high with --all or nothing after it, medium with a name.
func snapshotsCleared(c *Command, name string) (risk.Finding, bool) {
	args, dyn := c.Args, c.Dynamic
	for i := 1; i < len(args); i++ {
		a := args[i]
		if dyn[i] || len(a) < 10 || !subcommandShaped(a) {
			continue
		}
		if !strings.Contains(a, "napshot") && !strings.Contains(a, "ackup") && !strings.Contains(a, "rchive") &&
			!strings.Contains(a, "ecovery") {
			continue // a cheap test before the reading
		}
		obj := ""
		la := strings.Map(func(r rune) rune {
			if r == '-' || r == '_' {
				return -1
			}
			return r
		}, strings.ToLower(a))
		for _, v := range backupClears {
			if r, ok := strings.CutPrefix(la, v); ok && backupObjects[r] {
				obj = r
				break
			}
		}
		if obj == "" {
			continue
		}
		all, named := i+1 == len(args), false
		for j := i + 1; j < len(args); j++ {
			switch b := args[j]; {
			case b == "--all" || b == "-a" || b == "--all=true":
				all = true
			default:
				named = true
			}
		}
		f := risk.Finding{Analyzer: "shell", Rule: "sec.backup_delete", Level: risk.High, Resource: "cli:" + name,
			Reason: "`" + name + " " + a + "` removes every " + obj + " it holds: what a restore would need is gone"}
		if named && !all {
			f.Level, f.Reversible = risk.Medium, false
			f.Reason = "`" + name + " " + a + "` removes the " + obj + " it names; the others still restore"
		}
		return f, true
	}
	return risk.Finding{}, false
}

// policyGrant returns whom a policy or grant among args lets in (see
// above), or "".
func policyGrant(args []string, dyn []bool) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if dyn[i] {
			continue
		}
		switch {
		case (a == "--principal" || a == "--grantee-principal") && i+1 < len(args) && !dyn[i+1]:
			if foreignPrincipal(args[i+1]) {
				return args[i+1]
			}
		case strings.HasPrefix(a, "--principal=") || strings.HasPrefix(a, "--grantee-principal="):
			if _, v, _ := strings.Cut(a, "="); foreignPrincipal(v) {
				return v
			}
		case len(a) > 20 && a[0] == '{' && strings.Contains(a, "Statement"):
			if who := allowsOthers(a); who != "" {
				return who
			}
		}
	}
	return ""
}

// foreignPrincipal reports a principal that is everyone, every signed-in
// account, an account (its ID or root) or an IAM ARN: not a service.
func foreignPrincipal(p string) bool {
	p = strings.Trim(p, `"' `)
	switch strings.ToLower(p) {
	case "*", "allusers", "allauthenticatedusers":
		return true
	}
	if strings.HasPrefix(p, "arn:") && strings.Contains(p, ":iam::") {
		return true
	}
	if len(p) == 12 && strings.Trim(p, "0123456789") == "" {
		return true // an account ID
	}
	return false
}

// allowsOthers returns the principal or action of an Allow statement of
// policy document doc that lets someone else in, or "".
func allowsOthers(doc string) string {
	if len(doc) > 16384 {
		return ""
	}
	var p struct {
		Statement json.RawMessage
	}
	if json.Unmarshal([]byte(doc), &p) != nil {
		return ""
	}
	var sts []map[string]any
	if json.Unmarshal(p.Statement, &sts) != nil {
		var one map[string]any
		if json.Unmarshal(p.Statement, &one) != nil {
			return ""
		}
		sts = []map[string]any{one}
	}
	for _, st := range sts {
		if e, _ := st["Effect"].(string); !strings.EqualFold(e, "allow") {
			continue
		}
		if who := principalOf(st["Principal"]); who != "" {
			return who
		}
		for _, act := range strs(st["Action"]) {
			if act == "*" {
				return `every action ("Action": "*")`
			}
		}
	}
	return ""
}

// principalOf returns the first principal of a statement's Principal
// that foreignPrincipal accepts.
func principalOf(v any) string {
	switch x := v.(type) {
	case string:
		if foreignPrincipal(x) {
			return x
		}
	case map[string]any:
		for k, e := range x {
			if k == "Service" {
				continue
			}
			for _, s := range strs(e) {
				if foreignPrincipal(s) {
					return s
				}
			}
		}
	}
	return ""
}

// strs returns a string or a list's strings.
func strs(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// offLiteral reports JSON text that holds a value offValues may name
// (false, 0, off, disabled …, Suspended), without parsing it.
func offLiteral(v string) bool {
	return strings.Contains(v, "false") || strings.Contains(v, "isabled") || strings.Contains(v, "uspended") ||
		strings.Contains(v, "0") || strings.Contains(v, "off") || strings.Contains(v, "Off") || strings.Contains(v, "none") ||
		strings.Contains(v, "no\"")
}
