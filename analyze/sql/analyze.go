package sql

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Name is the analyzer's name: the Analyzer field of its findings.
const Name = "sql"

// The rule IDs of the findings. They are stable: audit records and policy
// files refer to them.
const (
	RuleDropDatabase       = "sql.drop_database"        // critical: DROP DATABASE, DROP SCHEMA
	RuleDropTable          = "sql.drop_table"           // high: DROP TABLE, VIEW, INDEX, FUNCTION, OWNED …
	RuleTruncate           = "sql.truncate"             // high: TRUNCATE, INSERT OVERWRITE, ALTER TABLE … TRUNCATE PARTITION
	RuleDeleteWithoutWhere = "sql.delete_without_where" // high
	RuleUpdateWithoutWhere = "sql.update_without_where" // high
	RuleTautology          = "sql.tautology"            // high: DELETE/UPDATE … WHERE 1=1, OR 'a'='a'
	RuleAlterDrop          = "sql.alter_drop"           // high: ALTER TABLE … DROP COLUMN/CONSTRAINT
	RuleSchema             = "sql.schema"               // medium: other CREATE, ALTER, RENAME, COMMENT
	RulePrivileges         = "sql.privileges"           // high: GRANT, REVOKE, passwords, superusers; medium: other role changes
	RuleCopyProgram        = "sql.copy_program"         // critical: COPY … TO/FROM PROGRAM
	RuleExportFile         = "sql.export_file"          // medium: COPY … TO 'file', INTO OUTFILE, \o file; high into a served folder
	RuleWrite              = "sql.write"                // medium: INSERT, UPDATE/DELETE with WHERE, MERGE, COPY FROM
	RuleRead               = "sql.read"                 // low: SELECT, SHOW, EXPLAIN, client display commands
	RuleMultiStatement     = "sql.multi_statement"      // high: a destructive statement stacked after the first
	RuleUnparsable         = "sql.unparsable"           // high: unterminated string, comment or body
	RuleUnrecognized       = "sql.unrecognized"         // medium: a statement that is not recognized
	RuleShellEscape        = "sql.shell_escape"         // high: psql \!, \o |cmd, sqlite3 .shell, mysql system
	RuleServerFile         = "sql.server_file"          // high: pg_read_file, lo_export, LOAD_FILE …
	RuleServerCommand      = "sql.server_command"       // critical: xp_cmdshell, sys_exec
	RuleServerConfig       = "sql.server_config"        // high: ALTER SYSTEM, SET GLOBAL, SHUTDOWN; medium: KILL, PURGE
	RuleUntrustedCode      = "sql.untrusted_code"       // high: untrusted procedural languages, LOAD, load_extension
	RuleProcedure          = "sql.procedure"            // medium: DO, CALL, EXECUTE, \i; high: \gexec
	RuleMaintenance        = "sql.maintenance"          // low: VACUUM, ANALYZE, REINDEX, FLUSH
	RuleSecurityOff        = "sql.security_off"         // high: row-level security, audit triggers, logs, TLS switched off
	RuleExhaustion         = "sql.resource_exhaustion"  // high: billions of rows, endless loops, a table doubled in a loop
)

// Analyze classifies every statement of an SQL text and returns the
// findings: one or more for each statement that reads, writes, changes the
// schema or privileges, or reaches outside the database. Statements that
// only control transactions or the session (BEGIN, COMMIT, SET) yield
// none. It never returns findings for keywords inside strings or comments.
//
// Text is read as PostgreSQL reads it and, where a construct means
// something else to MySQL (backslash escapes, # comments, nested or /*!
// comments, dollar quotes), also as MySQL reads it; the findings of both
// readings are returned. Text that cannot be lexed in any reading (or
// whose dollar-quoted body is never closed) yields a RuleUnparsable finding
// at High, together with the findings of the statements before the
// unterminated construct. A destructive statement
// after the first one also yields RuleMultiStatement. A USE or \c of a
// production database escalates the destructive findings that follow (see
// Escalate).
//
// Analyze is pure and safe for concurrent use; it runs in time linear in
// len(text) (bodies of DO blocks and functions are read again, at most
// three levels deep).
func Analyze(text string) []risk.Finding {
	_, fs := analyzeAll(text, 0, true)
	return fs
}

// Fact reads an SQL text once and returns what it reads as: its
// statements (see Statements), the findings of Analyze and its personal
// data (see PersonalData). The preparers record it on a call
// (tool.Call.SQLText) for the analyzers and the session to read. Fact is
// pure and safe for concurrent use; it costs what Analyze does.
func Fact(text string) tool.SQLText {
	a := newAnalysis(text, standard, 0)
	a.personal = true
	toks, ambiguous, err := lex(text, standard)
	a.statements(toks, true)
	fs := a.readings(text, 0, true, ambiguous, err)
	return tool.SQLText{Text: text, Statements: a.stmts, Findings: fs, PersonalData: a.personalData(), Err: err}
}

// maxDepth bounds how deep bodies (DO, functions, EXECUTE literals, client
// commands) are analyzed as SQL in their turn.
const maxDepth = 3

