package sql

import (
	"strconv"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// stmt is one statement being classified.
type stmt struct {
	a  *analysis
	ts []token
	st Statement
	fs []risk.Finding
}

// classify classifies the statement ts. With top, it also looks for
// data-modifying subqueries and dangerous functions anywhere in it.
func (a *analysis) classify(ts []token, top bool) (Statement, []risk.Finding) {
	s := &stmt{a: a, ts: ts}
	s.st.Text, s.st.Offset = spanText(a.src, ts)
	s.st.Kind = Other
	s.dispatch(0)
	if top {
		s.scanInner()
		s.scanFunctions()
		s.scanExhaustion()
	}
	switch {
	case s.st.Kind == Read && len(s.fs) == 0:
		s.add(RuleRead, risk.Low, true, s.firstTable(), s.st.Verb+" only reads data")
	case s.st.Kind == Other && a.depth == 0 && len(s.fs) == 0:
		// Inside procedural bodies, statements that are not SQL (RAISE,
		// RETURN, assignments) are common and harmless.
		s.add(RuleUnrecognized, risk.Medium, false, "",
			"Statement "+quoteVerb(s.st.Verb, s.st.Text)+" is not recognized; it may change data")
	}
	return s.st, s.fs
}

func quoteVerb(verb, text string) string {
	if verb != "" {
		return cut(verb, 40)
	}
	return strconv.Quote(shorten(text))
}

func (s *stmt) add(rule string, l risk.Level, reversible bool, resource, reason string) {
	s.fs = append(s.fs, finding(rule, l, reversible, resource, reason))
}

// at returns token i, or a zero token past the end.
func (s *stmt) at(i int) token {
	if i >= 0 && i < len(s.ts) {
		return s.ts[i]
	}
	return token{}
}

// skip advances i over any of the keywords kws.
func (s *stmt) skip(i int, kws ...string) int {
	for i < len(s.ts) {
		found := false
		for _, kw := range kws {
			if s.ts[i].is(kw) {
				found = true
				break
			}
		}
		if !found {
			return i
		}
		i++
	}
	return i
}

// dispatch classifies the statement whose verb is at or after index i
// (leading parentheses are skipped: (SELECT …) UNION …).
func (s *stmt) dispatch(i int) {
	for i < len(s.ts) && s.ts[i].is("(") {
		i++
	}
	if i >= len(s.ts) {
		return
	}
	t := s.ts[i]
	if t.kind == tkMeta {
		s.meta(t)
		return
	}
	if t.kind != tkIdent {
		return
	}
	verb := upper(t.text)
	s.st.Verb = verb
	switch verb {
	case "WITH":
		j := s.skipCTEs(i + 1)
		for s.at(j).is("WITH") {
			j = s.skipCTEs(j + 1)
		}
		s.dispatch(j)
	case "SELECT", "PERFORM":
		s.selectStmt(i)
	case "VALUES", "SHOW", "DESCRIBE", "DESC", "HELP", "FETCH", "TABLE", "LIST", "GET":
		s.st.Kind = Read
		if verb == "TABLE" || verb == "DESCRIBE" || verb == "DESC" {
			name, _ := s.name(i + 1)
			addTable(&s.st, name)
		}
	case "EXPLAIN":
		s.explain(i)
	case "INSERT", "REPLACE", "UPSERT":
		s.insert(i)
	case "UPDATE":
		s.update(i)
	case "DELETE":
		s.delete(i)
	case "MERGE":
		s.st.Kind = Write
		j := s.skip(i+1, "INTO")
		name, _ := s.name(j)
		addTable(&s.st, name)
		s.sourceTables(j)
		s.add(RuleWrite, risk.Medium, false, tableRes(name), "MERGE changes rows"+ofTable(name))
	case "TRUNCATE":
		s.truncate(i)
	case "DROP":
		s.drop(i)
	case "ALTER":
		s.alter(i)
	case "CREATE":
		s.create(i)
	case "GRANT", "REVOKE":
		s.grant(i)
	case "COPY":
		s.copy(i)
	case "DO":
		s.do(i)
	case "CALL":
		s.st.Kind = Procedure
		name, _ := s.name(i + 1)
		s.add(RuleProcedure, risk.Medium, false, "", "CALL runs stored procedure "+orUnknown(name)+", whose effect is not visible here")
	case "EXECUTE", "EXEC":
		s.execute(i)
	case "PREPARE":
		s.prepare(i)
	case "LOAD":
		s.load(i)
	case "SET":
		s.set(i)
	case "USE":
		s.st.Kind = Session
		j := s.skip(i+1, "[")
		name, _ := s.name(j)
		addTable(&s.st, name)
	case "BEGIN", "START":
		// BEGIN DELETE …, BEGIN IF … THEN DELETE …: a block of a procedural
		// body, not a transaction.
		if j := s.controlled(i); j > 0 {
			s.dispatch(j)
			return
		}
		s.st.Kind = Transaction
	case "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "ABORT":
		s.st.Kind = Transaction
	case "RESET", "DISCARD", "LISTEN", "UNLISTEN", "NOTIFY", "DECLARE", "CLOSE", "MOVE",
		"DEALLOCATE", "LOCK", "UNLOCK", "GO", "DETACH":
		if verb == "RESET" && (s.at(i+1).is("MASTER") || s.at(i+1).is("SLAVE") || s.at(i+1).is("REPLICA") || s.at(i+1).is("BINARY")) {
			s.st.Kind = Admin
			s.add(RuleServerConfig, risk.High, false, "", "RESET "+upper(s.at(i+1).text)+" deletes the server's replication logs")
			return
		}
		s.st.Kind = Session
		if verb == "DECLARE" { // DECLARE c CURSOR FOR SELECT …
			if j := s.topLevel(i, "FOR"); j > 0 && isVerb(s.at(j+1)) {
				s.dispatch(j + 1)
				s.st.Verb = "DECLARE"
			}
		}
	case "VACUUM", "ANALYZE", "ANALYSE", "REINDEX", "CLUSTER", "OPTIMIZE", "CHECKPOINT",
		"REFRESH", "CHECK", "REPAIR", "FLUSH":
		s.st.Kind = Admin
		if verb == "VACUUM" {
			if j := s.topLevel(i, "INTO"); j > 0 {
				s.export("", "VACUUM INTO", "a copy of the database", s.at(j+1).value())
				return
			}
		}
		s.add(RuleMaintenance, risk.Low, true, "", verb+" is database maintenance")
	case "RENAME", "COMMENT", "SECURITY", "ATTACH":
		s.st.Kind = Schema
		s.add(RuleSchema, risk.Medium, true, "", verb+" changes the database schema")
	case "SHUTDOWN":
		s.st.Kind = Admin
		s.add(RuleServerConfig, risk.High, true, "", "SHUTDOWN stops the database server")
	case "KILL", "PURGE":
		s.st.Kind = Admin
		if verb == "PURGE" && s.purgeLogs(i) {
			return
		}
		s.add(RuleServerConfig, risk.Medium, false, "", verb+" interferes with the database server's sessions or logs")
	case "INSTALL", "UNINSTALL":
		s.plugin(i, verb)
	case "DISABLE", "ENABLE":
		s.disableTrigger(i)
	case "SP_CONFIGURE":
		s.st.Kind = Admin
		if !s.spConfigure(i) {
			s.add(RuleServerConfig, risk.Medium, true, "", "sp_configure changes the database server's configuration")
		}
	case "SYSTEM":
		// The mysql client's system command.
		s.st.Kind = Meta
		s.add(RuleShellEscape, risk.High, false, "", "The SQL client runs a shell command (system): "+shorten(s.st.Text))
	case "SOURCE":
		s.st.Kind = Meta
		s.add(RuleProcedure, risk.Medium, false, "", "SOURCE runs SQL from a file whose content is not visible here")
	case "PRAGMA":
		s.st.Kind = Read
		if s.topLevel(i, "=") > 0 {
			s.st.Kind = Schema
			s.add(RuleSchema, risk.Medium, true, "", "PRAGMA changes a database setting")
		}
	default:
		// Procedural control (IF … THEN DELETE …, LOOP …, EXCEPTION WHEN …
		// THEN …) hides the statement after its keywords.
		if j := s.controlled(i); j > 0 {
			s.dispatch(j)
		}
	}
}

// controlled returns the index of a statement verb that follows a
// procedural control keyword in the statement, or -1.
func (s *stmt) controlled(i int) int {
	depth := 0
	for j := i; j+1 < len(s.ts); j++ {
		t := s.ts[j]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.kind == tkIdent && isVerb(s.ts[j+1]):
			for _, kw := range [...]string{"THEN", "ELSE", "LOOP", "BEGIN", "DO", "QUERY", "ATOMIC", "REPEAT", "INSTEAD", "ALSO"} {
				if t.is(kw) {
					return j + 1
				}
			}
		}
	}
	return -1
}

