package shell

import (
	"github.com/agentwarden/warden/internal/envname"
	"net"
	"net/netip"
	"path"
	"slices"
	"strings"

	"github.com/agentwarden/warden/analyze/inline"
	"github.com/agentwarden/warden/analyze/webapi"
	"github.com/agentwarden/warden/effect"
	"github.com/agentwarden/warden/netguard"
	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Exfiltration is read as data flow: each command's sources (what
// sensitive data it reads: credential and secret files, the environment,
// shell history, keychains and secret stores, personal files, secrets
// named by environment variables) and its sinks (what it sends over the
// network: request bodies and URLs, uploads, raw sockets, copies to
// other hosts and buckets, names looked up in DNS), connected through
// pipes, command substitutions and variables assigned from them (see
// linkVars). Files written by one command and sent by a later one are
// followed by the session (tool.Effect.Sensitive).

// The rules of exfiltration findings.
const (
	ruleExfilCredential = "exfil.credential_file"  // credential or secret files sent out
	ruleExfilEnv        = "exfil.environment"      // the environment, or a secret it holds, sent out
	ruleExfilSensitive  = "exfil.sensitive_data"   // history, keychains, secret stores, personal files, database rows sent out
	ruleExfilDNS        = "exfil.dns"              // computed data carried in a name looked up in DNS
	ruleExfilUpload     = "exfil.upload"           // a file that holds no known secret is sent to another host
	ruleSecretRead      = "cred.secret_store_read" // rows of commands.yaml: reads of keychains and secret stores
)

// sink is what one command sends over the network.
type sink struct {
	name string
	// to is where: a URL, host or bucket; "" when not known (computed,
	// or a listener that serves whoever connects)
	to string
	// files are the files it sends (absolute)
	files []string
	// stdin: it sends what it reads on its standard input
	stdin bool
	// data are the words whose text it sends (bodies, URLs, names
	// looked up, form fields); words that only authenticate the request
	// (an Authorization header, -u) are not among them
	data []int
	// dns: the data words are names looked up: whatever they carry
	// leaves through any resolver, even with every port closed
	dns bool
	// http: an HTTP request
	http bool
	// self: it sends its own output (a /dev/tcp redirection), so what it
	// reads itself is sent
	self bool
	// published: a publishing command (a gist, an issue, a paste; see
	// publish), not a network client
	published bool
	// auth are the computed words that authenticate the request (an
	// Authorization header, -u user:$TOKEN): a vendor's credential there
	// goes to whoever the request goes to (see foreignCredential)
	auth []int
}

// exfilFlow finds sensitive data that flows into a command that sends it
// over the network, and files sent to other hosts (see the package's
// exfiltration notes above). Only the commands at sinks are read as
// sinks: the others must be no sink (see mayExfil).
func (k *Knowledge) exfilFlow(out []risk.Finding, cmds []Command, sinks []int, env Env) []risk.Finding {
	var src memo // does command j read sensitive data itself: what[j]
	var what []string
	source := func(j int) bool {
		what[j] = k.sourceAt(cmds, j, env)
		return what[j] != ""
	}
	upstream := func(i int) (int, string) {
		if src == nil {
			what, src = make([]string, len(cmds)), newMemo(len(cmds))
		}
		fl := flows{cmds: cmds}
		if j := fl.upstream(i, src, source); j >= 0 {
			return j, what[j]
		}
		return -1, ""
	}
	for _, i := range sinks {
		c := cmds[i]
		s, ok := k.sinkOf(c, env)
		if !ok {
			continue
		}
		here := runsIn(c, env)
		// external reports where it sends as off the machine
		external := func() bool { return s.to == "" || !netguard.Local(s.to) }
		// report says that command by reads what (from file, when one
		// is sent as it is) and c sends it
		report := func(rule, what, by, file string, l risk.Level) {
			to := orNetwork(s.to)
			if what == srcEnvironment {
				what = "the environment"
			}
			var why string
			switch {
			case file != "":
				why = s.name + " sends " + file + " (" + what + ") to " + cut(to, 80)
			case s.dns:
				why = "`" + cut(by, 80) + "` reads " + what + ", which " + s.name + " carries in a name it looks up: it leaves through any DNS resolver"
			default:
				why = "`" + cut(by, 80) + "` reads " + what + ", which " + s.name + " sends to " + cut(to, 80)
			}
			if !external() {
				l = min(l, risk.Medium)
				why += " (on this machine)"
			}
			out = append(out, risk.Finding{Analyzer: "shell", Rule: rule, Level: l, Locked: l == risk.Critical, Reason: why, Resource: resource(s.to)})
		}
		found := false
		if s.self {
			if w := k.sourceOf(c, env); w != "" {
				report(ruleFor(w), w, c.Line(), "", levelFor(w))
				found = true
			}
		}
		// the files it sends
		if sendsFound(c, s) {
			// the files a find chooses (find … -exec curl -T {}, find … |
			// xargs -I{} curl -F f=@{})
			if f := feedingFind(cmds, i); f >= 0 {
				if w := findReads(cmds[f], env); w != "" {
					report(ruleFor(w), w, cmds[f].Line(), "", levelFor(w))
					found = true
				}
			}
		}
		for _, p := range s.files {
			if found {
				break
			}
			if w := pathSource(p, here); w != "" {
				report(ruleFor(w), w, c.Line(), p, levelFor(w))
				found = true
				break
			}
			if w := folderSource(p, here); w != "" {
				report(ruleFor(w), w, c.Line(), p, levelFor(w))
				found = true
				break
			}
			if dataFolder(p) && s.to != "" && external() && addressed(s.to) {
				// a project's data/ or db/ folder sent whole to a bare
				// address: no deployment goes there by number
				report(ruleExfilSensitive, srcDump, c.Line(), p, risk.High)
				found = true
				break
			}
		}
		// what flows into it: its own reading commands' output through
		// pipes, substitutions and variables
		if !found && (s.stdin || k.substData(c, s)) {
			if j, w := upstream(i); j >= 0 {
				report(ruleFor(w), w, cmds[j].Line(), "", levelFor(w))
				found = true
			}
		}
		// secrets the environment holds, named in what it sends (not
		// to the service the token is for); a request that sends nothing
		// but its credentials is judged below
		authOnly := len(s.files) == 0 && !s.stdin && len(s.data) == 0
		if !found && !authOnly {
			if v := secretRefIn(c, s.data, s.stdin, func(v string) bool { return ownService(v, s.to) }); v != "" {
				l := risk.Critical
				if s.http && !strings.HasPrefix(v, "AWS_") {
					// a token in a request's body or URL may be what an
					// API asks for: asked, not locked (AWS's keys sign
					// requests and never travel)
					l = risk.High
				}
				report(ruleExfilEnv, "the secret in $"+v, c.Line(), "", l)
				found = true
			}
		}
		// a vendor's credential authenticating a request to a host that
		// is not the vendor's (a GitHub token in an Authorization header
		// to an IP address): whoever runs that host now holds it
		if !found && len(s.auth) > 0 && s.to != "" && external() {
			if what, vendor := k.foreignCredential(cmds, i, s); what != "" {
				out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleExfilEnv, Level: risk.High, Resource: resource(s.to),
					Reason: s.name + " authenticates to " + cut(s.to, 80) + " with " + what + ", a " + vendor + " credential, though the host is not " + vendor + "'s: whoever runs it now holds the credential"})
				found = true
			}
		}
		if found {
			continue
		}
		if s.dns && external() {
			for _, j := range s.data {
				if a := c.Args[j]; c.Dynamic[j] && dnsData(a) {
					out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleExfilDNS, Level: risk.High,
						Reason:   "Data computed at run time is carried in a name " + s.name + " looks up (" + cut(a, 60) + "): it leaves through any DNS resolver",
						Resource: resource(s.to)})
					break
				}
			}
		}
		if len(s.files) > 0 && s.name != "curl" && s.name != "wget" && !s.published && external() {
			// curl's and wget's uploads, and what is published, are judged
			// by their rows
			out = append(out, risk.Finding{Analyzer: "shell", Rule: ruleExfilUpload, Level: risk.Medium,
				Reason:   s.name + " sends " + cut(strings.Join(s.files, ", "), 80) + " to " + cut(orNetwork(s.to), 80),
				Resource: resource(s.to)})
		}
	}
	return out
}

