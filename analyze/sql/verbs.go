package sql

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

func (s *stmt) selectStmt(i int) {
	s.st.Kind = Read
	s.sourceTables(i)
	j := s.topLevel(i, "INTO")
	if j < 0 {
		return
	}
	switch n := s.at(j + 1); {
	case n.is("OUTFILE"), n.is("DUMPFILE"):
		s.export(s.firstTable(), "SELECT … INTO "+upper(n.text), "query results", s.at(j+2).value())
	case n.kind == tkIdent || n.kind == tkQuotedIdent:
		// SELECT … INTO new_table (PostgreSQL, SQL Server) creates a table;
		// INTO @var and INTO :var only set variables.
		name, _ := s.name(s.skip(j+1, "TEMP", "TEMPORARY", "UNLOGGED", "TABLE", "STRICT"))
		if name == "" {
			return
		}
		s.st.Kind = Write
		s.add(RuleWrite, risk.Medium, true, tableRes(name), "SELECT … INTO creates table "+name)
	}
}

// explain classifies EXPLAIN: a read, unless ANALYZE makes it run the
// statement it explains.
func (s *stmt) explain(i int) {
	s.st.Kind = Read
	analyze := false
	j := i + 1
	for j < len(s.ts) && !isVerb(s.ts[j]) {
		t := s.ts[j]
		switch {
		case t.is("ANALYZE"), t.is("ANALYSE"):
			analyze = true
		case t.is("("): // (ANALYZE, BUFFERS) or (ANALYZE false)
			end := skipGroup(s.ts, j)
			for k := j + 1; k < end; k++ {
				if s.ts[k].is("ANALYZE") || s.ts[k].is("ANALYSE") {
					off := s.at(k + 1)
					analyze = analyze || !(off.is("FALSE") || off.is("OFF") || off.text == "0")
				}
			}
			j = end
			continue
		}
		j++
	}
	if j >= len(s.ts) {
		return
	}
	if !analyze {
		s.sourceTables(j)
		return
	}
	s.inner(s.ts[j:], " (EXPLAIN ANALYZE runs it)")
}

func (s *stmt) insert(i int) {
	s.st.Kind = Write
	verb := s.st.Verb
	j := s.skip(i+1, "LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY", "IGNORE")
	if s.at(j).is("OR") { // SQLite: INSERT OR REPLACE
		j += 2
	}
	overwrite := s.at(j).is("OVERWRITE") // Hive, Spark: replaces the table's rows
	j = s.skip(j, "OVERWRITE", "INTO", "TABLE")
	name, k := s.name(j)
	addTable(&s.st, name)
	s.privilegeWrite(verb, name)
	s.appAdminInsert(k, name)
	s.sourceTables(j)
	if overwrite {
		s.add(RuleTruncate, risk.High, false, tableRes(name), "INSERT OVERWRITE replaces every row"+ofTable(name))
		return
	}
	what := "INSERT adds rows to table "
	if verb != "INSERT" {
		what = verb + " inserts or replaces rows in table "
	}
	s.add(RuleWrite, risk.Medium, true, tableRes(name), what+orUnknown(name))
}

// plugin judges MySQL's INSTALL and UNINSTALL PLUGIN or COMPONENT: an
// installed plugin is a shared library loaded into the server; an
// uninstalled audit, firewall, password-validation or authentication
// plugin is a control the server no longer applies.
func (s *stmt) plugin(i int, verb string) {
	s.st.Kind = Admin
	obj := upper(s.at(i + 1).text)
	if obj != "PLUGIN" && obj != "COMPONENT" {
		s.add(RuleUnrecognized, risk.Medium, false, "", verb+" is not a statement warden recognizes")
		return
	}
	name := strings.Trim(s.at(i+2).value(), "'\"`")
	if verb == "INSTALL" {
		s.add(RuleUntrustedCode, risk.High, false, "", "INSTALL "+obj+" loads "+orUnknown(name)+", a shared library, into the database server")
		return
	}
	low := strings.ToLower(name)
	for _, w := range []string{"audit", "firewall", "validate_password", "password", "auth", "connection_control", "keyring", "masking", "enterprise"} {
		if strings.Contains(low, w) {
			s.add(RuleServerConfig, risk.High, false, "", "UNINSTALL "+obj+" removes "+name+", a security control the server then no longer applies")
			return
		}
	}
	s.add(RuleServerConfig, risk.Medium, false, "", "UNINSTALL "+obj+" removes "+orUnknown(name)+" from the server")
}

