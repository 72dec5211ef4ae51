package sql

import (
	"iter"
	"strconv"
	"strings"
)

// whereClause returns the condition of the WHERE keyword at w: the tokens
// up to a top-level RETURNING, ORDER BY, LIMIT or the end.
func whereClause(ts []token, w int) []token {
	depth := 0
	for j := w + 1; j < len(ts); j++ {
		t := ts[j]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && (t.is("RETURNING") || t.is("ORDER") || t.is("LIMIT")):
			return ts[w+1 : j]
		}
	}
	return ts[w+1:]
}

// maxCondDepth bounds the nesting of conditions that tautology evaluates,
// maxOrTerms the OR terms it examines and maxTerm their length, so that it
// stays linear.
const (
	maxCondDepth = 8
	maxOrTerms   = 64
	maxTerm      = 32
)

// tautology reports whether a WHERE condition selects every row: it is
// always true as a whole (WHERE 1=1, WHERE true, WHERE id = 3 OR 1=1), or
// somewhere in it an OR is followed by an always-true term (AND (id = 3 OR
// 'a'='a')), the shape of an injected condition. WHERE 1=1 AND id = 3 is
// not a tautology.
func tautology(cond []token) bool {
	if alwaysTrue(cond, 0) {
		return true
	}
	n := 0
	for j, t := range cond {
		if !t.is("OR") {
			continue
		}
		if n++; n > maxOrTerms {
			break
		}
		if alwaysTrue(term(cond[j+1:]), 0) {
			return true
		}
	}
	return false
}

// term returns the operand at the start of ts: the tokens up to an AND or
// OR at its level, or the parenthesis that closes its group. Operands
// longer than maxTerm tokens are not constant enough to matter: term
// returns nil for them, which keeps tautology linear.
func term(ts []token) []token {
	depth := 0
	between := false
	for j, t := range ts {
		if j > maxTerm {
			return nil
		}
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			if depth == 0 {
				return ts[:j]
			}
			depth--
		case depth == 0 && t.is("BETWEEN"):
			between = true
		case depth == 0 && t.is("AND") && between:
			between = false
		case depth == 0 && (t.is("AND") || t.is("OR")):
			return ts[:j]
		}
	}
	return ts
}

// parts yields the operands of ts joined by the keyword op (AND or OR) at
// the top level; the AND of BETWEEN … AND … does not split.
func parts(ts []token, op string) iter.Seq[[]token] {
	return func(yield func([]token) bool) {
		depth, start := 0, 0
		between := false
		for j, t := range ts {
			switch {
			case t.is("("):
				depth++
			case t.is(")"):
				depth--
			case depth == 0 && t.is("BETWEEN"):
				between = true
			case depth == 0 && t.is(op):
				if op == "AND" && between {
					between = false
					continue
				}
				if !yield(ts[start:j]) {
					return
				}
				start = j + 1
			}
		}
		yield(ts[start:])
	}
}

// count returns how many operands parts yields.
func count(ts []token, op string) int {
	n := 0
	for range parts(ts, op) {
		n++
	}
	return n
}

// stripParens removes parentheses that enclose all of ts.
func stripParens(ts []token) []token {
	for k := 0; k < maxCondDepth && len(ts) >= 2 && ts[0].is("(") && ts[len(ts)-1].is(")") && skipGroup(ts, 0) == len(ts); k++ {
		ts = ts[1 : len(ts)-1]
	}
	return ts
}

// alwaysTrue reports whether the condition ts holds for every row.
func alwaysTrue(ts []token, depth int) bool {
	return truth(ts, depth) == yes
}

type tri uint8

const (
	maybe tri = iota
	yes
	no
)

// truth evaluates a condition that does not depend on the row: yes, no, or
// maybe (it depends on the row, or is not understood).
func truth(ts []token, depth int) tri {
	if depth > maxCondDepth {
		return maybe
	}
	ts = stripParens(ts)
	if len(ts) == 0 {
		return maybe
	}
	// An OR is yes as soon as one operand is, an AND no as soon as one is.
	for _, op := range [...]struct {
		kw                 string
		decides, otherwise tri
	}{{"OR", yes, no}, {"AND", no, yes}} {
		if count(ts, op.kw) < 2 {
			continue
		}
		r := op.otherwise
		for p := range parts(ts, op.kw) {
			switch v := truth(p, depth+1); v {
			case op.decides:
				return v
			case maybe:
				r = maybe
			}
		}
		return r
	}
	if ts[0].is("NOT") {
		switch truth(ts[1:], depth+1) {
		case yes:
			return no
		case no:
			return yes
		}
		return maybe
	}
	return atom(ts)
}

