package shell

import (
	"strings"

	"github.com/agentwarden/warden/analyze/inline"
	"github.com/agentwarden/warden/risk"
)

// Impairing defenses. Disabling, silencing, suspending or deleting a
// control that watches or protects a system (monitoring, alerting, audit
// logging, security scanning, guards, detectors, firewalls, backups) is
// worse than disrupting an ordinary resource: what the control would
// catch goes unseen until someone notices it is off. The grammar reads a
// disrupting verb (see verbWords) as high (cli.impair_defense) when the
// command's name (pagerduty, amtool), a noun of its path (alerts,
// guardduty detector), the verb's own word (disable-monitoring) or its
// object (codeql-analysis.yml) names such a control (defenseWords); the
// same verb on an ordinary object stays medium (gh workflow disable
// nightly-release.yml, unleash features disable my-toggle). A destructive
// verb on one stays high, and is not lowered as a log or an artifact
// being cleared (audit-log clear). Verbs that silence (mute, silence,
// snooze) are disrupting verbs; so are stop, deactivate and bypass
// (disarmVerb), but only when a defense is named (aws cloudtrail
// stop-logging, mfa deactivate): elsewhere they are nouns of the path, as
// they were (service control has rows; conda deactivate leaves an
// environment).
//
// Turning a protection off by flag (protectionOff) is high on any CLI
// the grammar reads (cli.protection_off): --no-deletion-protection,
// --deletion-protection=false, --no-enable-termination-protection,
// --disable-deletion-protection, --no-disable-api-termination. It speaks,
// as the grammar does, only when no row of the command fired, but over a
// finding of the grammar below high (aws ... update-termination-protection
// is read as an update otherwise). Turning one on never fires.

// defenseWords are the tokens that name a control that watches or
// protects a system, or a product that is one.
var defenseWords = wordSet(`monitor monitors monitoring alert alerts alerting alarm alarms alertmanager amtool
audit audits auditing auditd auditlog auditlogs logging trail trails cloudtrail securityhub security scan scans scanner
scanners scanning codeql sast dast dependabot snyk trivy grype semgrep sonarqube sonarcloud gitleaks trufflehog
guard guards guardrail guardrails guardduty protection protections unprotect detector detectors detection detections
firewall firewalls waf wafv2 antivirus defender edr siem falco wazuh osquery crowdstrike backup backups pagerduty
opsgenie victorops datadog newrelic sentry nagios zabbix prometheus pingdom healthcheck healthchecks watchdog mfa 2fa
totp encryption compliance vulnerability vulnerabilities vuln vulns ruleset rulesets`)

// quietVerbs silence alerts or notifications: a disrupting verb, or the
// noun of a silence that a creating verb then adds (amtool silence add).
var quietVerbs = map[string]bool{"mute": true, "silence": true, "snooze": true}

// quietCreates are the verbs that, after a quietVerbs noun, create the
// silence; any other verb there reads or removes silences (amtool silence
// query, expire).
var quietCreates = map[string]bool{"add": true, "create": true, "new": true, "set": true, "schedule": true}

// quietReads are the words after a quietVerbs noun that read or end
// silences without being verbs of verbWords (amtool silence expire).
var quietReads = map[string]bool{"query": true, "expire": true, "import": true, "export": true, "unmute": true}

// disarmVerbs turn a control off only when a defense is named: classifyWord
// reads them as wordDisarm.
var disarmVerbs = map[string]bool{"stop": true, "deactivate": true, "bypass": true}

// disarmVerb reports a word of disarmVerbs, without a lookup: classifyWord
// asks it of every noun (TestDisarmVerb holds the two together).
func disarmVerb(w string) bool {
	switch w { // a switch: classifyWord asks it of every noun
	case "stop", "deactivate", "bypass":
		return true
	}
	return false
}

// defenseIn returns the first token of word w (split as tokens splits
// it) that names a defense, or "".
func defenseIn(w string) string {
	d := ""
	tokens(w, func(t string) bool {
		if defenseWords.has(t) {
			d = t
			return false
		}
		return true
	})
	return d
}

