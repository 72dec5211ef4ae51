package shell

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// setSpan is an assignment whose value holds a command substitution
// (K=$(cat ~/.ssh/id_rsa), export T="$(vault kv get …)"): the variable
// and where its value stands in the script.
type setSpan struct {
	name  string
	value span
}

// maxSets bounds the assignments of one script that linkVars follows, so
// that linking stays linear in the size of the script.
const maxSets = 16

// substAssign records as, when its value holds a command or process
// substitution, for linkVars.
func (r *resolver) substAssign(as *syntax.Assign) {
	if as == nil || as.Name == nil || as.Value == nil || as.Array != nil || as.Index != nil || !hasSubst(as.Value) {
		return
	}
	r.assigned = append(r.assigned, setSpan{as.Name.Value, spanOf(as.Value)})
}

// linkVars carries data flow through variables (see link): a command
// that uses a variable assigned earlier in its script from command
// substitutions (K=$(cat key); curl -d "$K" …) reads the output of the
// commands of those substitutions, as if they stood in its own words.
// own are the script's commands in source order, sets its assignments
// (see setSpan) and bounds the part of own inside a span.
func (r *resolver) linkVars(own []int, sets []setSpan, bounds func(span) (int, int)) {
	type origin struct {
		end  uint  // where the assignment ends: later commands use it
		from []int // the commands of its substitutions
	}
	vars := make(map[string]origin, min(len(sets), maxSets))
	for _, s := range sets[:min(len(sets), maxSets)] {
		lo, hi := bounds(s.value)
		from := make([]int, 0, min(hi-lo, maxFeeds))
		for _, i := range own[lo:min(hi, lo+maxFeeds)] {
			from = append(from, i)
		}
		vars[s.name] = origin{s.value.to, from}
	}
	for _, i := range own {
		at := r.at[i].offset
		if at < sets[0].value.to {
			continue
		}
		c := &r.out[i]
		use := func(text string) {
			eachVarRef(text, func(name string) {
				o, ok := vars[name]
				if !ok || at < o.end {
					return
				}
				for _, j := range o.from {
					if j != i && len(c.Inputs) < 4*maxFeeds && !slices.Contains(c.Inputs, j) {
						c.Inputs = append(c.Inputs, j)
					}
				}
			})
		}
		for k, a := range c.Args {
			if c.Dynamic[k] {
				use(a)
			}
		}
		for _, rd := range c.Redirs {
			if rd.Dynamic || rd.Op == "<<" || rd.Op == "<<-" {
				use(rd.Target)
			}
		}
	}
}

// eachVarRef calls f with the name of each variable text refers to as
// written: $NAME, ${NAME}, ${NAME:-…}, "$NAME".
func eachVarRef(text string, f func(name string)) {
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '{' {
			j++
		}
		k := j
		for k < len(text) && (text[k] == '_' || text[k] >= 'a' && text[k] <= 'z' || text[k] >= 'A' && text[k] <= 'Z' || k > j && text[k] >= '0' && text[k] <= '9') {
			k++
		}
		if k > j {
			f(text[j:k])
		}
		i = k - 1
	}
}