// isVerb reports whether t starts a statement that can change something.
func isVerb(t token) bool {
	if t.kind != tkIdent {
		return false
	}
	for _, v := range [...]string{"SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "DROP", "TRUNCATE", "ALTER",
		"CREATE", "GRANT", "REVOKE", "COPY", "EXECUTE", "EXEC", "CALL", "PERFORM", "WITH", "REPLACE", "LOAD", "DO", "VALUES"} {
		if t.is(v) {
			return true
		}
	}
	return false
}

// topLevel returns the index of the first keyword kw after i outside
// parentheses, or -1.
func (s *stmt) topLevel(i int, kw string) int {
	depth := 0
	for j := i + 1; j < len(s.ts); j++ {
		t := s.ts[j]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is(kw):
			return j
		}
	}
	return -1
}

// name reads a possibly qualified name at i (a.b."C") and returns it without
// quotes, with the index after it; "" if there is no name at i.
func (s *stmt) name(i int) (string, int) {
	t := s.at(i)
	if t.kind != tkIdent && t.kind != tkQuotedIdent {
		return "", i
	}
	var b strings.Builder
	b.WriteString(t.value())
	i++
	for s.at(i).is(".") {
		n := s.at(i + 1)
		if n.kind != tkIdent && n.kind != tkQuotedIdent {
			break
		}
		b.WriteByte('.')
		b.WriteString(n.value())
		i += 2
	}
	return b.String(), i
}

