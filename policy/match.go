package policy

import (
	"strings"
)

func (r *Rule) matchName(s *Subject) bool {
	if r.mcp != "" {
		if r.mcpServer {
			return len(s.tool) > len(r.mcp) && strings.HasPrefix(s.tool, r.mcp)
		}
		return s.tool == r.mcp
	}
	return s.c.Server == "" && s.name == r.name
}

// Any returns the first rule of rules that matches some part of s: the
// deny or ask rule that applies to the call. It returns nil when none
// does. Nil rules are skipped.
func Any(rules []*Rule, s *Subject) *Rule { return s.any(rules, nil) }

// any is Any over the rules of list at the positions cand, in order (all
// of them when cand is nil).
func (s *Subject) any(list []*Rule, cand []int32) *Rule {
	n := len(list)
	if cand != nil {
		n = len(cand)
	}
	for k := range n {
		r := ruleAt(list, cand, k)
		if r == nil || r.kind&s.kinds == 0 || r.head != 0 && !s.mayStart(r.head) {
			continue
		}
		if r.matchAny(s) {
			return r
		}
	}
	return nil
}

func ruleAt(list []*Rule, cand []int32, k int) *Rule {
	if cand != nil {
		return list[cand[k]]
	}
	return list[k]
}

// mayStart reports whether a command of the call may begin with the word
// of hash h.
func (s *Subject) mayStart(h uint64) bool {
	s.commands()
	for _, x := range s.heads {
		if x == h {
			return true
		}
	}
	return false
}

func (r *Rule) matchAny(s *Subject) bool {
	switch r.kind {
	case permName:
		return r.matchName(s)
	case permBash:
		if r.form == bashAll {
			return true
		}
		cmds := s.commands()
		for i := range cmds {
			for j := range cmds[i].forms {
				if r.matchWords(&cmds[i].forms[j]) {
					return true
				}
			}
		}
	case permRead, permEdit:
		if r.bare {
			return true
		}
		for i := range s.absPaths() {
			if r.matchPath(s, i) {
				return true
			}
		}
	case permWeb:
		if r.bare {
			return s.fetch()
		}
		s.readHosts()
		for _, h := range s.anyHosts {
			if r.matchHost(h) {
				return true
			}
		}
	}
	return false
}

// All reports whether the rules approve every part of s, and one rule that
// approved a part: what allow rules need (see Rule for what approves a
// call). It returns false when s has no part any rule speaks of. Nil
// rules are skipped.
func All(rules []*Rule, s *Subject) (*Rule, bool) { return s.all(rules, nil) }

// all is All over the rules of list at the positions cand, in order (all
// of them when cand is nil).
func (s *Subject) all(list []*Rule, cand []int32) (*Rule, bool) {
	spoken := !s.unspoken()
	shellPart := spoken && len(s.c.Shell) > 0
	pathKind := permKind(0)
	if spoken {
		pathKind = s.kinds & (permRead | permEdit)
	}
	fetch := spoken && s.fetch()
	clear(s.cmdBy)
	clear(s.pathBy)
	clear(s.hostBy)
	var shellBy *Rule // Bash or Bash(*): the whole shell part
	n := len(list)
	if cand != nil {
		n = len(cand)
	}
	for k := range n {
		r := ruleAt(list, cand, k)
		if r == nil {
			continue
		}
		switch r.kind {
		case permName:
			if r.matchName(s) {
				return r, true
			}
		case permBash:
			if !shellPart || shellBy != nil {
				continue
			}
			if r.form == bashAll {
				shellBy = r
				continue
			}
			if r.head == 0 || s.mayStart(r.head) {
				s.cover(r)
			}
		case permRead, permEdit:
			if r.kind != pathKind {
				continue
			}
			for i := range s.absPaths() {
				if s.pathBy[i] == nil && (r.bare || r.matchPath(s, i)) {
					s.pathBy[i] = r
				}
			}
		case permWeb:
			if !fetch {
				continue
			}
			s.readHosts()
			for i, h := range s.urlHosts {
				if s.hostBy[i] == nil && (r.bare || h != "" && r.matchHost(h)) {
					s.hostBy[i] = r
				}
			}
		}
	}
	var first *Rule
	approved := func(by []*Rule) bool {
		for _, r := range by {
			if r == nil {
				return false
			}
			if first == nil {
				first = r
			}
		}
		return true
	}
	switch {
	case !spoken:
		return nil, false
	case shellBy != nil:
		first = shellBy
	case shellPart:
		s.commands()
		if s.broken {
			return nil, false
		}
		for i := range s.cmds {
			switch s.cmds[i].allow {
			case cmdNever:
				return nil, false
			case cmdByRule:
				if s.cmdBy[i] == nil {
					return nil, false
				}
				if first == nil {
					first = s.cmdBy[i]
				}
			}
		}
		if s.setsVariables() {
			return nil, false
		}
	}
	if pathKind != 0 {
		s.absPaths()
		if !approved(s.pathBy) {
			return nil, false
		}
	}
	if fetch {
		s.readHosts()
		if !approved(s.hostBy) {
			return nil, false
		}
	}
	return first, first != nil
}
