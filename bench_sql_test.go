package warden_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/risk"
)

// benchSQLText is a few KB of SQL of the kinds agents send: reads of
// personal data, filtered writes, a migration and a procedural block.
var benchSQLText = strings.Repeat(`SELECT u.id, u.email, u.phone, count(o.id) AS orders
  FROM users u LEFT JOIN orders o ON o.user_id = u.id
 WHERE u.created_at > now() - interval '7 days' AND u.status = 'active'
 GROUP BY u.id, u.email, u.phone ORDER BY orders DESC LIMIT 50;
UPDATE accounts SET balance = balance - 10.00, updated_at = now() WHERE id = 42 AND balance >= 10.00;
INSERT INTO audit_log (actor, action, detail) VALUES ('agent', 'charge', '{"account": 42, "amount": 10}');
ALTER TABLE invoices ADD COLUMN IF NOT EXISTS due_date date;
DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_indexes WHERE indexname = 'idx_orders_user') THEN
  CREATE INDEX idx_orders_user ON orders (user_id); END IF; END $$;
`, 6)

// BenchmarkCheckSQL measures Engine.Check on calls that carry a few KB of
// SQL: a database tool's query (database), and the same SQL given to psql
// in a conversation (psql: the shell preparer reads it for the session's
// effects and for its analysis).
func BenchmarkCheckSQL(b *testing.B) {
	eng, err := warden.New(warden.WithCwd("/home/user/project"), warden.WithHome("/home/user"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		action  risk.Action
		session bool
	}{
		{"database", risk.Action{Tool: "query", Arguments: map[string]any{"sql": benchSQLText, "database": "app"}}, false},
		{"psql", risk.Action{Tool: "Bash", Arguments: map[string]any{"command": "psql -h db.internal -d app -c " + shellQuote(benchSQLText)}}, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(benchSQLText)))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				a := c.action
				if c.session {
					n++
					a.SessionID = "bench-sql-" + strconv.Itoa(n)
				}
				if _, _, err := eng.Check(ctx, a); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