// analyzeAll analyzes text in both dialects; it returns the statements of
// the standard reading and the findings of both.
func analyzeAll(text string, depth int, multi bool) ([]Statement, []risk.Finding) {
	a := newAnalysis(text, standard, depth)
	toks, ambiguous, err := lex(text, standard)
	a.statements(toks, multi)
	return a.stmts, a.readings(text, depth, multi, ambiguous, err)
}

// readings returns the findings of a, the standard reading of text, with
// those of MySQL's reading when the lexer found text ambiguous, and
// RuleUnparsable when no reading could lex it (err: the standard
// reading's error).
func (a *analysis) readings(text string, depth int, multi, ambiguous bool, err error) []risk.Finding {
	fs := a.fs
	if ambiguous {
		b := newAnalysis(text, mysqlish, depth)
		toks, _, err2 := lex(text, mysqlish)
		b.statements(toks, multi)
		for _, f := range b.fs {
			// What MySQL's reading does not recognize is mostly PostgreSQL
			// syntax it cannot read (the inside of $$ bodies); what it
			// finds beyond that is kept.
			if f.Rule != RuleUnrecognized {
				fs = append(fs, f)
			}
		}
		// Text that one reading can lex is not unparsable, unless it opens
		// a dollar-quoted body: only PostgreSQL has those, so its reading
		// is the one meant.
		if err2 == nil && !dollarError(err) {
			err = nil
		}
	}
	if err != nil {
		fs = append(fs, finding(RuleUnparsable, risk.High, false, "",
			"SQL could not be parsed ("+err.Error()+"); it may hide statements"))
	}
	return dedupe(fs)
}

func dollarError(err error) bool {
	se, ok := err.(*SyntaxError)
	return ok && se.Msg == msgDollar
}

// analysis is one reading of one text.
type analysis struct {
	src    string
	d      dialect
	depth  int
	budget int    // inner statements (subqueries, CTEs) still to analyze
	db     string // database chosen by USE or \c
	stmts  []Statement
	fs     []risk.Finding

	// personal: collect the personal columns of SELECT statements (found)
	// and their tables, for PersonalData
	personal bool
	found    []string
	tables   []string
}

func newAnalysis(src string, d dialect, depth int) *analysis {
	return &analysis{src: src, d: d, depth: depth}
}

// statements splits toks at semicolons and client commands and classifies
// each statement. With multi, a destructive statement after the first one
// also yields RuleMultiStatement.
func (a *analysis) statements(toks []token, multi bool) {
	stacked, stackedVerb := 0, ""
	one := func(ts []token) {
		if len(ts) == 0 {
			return
		}
		a.budget = 16
		st, fs := a.classify(ts, true)
		if a.db != "" {
			Escalate(fs, a.db)
		}
		escalateQualified(fs)
		if a.personal {
			a.selects(st, ts)
		}
		if st.Kind == Session && st.Verb == "USE" && len(st.Tables) > 0 {
			a.db = st.Tables[0]
		}
		if multi && stacked == 0 && len(a.stmts) > 0 && destructiveAny(fs) {
			stacked, stackedVerb = len(a.stmts)+1, st.Verb
		}
		a.stmts = append(a.stmts, st)
		a.fs = append(a.fs, fs...)
	}
	start := 0
	for i, t := range toks {
		switch {
		case t.kind == tkPunct && t.text == ";":
			one(toks[start:i])
			start = i + 1
		case t.kind == tkMeta:
			one(toks[start:i])
			one(toks[i : i+1])
			start = i + 1
		}
	}
	one(toks[start:])
	a.fs = append(a.fs, loops(toks)...)
	if stacked > 0 {
		a.fs = append(a.fs, finding(RuleMultiStatement, risk.High, false, "",
			fmt.Sprintf("%d statements are stacked and statement %d (%s) is destructive: a pattern of SQL injection", len(a.stmts), stacked, stackedVerb)))
	}
}

func destructiveAny(fs []risk.Finding) bool {
	for _, f := range fs {
		if f.Level.AtLeast(risk.High) && f.Rule != RuleUnparsable && f.Rule != RuleMultiStatement {
			return true
		}
	}
	return false
}

// finding builds a finding. Reasons and resources quote the SQL, which
// can be anything: they are cut to a readable length. A critical,
// irreversible finding (DROP DATABASE, COPY … PROGRAM, destruction on
// production) is locked: no allow rule or mode overrides it.
func finding(rule string, l risk.Level, reversible bool, resource, reason string) risk.Finding {
	return risk.Finding{Analyzer: Name, Rule: rule, Level: l, Reason: cut(reason, 400), Resource: cut(resource, 256), Reversible: reversible,
		Locked: l == risk.Critical && !reversible}
}

