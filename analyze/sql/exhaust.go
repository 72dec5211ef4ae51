package sql

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agentwarden/warden/risk"
)

// Exhausting the database server's disk, memory or CPU from SQL: rows made
// from nothing by the hundred million (generate_series, cross joins of
// series, values of 100 MB from repeat or lpad), MySQL's BENCHMARK run a
// hundred million times, a recursive CTE whose recursive part never stops
// (it reads only itself, with no WHERE, and nothing LIMITs it), and loops
// of procedural code that never exit, or that insert a table into itself
// (it doubles each time). The server's other users are starved: high,
// as a fork bomb or a disk filled by dd is. Series of a thousand rows, a
// recursive CTE WHERE n < 100, a loop with EXIT WHEN, a FOR loop over a
// query are not it.

const (
	manyRows  = 1e8  // rows made from nothing
	manyBytes = 1e10 // bytes made from nothing (10 GB)
	bigValue  = 1e8  // bytes of one value
	manyRuns  = 1e8  // BENCHMARK's repetitions
	doublings = 20   // loop iterations that insert a table into itself
)

// scanExhaustion looks for generated rows and values, BENCHMARK and
// endless recursive CTEs anywhere in the statement.
func (s *stmt) scanExhaustion() {
	rows, width := 1.0, 0.0
	series := false
	for j, t := range s.ts {
		if t.kind != tkIdent || !s.at(j+1).is("(") {
			if t.is("RECURSIVE") && j > 0 && s.ts[j-1].is("WITH") {
				s.endlessCTE(j + 1)
			}
			continue
		}
		switch {
		case t.is("generate_series") || t.is("range") && s.at(j-1).is("FROM") || t.is("system_range"):
			if a, b, ok := s.args2(j + 2); ok && b >= a {
				step := 1.0
				if c, ok := s.number(s.argAfter(j+2, 2)); ok && c > 0 {
					step = c
				}
				rows *= (b-a)/step + 1
				series = true
			}
		case t.is("repeat") || t.is("replicate") || t.is("space") || t.is("lpad") || t.is("rpad") ||
			t.is("randomblob") || t.is("zeroblob"):
			n := 1
			if t.is("repeat") || t.is("replicate") || t.is("lpad") || t.is("rpad") {
				n = 2
			}
			if v, ok := s.number(s.argAfter(j+2, n-1)); ok && v > width {
				width = v
			}
		case t.is("BENCHMARK"):
			if v, ok := s.number(j + 2); ok && v >= manyRuns {
				s.add(RuleExhaustion, risk.High, false, "", "BENCHMARK runs an expression "+amount(v)+" times: the server's CPU is held for as long")
			}
		}
	}
	switch {
	case series && rows >= manyRows:
		s.add(RuleExhaustion, risk.High, false, s.firstTable(), "The statement makes "+amount(rows)+" rows from nothing (generate_series): the server's disk, memory or CPU runs out")
	case series && rows*width >= manyBytes:
		s.add(RuleExhaustion, risk.High, false, s.firstTable(), "The statement makes "+amount(rows)+" rows of "+amount(width)+" bytes from nothing: the server's disk or memory runs out")
	case width >= bigValue:
		s.add(RuleExhaustion, risk.High, false, "", "The statement makes a value of "+amount(width)+" bytes: the server's memory runs out")
	}
}

