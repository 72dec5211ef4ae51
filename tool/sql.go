package tool

import "github.com/agentwarden/warden/risk"

// SQLText is what one SQL text of a call reads as: a fact the SQL
// preparer records for each text of Call.SQL (and the shell preparer for
// the SQL a command gives a database client), so that no reader lexes
// the text again. Look one up with Call.SQLText.
type SQLText struct {
	Text string
	// Statements are the statements of the text as PostgreSQL reads it
	// (see sql.Statements); they must not be modified.
	Statements []Statement
	// Findings are what the SQL analysis of the text found (sql.Analyze),
	// before any escalation for the database the call runs against; they
	// must not be modified: a reader that escalates them copies them.
	Findings []risk.Finding
	// PersonalData describes the personal or secret data the text's
	// queries return ("email, phone from users"), or is "" when none is
	// known to (see sql.PersonalData).
	PersonalData string
	// Err is the error of lexing the text as PostgreSQL reads it (see
	// sql.Statements): Statements then end before the construct that is
	// never closed. Whether the text is unparsable in every reading is
	// told by Findings.
	Err error
}

// SQLKind is what an SQL statement does.
type SQLKind string

// The kinds of SQL statements.
const (
	SQLRead        SQLKind = "read"        // SELECT, SHOW, EXPLAIN, VALUES, COPY … TO STDOUT
	SQLWrite       SQLKind = "write"       // INSERT, UPDATE, DELETE, MERGE, TRUNCATE, COPY … FROM
	SQLSchema      SQLKind = "schema"      // CREATE, ALTER, DROP, RENAME, COMMENT
	SQLPrivilege   SQLKind = "privilege"   // GRANT, REVOKE, CREATE/ALTER/DROP USER or ROLE, SET PASSWORD
	SQLTransaction SQLKind = "transaction" // BEGIN, COMMIT, ROLLBACK, SAVEPOINT
	SQLSession     SQLKind = "session"     // SET, USE, RESET, LISTEN, DECLARE
	SQLProcedure   SQLKind = "procedure"   // DO, CALL, EXECUTE, PREPARE
	SQLAdmin       SQLKind = "admin"       // ALTER SYSTEM, VACUUM, KILL, SHUTDOWN
	SQLMeta        SQLKind = "meta"        // a client command that is not a read: psql \copy, mysql \!, sqlite3 .shell
	SQLOther       SQLKind = "other"       // not recognized
)

// Statement is one statement of an SQL text, as the SQL analysis finds it
// (see sql.Statements).
type Statement struct {
	// Text is the statement as written, without its terminating semicolon.
	Text string
	// Offset is the byte offset of Text in the text that was split; for
	// the Inner statements of a body (DO, functions, EXECUTE literals,
	// \copy), in the body's text.
	Offset int
	// Kind is what the statement does, its Inner statements included: a
	// SELECT whose WITH clause deletes rows is a write.
	Kind SQLKind
	// Verb is the statement's leading keywords in upper case ("SELECT",
	// "DELETE", "DROP TABLE", "ALTER USER"); for a WITH statement, the verb
	// of its main statement; for a client command, its name as written
	// ("\copy", ".shell").
	Verb string
	// Tables are the tables the statement names, its targets first, quotes
	// removed, qualified names joined with dots, without duplicates.
	Tables []string
	// Where reports, for UPDATE and DELETE, a WHERE clause (or join
	// condition) that limits the rows touched.
	Where bool
	// Inner are the statements this one contains and runs or defines:
	// data-modifying WITH clauses and subqueries, the target of EXPLAIN
	// ANALYZE and PREPARE, DO and function bodies, EXECUTE literals, the
	// COPY of a \copy command.
	Inner []Statement
}

// AddSQLText records the fact t about one of c's SQL texts, unless c
// holds one for its text already, for SQLText to find. A preparer calls
// it; readers only call SQLText.
func (c *Call) AddSQLText(t SQLText) {
	if _, ok := c.SQLText(t.Text); ok {
		return
	}
	if c.SQLTexts == nil {
		c.SQLTexts = c.sqlTexts1[:0]
	}
	c.SQLTexts = append(c.SQLTexts, t)
	index(&c.sqlIndex, c.SQLTexts, sqlText)
}

// SQLText returns the fact recorded for the SQL text of c (see
// SQLTexts), or false when none is. It only reads c.
func (c *Call) SQLText(text string) (*SQLText, bool) {
	return find(&c.sqlIndex, c.SQLTexts, text, sqlText)
}

func sqlText(t *SQLText) string { return t.Text }