// cut shortens s to at most n bytes, at a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// dedupe removes repeated findings, keeping the first of each.
func dedupe(fs []risk.Finding) []risk.Finding {
	if len(fs) < 2 {
		return fs
	}
	out := fs[:0]
	if len(fs) <= 16 {
	next:
		for i, f := range fs {
			for _, g := range fs[:i] {
				if f == g {
					continue next
				}
			}
			out = append(out, f)
		}
		return out
	}
	seen := make(map[risk.Finding]bool, len(fs))
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// IsProduction reports whether name names a production system: it is
// tool.IsProduction, kept here for the analyzers that read connection
// names with SQL.
func IsProduction(name string) bool { return tool.IsProduction(name) }

// Escalate raises each destructive finding at High to Critical when one of
// names (database names, hosts, connection strings) is a production system
// (see tool.IsProduction). Destructive findings are those of DROP TABLE,
// TRUNCATE, DELETE or UPDATE without WHERE, tautologies and ALTER TABLE …
// DROP. It changes findings in place and returns it. The shell and code
// analyzers call it with the host and database of psql -h … -d …; the
// Analyzer calls it with the call's database arguments and MCP server.
func Escalate(findings []risk.Finding, names ...string) []risk.Finding {
	return EscalateOn(findings, tool.FirstProduction(names...))
}

// EscalateOn is Escalate for the production system prod already found
// among the names ("" when none is): a caller with many texts for one
// set of names looks the names up once.
func EscalateOn(findings []risk.Finding, prod string) []risk.Finding {
	if prod == "" {
		return findings
	}
	for i := range findings {
		escalate(&findings[i], prod)
	}
	return findings
}

func escalate(f *risk.Finding, prod string) {
	if f.Level != risk.High || f.Reversible {
		return
	}
	switch f.Rule {
	case RuleDropTable, RuleTruncate, RuleDeleteWithoutWhere, RuleUpdateWithoutWhere, RuleTautology, RuleAlterDrop:
		f.Level, f.Locked = risk.Critical, true
		f.Reason += " on production (" + prod + ")"
	}
}

// escalateQualified escalates destructive findings on tables whose
// qualifier (database or schema) is a production name: prod.users.
func escalateQualified(fs []risk.Finding) {
	for i := range fs {
		kind, name, ok := strings.Cut(fs[i].Resource, ":")
		if !ok || kind == "database" || kind == "schema" {
			continue
		}
		if dot := strings.LastIndexByte(name, '.'); dot > 0 && tool.IsProduction(name[:dot]) {
			escalate(&fs[i], name[:dot])
		}
	}
}

// Analyzer is the SQL analyzer for the engine: it analyzes the SQL of a
// tool call (tool.Call.SQL) and escalates destructive findings when the
// call's database, host, DSN or MCP server names production. The zero
// value is ready to use and safe for concurrent use.
type Analyzer struct{}

var _ interface {
	Name() string
	Analyze(context.Context, *tool.Call) ([]risk.Finding, error)
} = Analyzer{}

// Name returns "sql".
func (Analyzer) Name() string { return Name }

// Analyze returns the findings of every SQL text of c, read from its
// fact (tool.Call.SQLText) when the Preparer recorded one, and analyzed
// now otherwise (no preparer ran). It charges c's work budget for the
// reading of each text either way (the preparer, which reads the texts,
// leaves that to the analyzer), and stops where the budget runs out. It
// only reads c. Its only error is the context's.
func (Analyzer) Analyze(ctx context.Context, c *tool.Call) ([]risk.Finding, error) {
	if len(c.SQL) == 0 {
		return nil, nil
	}
	names := targets(c)
	var out []risk.Finding
	for _, s := range c.SQL {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if !c.Work.Charge(sqlCost*len(s), "sql analysis") {
			break // the engine reports the rest as unknown
		}
		n := len(out)
		if f, ok := c.SQLText(s); ok {
			out = append(out, f.Findings...) // copied: Escalate changes them in place
		} else {
			out = append(out, Analyze(s)...)
		}
		Escalate(out[n:], names...)
	}
	return dedupe(out), nil
}

// sqlCost is the work (tool.Budget units, about a nanosecond each)
// charged per byte of SQL: its analysis costs about that much.
const sqlCost = 128

// targetKeys are the arguments that name the database a call runs against.
var targetKeys = [...]string{
	"database", "db", "dbname", "db_name", "database_name", "schema",
	"host", "hostname", "server", "instance", "cluster",
	"dsn", "url", "uri", "database_url", "connection", "connection_string", "conn",
}

func targets(c *tool.Call) []string {
	var out []string
	if c.Server != "" {
		out = append(out, c.Server)
	}
	if c.Action == nil {
		return out
	}
	// the arguments, read once each (a call has a few), and kept in the
	// order of targetKeys: not one lookup per key
	var vals [len(targetKeys)]string
	found := false
	for k, v := range c.Action.Arguments {
		if i := targetIndex(k); i >= 0 {
			if s, ok := v.(string); ok && s != "" {
				vals[i], found = s, true
			}
		}
	}
	if found {
		for _, s := range vals {
			if s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// targetIndex returns the index of k in targetKeys, -1 if it is not one.
func targetIndex(k string) int {
	for i, t := range targetKeys {
		if t == k {
			return i
		}
	}
	return -1
}