func amount(v float64) string {
	if v >= 1e6 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// argAfter returns the index of the argument that follows n top-level
// commas from index i (the first argument of a call), or -1.
func (s *stmt) argAfter(i, n int) int {
	depth := 0
	for j := i; j < len(s.ts) && n > 0; j++ {
		switch t := s.ts[j]; {
		case t.is("("):
			depth++
		case t.is(")"):
			if depth == 0 {
				return -1
			}
			depth--
		case depth == 0 && t.is(","):
			if n--; n == 0 {
				return j + 1
			}
		}
	}
	if n == 0 {
		return i
	}
	return -1
}

// args2 reads the first two arguments of a call from index i as numbers.
func (s *stmt) args2(i int) (float64, float64, bool) {
	a, ok1 := s.number(i)
	b, ok2 := s.number(s.argAfter(i, 1))
	return a, b, ok1 && ok2
}

// number evaluates the constant at index i: a number, a quoted number,
// with casts (::bigint), and products and powers of numbers (10^9,
// 1000*1000*1000, power(10, 9)). It reports false for anything else.
func (s *stmt) number(i int) (float64, bool) {
	if i < 0 {
		return 0, false
	}
	val := func(j int) (float64, int, bool) {
		t := s.at(j)
		if t.is("power") || t.is("pow") {
			if s.at(j+1).is("(") && s.at(j+3).is(",") && s.at(j+5).is(")") {
				b, ok1 := strconv.ParseFloat(s.at(j+2).value(), 64)
				e, ok2 := strconv.ParseFloat(s.at(j+4).value(), 64)
				if ok1 == nil && ok2 == nil && e < 30 {
					p := 1.0
					for range int(e) {
						p *= b
					}
					return p, j + 6, true
				}
			}
			return 0, j, false
		}
		if t.kind != tkNumber && t.kind != tkString {
			return 0, j, false
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(t.value()), 64)
		j++
		for s.at(j).is(":") && s.at(j+1).is(":") && s.at(j+2).kind == tkIdent {
			j += 3
		}
		return v, j, err == nil
	}
	neg := false
	if s.at(i).is("-") {
		neg, i = true, i+1
	}
	v, j, ok := val(i)
	if !ok {
		return 0, false
	}
	for k := 0; k < 8 && (s.at(j).is("*") || s.at(j).is("^")); k++ {
		op := s.at(j)
		w, next, ok := val(j + 1)
		if !ok {
			return 0, false
		}
		if op.is("*") {
			v *= w
		} else if w < 30 {
			p := 1.0
			for range int(w) {
				p *= v
			}
			v = p
		}
		j = next
	}
	if t := s.at(j); !(t.is(",") || t.is(")") || j >= len(s.ts)) {
		return 0, false // an expression warden does not evaluate
	}
	if neg {
		v = -v
	}
	return v, true
}

// endlessCTE judges the CTEs of WITH RECURSIVE from index i: one whose
// recursive part (after UNION) reads only itself with no WHERE never
// stops, unless the main statement LIMITs what it takes.
func (s *stmt) endlessCTE(i int) {
	for k := 0; i < len(s.ts) && k < 16; k++ {
		name, j := s.name(i)
		if name == "" {
			return
		}
		if s.at(j).is("(") { // column list
			j = skipGroup(s.ts, j)
		}
		j = s.skip(j, "AS", "NOT", "MATERIALIZED")
		if !s.at(j).is("(") {
			return
		}
		end := skipGroup(s.ts, j)
		if s.recursesForever(name, j+1, end-1) && s.topLevel(end-1, "LIMIT") < 0 && s.topLevel(end-1, "FETCH") < 0 {
			s.add(RuleExhaustion, risk.High, false, "", "Recursive CTE "+name+" has no condition that ends it: it runs until the server's memory or disk runs out")
			return
		}
		if !s.at(end).is(",") {
			return
		}
		i = end + 1
	}
}

// recursesForever reports that the body of CTE name, tokens [from, to),
// has a recursive part (after a top-level UNION) that selects from name
// alone, with no WHERE, no join and no LIMIT.
func (s *stmt) recursesForever(name string, from, to int) bool {
	depth, union := 0, -1
	for j := from; j < to; j++ {
		switch t := s.ts[j]; {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth == 0 && t.is("UNION"):
			union = j
		}
	}
	if union < 0 {
		return false
	}
	depth = 0
	fromName := false
	for j := union + 1; j < to; j++ {
		t := s.ts[j]
		switch {
		case t.is("("):
			depth++
		case t.is(")"):
			depth--
		case depth > 0:
		case t.is("WHERE"), t.is("JOIN"), t.is("LIMIT"), t.is(","), t.is("FETCH") && j > union+1:
			if t.is(",") && !fromName {
				continue // the select list
			}
			return false
		case t.is("FROM"):
			n, _ := s.name(j + 1)
			if !strings.EqualFold(n, name) {
				return false
			}
			fromName = true
		}
	}
	return fromName
}

// loops judges the loops of procedural code among toks (PL/pgSQL LOOP …
// END LOOP, WHILE … LOOP, FOR … IN a..b LOOP; MySQL WHILE … DO … END
// WHILE; SQL Server WHILE … BEGIN … END): one that never exits (no EXIT,
// LEAVE, BREAK, RETURN, RAISE or THROW in it, and no condition that can
// end it) runs until it is killed; one that inserts a table into itself
// doubles the table each time.
func loops(toks []token) []risk.Finding {
	// only LOOP and WHILE open a loop, and only a loop gives a finding
	if !slices.ContainsFunc(toks, func(t token) bool { return t.is("LOOP") || t.is("WHILE") }) {
		return nil
	}
	type frame struct {
		kind    byte    // 'L' LOOP … END LOOP, 'W' WHILE … DO … END WHILE, 'T' WHILE … BEGIN … END
		endless bool    // no condition can end it
		iters   float64 // a FOR loop's iterations, 0 when not known
		exits   bool
		self    string // a table inserted into itself
		blocks  int    // 'T': BEGIN/CASE … END depth at its opening
	}
	var stack []frame
	var out []risk.Finding
	blocks := 0
	insertInto, stmtStart := "", 0
	s := &stmt{ts: toks}
	pop := func(i int) {
		f := stack[i]
		stack = stack[:i]
		switch {
		case f.endless && !f.exits && f.self != "":
			out = append(out, finding(RuleExhaustion, risk.High, false, tableRes(f.self), "A loop with no exit inserts table "+f.self+" into itself: the table doubles until the server's disk runs out"))
		case f.endless && !f.exits:
			out = append(out, finding(RuleExhaustion, risk.High, false, "", "A loop with no exit runs until it is killed, holding the server's CPU, locks and connection"))
		case f.self != "" && (f.endless || f.iters >= doublings):
			out = append(out, finding(RuleExhaustion, risk.High, false, tableRes(f.self), "A loop inserts table "+f.self+" into itself "+amount(f.iters)+" times: it doubles each time, until the server's disk runs out"))
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.self == "" {
				top.self = f.self
			}
		}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		afterEnd := i > 0 && toks[i-1].is("END")
		switch {
		case t.is(";"):
			insertInto, stmtStart = "", i+1
		case t.is("INSERT"):
			n, _ := s.name(s.skip(i+1, "INTO"))
			insertInto = n
		case t.is("FROM") && insertInto != "" && len(stack) > 0:
			if n, _ := s.name(i + 1); strings.EqualFold(n, insertInto) {
				stack[len(stack)-1].self = n
			}
		case t.is("EXIT") || t.is("LEAVE") || t.is("BREAK") || t.is("RETURN") || t.is("RAISE") || t.is("THROW") ||
			t.is("RAISERROR") || t.is("GOTO"):
			for k := range stack {
				if t.is("EXIT") && k < len(stack)-1 && !(toks[min(i+1, len(toks)-1)].kind == tkIdent && !toks[min(i+1, len(toks)-1)].is("WHEN")) {
					continue // EXIT [WHEN] leaves the innermost loop
				}
				stack[k].exits = true
			}
		case t.is("BEGIN") || t.is("CASE") && !afterEnd:
			blocks++
		case t.is("END"):
			n := s.at(i + 1)
			if n.is("LOOP") || n.is("WHILE") || n.is("IF") || n.is("REPEAT") {
				break
			}
			blocks--
			if k := len(stack) - 1; k >= 0 && stack[k].kind == 'T' && blocks < stack[k].blocks {
				pop(k)
			}
		case t.is("LOOP") && afterEnd:
			if k := len(stack) - 1; k >= 0 && stack[k].kind == 'L' {
				pop(k)
			}
		case t.is("WHILE") && afterEnd:
			if k := len(stack) - 1; k >= 0 && stack[k].kind == 'W' {
				pop(k)
			}
		case t.is("LOOP"):
			f := frame{kind: 'L', endless: true}
			// the header: back to the start of the statement or block
			for j := i - 1; j >= stmtStart && j >= i-64; j-- {
				h := toks[j]
				if h.is("BEGIN") || h.is("LOOP") || h.is("THEN") || h.is("ELSE") || h.is(">>") || h.is(":") || h.is("DO") {
					break
				}
				if h.is("WHILE") {
					f.endless = alwaysTrue(toks[j+1:i], 0)
					break
				}
				if h.is("FOR") || h.is("FOREACH") {
					f.endless = false
					if in := indexWord(toks[j:i], "IN"); in > 0 {
						f.iters = rangeCount(toks[j+in+1 : i])
					}
					break
				}
			}
			stack = append(stack, f)
		case t.is("WHILE"):
			// MySQL's WHILE cond DO and SQL Server's WHILE cond BEGIN;
			// PostgreSQL's WHILE cond LOOP is read at LOOP
			for j := i + 1; j < len(toks) && j < i+64; j++ {
				if toks[j].is("LOOP") || toks[j].is(";") {
					break
				}
				if toks[j].is("DO") || toks[j].is("BEGIN") {
					f := frame{kind: 'W', endless: alwaysTrue(toks[i+1:j], 0) || len(toks[i+1:j]) == 1 && truthy(toks[i+1])}
					if toks[j].is("BEGIN") {
						f.kind, f.blocks = 'T', blocks+1
					}
					stack = append(stack, f)
					break
				}
			}
		}
		if len(stack) > 64 {
			stack = stack[:64]
		}
	}
	return out
}

// indexWord returns the index of keyword kw in ts, or -1.
func indexWord(ts []token, kw string) int {
	for j, t := range ts {
		if t.is(kw) {
			return j
		}
	}
	return -1
}

// rangeCount returns the iterations of a FOR loop's integer range
// ([REVERSE] a..b), or 0 when ts is not one of constants.
func rangeCount(ts []token) float64 {
	if len(ts) > 0 && ts[0].is("REVERSE") {
		ts = ts[1:]
	}
	if len(ts) > 6 {
		return 0
	}
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
	}
	lo, hi, ok := strings.Cut(b.String(), "..")
	x, err1 := strconv.ParseFloat(lo, 64)
	y, err2 := strconv.ParseFloat(hi, 64)
	if !ok || err1 != nil || err2 != nil {
		return 0
	}
	if y < x {
		x, y = y, x
	}
	return y - x + 1
}
