package sql

// Kind is what a statement does.
type Kind string

// The kinds.
const (
	Read        Kind = "read"        // SELECT, SHOW, EXPLAIN, VALUES, COPY … TO STDOUT
	Write       Kind = "write"       // INSERT, UPDATE, DELETE, MERGE, TRUNCATE, COPY … FROM
	Schema      Kind = "schema"      // CREATE, ALTER, DROP, RENAME, COMMENT
	Privilege   Kind = "privilege"   // GRANT, REVOKE, CREATE/ALTER/DROP USER or ROLE, SET PASSWORD
	Transaction Kind = "transaction" // BEGIN, COMMIT, ROLLBACK, SAVEPOINT
	Session     Kind = "session"     // SET, USE, RESET, LISTEN, DECLARE
	Procedure   Kind = "procedure"   // DO, CALL, EXECUTE, PREPARE
	Admin       Kind = "admin"       // ALTER SYSTEM, VACUUM, KILL, SHUTDOWN
	Meta        Kind = "meta"        // a client command that is not a read: psql \copy, mysql \!, sqlite3 .shell
	Other       Kind = "other"       // not recognized
)

// Statement is one statement of an SQL text, as Statements finds it.
type Statement struct {
	// Text is the statement as written, without its terminating semicolon.
	Text string
	// Offset is the byte offset of Text in the text that was split; for
	// the Inner statements of a body (DO, functions, EXECUTE literals,
	// \copy), in the body's text.
	Offset int
	// Kind is what the statement does, its Inner statements included: a
	// SELECT whose WITH clause deletes rows is a Write.
	Kind Kind
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

// Statements splits text into statements and classifies each. Splitting
// happens at semicolons outside strings, quoted identifiers, comments and
// dollar-quoted bodies, and around client commands (lines that start with
// a backslash, or with a dot where a statement would start). Keywords
// inside strings and comments are never statements.
//
// Text is read as PostgreSQL reads it; Analyze also reads it as MySQL does
// where the two differ. If text cannot be lexed (a string, comment or body
// that is never closed), the error is a *SyntaxError and the statements
// before the unterminated construct are returned with it.
func Statements(text string) ([]Statement, error) {
	a := newAnalysis(text, standard, 0)
	toks, _, err := lex(text, standard)
	a.statements(toks, false)
	return a.stmts, err
}

// addTable appends name to the statement's tables unless it is empty or
// already there.
func (st *Statement) addTable(name string) {
	if name == "" {
		return
	}
	for _, t := range st.Tables {
		if t == name {
			return
		}
	}
	st.Tables = append(st.Tables, name)
}

// addInner records an inner statement; a read statement that contains a
// change takes the change's kind.
func (st *Statement) addInner(in Statement) {
	st.Inner = append(st.Inner, in)
	if st.Kind == Read && in.Kind != Read && in.Kind != Transaction && in.Kind != Session {
		st.Kind = in.Kind
	}
}

// text returns the source text that ts spans.
func spanText(src string, ts []token) (string, int) {
	if len(ts) == 0 {
		return "", 0
	}
	first, last := ts[0], ts[len(ts)-1]
	return src[first.pos : last.pos+len(last.text)], first.pos
}

// upper returns s with its ASCII letters in upper case (a keyword's
// spelling; other letters are left alone, as databases do).
func upper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 0x80 {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if b[j] >= 'a' && b[j] <= 'z' {
					b[j] -= 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
