package shell

import (
	"slices"
	"strings"

	"github.com/agentwarden/warden/internal/lazyre"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Data stores beyond SQL. Key-value and document stores take their
// commands on the command line or stdin of their clients, in languages of
// their own: Redis commands (FLUSHALL, CONFIG SET dir …), MongoDB shell
// JavaScript (db.users.deleteMany({})). The shell resolves the client and
// where its text stands (as for SQL clients); these tables judge the text.
// A production host or database named on the command line raises a
// destructive finding to critical, as it does for SQL.

// storeKind is the language a data store client reads.
type storeKind uint8

const (
	redisStore storeKind = iota + 1
	mongoStore
)

// storeClient says where a data store client takes its commands: its
// value flags (whose values are not commands), the flags that carry
// script text, and the flags that name the host or database.
type storeClient struct {
	kind   storeKind
	vflags map[string]bool
	text   []string // flags whose value is the client's program (mongosh --eval)
	conn   []string // flags naming the host or database (-h prod-cache)
}

var redisClient = storeClient{kind: redisStore,
	vflags: set([]string{"-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "-d", "-D", "--user", "--pass", "--cacert", "--cacertdir",
		"--cert", "--key", "--sni", "--pattern", "--quoted-pattern", "--count", "--rdb", "--functions-rdb", "--memkeys-samples",
		"--eval", "--pipe-timeout", "--tls-ciphers", "--tls-ciphersuites", "--hotkeys", "--intrinsic-latency"}),
	conn: []string{"-h", "-u", "-n"}}

var mongoClient = storeClient{kind: mongoStore,
	vflags: set([]string{"--host", "-h", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase",
		"--authenticationMechanism", "--eval", "--file", "-f", "--tlsCAFile", "--tlsCertificateKeyFile"}),
	text: []string{"--eval"},
	conn: []string{"--host", "-h"}}

// storeClients are the clients warden reads, by command name.
var storeClients = map[string]*storeClient{
	"redis-cli": &redisClient, "valkey-cli": &redisClient, "keydb-cli": &redisClient,
	"mongo": &mongoClient, "mongosh": &mongoClient,
}

// redisCommands judges a Redis command by its name (upper case), or by
// its name and first argument ("CONFIG SET"). Commands not here read or
// write single values and get no finding.
var redisCommands = map[string]redisRule{
	"FLUSHALL":         {risk.Critical, "deletes every key of every database"},
	"FLUSHDB":          {risk.Critical, "deletes every key of the database"},
	"SWAPDB":           {risk.High, "swaps two whole databases under their clients"},
	"SHUTDOWN":         {risk.High, "stops the server"},
	"DEBUG":            {risk.High, "runs a debugging command (crash, reload, sleep) on the server"},
	"SLAVEOF":          {risk.High, "turns the server into a replica of another, discarding its data"},
	"REPLICAOF":        {risk.High, "turns the server into a replica of another, discarding its data"},
	"FAILOVER":         {risk.High, "hands the primary role to a replica"},
	"CONFIG SET":       {risk.High, "changes the server's configuration (CONFIG SET dir/dbfilename writes files anywhere the server can)"},
	"CONFIG REWRITE":   {risk.High, "rewrites the server's configuration file"},
	"CONFIG RESETSTAT": {risk.Medium, "resets the server's statistics"},
	"MODULE LOAD":      {risk.High, "loads native code into the server"},
	"MODULE LOADEX":    {risk.High, "loads native code into the server"},
	"MODULE UNLOAD":    {risk.High, "unloads a module the server runs"},
	"ACL SETUSER":      {risk.High, "creates or changes a user's permissions"},
	"ACL DELUSER":      {risk.High, "deletes users"},
	"ACL LOAD":         {risk.High, "replaces the users and permissions from a file"},
	"CLUSTER RESET":    {risk.High, "resets a cluster node, forgetting its slots and peers"},
	"CLUSTER FORGET":   {risk.High, "removes a node from the cluster"},
	"CLUSTER FAILOVER": {risk.High, "forces a cluster failover"},
	"SCRIPT FLUSH":     {risk.Medium, "drops the server's script cache"},
	"FUNCTION FLUSH":   {risk.High, "deletes every function library"},
	"FUNCTION DELETE":  {risk.High, "deletes a function library"},
	"CLIENT KILL":      {risk.Medium, "disconnects clients"},
	"DEL":              {risk.Medium, "deletes keys"},
	"UNLINK":           {risk.Medium, "deletes keys"},
	"GETDEL":           {risk.Medium, "deletes a key"},
	"MIGRATE":          {risk.Medium, "moves keys to another server, deleting them here"},
	"RESTORE":          {risk.Medium, "overwrites a key from a dump"},
}

type redisRule struct {
	level risk.Level
	what  string
}

// storeFindings judges the commands data store client i (of kind cl) is
// given on its command line and stdin.
func (k *Knowledge) storeFindings(out []risk.Finding, cmds []Command, i int, cl *storeClient) []risk.Finding {
	c := cmds[i]
	w := splitInto(words{}, cl.vflags, &c)
	conn := appendFlagValues(nil, c.Args, cl.conn)
	n := len(out)
	switch cl.kind {
	case redisStore:
		if len(w.operands) > 0 {
			args := make([]string, len(w.operands))
			dyn := false
			for n, j := range w.operands {
				args[n], dyn = c.Args[j], dyn || c.Dynamic[j]
			}
			out = redisFindings(out, args, slices.Contains(c.Via, "xargs") && len(c.Inputs) > 0, dyn)
		}
		for _, t := range stdinTexts(cmds, i) {
			for _, line := range strings.Split(t, "\n") {
				out = redisFindings(out, strings.Fields(line), false, false)
			}
		}
	case mongoStore:
		for _, j := range w.operands {
			conn = append(conn, c.Args[j]) // the database or connection string
		}
		texts := appendFlagValues(stdinTexts(cmds, i), c.Args, cl.text)
		for _, t := range texts {
			out = MongoFindings(out, t)
		}
	}
	raiseOnProduction(out[n:], conn)
	return out
}

// appendFlagValues appends the values args gives the flags named in
// flags, as the next word (-h host) or attached (--host=host), in the
// order they stand.
func appendFlagValues(out, args, flags []string) []string {
	for j := 1; j < len(args); j++ {
		a := args[j]
		for _, f := range flags {
			if a == f && j+1 < len(args) {
				out = append(out, args[j+1])
			} else if hasValue(a, f) {
				out = append(out, a[len(f)+1:])
			}
		}
	}
	return out
}

// stdinTexts returns what command i reads on stdin that the script
// shows: heredocs and here-strings, and what echo or printf pipe into it
// (as they print it: escapes read, printf's format applied).
func stdinTexts(cmds []Command, i int) []string {
	var texts []string
	for _, rd := range cmds[i].Redirs {
		if rd.Stdin() {
			texts = append(texts, rd.Target)
		}
	}
	for _, j := range cmds[i].Inputs {
		in := cmds[j]
		if len(in.Args) > 1 {
			if n := commandName(in.Args[0]); n == "echo" || n == "printf" {
				texts = append(texts, echoText(in))
			}
		}
	}
	return texts
}

// redisFindings judges one Redis command, args[0] its name. fed is set
// when xargs feeds it more arguments (keys listed by another command: a
// mass deletion); dyn when some argument is computed at run time.
func redisFindings(out []risk.Finding, args []string, fed, dyn bool) []risk.Finding {
	if len(args) == 0 {
		return out
	}
	name := strings.ToUpper(args[0])
	// a key naming a security control, set off (see ControlKeyOff)
	switch {
	case dyn:
	case name == "SET" && len(args) > 2:
		return appendControlOff(out, "redis-cli", args[1], args[2])
	case (name == "SETEX" || name == "PSETEX") && len(args) > 3:
		return appendControlOff(out, "redis-cli", args[1], args[3])
	case name == "HSET" && len(args) > 3:
		return appendControlOff(out, "redis-cli", args[1]+":"+args[2], args[3])
	}
	r, ok := redisCommands[name]
	if len(args) > 1 {
		if r2, ok2 := redisCommands[name+" "+strings.ToUpper(args[1])]; ok2 {
			r, ok, name = r2, true, name+" "+strings.ToUpper(args[1])
		}
	}
	if !ok {
		return out
	}
	f := risk.Finding{Analyzer: "shell", Rule: "db.kv_command", Level: r.level, Reason: "The Redis command " + name + " " + r.what,
		Resource: "redis:" + name}
	if name == "DEL" || name == "UNLINK" {
		keys := args[1:]
		switch {
		case fed || dyn:
			f.Level, f.Reason = risk.High, "The Redis command "+name+" deletes keys another command lists, however many match"
		case len(keys) == 0:
			return out
		case slices.ContainsFunc(keys, func(k string) bool { return strings.ContainsAny(k, "*?[") }):
			f.Reason += " (DEL does not expand patterns: a key named with * is deleted only if it exists as written)"
		}
	}
	if f.Level == risk.Critical {
		f.Locked = true
	}
	return append(out, f)
}

// mongoMethods judge the MongoDB shell's destructive methods; the empty
// filter ({} or none) of a bulk delete or update takes every document.
var mongoMethods = lazyre.New(`\.\s*(dropDatabase|drop|deleteMany|remove|deleteOne|findOneAndDelete|updateMany|replaceOne|dropUser|dropAllUsers|dropRole|dropAllRoles|dropIndex|dropIndexes|shutdownServer|renameCollection|dropSearchIndex)\s*\(\s*(\{\s*\}\s*[,)]|\))?`)

var mongoRules = map[string]redisRule{
	"dropDatabase":     {risk.Critical, "deletes the whole database"},
	"drop":             {risk.High, "deletes a whole collection"},
	"dropAllUsers":     {risk.High, "deletes every user"},
	"dropAllRoles":     {risk.High, "deletes every role"},
	"dropUser":         {risk.High, "deletes a user"},
	"dropRole":         {risk.High, "deletes a role"},
	"shutdownServer":   {risk.High, "stops the server"},
	"dropIndexes":      {risk.Medium, "drops indexes"},
	"dropIndex":        {risk.Medium, "drops an index"},
	"dropSearchIndex":  {risk.Medium, "drops a search index"},
	"renameCollection": {risk.Medium, "renames a collection (and may drop the target)"},
	"deleteMany":       {risk.Medium, "deletes the documents its filter matches"},
	"remove":           {risk.Medium, "deletes the documents its filter matches"},
	"updateMany":       {risk.Medium, "changes the documents its filter matches"},
	"deleteOne":        {risk.Low, "deletes a document"},
	"findOneAndDelete": {risk.Low, "deletes a document"},
	"replaceOne":       {risk.Low, "replaces a document"},
}

// mongoCommands judge the database commands run through
// db.adminCommand or db.runCommand ({shutdown: 1}, "shutdown"), whose
// names the methods above do not show; group 2 holds the rest of the
// command document, where force: true may stand.
var mongoCommands = lazyre.New(`(?:adminCommand|runCommand)\s*\(\s*(?:\{\s*["']?|["'])(shutdown|dropDatabase|drop|replSetReconfig|replSetStepDown|dropAllUsersFromDatabase|dropAllRolesFromDatabase|dropUser|removeShard|fsync)\b([^)]{0,200})`)

var mongoCommandRules = map[string]redisRule{
	"shutdown":                 {risk.High, "stops the server"},
	"dropDatabase":             {risk.Critical, "deletes the whole database"},
	"drop":                     {risk.High, "deletes a whole collection"},
	"replSetReconfig":          {risk.Medium, "changes the replica set's members"},
	"replSetStepDown":          {risk.Medium, "makes the primary step down"},
	"dropAllUsersFromDatabase": {risk.High, "deletes every user"},
	"dropAllRolesFromDatabase": {risk.High, "deletes every role"},
	"dropUser":                 {risk.High, "deletes a user"},
	"removeShard":              {risk.High, "drains and removes a shard from the cluster"},
	"fsync":                    {risk.Low, "flushes (and may lock) the server"},
}

var mongoForce = lazyre.New(`\bforce["']?\s*:\s*(?:true|1)\b`)

// MongoFindings judges MongoDB shell JavaScript (mongosh --eval, a
// heredoc): dropping databases, collections and users, and bulk deletes
// and updates, which take every document when the filter is empty.
func MongoFindings(out []risk.Finding, js string) []risk.Finding {
	if !strings.Contains(js, "(") {
		return out
	}
	if len(js) > maxStoreText {
		js = js[:maxStoreText]
	}
	for _, m := range mongoMethods.Get().FindAllStringSubmatch(js, 16) {
		r := mongoRules[m[1]]
		f := risk.Finding{Analyzer: "shell", Rule: "db.document_command", Level: r.level, Reason: "The MongoDB method " + m[1] + " " + r.what,
			Resource: "mongodb:" + m[1]}
		if m[2] != "" && (m[1] == "deleteMany" || m[1] == "remove" || m[1] == "updateMany") {
			f.Level, f.Reason = risk.High, "The MongoDB method "+m[1]+" with an empty filter takes every document of the collection"
		}
		if f.Level == risk.Critical {
			f.Locked = true
		}
		out = append(out, f)
	}
	if !strings.Contains(js, "Command") {
		return out
	}
	for _, m := range mongoCommands.Get().FindAllStringSubmatch(js, 16) {
		r := mongoCommandRules[m[1]]
		f := risk.Finding{Analyzer: "shell", Rule: "db.document_command", Level: r.level, Reason: "The MongoDB command " + m[1] + " " + r.what,
			Resource: "mongodb:" + m[1]}
		if m[1] == "replSetReconfig" && mongoForce.Get().MatchString(m[2]) {
			f.Level, f.Reason = risk.High, "The MongoDB command replSetReconfig with force: true rewrites the replica set's members without a majority, and may roll back writes"
		}
		if f.Level == risk.Critical {
			f.Locked = true
		}
		out = append(out, f)
	}
	return out
}

// maxStoreText bounds the text of one data store command read.
const maxStoreText = 64 << 10

// raiseOnProduction raises the destructive (high, irreversible) findings
// of a data store command to critical when the command names a
// production host or database.
func raiseOnProduction(fs []risk.Finding, conn []string) {
	prod := tool.FirstProduction(conn...)
	if prod == "" {
		return
	}
	for i := range fs {
		if fs[i].Level == risk.High && !fs[i].Reversible {
			fs[i].Level, fs[i].Locked = risk.Critical, true
			fs[i].Reason += " on production (" + prod + ")"
		}
	}
}