// privilegeTable reports one of the database server's own tables of
// accounts and privileges (mysql.user, pg_authid …): writing it changes
// who may log in and what they may do, behind GRANT's back.
func privilegeTable(name string) bool {
	// every such name holds mysql., pg_ or sqlite_: most tables are told
	// apart without a copy
	if len(name) < 6 || !strings.ContainsAny(name, "._") {
		return false
	}
	n := name
	if strings.ContainsAny(n, "`\"[]") {
		n = unquoteName.Replace(n)
	}
	if len(n) > 6 && strings.EqualFold(n[:6], "mysql.") {
		switch strings.ToLower(n[6:]) {
		case "user", "db", "global_priv", "tables_priv", "columns_priv", "procs_priv", "proxies_priv", "role_edges", "default_roles":
			return true
		}
		return false
	}
	if len(n) > 11 && strings.EqualFold(n[:11], "pg_catalog.") {
		n = n[11:]
	}
	switch strings.ToLower(n) {
	case "pg_authid", "pg_auth_members", "pg_shadow", "pg_user", "pg_roles", "sqlite_master", "sqlite_schema":
		return true
	}
	return false
}

// unquoteName removes the quotes of a quoted table name.
var unquoteName = strings.NewReplacer("`", "", "\"", "", "[", "", "]", "")

// privilegeWrite adds the finding on a write to a privilege table among
// targets.
func (s *stmt) privilegeWrite(verb string, targets ...string) {
	for _, t := range targets {
		if privilegeTable(t) {
			s.add(RulePrivileges, risk.High, false, tableRes(t), verb+" writes "+t+", the server's own table of accounts and privileges: who may log in, and as what, changes")
			return
		}
	}
}

func (s *stmt) update(i int) {
	s.st.Kind = Write
	j := s.skip(i+1, "LOW_PRIORITY", "IGNORE")
	if s.at(j).is("OR") { // SQLite: UPDATE OR REPLACE
		j += 2
	}
	targets, _ := s.names(j)
	for _, t := range targets {
		addTable(&s.st, t)
	}
	s.privilegeWrite("UPDATE", targets...)
	set := s.topLevel(j, "SET")
	if len(targets) > 0 {
		s.appAdminSet(set, targets[0])
	}
	s.credentialUpdate(set, targets)
	s.sourceTables(j)
	s.filtered("UPDATE", targets, RuleUpdateWithoutWhere, "rewrites every row", "changes the rows")
}

func (s *stmt) delete(i int) {
	s.st.Kind = Write
	j := s.skip(i+1, "LOW_PRIORITY", "QUICK", "IGNORE")
	if s.at(j).is("TOP") { // SQL Server: DELETE TOP (10) FROM t
		j++
		if s.at(j).is("(") {
			j = skipGroup(s.ts, j)
		} else {
			j++
		}
	}
	var targets []string
	if s.at(j).is("FROM") {
		targets, _ = s.names(j + 1)
	} else {
		// MySQL: DELETE t1, t2 FROM t1 JOIN t2 …; SQL Server: DELETE t WHERE …
		targets, _ = s.names(j)
	}
	for _, t := range targets {
		addTable(&s.st, t)
	}
	s.privilegeWrite("DELETE", targets...)
	s.sourceTables(j)
	s.filtered("DELETE", targets, RuleDeleteWithoutWhere, "removes every row", "removes the rows")
}

// filtered judges an UPDATE or DELETE by its WHERE clause: none, one that
// is always true, or one that limits the rows.
func (s *stmt) filtered(verb string, targets []string, noWhere, all, some string) {
	if len(targets) == 0 {
		targets = []string{""}
	}
	w := s.topLevel(0, "WHERE")
	// A join condition also limits the rows: DELETE t1 FROM t1 JOIN t2 ON ….
	s.st.Where = w >= 0 || s.topLevel(0, "ON") >= 0
	always := w >= 0 && tautology(whereClause(s.ts, w))
	for _, t := range targets {
		switch {
		case !s.st.Where:
			s.add(noWhere, risk.High, false, tableRes(t), verb+" without WHERE "+all+ofTable(t))
		case always:
			s.add(RuleTautology, risk.High, false, tableRes(t),
				"The WHERE clause of "+verb+" is always true (such as 1=1), so it "+all+ofTable(t))
		default:
			s.add(RuleWrite, risk.Medium, false, tableRes(t), verb+" "+some+ofTable(t)+" that match its WHERE clause")
		}
	}
}

