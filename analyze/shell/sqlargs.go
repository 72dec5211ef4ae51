package shell

import (
	"strings"

	"github.com/agentwarden/warden/analyze/sql"
	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// SQL given to a program warden does not know as a database client:
// platforms' database commands (wrangler d1 execute --command, turso db
// shell DB "…", heroku pg:psql -c, supabase, neon, planetscale) take a
// statement as a flag's value or an operand, as psql -c does. A word that
// starts as a statement that writes (DROP …, DELETE FROM, UPDATE … SET,
// TRUNCATE, ALTER, INSERT INTO, GRANT) is read by the SQL analyzer the
// way a known client's is, and a production database named on the line
// raises it the same way. The value of --command, --sql, --query,
// --execute, --statement or --eval counts on any program; -c, -e and -q
// (whose meaning varies) and operands only on programs warden has no
// other knowledge of. Text tools (grep, sed, echo …), interpreters and the
// known clients (sql_clients) are not read here.

// notSQLArgs are programs whose words quote SQL without running it.
var notSQLArgs = map[string]bool{"git": true, "grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ack": true,
	"sed": true, "awk": true, "echo": true, "printf": true, "jq": true, "yq": true, "xargs": true, "find": true, "gh": true, "glab": true,
	"ssh": true, "docker": true, "podman": true, "kubectl": true, "tmux": true, "screen": true, "watch": true, "timeout": true}

// writeStatement reports text that starts as an SQL statement that
// changes data, schema or rights: its first keyword and the word that
// must follow it (FROM after DELETE, SET in an UPDATE …).
func writeStatement(s string) bool {
	if len(s) < 8 {
		return false
	}
	if s[0] == ' ' || s[0] == '\n' || s[0] == '(' {
		s = strings.TrimLeft(s, " \t\r\n(")
		if len(s) < 8 {
			return false
		}
	}
	switch s[0] | 0x20 { // the first letters of the keywords below
	case 'd', 'a', 'c', 't', 'i', 'r', 'u', 'g':
	default:
		return false
	}
	kw, rest, ok := strings.Cut(s, " ")
	if !ok || len(kw) > 8 {
		return false
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	next, _, _ := strings.Cut(rest, " ")
	next = strings.TrimRight(next, ";")
	switch strings.ToUpper(kw) {
	case "DROP", "ALTER", "CREATE":
		switch strings.ToUpper(next) {
		case "TABLE", "DATABASE", "SCHEMA", "INDEX", "VIEW", "USER", "ROLE", "TRIGGER", "FUNCTION", "PROCEDURE", "COLUMN",
			"MATERIALIZED", "SEQUENCE", "TYPE", "EXTENSION", "OWNED", "POLICY", "TEMPORARY", "TEMP", "UNIQUE", "OR":
			return true
		}
	case "TRUNCATE":
		return next != "" && (strings.EqualFold(next, "TABLE") || !strings.Contains(rest, " ") || strings.HasSuffix(strings.TrimSpace(rest), ";"))
	case "DELETE":
		return strings.EqualFold(next, "FROM")
	case "INSERT", "REPLACE":
		return strings.EqualFold(next, "INTO")
	case "UPDATE":
		return containsFold(rest, " SET ")
	case "GRANT":
		return containsFold(rest, " TO ")
	case "REVOKE":
		return containsFold(rest, " FROM ")
	}
	return false
}

// containsFold reports whether s holds sub (upper case ASCII) in any case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// argSQL adds the SQL analyzer's findings on the statements command c
// (entry e, not a database client) is given in its words.
func argSQL(out []risk.Finding, c *Command, name string, e *entry, call *tool.Call) []risk.Finding {
	if e.interp || e.printer || e.down || e.archiver || e.store != nil {
		return out
	}
	plain := e.rows == nil && e.judge == nil && e.vflags == nil // warden knows nothing else of it
	// the words are scanned for statements first (most commands give
	// none) and for the rest (the connection words) only when one is found
	texts := sqlArgTexts(c.Args, plain, nil)
	if len(texts) == 0 || notSQLArgs[name] || isBuiltin(name) || launcher(name) || wrappersOf(name) != nil {
		return out // a wrapper's words are the command it runs, judged on its own
	}
	var conn []string
	sqlArgTexts(c.Args, plain, &conn)
	prod, looked := "", false
	for _, t := range texts {
		n := len(out)
		out = append(out, sqlFact(call, t).Findings...)
		if len(out) > n {
			if !looked {
				prod, looked = tool.FirstProduction(conn...), true
			}
			sql.EscalateOn(out[n:], prod)
		}
	}
	return out
}

// sqlArgTexts returns the statements in args (a command's words, its name
// first) and, when conn is not nil, appends the other words to *conn.
func sqlArgTexts(args []string, plain bool, conn *[]string) []string {
	var texts []string
	for j := 1; j < len(args); j++ {
		a := args[j]
		if a == "" {
			continue
		}
		if a[0] == '-' {
			if len(a) < 3 { // -c, -e, -q
				if plain && sqlShortFlag(a) && j+1 < len(args) && writeStatement(args[j+1]) {
					texts = append(texts, args[j+1])
					j++
				}
				continue
			}
			if a[1] != '-' {
				continue
			}
			f, v, eq := strings.Cut(a, "=")
			switch {
			case eq && sqlLongFlag(f):
				if writeStatement(v) {
					texts = append(texts, v)
				}
			case !eq && sqlLongFlag(a) && j+1 < len(args):
				if writeStatement(args[j+1]) {
					texts = append(texts, args[j+1])
					j++
				}
			}
			continue
		}
		if plain && writeStatement(a) {
			texts = append(texts, a)
			continue
		}
		if conn != nil {
			*conn = append(*conn, a)
		}
	}
	return texts
}

// sqlLongFlag reports the flags whose value is a statement on any program.
func sqlLongFlag(s string) bool {
	switch s {
	case "--command", "--sql", "--query", "--execute", "--statement", "--eval":
		return true
	}
	return false
}

// sqlShortFlag reports the flags whose value may be a statement on a
// program warden has no other knowledge of.
func sqlShortFlag(s string) bool { return s == "-c" || s == "-e" || s == "-q" }