// resource is the affected resource of data sent to.
func resource(to string) string {
	switch {
	case to == "":
		return ""
	case strings.Contains(to, "://"):
		return "url:" + to
	}
	return "host:" + to
}

func orNetwork(to string) string {
	if to == "" {
		return "the network"
	}
	return to
}

// levelFor is the level of sending the sensitive data what names off
// the machine: critical, but high for a database dump, which backups
// send off the machine as a matter of course (asked, not locked).
func levelFor(what string) risk.Level {
	if what == srcDump || what == srcPeople { // sent by backups too, and named by a guess
		return risk.High
	}
	return risk.Critical
}

// ruleFor is the rule of sending the sensitive data what names.
func ruleFor(what string) string {
	switch what {
	case srcCredentials, srcSecrets, srcHolding:
		return ruleExfilCredential
	case srcEnvironment:
		return ruleExfilEnv
	}
	if strings.HasPrefix(what, "the secret in $") {
		return ruleExfilEnv
	}
	return ruleExfilSensitive
}

// The kinds of sensitive data a source reads.
const (
	srcCredentials = "credentials"
	srcSecrets     = "secrets"
	srcEnvironment = "environment" // as tool.Effect.Sensitive names it
	srcHistory     = "shell history"
	srcPersonal    = "personal files"
	srcStore       = "secrets from a keychain or secret store"
	srcDatabase    = "database rows"
	srcHolding     = "a folder that holds credentials" // home, /, ~/.config, /etc sent whole
	srcDump        = tool.SensitiveDump
	srcPeople      = "records of customers or patients"
)

// sourceOf names the sensitive data command c itself reads (and prints
// or passes on), or "".
func (k *Knowledge) sourceOf(c Command, env Env) string {
	if readsCredential(c, env) {
		return srcCredentials
	}
	here := runsIn(c, env)
	for _, rd := range c.Redirs {
		if rd.Op == "<" && !rd.Dynamic && rd.Target != "" {
			if w := pathSource(here.Abs(rd.Target), here); w != "" {
				return w
			}
		}
	}
	if len(c.Args) == 0 || c.Dynamic[0] {
		return ""
	}
	name := commandName(c.Args[0])
	switch {
	case envDump(c):
		return srcEnvironment
	case dumpTools[name]:
		return srcDump
	case historyDump(c, name):
		return srcHistory
	case k.isSQLClient(name):
		return srcDatabase
	case k.secretRead(name, c), decrypts(name, c):
		return srcStore
	case name == "echo" || name == "printf":
		if v := secretRefIn(c, nil, true, nil); v != "" {
			return "the secret in $" + v
		}
	case name == "printenv":
		// printenv GITHUB_TOKEN AWS_SECRET_ACCESS_KEY prints those
		for j := 1; j < len(c.Args); j++ {
			if !c.Dynamic[j] && secretVar(c.Args[j]) {
				return "the secret in $" + c.Args[j]
			}
		}
	}
	if !k.down[name] && !lists[name] { // what a network command prints is the answer, not what it sent
		archiver := archivers[name]
		for n := 1; n < len(c.Args); n++ {
			if a := c.Args[n]; !c.Dynamic[n] && a != "" && !strings.HasPrefix(a, "-") && !c.DirDynamic {
				if w := pathSource(here.Abs(a), here); w != "" {
					return w
				}
				if archiver {
					if w := folderSource(here.Abs(a), here); w != "" {
						return w
					}
				}
			}
		}
	}
	return ""
}

