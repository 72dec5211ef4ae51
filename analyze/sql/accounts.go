package sql

import (
	"strings"

	"github.com/agentwarden/warden/risk"
)

// credentialUpdate judges an UPDATE that sets a column holding what an
// account logs in with: a password or its hash, a second factor's secret,
// recovery codes, an API or session token. Whoever sets it can log in as
// the rows' owners (account takeover), whichever table and rows it is:
// high. Columns about a credential (password_reset_sent_at,
// password_changed_at, otp_enabled) are not it, and neither is reading one
// (SELECT password_hash IS NULL …). set is the index of the statement's
// top-level SET, or -1.
func (s *stmt) credentialUpdate(set int, targets []string) {
	s.assignments(set, func(_ string, eq int) bool {
		col := s.ts[eq-1].value() // the column itself, without its table
		if !credentialColumn(col) {
			return true
		}
		table := ""
		if len(targets) > 0 {
			table = targets[0]
		}
		s.add(RulePrivileges, risk.High, false, tableRes(table),
			"UPDATE sets "+col+ofTable(table)+", what an account logs in with: whoever sets it can log in as the rows' owners (account takeover)")
		return false
	})
}

// assignments calls fn for each column the top-level SET list at index
// set assigns (col = …, t.col = …), with its name as written and the index
// of its =, until the list ends (WHERE, FROM, RETURNING, OUTPUT, ;) or fn
// returns false; set is -1 when the statement has no SET. Parenthesized
// values are skipped: what they compare is not assigned.
func (s *stmt) assignments(set int, fn func(col string, eq int) bool) {
	if set < 0 {
		return
	}
	depth := 0
	for j := set + 1; j < len(s.ts); j++ {
		t := s.ts[j]
		switch {
		case t.is("("):
			depth++
			continue
		case t.is(")"):
			depth--
			continue
		case depth > 0:
			continue
		case t.is("WHERE") || t.is("FROM") || t.is("RETURNING") || t.is("OUTPUT") || t.is(";"):
			return
		}
		// an assignment starts after the SET or a comma
		if t.kind != tkIdent && t.kind != tkQuotedIdent || j-1 != set && !s.at(j-1).is(",") {
			continue
		}
		col, k := s.name(j)
		if s.at(k).is("=") && !fn(col, k) {
			return
		}
		j = k
	}
}

// credentialColumn reports a column name that holds a credential itself:
// its words (split at _ and -) name a password, a second factor, recovery
// codes or an API, auth, session or reset token (not an OAuth access token an integration stores), and its last word is
// the secret (password, hash, digest, secret, key, token, codes …), not a
// time, count or flag about it.
func credentialColumn(name string) bool {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
	if len(words) == 0 {
		return false
	}
	last := words[len(words)-1]
	has := func(ws ...string) bool {
		for _, w := range words {
			for _, x := range ws {
				if w == x {
					return true
				}
			}
		}
		return false
	}
	switch {
	case has("password", "passwd", "pwd", "passphrase", "pass"):
		switch last {
		case "password", "passwd", "pwd", "passphrase", "hash", "hashed", "digest", "crypt", "encrypted", "salt", "token":
			return true
		}
	case has("otp", "mfa", "totp", "2fa", "tfa", "factor", "authenticator"):
		switch last {
		case "secret", "key", "seed", "codes":
			return true
		}
	case has("recovery", "backup"):
		return last == "codes"
	case has("api", "auth", "session", "remember", "reset"):
		switch last {
		case "key", "token":
			return true
		}
		return last == "hash" && (has("key") || has("token"))
	}
	return false
}