func (s *stmt) truncate(i int) {
	s.st.Kind = Write
	names, _ := s.names(s.skip(i+1, "TABLE"))
	if len(names) == 0 {
		names = []string{""}
	}
	for _, n := range names {
		addTable(&s.st, n)
		s.add(RuleTruncate, risk.High, false, tableRes(n), "TRUNCATE deletes every row"+ofTable(n))
	}
}

// object reads the object type after DROP, ALTER or CREATE at i (TABLE,
// MATERIALIZED VIEW, FOREIGN TABLE) and returns it in upper case with the
// index after it.
func (s *stmt) object(i int) (string, int) {
	t := s.at(i)
	if t.kind != tkIdent {
		return "", i
	}
	obj := upper(t.text)
	for _, pair := range [...][2]string{{"MATERIALIZED", "VIEW"}, {"FOREIGN", "TABLE"}, {"FOREIGN", "DATA"},
		{"EVENT", "TRIGGER"}, {"ACCESS", "METHOD"}, {"TEXT", "SEARCH"}, {"DEFAULT", "PRIVILEGES"},
		{"USER", "MAPPING"}, {"OPERATOR", "CLASS"}, {"OPERATOR", "FAMILY"}} {
		if obj == pair[0] && s.at(i+1).is(pair[1]) {
			return obj + " " + pair[1], i + 2
		}
	}
	return obj, i + 1
}

func (s *stmt) drop(i int) {
	s.st.Kind = Schema
	obj, j := s.object(s.skip(i+1, "TEMPORARY", "TEMP"))
	s.st.Verb = "DROP " + obj
	j = s.skip(j, "IF", "EXISTS", "CONCURRENTLY", "BY")
	names, _ := s.names(j)
	if len(names) == 0 {
		names = []string{""}
	}
	for _, n := range names {
		switch obj {
		case "DATABASE", "SCHEMA":
			kind := strings.ToLower(obj)
			res := ""
			if n != "" {
				res = kind + ":" + n
			}
			s.add(RuleDropDatabase, risk.Critical, false, res, "DROP "+obj+" deletes "+kind+" "+orUnknown(n)+" and everything in it")
		case "USER", "ROLE", "GROUP", "LOGIN":
			s.st.Kind = Privilege
			s.add(RulePrivileges, risk.High, false, "", "DROP "+obj+" removes "+strings.ToLower(obj)+" "+orUnknown(n)+" and its privileges")
		case "OWNED":
			s.add(RuleDropTable, risk.High, false, "", "DROP OWNED deletes every object owned by "+orUnknown(n))
		case "TABLE", "VIEW", "MATERIALIZED VIEW", "FOREIGN TABLE":
			addTable(&s.st, n)
			what := "and all its rows"
			if obj != "TABLE" {
				what = "that queries may depend on"
			}
			s.add(RuleDropTable, risk.High, false, tableRes(n), "DROP "+obj+" deletes "+strings.ToLower(obj)+" "+orUnknown(n)+" "+what)
		default:
			res := ""
			if n != "" {
				res = strings.ToLower(strings.ReplaceAll(obj, " ", "_")) + ":" + n
			}
			s.add(RuleDropTable, risk.High, false, res, "DROP "+obj+" deletes "+strings.ToLower(obj)+" "+orUnknown(n))
		}
	}
}