// names reads a comma-separated list of names (skipping ONLY, *, argument
// lists and aliases) and returns them with the index after the list.
func (s *stmt) names(i int) ([]string, int) {
	var out []string
	for i < len(s.ts) {
		i = s.skip(i, "ONLY")
		name, j := s.name(i)
		if name == "" {
			break
		}
		out = append(out, name)
		i = s.skip(j, "*")
		if s.at(i).is("(") {
			i = skipGroup(s.ts, i)
		}
		i = s.alias(i)
		if !s.at(i).is(",") {
			break
		}
		i++
	}
	return out, i
}

// alias skips an alias ([AS] name) at i.
func (s *stmt) alias(i int) int {
	if s.at(i).is("AS") {
		if _, j := s.name(i + 1); j > i+1 {
			return j
		}
		return i + 1
	}
	if t := s.at(i); t.kind == tkQuotedIdent || t.kind == tkIdent && !isClauseWord(t) {
		return i + 1
	}
	return i
}

// isClauseWord reports whether t is a keyword that can follow a table name
// (and so is not an alias).
func isClauseWord(t token) bool {
	for _, kw := range [...]string{"WHERE", "SET", "FROM", "USING", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER",
		"CROSS", "NATURAL", "STRAIGHT_JOIN", "ON", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET", "UNION", "EXCEPT",
		"INTERSECT", "WINDOW", "FETCH", "FOR", "RETURNING", "VALUES", "SELECT", "DEFAULT", "LATERAL", "TABLESAMPLE",
		"WITH", "INTO", "RESTART", "CONTINUE", "CASCADE", "RESTRICT", "PARTITION", "OVERRIDING", "TO", "CSV",
		"WHEN", "IF", "IN", "LOCK", "QUALIFY", "ADD", "DROP", "ALTER", "RENAME", "OWNER"} {
		if t.is(kw) {
			return true
		}
	}
	return false
}