// defenseOf returns what names a defense in a command read by the
// grammar: its name, the path words args[start:end] (the verb's word
// among them), or the object at obj (-1: none); "" if nothing does.
func defenseOf(name string, args []string, dyn []bool, start, end, obj int) string {
	if d := defenseIn(name); d != "" {
		return d
	}
	for i := start; i < end && i < len(args); i++ {
		if !dyn[i] && !strings.HasPrefix(args[i], "-") {
			if d := defenseIn(args[i]); d != "" {
				return d
			}
		}
	}
	if obj >= 0 && !dyn[obj] {
		return defenseIn(args[obj])
	}
	return ""
}

// maxTokens bounds the tokens tokens reads of one word.
const maxTokens = 16

// tokens calls yield with each token of w in lower case, at most
// maxTokens: w split on - _ . : / , = @ and space, and at changes from
// lower to upper case (eraseDisk); it stops when yield returns false.
func tokens(w string, yield func(string) bool) {
	n, from := 0, 0
	emit := func(to int) bool {
		if to > from {
			n++
			if n > maxTokens || !yield(strings.ToLower(w[from:to])) {
				return false
			}
		}
		return true
	}
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '-' || c == '_' || c == '.' || c == ':' || c == '/' || c == ',' || c == '=' || c == '@' || c == ' ':
			if !emit(i) {
				return
			}
			from = i + 1
		case i > from && c >= 'A' && c <= 'Z' && w[i-1] >= 'a' && w[i-1] <= 'z':
			if !emit(i) {
				return
			}
			from = i
		}
	}
	emit(len(w))
}

// protectionOff returns the flag among args[start:] (and its value) that
// turns a protection off, or "": --no-deletion-protection,
// --deletion-protection=false, --deletion-protection false,
// --no-enable-termination-protection, --disable-deletion-protection,
// --unprotect…, --no-disable-api-termination, --disable-api-termination
// false, or a value that sets a protection attribute to false
// (attributeOff). A flag that turns one on, or a value that is no
// boolean, is not one.
func protectionOff(args []string, dyn []bool, start int) string {
	for i := start; i < len(args); i++ {
		a := args[i]
		if dyn[i] {
			continue
		}
		if a == "--" {
			break
		}
		if len(a) < 8 || strings.IndexByte(a, 'p') < 0 || !strings.Contains(a, "protect") && !strings.Contains(a, "api-") {
			continue // a cheap test before the reading
		}
		if a[0] != '-' {
			if attributeOff(a) {
				return a
			}
			continue
		}
		name, val, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		name = strings.ToLower(name)
		off := false
		if r, ok := strings.CutPrefix(name, "no-"); ok {
			off, name = true, r
		}
		switch {
		case name == "disable-api-termination" || name == "disable-api-stop":
			// protection is on when the flag is: only no- or a false
			// value turns it off
		case strings.Contains(name, "protect"):
			for _, p := range []string{"disable-", "remove-", "unset-", "un"} {
				if r, ok := strings.CutPrefix(name, p); ok {
					off, name = !off, r
					break
				}
			}
		default:
			continue
		}
		shown := a
		if !eq && i+1 < len(args) && !dyn[i+1] && boolWord(args[i+1]) {
			val, eq = args[i+1], true
			shown += " " + val
		}
		if eq && falseWord(val) {
			off = !off
		}
		if off {
			return shown
		}
	}
	return ""
}

// attributeOff reports a flag's value that sets an attribute named for a
// protection to false: Key=deletion_protection.enabled,Value=false (aws
// elbv2 modify-load-balancer-attributes), deletion_protection=false.
func attributeOff(a string) bool {
	la := strings.ToLower(a)
	i := strings.Index(la, "protect")
	if i < 0 {
		return false
	}
	rest := la[i:]
	j := strings.IndexByte(rest, '=')
	if j < 0 {
		return false
	}
	v := rest[j+1:]
	if k := strings.IndexAny(v, ", "); k >= 0 {
		v = v[:k]
	}
	return falseWord(v)
}