func (s *stmt) alter(i int) {
	s.st.Kind = Schema
	obj, j := s.object(s.skip(i+1, "IGNORE", "ONLINE", "OFFLINE"))
	s.st.Verb = "ALTER " + obj
	switch obj {
	case "TABLE", "FOREIGN TABLE", "MATERIALIZED VIEW":
		name, k := s.name(s.skip(j, "IF", "EXISTS", "ONLY"))
		addTable(&s.st, name)
		if s.protectionsOff(k, name) {
			return
		}
		depth := 0
		for ; k < len(s.ts); k++ {
			t := s.ts[k]
			switch {
			case t.is("("):
				depth++
			case t.is(")"):
				depth--
			case depth == 0 && t.is("DROP"):
				// DROP DEFAULT, DROP NOT NULL, DROP IDENTITY and DROP
				// EXPRESSION keep the data.
				if n := s.at(k + 1); n.is("DEFAULT") || n.is("NOT") || n.is("IDENTITY") || n.is("EXPRESSION") {
					continue
				}
				s.add(RuleAlterDrop, risk.High, false, tableRes(name),
					"ALTER TABLE "+orUnknown(name)+" drops a column, constraint or partition, losing its data or guarantees")
				return
			case depth == 0 && t.is("TRUNCATE"):
				s.st.Kind = Write
				s.add(RuleTruncate, risk.High, false, tableRes(name), "ALTER TABLE … TRUNCATE PARTITION deletes every row of a partition"+ofTable(name))
				return
			}
		}
		s.add(RuleSchema, risk.Medium, true, tableRes(name), "ALTER "+obj+" changes the schema"+ofTable(name))
	case "USER", "ROLE", "LOGIN", "GROUP":
		s.st.Kind = Privilege
		who, _ := s.name(s.skip(j, "IF", "EXISTS"))
		if k := s.anyWord(j, "PASSWORD", "IDENTIFIED"); k >= 0 {
			s.add(RulePrivileges, risk.High, true, "", "ALTER "+obj+" sets the password of "+orUnknown(who))
			return
		}
		if k := s.anyWord(j, "SUPERUSER", "CREATEROLE", "CREATEDB", "BYPASSRLS", "REPLICATION"); k >= 0 {
			s.add(RulePrivileges, risk.High, true, "", "ALTER "+obj+" gives "+orUnknown(who)+" "+upper(s.ts[k].text)+" rights")
			return
		}
		s.add(RulePrivileges, risk.Medium, true, "", "ALTER "+obj+" changes a database role")
	case "DEFAULT PRIVILEGES":
		s.st.Kind = Privilege
		s.add(RulePrivileges, risk.High, true, "", "ALTER DEFAULT PRIVILEGES changes who can access future objects")
	case "SYSTEM":
		s.st.Kind = Admin
		s.settingsOff(j)
		s.add(RuleServerConfig, risk.High, true, "", "ALTER SYSTEM changes the database server's configuration")
	default:
		if s.auditOff(j, obj) {
			return
		}
		name, _ := s.name(s.skip(j, "IF", "EXISTS"))
		res := ""
		if (obj == "DATABASE" || obj == "SCHEMA") && name != "" {
			res = strings.ToLower(obj) + ":" + name
		}
		s.add(RuleSchema, risk.Medium, true, res, "ALTER "+obj+" changes the database schema")
	}
}

// anyWord returns the index of the first of kws after i, or -1.
func (s *stmt) anyWord(i int, kws ...string) int {
	for j := i; j < len(s.ts); j++ {
		for _, kw := range kws {
			if s.ts[j].is(kw) {
				return j
			}
		}
	}
	return -1
}

// untrusted are procedural languages that can reach the operating system.
var untrusted = [...]string{"c", "plpythonu", "plpython2u", "plpython3u", "plperlu", "pltclu", "plsh", "plr", "java", "javau"}