// folderSource names the sensitive data a folder p sent or archived whole
// holds: credentials when it is the root, a home, ~/.config, /etc or
// another folder credential places lie below (see paths.HoldsCredentials);
// "" for others.
func folderSource(p string, env Env) string {
	if q := strings.TrimRight(p, "/"); q != "" {
		p = q
	}
	if env.HoldsCredentials(p) {
		return srcHolding
	}
	switch base := strings.ToLower(p[strings.LastIndexByte(p, '/')+1:]); base {
	case "exports", "export", "dumps", "dump", "backups", "backup", "db_dumps", "db-dumps", "db_backups", "db-backups", "sql_dumps", "snapshots":
		return srcDump // a folder of a business's records (dumpKind names its files)
	default:
		if strings.HasSuffix(base, "_export") || strings.HasSuffix(base, "-export") || strings.HasSuffix(base, "_dump") || strings.HasSuffix(base, "-backup") {
			return srcDump
		}
	}
	return ""
}

// dataFolder reports a folder named for a project's data (data/, db/,
// database/, datasets/): sent whole to a bare address it is a dump.
// Build outputs (dist/, public/, build/) are not.
func dataFolder(p string) bool {
	p = strings.TrimRight(p, "/")
	switch strings.ToLower(p[strings.LastIndexByte(p, '/')+1:]) {
	case "data", "db", "database", "databases", "datasets", "dataset", "sqlite", "records":
		return true
	}
	return false
}

// addressed reports a destination (host, user@host:path or URL) written
// as a public IP address rather than a name (a private one is the
// company's own network).
func addressed(to string) bool {
	h := to
	if i := strings.Index(h, "://"); i >= 0 {
		h = h[i+3:]
		if j := strings.IndexAny(h, "/?#"); j >= 0 {
			h = h[:j]
		}
		if k := strings.LastIndexByte(h, '@'); k >= 0 {
			h = h[k+1:]
		}
		if hh, _, err := net.SplitHostPort(h); err == nil {
			h = hh
		}
	} else {
		h = hostOf(h)
	}
	a, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast() && !a.IsUnspecified()
}

// lists are commands that show about files, not what they hold (find
// lists names; what its -exec or an xargs reads is judged by findFed).
var lists = map[string]bool{"find": true, "fd": true, "fdfind": true, "locate": true, "ls": true, "stat": true, "file": true, "test": true, "[": true, "[[": true, "du": true, "wc": true,
	"chmod": true, "chown": true, "touch": true, "mkdir": true, "rm": true, "readlink": true, "realpath": true, "basename": true, "dirname": true}

// pathSource names the sensitive data the file p holds, or "".
func pathSource(p string, env Env) string {
	switch {
	case env.IsCredential(p): // ClassifyAbs only for a path in a place of credentials
		return srcCredentials
	case paths.SecretName(p):
		return srcSecrets
	}
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch { // a process's environment (/proc/1/environ) is a credential path
	case effect.HistoryFile(base):
		return srcHistory
	case personal(p, env.Home):
		return srcPersonal
	}
	return dumpKind(p)
}

// dumpTools print a whole database.
var dumpTools = map[string]bool{"pg_dump": true, "pg_dumpall": true, "mysqldump": true, "mariadb-dump": true, "mongodump": true,
	"mongoexport": true, "cockroach-dump": true, "influxd-backup": true}

// dumpKind names the data a file of a database's or a business's records
// holds: people's records (srcPeople) when a folder or file is named for
// customers, patients or PII, else a dump (srcDump) — a dump by its kind
// (.dump, .bak, .bson, .rdb, compressed or not), or SQL and database
// files in a folder or under a name of backups, dumps or exports
// (/var/backups/customers.sql, db_dump.sql.gz), not a project's
// migrations or schema (migrations/001_init.sql); "" for other files.
func dumpKind(p string) string {
	base := p[strings.LastIndexByte(p, '/')+1:]
	ext := path.Ext(base) // most paths end here: no extension, or one of none of these
	found := false
	low := ""
	switch {
	case ext == "":
		// a folder (or a file without extension) of people's records
		low = strings.ToLower(p)
		found = customerData(low)
	case len(ext) < 3 || len(ext) > 8:
		return ""
	default:
		var buf [8]byte
		switch string(inline.AppendLower(buf[:0], ext)) {
		case ".gz", ".bz2", ".xz", ".zst", ".zip", ".7z":
			if ext = path.Ext(base[:len(base)-len(ext)]); len(ext) < 3 || len(ext) > 8 {
				return ""
			}
		}
		switch string(inline.AppendLower(buf[:0], ext)) {
		case ".dump", ".pgdump", ".bak", ".bson", ".rdb":
			found = true
		case ".sql", ".db", ".sqlite", ".sqlite3", ".csv", ".tsv", ".jsonl", ".ndjson":
			low = strings.ToLower(p)
			found = strings.Contains(low, "backup") || strings.Contains(low, "dump") || strings.Contains(low, "export") || customerData(low)
		case ".json", ".xlsx", ".xls", ".parquet", ".avro":
			low = strings.ToLower(p)
			found = customerData(low)
		}
	}
	switch {
	case !found:
		return ""
	case low == "":
		low = strings.ToLower(p)
	}
	if customerData(low) {
		return srcPeople
	}
	return srcDump
}

