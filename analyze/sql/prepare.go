package sql

import (
	"context"

	"github.com/agentwarden/warden/risk"
	"github.com/agentwarden/warden/tool"
)

// Preparer reads the SQL of a call before the analyzers and the session
// do, once: it records on the call what each SQL text reads as
// (tool.Call.SQLText: its statements, findings and personal data), which
// the Analyzer judges, and the personal or secret data its queries return
// (tool.Call.PersonalData), so that the session knows a database call
// brought such data into the conversation without reading SQL itself. It
// runs after the preparers that add SQL (code). The zero value is ready
// to use and safe for concurrent use.
type Preparer struct{}

var _ interface {
	Name() string
	Prepare(context.Context, *tool.Call) ([]risk.Finding, error)
} = Preparer{}

// Name returns "sql".
func (Preparer) Name() string { return Name }

// Prepare records the fact of every SQL text of c (see Fact) and its
// personal data. It reports no findings: the analyzer judges the SQL, and
// charges the work of its reading (see Analyzer.Analyze).
func (Preparer) Prepare(_ context.Context, c *tool.Call) ([]risk.Finding, error) {
	for _, q := range c.SQL {
		f, ok := c.SQLText(q)
		if !ok {
			c.AddSQLText(Fact(q))
			f = &c.SQLTexts[len(c.SQLTexts)-1]
		}
		if f.PersonalData != "" {
			c.PersonalData = append(c.PersonalData, f.PersonalData)
		}
	}
	return nil, nil
}