func (s *stmt) create(i int) {
	s.st.Kind = Schema
	j := i + 1
	for ; j < len(s.ts) && j < i+12; j++ {
		t := s.ts[j]
		if t.is("OR") || t.is("REPLACE") || t.is("TEMP") || t.is("TEMPORARY") || t.is("UNIQUE") || t.is("UNLOGGED") ||
			t.is("GLOBAL") || t.is("LOCAL") || t.is("RECURSIVE") || t.is("CONSTRAINT") || t.is("TRUSTED") || t.is("PROCEDURAL") {
			continue
		}
		if t.is("DEFINER") || t.is("ALGORITHM") || t.is("SQL") { // MySQL: DEFINER = user@host, SQL SECURITY …
			for j+1 < len(s.ts) && !createObject(s.ts[j+1]) {
				j++
			}
			continue
		}
		break
	}
	obj, k := s.object(j)
	s.st.Verb = "CREATE " + obj
	name, _ := s.name(s.skip(k, "IF", "NOT", "EXISTS"))
	switch obj {
	case "USER", "ROLE", "GROUP", "LOGIN":
		s.st.Kind = Privilege
		if w := s.anyWord(k, "SUPERUSER", "CREATEROLE", "BYPASSRLS", "REPLICATION", "CREATEDB"); w >= 0 {
			s.add(RulePrivileges, risk.High, true, "", "CREATE "+obj+" creates "+orUnknown(name)+" with "+upper(s.ts[w].text)+" rights")
			return
		}
		if obj == "USER" || obj == "LOGIN" || s.anyWord(k, "PASSWORD", "IDENTIFIED", "LOGIN") >= 0 {
			s.add(RulePrivileges, risk.High, true, "", "CREATE "+obj+" creates a database login "+orUnknown(name))
			return
		}
		s.add(RulePrivileges, risk.Medium, true, "", "CREATE "+obj+" creates role "+orUnknown(name))
		return
	case "FUNCTION", "PROCEDURE", "TRIGGER", "EVENT", "RULE", "AGGREGATE":
		s.routine(k, obj, name)
		return
	case "TABLE", "VIEW", "MATERIALIZED VIEW", "FOREIGN TABLE":
		addTable(&s.st, name)
		s.sourceTables(k)
		s.add(RuleSchema, risk.Medium, true, tableRes(name), "CREATE "+obj+" changes the database schema")
		return
	case "DATABASE", "SCHEMA":
		res := ""
		if name != "" {
			res = strings.ToLower(obj) + ":" + name
		}
		s.add(RuleSchema, risk.Medium, true, res, "CREATE "+obj+" changes the database schema")
		return
	}
	s.add(RuleSchema, risk.Medium, true, "", "CREATE "+obj+" changes the database schema")
}

// createObject reports whether t is an object type after CREATE.
func createObject(t token) bool {
	for _, kw := range [...]string{"TABLE", "VIEW", "FUNCTION", "PROCEDURE", "TRIGGER", "EVENT", "INDEX", "USER"} {
		if t.is(kw) {
			return true
		}
	}
	return false
}

// routine classifies CREATE FUNCTION, PROCEDURE, TRIGGER, EVENT and RULE:
// the definition itself, an untrusted language, and the statements of its
// body (a string literal, or BEGIN … / DO … for MySQL and SQLite).
func (s *stmt) routine(k int, obj, name string) {
	note := " (in the body of " + strings.ToLower(obj) + " " + orUnknown(name) + ")"
	s.add(RuleSchema, risk.Medium, true, "", "CREATE "+obj+" defines code that runs inside the database")
	if l := s.language(k); l != "" {
		s.add(RuleUntrustedCode, risk.High, false, "", "CREATE "+obj+" uses untrusted language "+l+", which can run any code on the database server")
	}
	if j := s.controlled(k); j > 0 {
		s.inner(s.ts[j:], note)
	}
	for j := k; j < len(s.ts); j++ {
		if s.ts[j].is("AS") && s.at(j+1).kind == tkString {
			s.body(s.ts[j+1].value(), note)
			break
		}
	}
}

// language returns the untrusted language named by LANGUAGE after i, or "".
func (s *stmt) language(i int) string {
	j := s.anyWord(i, "LANGUAGE")
	if j < 0 {
		return ""
	}
	l := s.at(j + 1)
	for _, u := range untrusted {
		if strings.EqualFold(l.value(), u) {
			return u
		}
	}
	return ""
}

func (s *stmt) grant(i int) {
	s.st.Kind = Privilege
	res := ""
	if on := s.topLevel(i, "ON"); on > 0 {
		j := on + 1
		switch {
		case s.at(j).is("DATABASE"), s.at(j).is("SCHEMA"):
			if n, _ := s.name(j + 1); n != "" {
				res = strings.ToLower(s.at(j).text) + ":" + n
			}
		case s.at(j).is("ALL"): // ALL TABLES IN SCHEMA s
			if in := s.topLevel(j, "SCHEMA"); in > 0 {
				if n, _ := s.name(in + 1); n != "" {
					res = "schema:" + n
				}
			}
		default:
			j = s.skip(j, "TABLE")
			if n, _ := s.name(j); n != "" && !s.at(j).is("FUNCTION") && !s.at(j).is("SEQUENCE") {
				res = "table:" + n
				addTable(&s.st, n)
			}
		}
	}
	s.add(RulePrivileges, risk.High, true, res, s.st.Verb+" changes who can access the database")
}

