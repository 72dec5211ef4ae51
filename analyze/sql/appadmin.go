package sql

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// An application keeps its accounts in its own tables: a row whose
// is_admin (is_superuser, is_staff, superadmin …) becomes true, or whose
// role becomes admin, owner or superuser, is an administrator made behind
// the application's back, as GRANT is one of the server's. UPDATE … SET
// and INSERT … (columns) VALUES are read; what a WHERE clause or a SELECT
// tests is not a grant.

// adminFlag reports a column that makes its row an administrator when
// true, given in lower case without underscores (is_admin: isadmin).
func adminFlag(col string) bool {
	switch col {
	case "isadmin", "admin", "issuperuser", "superuser", "issuperadmin", "superadmin", "isstaff", "isroot",
		"issiteadmin", "siteadmin", "issysadmin", "sysadmin", "isadministrator", "administrator", "isowner", "adminuser", "isadminuser":
		return true
	}
	return false
}

// roleColumn reports a column that names its row's role or rights (in
// lower case without underscores).
func roleColumn(col string) bool {
	switch col {
	case "role", "roles", "userrole", "usertype", "accountrole", "orgrole", "accesslevel", "permission", "permissions",
		"rights", "privileges", "usergroup", "grouprole", "systemrole", "globalrole":
		return true
	}
	return false
}

// adminRole reports a role value that gives every right: admin, owner,
// superuser, root, or "*" (in any case, also inside a list or a prefixed
// name such as ROLE_ADMIN or ["admin"]).
func adminRole(v string) bool {
	v = strings.TrimSpace(v)
	if v == "*" || v == `["*"]` {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}) {
		switch w {
		case "admin", "administrator", "superadmin", "superuser", "owner", "root", "sysadmin", "siteadmin", "grafanaadmin":
			return true
		}
	}
	return false
}

// truthy reports a value token that sets a flag: TRUE, a non-zero number,
// or a string that reads as true.
func truthy(t token) bool {
	switch t.kind {
	case tkIdent:
		return t.is("TRUE") || t.is("ON")
	case tkNumber:
		return strings.Trim(t.text, "0.") != ""
	case tkString:
		switch strings.ToLower(t.value()) {
		case "1", "t", "true", "y", "yes", "on":
			return true
		}
	}
	return false
}

// colKey is a column name in lower case, without underscores and
// without its table's qualifier.
func colKey(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if len(name) > 24 {
		return ""
	}
	return strings.ReplaceAll(strings.ToLower(name), "_", "")
}

// grantsAdmin reports an assignment of value token v to column col that
// makes the row an administrator.
func grantsAdmin(col string, v token) bool {
	k := colKey(col)
	switch {
	case k == "":
		return false
	case adminFlag(k):
		return truthy(v)
	case roleColumn(k):
		return v.kind == tkString && adminRole(v.value())
	}
	return false
}

// appAdminSet reads the top-level SET list of an UPDATE (at index set, -1
// for none) and adds a privilege finding when an assignment makes rows
// administrators.
func (s *stmt) appAdminSet(set int, table string) {
	s.assignments(set, func(col string, eq int) bool {
		if grantsAdmin(col, s.at(eq+1)) {
			s.appAdmin("UPDATE", col, table)
			return false
		}
		return true
	})
}

// appAdminInsert reads INSERT INTO table (columns) VALUES (values) from
// index i (the opening parenthesis of the columns) and adds a privilege
// finding when a row is inserted as an administrator.
func (s *stmt) appAdminInsert(i int, table string) {
	if !s.at(i).is("(") {
		return
	}
	var cols []string
	j := i + 1
	for j < len(s.ts) && !s.ts[j].is(")") {
		if t := s.ts[j]; t.kind == tkIdent || t.kind == tkQuotedIdent {
			cols = append(cols, t.value())
		} else if !t.is(",") {
			return // an expression: not a plain column list
		}
		j++
	}
	if !s.at(j+1).is("VALUES") || !s.at(j+2).is("(") {
		return
	}
	n, depth := 0, 0
	for k := j + 3; k < len(s.ts) && n < len(cols); k++ {
		t := s.ts[k]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			if depth == 0 {
				return
			}
			depth--
		case depth == 0 && t.is(","):
			n++
		case depth == 0 && (k == j+3 || s.ts[k-1].is(",")) && grantsAdmin(cols[n], t):
			s.appAdmin("INSERT", cols[n], table)
			return
		}
	}
}

func (s *stmt) appAdmin(verb, col, table string) {
	s.add(RulePrivileges, risk.High, false, tableRes(table),
		verb+" sets "+col+ofTable(table)+" to an administrator's: an account gains every right in the application")
}
