package shell

import (
	"testing"

	"github.com/agentwarden/warden/risk"
)

// TestArgSQL: a statement that writes, given to a program that is no
// known database client as the value of a statement flag or as an
// operand, is judged by the SQL analyzer as psql -c's is; text tools,
// commit messages, reads and words that only look like a keyword are not.
func TestArgSQL(t *testing.T) {
	for cmd, want := range map[string]risk.Level{
		`npx wrangler d1 execute acme-prod-db --remote --command "DROP TABLE users;"`: risk.Critical,
		`wrangler d1 execute db --command="DELETE FROM sessions"`:                     risk.High,
		`turso db shell mydb "TRUNCATE TABLE events"`:                                 risk.High,
		`neonctl sql -c "UPDATE accounts SET balance = 0"`:                            risk.High,
		`supabase db execute --sql "ALTER TABLE users DROP COLUMN email"`:             risk.High,
		`acmectl db run --query 'UPDATE user SET is_admin=1 WHERE login=''guest'''`:   risk.High,
		`sudo dbtool --execute "DROP DATABASE analytics"`:                             risk.Critical,
		`wrangler d1 execute db --command "DELETE FROM users WHERE id = 1"`:           risk.Medium,
		`wrangler d1 execute db --command "INSERT INTO t (a) VALUES (1)"`:             risk.Medium,
	} {
		got := risk.Safe
		for _, f := range analyzeScript(t, cmd) {
			if f.Analyzer == "sql" && f.Level > got {
				got = f.Level
			}
		}
		if got != want {
			t.Errorf("%q: SQL findings at %s, want %s", cmd, got, want)
		}
	}
	for _, cmd := range []string{
		`wrangler d1 execute db --command "SELECT * FROM users"`,
		`grep -e "DROP TABLE" -r migrations/`,
		`echo "DELETE FROM users;"`,
		`git commit -m "DROP TABLE users"`,
		`mytool update users`,
		`mytool "delete all the things"`,
		`aws ec2 describe-instances --query "Reservations[].Instances[]"`,
		`gh api graphql -f query='mutation { deleteRepository }'`,
		`sed -e 's/DROP TABLE/x/' a.sql`,
		`kubectl exec db-0 -- env`,
		`mytool --command "drop it"`,
	} {
		for _, f := range analyzeScript(t, cmd) {
			if f.Analyzer == "sql" {
				t.Errorf("%q: %s %s", cmd, f.Rule, f.Level)
			}
		}
	}
}