func (s *stmt) copy(i int) {
	j := i + 1
	name := ""
	if s.at(j).is("(") {
		end := skipGroup(s.ts, j)
		s.sourceTables(j)
		j = end
	} else {
		name, j = s.name(j)
		addTable(&s.st, name)
	}
	dir := s.topLevel(j-1, "TO")
	to := dir >= 0
	if !to {
		dir = s.topLevel(j-1, "FROM")
	}
	if dir < 0 {
		s.st.Kind = Read
		return
	}
	k := s.skip(dir+1, "PROGRAM")
	target := s.at(k)
	res := s.firstTable()
	switch {
	case s.at(dir + 1).is("PROGRAM"):
		s.st.Kind = Write
		s.add(RuleCopyProgram, risk.Critical, false, res,
			"COPY … PROGRAM runs a shell command on the database server: "+shorten(target.value()))
	case to && (target.is("STDOUT") || target.kind != tkString):
		s.st.Kind = Read
	case to:
		s.st.Kind = Read
		s.export(res, "COPY", tableOr(name, "query results"), target.value())
	case target.is("STDIN") || target.kind != tkString:
		s.st.Kind = Write
		s.add(RuleWrite, risk.Medium, true, tableRes(name), "COPY loads rows into "+tableOr(name, "a table"))
	default:
		s.st.Kind = Write
		s.add(RuleWrite, risk.Medium, true, tableRes(name), "COPY loads file "+shorten(target.value())+" into "+tableOr(name, "a table"))
	}
}

func tableOr(name, other string) string {
	if name == "" {
		return other
	}
	return "table " + name
}

func (s *stmt) do(i int) {
	s.st.Kind = Procedure
	s.add(RuleProcedure, risk.Medium, false, "", "DO runs an anonymous code block")
	if l := s.language(i); l != "" {
		s.add(RuleUntrustedCode, risk.High, false, "", "DO runs code in untrusted language "+l+", which can run any code on the database server")
		return
	}
	for _, t := range s.ts[i+1:] {
		if t.kind == tkString {
			s.body(t.value(), " (in a DO block)")
			return
		}
	}
}

func (s *stmt) execute(i int) {
	s.st.Kind = Procedure
	j := s.skip(i+1, "IMMEDIATE")
	if s.at(j).kind == tkString || s.at(j).is("(") || s.at(j).is("format") || s.at(j).is("sp_executesql") {
		// Dynamic SQL: EXECUTE 'DROP …', EXEC('…'), EXECUTE format('…', …).
		n := len(s.fs)
		s.bodyStrings(s.ts[j:], " (in dynamic SQL)")
		if len(s.fs) == n {
			s.add(RuleProcedure, risk.Medium, false, "", s.st.Verb+" runs dynamic SQL whose text is not fully visible here")
		}
		return
	}
	name, _ := s.name(j)
	if strings.EqualFold(name, "sp_configure") || strings.HasSuffix(strings.ToLower(name), ".sp_configure") {
		if _, k := s.name(j); s.spConfigure(k - 1) {
			return
		}
	}
	s.add(RuleProcedure, risk.Medium, false, "", s.st.Verb+" runs "+orUnknown(name)+", whose statement is not visible here")
}

func (s *stmt) prepare(i int) {
	s.st.Kind = Procedure
	note := " (in a prepared statement)"
	if as := s.topLevel(i, "AS"); as > 0 { // PostgreSQL: PREPARE p AS stmt
		s.inner(s.ts[as+1:], note)
	} else { // MySQL: PREPARE p FROM 'stmt'
		s.bodyStrings(s.ts[i+1:], note)
	}
	s.add(RuleProcedure, risk.Low, true, "", "PREPARE defines a statement to run later")
}

func (s *stmt) load(i int) {
	if s.at(i+1).is("DATA") || s.at(i+1).is("XML") { // MySQL: LOAD DATA [LOCAL] INFILE 'f' INTO TABLE t
		s.st.Kind = Write
		file := ""
		if k := s.anyWord(i, "INFILE"); k > 0 {
			file = s.at(k + 1).value()
		}
		name := ""
		if k := s.anyWord(i, "TABLE"); k > 0 {
			name, _ = s.name(k + 1)
			addTable(&s.st, name)
		}
		s.add(RuleWrite, risk.Medium, true, tableRes(name), "LOAD DATA loads file "+shorten(file)+" into "+tableOr(name, "a table"))
		return
	}
	s.st.Kind = Admin // PostgreSQL: LOAD 'library'
	s.add(RuleUntrustedCode, risk.High, false, "", "LOAD loads a native library into the database server")
}

