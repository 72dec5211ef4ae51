package sql

import (
	"context"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Preparer reads the SQL of a call before the analyzers and the session
// do: it records on the call the personal or secret data its queries
// return (tool.Call.PersonalData), so that the session knows a database
// call brought such data into the conversation without reading SQL
// itself. It runs after the preparers that add SQL (code). The zero value
// is ready to use and safe for concurrent use.
type Preparer struct{}

var _ interface {
	Name() string
	Prepare(context.Context, *tool.Call) ([]risk.Finding, error)
} = Preparer{}

// Name returns "sql".
func (Preparer) Name() string { return Name }

// Prepare records the personal data of every SQL text of c (see
// PersonalData). It reports no findings: the analyzer judges the SQL.
func (Preparer) Prepare(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	for _, q := range c.SQL {
		if pd := PersonalData(q); pd != "" {
			c.PersonalData = append(c.PersonalData, pd)
		}
	}
	return nil, nil
}
