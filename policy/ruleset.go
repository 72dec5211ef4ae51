package policy

import (
	"slices"
)

// RuleSet is a list of rules indexed by what they speak of, so that a call
// looks only at the rules that may match it: those of its tool name, of
// the first words of its commands, of its kinds. Its Any and All answer
// as the functions Any and All do over the list, in a microsecond or two
// for hundreds of rules where the functions take several: a policy
// indexes each list it evaluates on every call once. A RuleSet is
// immutable and safe for concurrent use.
type RuleSet struct {
	list []*Rule
	// positions in list, ascending, by what the rules speak of
	names, tools, servers map[string][]int32 // bare names, MCP tools, MCP servers (mcp__s__)
	heads                 map[uint64][]int32 // shell rules by their first word
	shell                 []int32            // shell rules without a known first word
	read, edit, web       []int32
}

// NewRuleSet indexes rules; nil rules are dropped.
func NewRuleSet(rules []*Rule) *RuleSet {
	rs := &RuleSet{names: map[string][]int32{}, tools: map[string][]int32{}, servers: map[string][]int32{},
		heads: map[uint64][]int32{}}
	for _, r := range rules {
		if r == nil {
			continue
		}
		i := int32(len(rs.list))
		rs.list = append(rs.list, r)
		switch r.kind {
		case permName:
			switch {
			case r.mcpServer:
				rs.servers[r.mcp] = append(rs.servers[r.mcp], i)
			case r.mcp != "":
				rs.tools[r.mcp] = append(rs.tools[r.mcp], i)
			default:
				rs.names[r.name] = append(rs.names[r.name], i)
			}
		case permBash:
			if r.head != 0 {
				rs.heads[r.head] = append(rs.heads[r.head], i)
			} else {
				rs.shell = append(rs.shell, i)
			}
		case permRead:
			rs.read = append(rs.read, i)
		case permEdit:
			rs.edit = append(rs.edit, i)
		case permWeb:
			rs.web = append(rs.web, i)
		}
	}
	return rs
}

// List returns the indexed rules, in order. The slice must not be
// modified.
func (rs *RuleSet) List() []*Rule { return rs.list }

// Any is the function Any over rs.
func (rs *RuleSet) Any(s *Subject) *Rule { return s.any(rs.list, rs.candidates(s)) }

// All is the function All over rs.
func (rs *RuleSet) All(s *Subject) (*Rule, bool) { return s.all(rs.list, rs.candidates(s)) }

// candidates returns, in order, the positions of the rules that may match
// s, in the subject's scratch space.
func (rs *RuleSet) candidates(s *Subject) []int32 {
	c := s.cand[:0]
	if s.c.Server == "" {
		c = append(c, rs.names[s.name]...)
	}
	c = append(c, rs.tools[s.tool]...)
	if s.server != "" {
		c = append(c, rs.servers[s.server]...)
	}
	if s.kinds&permBash != 0 {
		c = append(c, rs.shell...)
		if len(rs.heads) > 0 {
			s.commands()
			for _, h := range s.heads {
				c = append(c, rs.heads[h]...)
			}
		}
	}
	if s.kinds&permRead != 0 {
		c = append(c, rs.read...)
	}
	if s.kinds&permEdit != 0 {
		c = append(c, rs.edit...)
	}
	if s.kinds&permWeb != 0 {
		c = append(c, rs.web...)
	}
	slices.Sort(c)
	s.cand = c
	if c == nil {
		c = []int32{} // no candidate: none, not all
	}
	return c
}