// customerData reports a path (lower-case) with a folder or file named
// for the records of people a business keeps: customers, patients, PII
// (./data/customers/, exports/patients.csv).
func customerData(low string) bool {
	for _, w := range [...]string{"customer", "patient", "/pii", "_pii", "personal_data", "personal-data"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// personalDirs are the folders of home that hold a person's own files,
// mail and browsing.
var personalDirs = []string{"Documents", "Desktop", "Pictures", "Photos", "Downloads", "Mail", "Maildir", "mail",
	".thunderbird", ".local/share/evolution", "Library/Mail", "Library/Messages", "Library/Safari", "Library/Cookies",
	".config/BraveSoftware", ".config/microsoft-edge", "snap/firefox"}

// personal reports whether p is, or lies in, a folder of personal files
// in home, or the system's mail spool.
func personal(p, home string) bool {
	if paths.Within(p, "/var/mail") || paths.Within(p, "/var/spool/mail") {
		return true
	}
	home = strings.TrimSuffix(home, "/")
	if home == "" || p == home || !paths.Within(p, home) {
		return false
	}
	rest := p[len(home)+1:]
	for _, d := range personalDirs {
		if paths.Within(rest, d) {
			return true
		}
	}
	return false
}

// historyDump reports the history builtin listing the commands typed
// (not clearing or writing them), or fc -l.
func historyDump(c Command, name string) bool {
	switch name {
	case "history":
		for j := 1; j < len(c.Args); j++ {
			if a := c.Args[j]; strings.HasPrefix(a, "-") && strings.ContainsAny(a, "cdwanrs") {
				return false
			}
		}
		return true
	case "fc":
		return hasFlag(c.Args[1:], "-l")
	}
	return false
}

// secretRead reports a command that reads secrets out of a keychain or
// secret store: one of commands.yaml's cred.secret_store_read rows fires.
func (k *Knowledge) secretRead(name string, c Command) bool {
	e := k.entry(name)
	var w words
	split := false
	for _, r := range e.rows {
		if r.Rule != ruleSecretRead {
			continue
		}
		if !split {
			w, split = splitInto(words{}, e.vflags, &c), true
		}
		if _, ok := k.match(r, name, &c, w); ok {
			return true
		}
	}
	return false
}

// secretVar matches the names of environment variables that hold
// secrets.
func secretVar(name string) bool { return envname.Secret(name) }

// secretRefIn returns a secret variable (see secretVar) that the words
// data of c refer to (all its dynamic words when data is nil), or, when
// stdin is set, that a heredoc or here-string feeding it does; "" when
// none does. Variables skip reports (nil: none) are passed over.
func secretRefIn(c Command, data []int, stdin bool, skip func(string) bool) string {
	found := ""
	look := func(text string) {
		if found == "" && strings.IndexByte(text, '$') >= 0 {
			eachVarRef(text, func(name string) {
				if found == "" && secretVar(name) && (skip == nil || !skip(name)) {
					found = name
				}
			})
		}
	}
	if data == nil {
		for j := 1; j < len(c.Args); j++ {
			if c.Dynamic[j] {
				look(c.Args[j])
			}
		}
	} else {
		for _, j := range data {
			if c.Dynamic[j] {
				look(c.Args[j])
			}
		}
	}
	if stdin {
		for _, rd := range c.Redirs {
			if rd.Stdin() && (rd.Dynamic || rd.Op != "<<<") {
				look(rd.Target)
			}
		}
	}
	return found
}

// credentialVendors map the first word of a credential variable, or a
// CLI that prints a token, to its vendor and the domains its API lives
// under (a host that names the vendor — github.example.com, an
// Enterprise server — counts as the vendor's too).
var credentialVendors = map[string]struct {
	vendor  string
	domains []string
}{
	"github": {"GitHub", []string{"github.com", "githubusercontent.com", "ghcr.io"}}, "gh": {"GitHub", []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	"gitlab": {"GitLab", []string{"gitlab.com"}}, "glab": {"GitLab", []string{"gitlab.com"}},
	"aws":    {"AWS", []string{"amazonaws.com", "aws.amazon.com"}},
	"google": {"Google", []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev", "run.app", "appspot.com", "cloudfunctions.net"}},
	"gcloud": {"Google", []string{"googleapis.com", "google.com", "gcr.io", "pkg.dev", "run.app", "appspot.com", "cloudfunctions.net"}},
	"gcp":    {"Google", []string{"googleapis.com", "google.com"}},
	"azure":  {"Azure", []string{"azure.com", "microsoft.com", "windows.net", "azurecr.io", "microsoftonline.com"}}, "az": {"Azure", []string{"azure.com", "microsoft.com", "windows.net", "azurecr.io", "microsoftonline.com"}},
	"openai": {"OpenAI", []string{"openai.com"}}, "anthropic": {"Anthropic", []string{"anthropic.com"}},
	"npm": {"npm", []string{"npmjs.org", "npmjs.com", "yarnpkg.com"}}, "slack": {"Slack", []string{"slack.com"}}, "stripe": {"Stripe", []string{"stripe.com"}},
	"hf": {"Hugging Face", []string{"huggingface.co"}}, "huggingface": {"Hugging Face", []string{"huggingface.co"}},
}

// foreignCredential returns a vendor's credential among the words that
// authenticate command i's request s (a variable named for the vendor,
// $GITHUB_TOKEN; the output of its CLI, $(gh auth token), $(gcloud auth
// print-access-token)) when the request goes to a host that is not the
// vendor's, and the vendor; "" otherwise. Credentials of no known
// vendor ($API_TOKEN to the API it is for) are not judged: where they
// belong is not known.
func (k *Knowledge) foreignCredential(cmds []Command, i int, s sink) (what, vendor string) {
	host := destHost(s.to)
	if host == "" || strings.ContainsAny(host, "$`") {
		return "", ""
	}
	foreign := func(key string) (string, bool) {
		v, ok := credentialVendors[key]
		if !ok || strings.Contains(host, key) || strings.Contains(host, strings.ToLower(v.vendor)) {
			return "", false
		}
		for _, d := range v.domains {
			if webapi.UnderDomain(host, d, "") {
				return "", false
			}
		}
		return v.vendor, true
	}
	c := cmds[i]
	for _, j := range s.auth {
		var name string
		eachVarRef(c.Args[j], func(v string) {
			if name == "" && secretVar(v) {
				name = v
			}
		})
		if name != "" {
			word, _, _ := strings.Cut(strings.ToLower(name), "_")
			if v, ok := foreign(word); ok {
				return "$" + name, v
			}
		}
	}
	// the CLIs whose output the request carries ($(gh auth token))
	for _, j := range c.Inputs {
		in := cmds[j]
		if len(in.Args) < 2 || in.Dynamic[0] {
			continue
		}
		n := commandName(in.Args[0])
		if _, known := credentialVendors[n]; !known || !k.secretRead(n, in) {
			continue
		}
		if v, ok := foreign(n); ok {
			return "the output of `" + cut(in.Line(), 60) + "`", v
		}
	}
	return "", ""
}

// destHost is the host, lower-cased, of where a sink sends (a URL,
// user@host:path or host).
func destHost(to string) string {
	if i := strings.Index(to, "://"); i >= 0 {
		to = to[i+3:]
	}
	to, _, _ = strings.Cut(to, "/")
	return strings.ToLower(hostOf(to))
}

// ownService reports whether the secret in variable v goes to the
// service it is for: the variable's first word names the destination's
// domain (TELEGRAM_BOT_TOKEN to api.telegram.org, GITHUB_TOKEN to
// api.github.com).
func ownService(v, to string) bool { return envname.OwnService(v, destHost(to)) }

// substData reports whether a word c sends holds a command substitution
// (or uses a variable assigned from one): what flows in through it is
// sent.
func (k *Knowledge) substData(c Command, s sink) bool {
	if len(c.Inputs) == 0 {
		return false
	}
	for _, j := range s.data {
		if c.Dynamic[j] && strings.ContainsAny(c.Args[j], "$`") {
			return true
		}
	}
	return false
}

// dnsData reports a name whose leading labels are computed at run time
// ($(whoami).x.example, `id|base64`.x.example): data carried to the
// name's domain.
func dnsData(a string) bool {
	a = strings.Trim(a, `"'`)
	if !strings.HasPrefix(a, "$(") && !strings.HasPrefix(a, "`") && !strings.HasPrefix(a, "${") && !strings.HasPrefix(a, "$") {
		return false
	}
	end := strings.LastIndexAny(a, ")`}")
	return end > 0 && end < len(a)-1 && strings.Contains(a[end+1:], ".") && (strings.Contains(a, "$(") || strings.Contains(a, "`"))
}

// sinkKind is the kind of network client a command name is, as sinkOf
// reads what it sends: one of the cases of sinkKindOf's switch.
type sinkKind uint8

const (
	noSink sinkKind = iota // sends nothing over the network (as sinkOf reads it)
	sinkCurl
	sinkWget
	sinkHTTPie
	sinkNetcat
	sinkSocat
	sinkOpenSSL
	sinkSSH
	sinkCopy // scp, rsync, rclone
	sinkSFTP
	sinkCloud
	sinkFTP
	sinkMail
	sinkDNS
	sinkPublish // gh, glab, pastebinit: see publish
)

// sinkKindOf returns the kind of network client name is; noSink for a
// command that is none.
func sinkKindOf(name string) sinkKind {
	switch name {
	case "curl":
		return sinkCurl
	case "wget":
		return sinkWget
	case "http", "https", "xh", "xhs", "httpie":
		return sinkHTTPie
	case "nc", "ncat", "netcat", "telnet", "nc.traditional", "nc.openbsd":
		return sinkNetcat
	case "socat":
		return sinkSocat
	case "openssl":
		return sinkOpenSSL
	case "ssh":
		return sinkSSH
	case "scp", "rsync", "rclone":
		return sinkCopy
	case "sftp":
		return sinkSFTP
	case "aws", "gsutil", "gcloud", "az", "azcopy", "s3cmd":
		return sinkCloud
	case "ftp", "lftp", "tftp", "ncftpput":
		return sinkFTP
	case "mail", "mailx", "mutt", "sendmail", "msmtp", "s-nail", "neomutt":
		return sinkMail
	case "dig", "nslookup", "host", "drill", "kdig", "delv", "ping", "ping6", "traceroute", "getent", "resolvectl":
		return sinkDNS
	case "gh", "glab", "pastebinit", "gist", "gist-paste", "wgetpaste":
		return sinkPublish
	}
	return noSink
}

// mayExfil reports whether command c, whose name is of kind (noSink for
// a name computed at run time), may be a sink (see sinkOf): a network
// client, or a command whose output a redirection sends to a socket.
func mayExfil(c *Command, kind sinkKind) bool {
	return kind != noSink || len(c.Redirs) > 0 && socketRedirect(c.Redirs) != ""
}

// socketRedirect returns the target of a redirection of a command (its
// redirs) that writes to a network socket (/dev/tcp/host/port,
// /dev/udp/…), or "".
func socketRedirect(redirs []Redirect) string {
	for _, rd := range redirs {
		if rd.Writes() && !rd.Dynamic && (strings.HasPrefix(rd.Target, "/dev/tcp/") || strings.HasPrefix(rd.Target, "/dev/udp/")) {
			return rd.Target
		}
	}
	return ""
}

// sinkOf reads what command c sends over the network, if anything.
func (k *Knowledge) sinkOf(c Command, env Env) (sink, bool) {
	if target := socketRedirect(c.Redirs); target != "" {
		// its output goes to the socket: what it reads itself too
		host, _, _ := strings.Cut(target[len("/dev/tcp/"):], "/")
		s := sink{name: "a /dev/tcp redirection", to: host, stdin: true, self: true}
		if len(c.Args) > 0 && !c.Dynamic[0] {
			for j := 1; j < len(c.Args); j++ {
				if !c.Dynamic[j] && !strings.HasPrefix(c.Args[j], "-") {
					s.files = append(s.files, runsIn(c, env).Abs(c.Args[j]))
				}
				s.data = append(s.data, j)
			}
		}
		return s, true
	}
	if len(c.Args) == 0 || c.Dynamic[0] {
		return sink{}, false
	}
	name := commandName(c.Args[0])
	here := runsIn(c, env)
	s := sink{name: name}
	switch sinkKindOf(name) {
	case sinkCurl:
		s.http = true
		s.curl(c, here)
	case sinkWget:
		s.http = true
		s.wget(c, here)
	case sinkHTTPie:
		s.http = true
		s.httpie(c, here)
	case sinkNetcat:
		s.to, s.stdin = connectHost(c, name), true
	case sinkSocat:
		for j := 1; j < len(c.Args); j++ {
			if h := socatHost(c.Args[j]); h != "" && !c.Dynamic[j] {
				s.to = h
			}
			if a := strings.ToUpper(c.Args[j]); strings.HasPrefix(a, "FILE:") || strings.HasPrefix(a, "OPEN:") || strings.HasPrefix(a, "GOPEN:") {
				p, _, _ := strings.Cut(c.Args[j][strings.IndexByte(a, ':')+1:], ",")
				s.files = append(s.files, here.Abs(p))
			}
		}
		s.stdin = true
	case sinkOpenSSL:
		if len(c.Args) < 2 || c.Args[1] != "s_client" {
			return s, false
		}
		for j := 2; j+1 < len(c.Args); j++ {
			if c.Args[j] == "-connect" {
				s.to = c.Args[j+1]
			}
		}
		s.stdin = true
	case sinkSSH:
		w := k.split(name, c)
		if len(w.operands) == 0 {
			return s, false
		}
		s.to = hostOf(c.Args[w.operands[0]])
		s.stdin = true
		s.data = w.operands[1:]
	case sinkCopy:
		if !s.copies(c, here) {
			return s, false
		}
	case sinkSFTP:
		if !s.copies(c, here) {
			s.ftp(k, c, here)
		}
	case sinkCloud:
		if !s.cloud(c, here) {
			return s, false
		}
	case sinkFTP:
		s.ftp(k, c, here)
	case sinkMail:
		for j := 1; j < len(c.Args); j++ {
			a := c.Args[j]
			switch {
			case (a == "-a" || a == "-A" || a == "--attach") && j+1 < len(c.Args):
				j++
				if !c.Dynamic[j] {
					s.files = append(s.files, here.Abs(c.Args[j]))
				}
			case a == "-s" || a == "-c" || a == "-b" || a == "-r" || a == "-f":
				s.data = append(s.data, j+1)
				j++
			case !strings.HasPrefix(a, "-") && strings.Contains(a, "@") && s.to == "":
				s.to = "mailto:" + a
			}
		}
		if s.to == "" {
			s.to = "mail"
		}
		s.stdin = true
	case sinkDNS:
		s.dns = true
		w := k.split(name, c)
		for _, j := range w.operands {
			if strings.HasPrefix(c.Args[j], "@") {
				continue // dig @server
			}
			s.data = append(s.data, j)
			if c.Dynamic[j] && s.to == "" {
				if d := domainOf(c.Args[j]); d != "" {
					s.to = d
				}
			}
		}
		if len(s.data) == 0 {
			return s, false
		}
		if s.to == "" {
			s.to = "a DNS resolver"
		}
	case sinkPublish:
		if !s.publish(c, here) {
			return s, false
		}
	default:
		return s, false
	}
	if s.stdin {
		for _, rd := range c.Redirs {
			if rd.Op == "<" && !rd.Dynamic && rd.Target != "" {
				s.files = append(s.files, here.Abs(rd.Target))
			}
		}
	}
	if len(c.Inputs) > 0 && slices.Contains(c.Via, "xargs") {
		// xargs turns what it reads into the words of the command it
		// runs: what flows into xargs is sent as those words (a URL, a
		// header, a body)
		s.stdin = true
	}
	if len(s.files) == 0 && !s.stdin && len(s.data) == 0 && len(s.auth) == 0 {
		return s, false
	}
	return s, true
}

// ftp reads what ftp, lftp, tftp and sftp's batch mode send: the files
// their scripts (stdin, -e, -c) put, and stdin itself.
func (s *sink) ftp(k *Knowledge, c Command, env Env) {
	w := k.split(s.name, c)
	for _, j := range w.operands {
		if !c.Dynamic[j] && s.to == "" {
			s.to = hostOf(c.Args[j])
		}
	}
	s.stdin = true
	for _, rd := range c.Redirs {
		if rd.Stdin() {
			s.ftpScript(rd.Target, env)
		}
	}
	for j := 1; j+1 < len(c.Args); j++ {
		if c.Args[j] == "-e" || c.Args[j] == "-c" {
			s.ftpScript(c.Args[j+1], env)
		}
	}
}

// hostOf is the host of user@host or host:path.
func hostOf(a string) string {
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a = a[i+1:]
	}
	h, _, _ := strings.Cut(a, ":")
	return h
}

// domainOf is the part of a name computed at run time that is written
// out: $(id).x.example → x.example.
func domainOf(a string) string {
	a = strings.Trim(a, `"'`)
	end := strings.LastIndexAny(a, ")`}")
	if end < 0 || end+1 >= len(a) {
		return ""
	}
	return strings.TrimPrefix(a[end+1:], ".")
}

// curlDataFlags are curl's flags whose value is data sent, and
// curlAuthFlags those whose value authenticates the request.
var (
	curlDataFlags = setOf("-d", "--data", "--data-raw", "--data-binary", "--data-ascii", "--data-urlencode", "--json",
		"-F", "--form", "--form-string", "--url-query", "-T", "--upload-file")
	curlAuthFlags = setOf("-u", "--user", "--oauth2-bearer", "-b", "--cookie", "-U", "--proxy-user", "--aws-sigv4", "-E", "--cert", "--key", "--pass")
)

// curl reads what curl sends: the files of -T, -d @f, -F x=@f; stdin
// for @- and -T -; the data of its body, form, URL and headers other
// than those that authenticate.
func (s *sink) curl(c Command, env Env) {
	vf := clientValueFlags["curl"]
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if c.Dynamic[j] {
			s.data = append(s.data, j)
			if u := strings.Trim(a, `"'`); s.to == "" && isURL(u) {
				s.to = u // its host is written out, most often
			}
			continue
		}
		a = curlCluster(a)
		val := ""
		if f, v, ok := cutLong(a); ok {
			a, val = f, v
			s.curlValue(a, val, j, false, c, env)
			continue
		}
		switch {
		case vf[a] && j+1 < len(c.Args):
			j++
			s.curlValue(a, c.Args[j], j, c.Dynamic[j], c, env)
		case isURL(a) || (!strings.HasPrefix(a, "-") && s.to == "" && strings.Contains(a, ".")):
			if s.to == "" {
				s.to = withScheme(a)
			}
		}
	}
}

// curlValue reads the value v (word j; dyn when computed) of curl's
// flag f.
func (s *sink) curlValue(f, v string, j int, dyn bool, c Command, env Env) {
	switch {
	case curlAuthFlags[f]:
		if dyn && len(s.auth) < 4 {
			s.auth = append(s.auth, j)
		}
		return
	case f == "-H" || f == "--header":
		if !dyn {
			return
		}
		name, _, _ := strings.Cut(strings.Trim(v, `"'`), ":")
		if authHeader(name) {
			if len(s.auth) < 4 {
				s.auth = append(s.auth, j)
			}
			return
		}
		s.data = append(s.data, j)
	case curlDataFlags[f]:
		if dyn {
			s.data = append(s.data, j)
			return
		}
		if f == "-T" || f == "--upload-file" {
			if v == "-" || v == "." {
				s.stdin = true
			} else {
				s.files = append(s.files, env.Abs(v))
			}
			return
		}
		if f == "--data-raw" || f == "--form-string" {
			return
		}
		file := ""
		if strings.HasPrefix(v, "@") {
			file = v[1:]
		} else if k := strings.Index(v, "=@"); k >= 0 && (f == "-F" || f == "--form") {
			file = v[k+2:]
		} else if k := strings.Index(v, "=<"); k >= 0 && (f == "-F" || f == "--form") {
			file = v[k+2:]
		} else if k := strings.Index(v, "@"); k >= 0 && f == "--data-urlencode" && !strings.Contains(v[:k], "=") {
			file = v[k+1:]
		}
		if semi := strings.IndexByte(file, ';'); semi >= 0 {
			file = file[:semi]
		}
		switch file {
		case "":
		case "-", "/dev/stdin":
			s.stdin = true
		default:
			s.files = append(s.files, env.Abs(file))
		}
	}
}

// authHeader reports a header that authenticates a request: sending a
// token there is what the token is for.
func authHeader(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return n == "authorization" || n == "proxy-authorization" || n == "cookie" || strings.Contains(n, "token") ||
		strings.Contains(n, "api-key") || strings.Contains(n, "apikey") || strings.Contains(n, "api_key") || strings.HasPrefix(n, "x-auth")
}

// wget reads what wget sends: --post-file and --body-file, the data of
// --post-data and --body-data, its URLs.
func (s *sink) wget(c Command, env Env) {
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if c.Dynamic[j] {
			if !strings.Contains(a, "--header") {
				s.data = append(s.data, j)
			}
			if u := strings.Trim(a, `"'`); s.to == "" && isURL(u) {
				s.to = u
			}
			continue
		}
		switch {
		case strings.HasPrefix(a, "--post-file=") || strings.HasPrefix(a, "--body-file="):
			if f := a[strings.IndexByte(a, '=')+1:]; f == "-" || f == "/dev/stdin" {
				s.stdin = true
			} else {
				s.files = append(s.files, env.Abs(f))
			}
		case isURL(a) && s.to == "":
			s.to = a
		}
	}
}

// httpie reads what httpie and xh send: stdin when piped (unless
// --ignore-stdin), files of field@file and @file, the data of items.
func (s *sink) httpie(c Command, env Env) {
	s.stdin = true
	for j := 1; j < len(c.Args); j++ {
		a := c.Args[j]
		switch {
		case a == "--ignore-stdin" || a == "-I":
			s.stdin = false
		case a == "-a" || a == "--auth" || a == "-A" || a == "--auth-type":
			j++
		case strings.HasPrefix(a, "-"):
		case s.to == "" && !isMethod(a):
			s.to = withScheme(a)
			if c.Dynamic[j] {
				s.data = append(s.data, j)
			}
		case c.Dynamic[j]:
			if name, _, ok := strings.Cut(strings.Trim(a, `"'`), ":"); ok && !strings.Contains(name, "=") && authHeader(name) {
				continue
			}
			s.data = append(s.data, j)
		default:
			if k := strings.IndexByte(a, '@'); k >= 0 && !strings.Contains(a[:k], "=") && !strings.Contains(a[:k], ":") {
				s.files = append(s.files, env.Abs(a[k+1:]))
			} else if k := strings.Index(a, "=@"); k >= 0 {
				s.files = append(s.files, env.Abs(a[k+2:]))
			}
		}
	}
}

// scpValueFlags and rsyncValueFlags take the next word as their value.
var (
	scpValueFlags   = setOf("-i", "-P", "-p", "-o", "-F", "-c", "-l", "-S", "-J", "-D", "-X")
	rsyncValueFlags = setOf("-e", "--rsh", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "-f", "--filter",
		"--rsync-path", "--log-file", "--password-file", "--port", "--partial-dir", "--temp-dir", "-T", "--backup-dir", "--chmod", "--config")
)

// copies reads what scp, sftp, rsync and rclone send: the local files
// copied to a remote operand (host:path, rclone remote:path).
func (s *sink) copies(c Command, env Env) bool {
	vf := scpValueFlags
	if s.name == "rsync" || s.name == "rclone" {
		vf = rsyncValueFlags
	}
	var ops []int
	start := 1
	if s.name == "rclone" {
		if len(c.Args) < 2 {
			return false
		}
		switch c.Args[1] {
		case "copy", "copyto", "sync", "move", "moveto", "rcat":
		default:
			return false
		}
		start = 2
		if c.Args[1] == "rcat" {
			s.stdin = true
		}
	}
	for j := start; j < len(c.Args); j++ {
		a := c.Args[j]
		if strings.HasPrefix(a, "-") && !c.Dynamic[j] {
			if vf[a] {
				j++
			}
			continue
		}
		ops = append(ops, j)
	}
	if len(ops) == 0 {
		return false
	}
	last := c.Args[ops[len(ops)-1]]
	if !remoteOperand(last) {
		return false
	}
	s.to = hostOf(last)
	if strings.HasPrefix(last, "rsync://") {
		s.to = last
	}
	for _, j := range ops[:len(ops)-1] {
		if a := c.Args[j]; !c.Dynamic[j] && !remoteOperand(a) {
			s.files = append(s.files, env.Abs(a))
		} else if c.Dynamic[j] {
			s.data = append(s.data, j)
		}
	}
	return true
}

// remoteOperand reports an operand naming another host: host:path,
// user@host:path, rsync://, a remote of rclone (name:path).
func remoteOperand(a string) bool {
	if strings.HasPrefix(a, "rsync://") {
		return true
	}
	i := strings.IndexByte(a, ':')
	return i > 0 && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, ".") && !strings.HasPrefix(a, "~") && !strings.ContainsAny(a[:i], "/$`")
}

