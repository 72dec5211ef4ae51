package sql

import "strings"

// PersonalData describes the personal or secret data that the queries of
// text return ("email, phone from users"), or returns "" when none is
// known to. A result column is personal by its name: email, phone,
// address, date of birth, national identifiers, passwords, card numbers,
// keys and tokens. SELECT * (or t.*) is personal when its table holds
// people or secrets by its name (users, customers, patients, api_keys …).
// Aggregates (count, sum, avg) return no one's data; columns only named
// in WHERE or JOIN conditions are not returned.
func PersonalData(text string) string {
	a := newAnalysis(text, standard, 0)
	a.personal = true
	toks, _, _ := lex(text, standard)
	a.statements(toks, false)
	return a.personalData()
}

// maxPersonal is how many personal columns PersonalData names.
const maxPersonal = 4

// selects records the personal columns the top-level statement st, of
// tokens ts, returns, while fewer than maxPersonal are known.
func (a *analysis) selects(st Statement, ts []token) {
	if len(a.found) >= maxPersonal || st.Kind != Read || st.Verb != "SELECT" {
		return
	}
	if cols := selected(ts, st.Tables); len(cols) > 0 {
		a.found = append(a.found, cols...)
		a.tables = append(a.tables, st.Tables...)
	}
}

// personalData describes the personal columns selects found.
func (a *analysis) personalData() string {
	found, tables := a.found, a.tables
	if len(found) == 0 {
		return ""
	}
	if len(found) > maxPersonal {
		found = found[:maxPersonal]
	}
	s := strings.Join(found, ", ")
	if len(tables) > 0 {
		if len(tables) > 3 {
			tables = tables[:3]
		}
		s += " from " + strings.Join(tables, ", ")
	}
	return s
}

// selected returns the personal columns of every SELECT list in toks.
func selected(toks []token, tables []string) []string {
	var out []string
	lists := 0
	for i := 0; i < len(toks) && lists < maxSelects; i++ {
		if !toks[i].is("SELECT") {
			continue
		}
		lists++
		// the select list: up to FROM (or the end of its group) at its
		// depth, and at most maxSelectList tokens (a list nested in
		// another is read again with it: bounded, that is linear)
		depth, start := 0, i+1
		j := start
	list:
		for ; j < len(toks) && j-start < maxSelectList; j++ {
			t := toks[j]
			switch {
			case t.is("("):
				depth++
			case t.is(")"):
				if depth == 0 {
					break list
				}
				depth--
			case depth == 0 && (t.is("FROM") || t.is("INTO") || t.is("WHERE") || t.is("UNION") || t.is(";") || t.is("SELECT")):
				break list
			case depth == 0 && t.is(","):
				out = append(out, item(toks[start:j], tables)...)
				start = j + 1
			}
		}
		out = append(out, item(toks[start:j], tables)...)
	}
	return out
}

// maxSelects bounds the select lists of one text selected reads, and
// maxSelectList the tokens of each: personal columns past them are not
// looked for (SELECT SELECT SELECT … read each list to the end of the
// text: 59 s for 200 KB).
const (
	maxSelects    = 256
	maxSelectList = 1024
)

// item returns the personal columns one select-list item returns.
func item(ts []token, tables []string) []string {
	if len(ts) > 0 && (ts[0].is("DISTINCT") || ts[0].is("ALL")) {
		ts = ts[1:]
	}
	if len(ts) == 0 {
		return nil
	}
	if len(ts) >= 2 && ts[0].kind == tkIdent && ts[1].is("(") && aggregates[strings.ToLower(ts[0].text)] {
		return nil
	}
	last := ts[len(ts)-1]
	if last.is("*") {
		for _, t := range tables {
			if peopleTable(t) {
				return []string{"* of " + t}
			}
		}
		return nil
	}
	var out []string
	for k, t := range ts {
		if t.is("AS") {
			break // what follows is the column's new name
		}
		if t.kind != tkIdent && t.kind != tkQuotedIdent {
			continue
		}
		if k+1 < len(ts) && ts[k+1].is("(") {
			continue // a function's name
		}
		name := strings.Trim(t.text, "\"`")
		if personalColumn(name) {
			out = append(out, name)
		}
	}
	return out
}

// aggregates return one value computed over many rows.
var aggregates = map[string]bool{"count": true, "sum": true, "avg": true, "stddev": true, "variance": true,
	"bool_and": true, "bool_or": true, "every": true, "exists": true}

// personalColumn reports a column whose name says it holds someone's
// personal data or a secret.
func personalColumn(name string) bool {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
	if len(words) == 0 || notPersonal[words[len(words)-1]] && len(words) > 1 {
		return false // email_verified, phone_count, address_id
	}
	for k, w := range words {
		if personalWords[w] {
			return true
		}
		if k+1 < len(words) && personalPairs[w+"_"+words[k+1]] {
			return true
		}
	}
	return personalWords[strings.ToLower(name)] // emailAddress is not split; the whole name may still be one
}

var personalWords = map[string]bool{
	"email": true, "emails": true, "emailaddress": true, "phone": true, "telephone": true, "mobile": true, "msisdn": true,
	"ssn": true, "dob": true, "birthday": true, "birthdate": true, "address": true, "street": true, "postcode": true,
	"password": true, "passwd": true, "salary": true, "iban": true, "cvv": true, "cvc": true, "passport": true,
	"secret": true, "token": true, "apikey": true, "diagnosis": true, "fullname": true, "firstname": true, "lastname": true,
}

var personalPairs = map[string]bool{
	"first_name": true, "last_name": true, "full_name": true, "given_name": true, "family_name": true,
	"birth_date": true, "date_of": true, "card_number": true, "credit_card": true, "card_no": true,
	"social_security": true, "tax_id": true, "national_id": true, "api_key": true, "private_key": true,
	"access_key": true, "zip_code": true, "postal_code": true, "account_number": true,
}

var notPersonal = map[string]bool{
	"verified": true, "confirmed": true, "enabled": true, "count": true, "at": true, "id": true, "type": true,
	"status": true, "sent": true, "changed": true, "updated": true, "expires": true, "expiry": true, "length": true,
	"domain": true, "opt": true, "optin": true, "consent": true, "valid": true, "set": true,
}

// peopleTable reports a table whose rows are people or their secrets.
func peopleTable(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return peopleTables[strings.ToLower(name)]
}

var peopleTables = map[string]bool{
	"users": true, "user": true, "customers": true, "customer": true, "accounts": true, "account": true,
	"patients": true, "patient": true, "employees": true, "employee": true, "members": true, "member": true,
	"people": true, "persons": true, "person": true, "contacts": true, "contact": true, "profiles": true,
	"profile": true, "clients": true, "client": true, "subscribers": true, "applicants": true, "students": true,
	"credentials": true, "secrets": true, "api_keys": true, "tokens": true, "passwords": true, "cards": true,
	"payments": true, "auth_user": true, "staff": true,
}
