package guard

import (
	"strings"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// sql judges the SQL the call runs (a database tool's query, psql -c …,
// as the SQL preparer read it): a statement that changes one of warden's
// own tables (warden_sessions, warden_meta, and those the audit trail
// adds) changes what guards the agent, in a PostgreSQL store as much as a
// file does in a SQLite one. Reading them changes nothing.
func (ck *check) sql(c *tool.Call) {
	for i := range c.SQLTexts {
		for _, st := range c.SQLTexts[i].Statements {
			switch st.Kind {
			case tool.SQLRead, tool.SQLTransaction, tool.SQLSession:
				continue
			}
			for _, t := range st.Tables {
				if !wardenTable(t) {
					continue
				}
				ck.add(risk.Finding{Rule: RuleSelf, Level: risk.Critical, Resource: "table:" + t,
					Reason: "The SQL changes " + t + ", a table of warden's own store (" + st.Verb + "): the agent would rewrite what warden knows of its conversation or its audit trail"})
			}
		}
	}
}

// wardenTable reports a table of warden's store, by its name, whatever
// the schema or quoting ("public.warden_sessions", "WARDEN_META").
func wardenTable(name string) bool {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return len(name) > len("warden_") && strings.EqualFold(name[:len("warden_")], "warden_")
}