// atom evaluates a single comparison or literal.
func atom(ts []token) tri {
	switch len(ts) {
	case 1:
		v, ok := literal(ts[0])
		if !ok {
			return maybe
		}
		f, err := strconv.ParseFloat(v, 64) // MySQL reads 'abc' as 0
		return bool3(err == nil && f != 0)
	case 3:
		if ts[0].is("NULL") && ts[1].is("IS") && ts[2].is("NULL") {
			return yes
		}
		if ts[1].kind == tkOp {
			if keyFloor(ts[0], ts[1].text, ts[2]) {
				return yes
			}
			return compare(ts[0], ts[1].text, ts[2])
		}
	case 4:
		// 1 IS NOT NULL, id IS NOT NULL: a key is never NULL
		if ts[1].is("IS") && ts[2].is("NOT") && ts[3].is("NULL") {
			if _, ok := literal(ts[0]); ok || keyColumn(ts[0]) {
				return yes
			}
		}
	}
	return maybe
}

// keyFloor reports a comparison that every row's key passes: a key
// column (id, user_id) above or at its floor (id > 0, id >= 1, 0 < id),
// as generated keys start at 1. A DELETE WHERE id > 0 deletes every row.
func keyFloor(a token, op string, b token) bool {
	if keyColumn(b) && !keyColumn(a) {
		a, b = b, a
		switch op {
		case "<":
			op = ">"
		case "<=":
			op = ">="
		default:
			return false
		}
	}
	if !keyColumn(a) {
		return false
	}
	v, ok := literal(b)
	if !ok || b.kind != tkNumber {
		return false
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return false
	}
	switch op {
	case ">":
		return f <= 0
	case ">=":
		return f <= 1
	}
	return false
}

// keyColumn reports a column named as a key: id, or a name ending in
// _id.
func keyColumn(t token) bool {
	if t.kind != tkIdent && t.kind != tkQuotedIdent {
		return false
	}
	v := strings.ToLower(t.value())
	if i := strings.LastIndexByte(v, '.'); i >= 0 {
		v = v[i+1:]
	}
	return v == "id" || strings.HasSuffix(v, "_id")
}

// literal returns the canonical value of a constant token: numbers as
// formatted by strconv (1.0 and 1 are "1"), strings as their content,
// TRUE and FALSE as "1" and "0". NULL is not a constant here.
func literal(t token) (string, bool) {
	switch {
	case t.kind == tkNumber:
		if f, ok := number64(t.text); ok {
			return strconv.FormatFloat(f, 'g', -1, 64), true
		}
	case t.kind == tkString:
		return t.value(), true
	case t.is("TRUE"):
		return "1", true
	case t.is("FALSE"):
		return "0", true
	}
	return "", false
}

func number64(s string) (float64, bool) {
	s = strings.ReplaceAll(s, "_", "")
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f, true
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return float64(i), true
	}
	return 0, false
}

// compare evaluates a op b when both are constants, or both are the same
// column (id = id).
func compare(a token, op string, b token) tri {
	av, aok := literal(a)
	bv, bok := literal(b)
	if !aok || !bok {
		same := (a.kind == tkIdent || a.kind == tkQuotedIdent) && a.kind == b.kind &&
			!a.is("NULL") && strings.EqualFold(a.value(), b.value())
		if !same {
			return maybe
		}
		switch op {
		case "=", "==", "<=", ">=":
			return yes
		case "<>", "!=", "<", ">":
			return no
		}
		return maybe
	}
	// Compare as numbers when both read as numbers (MySQL compares '1' = 1
	// as numbers), else as strings.
	var c int
	af, aerr := strconv.ParseFloat(av, 64)
	bf, berr := strconv.ParseFloat(bv, 64)
	switch {
	case aerr == nil && berr == nil:
		c = cmpFloat(af, bf)
	default:
		c = strings.Compare(av, bv)
	}
	switch op {
	case "=", "==":
		return bool3(c == 0)
	case "<>", "!=":
		return bool3(c != 0)
	case "<":
		return bool3(c < 0)
	case ">":
		return bool3(c > 0)
	case "<=":
		return bool3(c <= 0)
	case ">=":
		return bool3(c >= 0)
	}
	return maybe
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func bool3(b bool) tri {
	if b {
		return yes
	}
	return no
}