// falseWord reports a value that turns a flag off.
func falseWord(v string) bool {
	switch strings.ToLower(v) {
	case "false", "0", "no", "off", "disabled", "disable", "none":
		return true
	}
	return false
}

// boolWord reports a word that is a flag's boolean value.
func boolWord(v string) bool {
	switch strings.ToLower(v) {
	case "true", "1", "yes", "on", "enabled", "enable":
		return true
	}
	return falseWord(v)
}

// protectionFinding is the finding on command name turning a protection
// off by flag; dry: the command only reports what it would do.
func protectionFinding(name, flag string, dry bool) risk.Finding {
	f := risk.Finding{Analyzer: "shell", Rule: "cli.protection_off", Level: risk.High, Reversible: true,
		Resource: "cli:" + name,
		Reason: "`" + name + "` turns a protection off (" + cut(flag, 60) + "): the resource can then be deleted or " +
			"terminated by any later command, or by mistake"}
	if dry {
		f.Level = risk.Low
		f.Reason = "`" + name + "` is a dry run: it only reports that it would turn a protection off (" + cut(flag, 60) + ")"
	}
	return f
}

// Destructive mode flags. A tool warden has no rows for, whose path
// reaches no verb, given a long flag that is a destructive verb (tarsnap
// --nuke, mongorestore --drop, flipt import --drop, wsl --unregister) or
// one with -all or -everything (--purge-all, --delete-all) is read as that
// verb: high (cli.delete). Not: --no-delete or --delete=false (off), a
// verb with an object (--delete-branch, --delete-snapshots, --drop-caches:
// what they remove is a side matter), the short verbs of flagVerbs that
// mean something else as a flag (--rm: remove the container after the
// run; --remove: an entry of a system table, as update-alternatives,
// dpkg-divert and systemd-tmpfiles take it; --flush, --truncate, --reset,
// --clear, --empty), a tool with rows
// (rsync --delete, kubectl apply --prune: the rows say), a package
// manager (brew cleanup --prune=all). Single-dash spellings of Go-style
// tools (keytool -delete, terraform -destroy) count when the word is a
// bare verb of four letters or more.

// flagVerbs are the destructive verbs a bare flag names: verbWords'
// destroy words but those that, as a flag, mostly mean something else.
var flagVerbs = wordSet(`delete destroy purge drop prune wipe erase expunge obliterate nuke shred terminate
deprovision decommission deregister unregister unpublish undefine revoke teardown flushall flushdb`)

// destroyFlag returns the index of the first flag among args[start:]
// that names a destructive verb (see above), and the verb; -1 if none.
func destroyFlag(args []string, dyn []bool, start int) (int, string) {
	for i := start; i < len(args); i++ {
		a := args[i]
		if dyn[i] {
			continue
		}
		if a == "--" {
			break
		}
		if len(a) < 4 || a[0] != '-' {
			continue
		}
		body, long := strings.CutPrefix(a[1:], "-")
		body, val, eq := strings.Cut(body, "=")
		if eq && falseWord(val) || len(body) > 40 {
			continue
		}
		if v := flagVerb(body, long); v != "" {
			return i, v
		}
	}
	return -1, ""
}

// flagVerb returns the destructive verb a flag's name (without dashes)
// is, or "": a verb of flagVerbs after modifiers (nuke, force-delete), or
// any destructive verb before all or everything (clear-all); a
// single-dash flag (long false) only as a bare verb of four letters or
// more.
func flagVerb(body string, long bool) string {
	if !long {
		if len(body) >= 4 && flagVerbs.has(body) {
			return body
		}
		return ""
	}
	rest := body
	for rest != "" {
		tok, tail := nextToken(rest)
		var buf [24]byte
		if len(tok) > len(buf) {
			return ""
		}
		t := string(inline.AppendLower(buf[:0], tok))
		if verbModifiers[t] {
			rest = tail
			continue
		}
		switch {
		case tail == "" && flagVerbs.has(t):
			return t
		case (tail == "all" || tail == "everything") && verbWords[t] == wordDestroy:
			return t
		}
		return ""
	}
	return ""
}