func (s *stmt) set(i int) {
	s.st.Kind = Session
	s.settingsOff(i + 1)
	for j := i + 1; j < len(s.ts) && j < i+5; j++ {
		t := s.ts[j]
		switch {
		case t.is("GLOBAL"), t.is("PERSIST"), t.is("PERSIST_ONLY"):
			s.st.Kind = Admin
			s.add(RuleServerConfig, risk.High, true, "", "SET "+upper(t.text)+" changes the database server's configuration for every session")
			return
		case t.is("PASSWORD"):
			s.st.Kind = Privilege
			s.add(RulePrivileges, risk.High, true, "", "SET PASSWORD changes a database password")
			return
		}
	}
}

// meta classifies a client command: psql and mysql backslash commands,
// sqlite3 dot-commands.
func (s *stmt) meta(t token) {
	s.st.Kind = Meta
	text := t.text
	cmdEnd := 1
	if text[0] == '\\' && len(text) > 1 && !isLetter(text[1]) {
		cmdEnd = 2 // \! and \.
	}
	for cmdEnd < len(text) && (isLetter(text[cmdEnd]) || isDigit(text[cmdEnd]) || text[cmdEnd] == '_') {
		cmdEnd++
	}
	cmd, args := text[:cmdEnd], strings.TrimSpace(text[cmdEnd:])
	s.st.Verb = cmd
	pipe := strings.HasPrefix(args, "|")
	if text[0] == '\\' && cmd != `\!` && strings.Contains(args, "`") {
		// psql runs the text between backquotes in arguments as a shell
		// command: \set x `id`.
		s.add(RuleShellEscape, risk.High, false, "", "The SQL client runs a shell command in backquotes ("+cmd+"): "+shorten(args))
	}
	switch strings.ToLower(cmd) {
	case `\!`, ".shell", ".system":
		s.add(RuleShellEscape, risk.High, false, "", "The SQL client runs a shell command ("+cmd+"): "+shorten(args))
	case `\o`, `\out`, `\g`, `\gx`, `\w`, `\write`, ".output", ".once", ".read", ".excel":
		switch {
		case pipe:
			s.add(RuleShellEscape, risk.High, false, "", "The SQL client pipes to a shell command ("+cmd+"): "+shorten(args))
		case cmd == ".read":
			s.add(RuleProcedure, risk.Medium, false, "", ".read runs SQL from file "+shorten(args)+", whose content is not visible here")
		case args != "" && cmd != `\g` && cmd != `\gx`:
			s.export("", cmd, "query output", strings.Trim(args, `'"`))
		default:
			s.st.Kind = Read
		}
	case `\copy`:
		s.body(text[1:], " (psql \\copy)")
	case `\gexec`:
		s.st.Kind = Procedure
		s.add(RuleProcedure, risk.High, false, "", `\gexec runs the query's results as SQL statements, which are not visible here`)
	case `\i`, `\ir`, `\include`, `\include_relative`, `\.`, `\source`:
		s.st.Kind = Procedure
		s.add(RuleProcedure, risk.Medium, false, "", cmd+" runs SQL from file "+shorten(args)+", whose content is not visible here")
	case `\c`, `\connect`, `\u`, `\use`, ".open":
		s.st.Kind = Session
		s.a.db = args
	case `\set`:
		s.st.Kind = Session
		if ts, _, _ := lex(args, standard); len(ts) > 1 {
			s.bodyStrings(ts[1:], " (in a psql variable)")
		}
	case `\lo_import`, ".import":
		s.st.Kind = Write
		s.add(RuleWrite, risk.Medium, true, "", cmd+" loads file "+shorten(args)+" into the database")
	case `\lo_export`, ".backup", ".save", ".dump":
		if cmd == ".dump" && args == "" {
			s.st.Kind = Read
			return
		}
		s.export("", cmd, "database contents", strings.Trim(args, `'"`))
	case ".load":
		s.add(RuleUntrustedCode, risk.High, false, "", ".load loads a native library into the database")
	case ".restore":
		s.st.Kind = Write
		s.add(RuleWrite, risk.High, false, "", ".restore replaces the database's contents with a backup")
	default:
		s.st.Kind = Read
	}
}
