package sql

import "github.com/agentwarden/warden/tool"

// Kind is what a statement does.
type Kind = tool.SQLKind

// The kinds.
const (
	Read        = tool.SQLRead        // SELECT, SHOW, EXPLAIN, VALUES, COPY … TO STDOUT
	Write       = tool.SQLWrite       // INSERT, UPDATE, DELETE, MERGE, TRUNCATE, COPY … FROM
	Schema      = tool.SQLSchema      // CREATE, ALTER, DROP, RENAME, COMMENT
	Privilege   = tool.SQLPrivilege   // GRANT, REVOKE, CREATE/ALTER/DROP USER or ROLE, SET PASSWORD
	Transaction = tool.SQLTransaction // BEGIN, COMMIT, ROLLBACK, SAVEPOINT
	Session     = tool.SQLSession     // SET, USE, RESET, LISTEN, DECLARE
	Procedure   = tool.SQLProcedure   // DO, CALL, EXECUTE, PREPARE
	Admin       = tool.SQLAdmin       // ALTER SYSTEM, VACUUM, KILL, SHUTDOWN
	Meta        = tool.SQLMeta        // a client command that is not a read: psql \copy, mysql \!, sqlite3 .shell
	Other       = tool.SQLOther       // not recognized
)

// Statement is one statement of an SQL text, as Statements finds it (see
// tool.Statement).
type Statement = tool.Statement

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
func addTable(st *Statement, name string) {
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
func addInner(st *Statement, in Statement) {
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