// cloud reads what a cloud storage copy sends: local files copied to a
// bucket or container (aws s3 cp/mv/sync, gsutil cp/mv/rsync, gcloud
// storage cp, az storage blob upload, azcopy copy/sync, s3cmd put).
func (s *sink) cloud(c Command, env Env) bool {
	var ops []int
	for j := 1; j < len(c.Args); j++ {
		if a := c.Args[j]; !strings.HasPrefix(a, "-") || a == "-" || c.Dynamic[j] { // -: stdin (aws s3 cp - s3://b/k)
			ops = append(ops, j)
		} else if a == "--file" || a == "-f" || a == "--source" || a == "-s" {
			if j+1 < len(c.Args) && s.name == "az" {
				if !c.Dynamic[j+1] {
					s.files = append(s.files, env.Abs(c.Args[j+1]))
				}
				j++
			}
		} else if a == "--profile" || a == "--region" || a == "--endpoint-url" || a == "--project" || a == "-c" || a == "--container-name" ||
			a == "--account-name" || a == "-n" || a == "--name" || a == "--exclude" || a == "--include" || a == "--sse" || a == "--acl" ||
			a == "--storage-class" || a == "--content-type" || a == "-x" || a == "-h" {
			j++
		}
	}
	word := func(n int) string {
		if n < len(ops) {
			return c.Args[ops[n]]
		}
		return ""
	}
	var rest []int
	switch s.name {
	case "aws":
		if word(0) != "s3" || (word(1) != "cp" && word(1) != "mv" && word(1) != "sync") {
			return false
		}
		rest = ops[2:]
	case "gsutil":
		if word(0) != "cp" && word(0) != "mv" && word(0) != "rsync" {
			return false
		}
		rest = ops[1:]
	case "gcloud":
		if word(0) != "storage" || (word(1) != "cp" && word(1) != "mv" && word(1) != "rsync") {
			return false
		}
		rest = ops[2:]
	case "s3cmd":
		if word(0) != "put" && word(0) != "sync" {
			return false
		}
		rest = ops[1:]
	case "azcopy":
		if word(0) != "copy" && word(0) != "cp" && word(0) != "sync" {
			return false
		}
		rest = ops[1:]
	case "az":
		if word(0) != "storage" || len(s.files) == 0 {
			return false
		}
		s.to = "an Azure storage account"
		return true
	}
	if len(rest) < 2 {
		return false
	}
	dst := c.Args[rest[len(rest)-1]]
	if !isURL(dst) {
		return false
	}
	s.to = dst
	for _, j := range rest[:len(rest)-1] {
		a := c.Args[j]
		switch {
		case c.Dynamic[j]:
			s.data = append(s.data, j)
		case a == "-":
			s.stdin = true
		case !isURL(a):
			s.files = append(s.files, env.Abs(a))
		}
	}
	return true
}

// ftpScript reads the files an ftp script sends: put, mput, send.
func (s *sink) ftpScript(script string, env Env) {
	for line := range strings.SplitSeq(script, "\n") {
		f := strings.Fields(strings.ReplaceAll(line, ";", " "))
		for i := 0; i+1 < len(f); i++ {
			switch f[i] {
			case "put", "mput", "send", "append":
				s.files = append(s.files, env.Abs(f[i+1]))
			}
		}
	}
}