// skipGroup returns the index after the parenthesized group that opens at
// i, or len(ts) if it is never closed.
func skipGroup(ts []token, i int) int {
	depth := 0
	for j := i; j < len(ts); j++ {
		switch {
		case ts[j].is("("):
			depth++
		case ts[j].is(")"):
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(ts)
}

// sourceTables adds the tables that follow FROM and JOIN after i, outside
// function calls (EXTRACT(year FROM ts) names no table).
func (s *stmt) sourceTables(i int) {
	// query[d] says whether the group at depth d+1 is a query.
	var query []bool
	inQuery := true
	for j := i; j < len(s.ts); j++ {
		t := s.ts[j]
		switch {
		case t.is("("):
			q := s.at(j+1).is("SELECT") || s.at(j+1).is("WITH") || s.at(j+1).is("VALUES")
			query = append(query, inQuery)
			inQuery = q
		case t.is(")"):
			if n := len(query); n > 0 {
				inQuery = query[n-1]
				query = query[:n-1]
			}
		case inQuery && (t.is("FROM") || t.is("JOIN") || t.is("USING") && s.at(j-1).kind != tkIdent):
			k := s.skip(j+1, "LATERAL")
			if s.at(k).is("(") {
				continue
			}
			names, _ := s.names(k)
			for _, n := range names {
				addTable(&s.st, n)
			}
		}
	}
}

// skipCTEs skips the common table expressions of a WITH clause that starts
// at i and returns the index of the main statement.
func (s *stmt) skipCTEs(i int) int {
	i = s.skip(i, "RECURSIVE")
	for i < len(s.ts) {
		// name [(columns)] AS [NOT] [MATERIALIZED] (body) [SEARCH …] [CYCLE …]
		for i < len(s.ts) && !s.ts[i].is("(") {
			i++
		}
		i = skipGroup(s.ts, i)
		if s.at(i).is("AS") || s.at(i).is("NOT") || s.at(i).is("MATERIALIZED") {
			continue // that group was the column list
		}
		// Skip SEARCH and CYCLE clauses up to the next CTE or the main
		// statement.
		for i < len(s.ts) && !s.ts[i].is(",") && !s.ts[i].is("(") && !isVerb(s.ts[i]) && !s.ts[i].is("TABLE") {
			i++
		}
		if !s.at(i).is(",") {
			return i
		}
		i++
	}
	return i
}

// scanInner classifies the data-modifying statements inside parentheses:
// WITH x AS (DELETE …), COPY (UPDATE … RETURNING …) TO ….
func (s *stmt) scanInner() {
	for j := 0; j+1 < len(s.ts); j++ {
		if !s.ts[j].is("(") || !s.dmlAt(j+1) {
			continue
		}
		if s.a.budget <= 0 {
			s.add(RuleUnparsable, risk.High, false, "", "SQL could not be parsed: too many nested statements")
			return
		}
		end := skipGroup(s.ts, j)
		inner := s.ts[j+1 : end]
		if end <= len(s.ts) && end > j+1 && s.ts[end-1].is(")") {
			inner = s.ts[j+1 : end-1]
		}
		s.inner(inner, " (in a WITH clause or subquery)")
	}
}

// dmlAt reports whether a data-modifying statement starts at i.
func (s *stmt) dmlAt(i int) bool {
	t := s.at(i)
	switch {
	case t.is("DELETE"):
		return s.at(i + 1).is("FROM")
	case t.is("INSERT"), t.is("MERGE"):
		return s.at(i + 1).is("INTO")
	case t.is("UPDATE"):
		_, j := s.name(s.skip(i+1, "ONLY"))
		return j > i+1 && (s.at(j).is("SET") || s.at(j+1).is("SET") || s.at(j+2).is("SET"))
	}
	return false
}

// inner classifies ts as a statement contained in this one and takes its
// findings, with note appended to their reasons.
//
// Each statement has a budget of inner statements (see analysis.budget),
// which keeps nesting such as PREPARE a AS PREPARE b AS … linear.
func (s *stmt) inner(ts []token, note string) {
	if s.a.budget <= 0 {
		s.add(RuleUnparsable, risk.High, false, "", "SQL could not be parsed: too many nested statements")
		return
	}
	s.a.budget--
	st, fs := s.a.classify(ts, false)
	for _, f := range fs {
		if f.Rule != RuleRead {
			f.Reason += note
			s.fs = append(s.fs, f)
		}
	}
	for _, t := range st.Tables {
		addTable(&s.st, t)
	}
	addInner(&s.st, st)
}

// body analyzes text (a DO or function body, an EXECUTE literal, a client
// command) as SQL in its turn and takes its findings, with note appended.
func (s *stmt) body(text, note string) {
	if s.a.depth >= maxDepth {
		s.add(RuleUnparsable, risk.High, false, "", "SQL could not be parsed: bodies are nested too deeply")
		return
	}
	stmts, fs := analyzeAll(text, s.a.depth+1, false)
	for _, f := range fs {
		if f.Rule != RuleRead {
			f.Reason += note
			s.fs = append(s.fs, f)
		}
	}
	for _, st := range stmts {
		addInner(&s.st, st)
	}
}

// bodyStrings analyzes as SQL the string literals among ts that begin with
// a statement verb: EXECUTE 'DROP TABLE ' || t, EXECUTE format('…').
func (s *stmt) bodyStrings(ts []token, note string) {
	for _, t := range ts {
		if t.kind != tkString {
			continue
		}
		v := t.value()
		if vt, _, _ := lex(firstWord(v), standard); len(vt) > 0 && isVerb(vt[0]) {
			s.body(v, note)
		}
	}
}

// firstWord returns the first word of v, after blanks.
func firstWord(v string) string {
	v = strings.TrimLeft(v, " \t\r\n(")
	end := 0
	for end < len(v) && isIdentChar(v[end]) {
		end++
	}
	return v[:end]
}

// scanFunctions reports calls of functions that reach outside the
// database.
func (s *stmt) scanFunctions() {
	for j, t := range s.ts {
		if t.kind != tkIdent {
			continue
		}
		switch {
		case t.is("xp_cmdshell"), (t.is("sys_exec") || t.is("sys_eval")) && s.at(j+1).is("("):
			s.add(RuleServerCommand, risk.Critical, false, "", t.text+" runs an operating-system command on the database server")
		case s.at(j+1).is("(") && (t.is("pg_read_file") || t.is("pg_read_binary_file") || t.is("pg_ls_dir") ||
			t.is("pg_stat_file") || t.is("pg_file_write") || t.is("lo_import") || t.is("lo_export") || t.is("load_file")):
			s.add(RuleServerFile, risk.High, false, "", t.text+" reads or writes files on the database server")
		case s.at(j+1).is("(") && t.is("pg_drop_replication_slot"):
			// the WAL the slot held for its consumer may now be recycled: a
			// standby or change-data-capture reader that is behind must be
			// rebuilt; no data of the database itself is lost
			s.add(RuleServerConfig, risk.Medium, false, "", "pg_drop_replication_slot drops a replication slot: the consumer it kept write-ahead log for loses its place")
		case s.at(j+1).is("(") && t.is("load_extension"):
			s.add(RuleUntrustedCode, risk.High, false, "", "load_extension loads a native library into the database")
		case s.at(j+1).is("(") && (t.is("pg_terminate_backend") || t.is("pg_cancel_backend")):
			// PostgreSQL's KILL; over the sessions a query lists without a
			// condition that picks some (FROM pg_stat_activity), every
			// session of the server: an outage
			if s.everySession(j) {
				s.add(RuleServerConfig, risk.High, false, "", t.text+" over every session of pg_stat_activity ends all the server's connections")
			} else {
				s.add(RuleServerConfig, risk.Medium, false, "", t.text+" ends another session's query or connection")
			}
		}
	}
}

// everySession reports, for the call at j, that the statement lists the
// sessions it acts on from pg_stat_activity with no WHERE, or a WHERE
// that selects every row (see tautology) or only leaves out this session
// (pid <> pg_backend_pid()).
func (s *stmt) everySession(j int) bool {
	from := -1
	for k := j; k < len(s.ts); k++ {
		if s.ts[k].is("FROM") {
			from = k
			break
		}
	}
	if from < 0 || !strings.HasSuffix(strings.ToLower(s.at(from+1).value()), "pg_stat_activity") {
		return false
	}
	for k := from + 1; k < len(s.ts); k++ {
		if !s.ts[k].is("WHERE") {
			continue
		}
		cond := whereClause(s.ts, k)
		if tautology(cond) {
			return true
		}
		// WHERE pid <> pg_backend_pid() [AND datname = 'x'] spares only
		// this session: what it lists is still every other one
		for p := range parts(cond, "AND") {
			p = stripParens(p)
			if len(p) < 3 || !p[0].is("pid") || !(p[1].is("<>") || p[1].is("!=")) || !p[2].is("pg_backend_pid") {
				return false
			}
		}
		return true
	}
	return true
}

// firstTable returns the resource of the statement's first table, or "".
func (s *stmt) firstTable() string {
	if len(s.st.Tables) == 0 {
		return ""
	}
	return "table:" + s.st.Tables[0]
}

func tableRes(name string) string {
	if name == "" {
		return ""
	}
	return "table:" + name
}

func ofTable(name string) string {
	if name == "" {
		return ""
	}
	return " of table " + name
}

func orUnknown(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return name
}

// shorten collapses white space in s and cuts it for a reason.
func shorten(s string) string {
	s = strings.Join(strings.Fields(cut(s, 400)), " ")
	return cut(s, 80)
}
