package sql

import (
	"context"
	"testing"

	"github.com/agentwarden/warden/tool"
)

func TestPersonalData(t *testing.T) {
	personal := []string{
		"SELECT id, email FROM users WHERE email = 'bob@example.com'",
		"select first_name, last_name, phone from customers",
		"SELECT * FROM users LIMIT 10",
		"SELECT u.* FROM public.users u JOIN orders o ON o.user_id = u.id",
		"SELECT username, password_hash FROM auth_user",
		"WITH recent AS (SELECT user_id FROM logins) SELECT u.email FROM users u JOIN recent r ON r.user_id = u.id",
		"SELECT DISTINCT ssn FROM employees",
		`SELECT "Email" FROM "Contacts"`,
		"SELECT card_number, cvv FROM payments",
		"SELECT key AS api_key FROM settings; SELECT token FROM api_tokens",
		"SELECT max(email) FROM users",
		"SELECT date_of_birth FROM patients",
	}
	for _, q := range personal {
		if PersonalData(q) == "" {
			t.Errorf("PersonalData(%q) = \"\", want personal data", q)
		}
	}
	notPersonal := []string{
		"SELECT count(*) FROM users",
		"SELECT id FROM users WHERE email = 'bob@example.com'",
		"SELECT date_trunc('week', created_at) AS week, count(*) FROM orders GROUP BY 1",
		"SELECT * FROM orders LIMIT 5",
		"SELECT email_verified, count(*) FROM users GROUP BY 1",
		"UPDATE users SET email = 'x@example.com' WHERE id = 2",
		"SELECT count(email) AS emails FROM users",
		"SELECT name, version FROM migrations",
		"SELECT 'email' FROM dual",
		"DELETE FROM users WHERE id = 3",
		"SELECT address_id, order_total FROM orders",
	}
	for _, q := range notPersonal {
		if got := PersonalData(q); got != "" {
			t.Errorf("PersonalData(%q) = %q, want \"\"", q, got)
		}
	}
}

func TestPreparerRecordsPersonalData(t *testing.T) {
	c := &tool.Call{Class: tool.Database, SQL: []string{"SELECT email, phone FROM users", "SELECT count(*) FROM users"}}
	if fs, err := (Preparer{}).Prepare(context.Background(), c); err != nil || len(fs) != 0 {
		t.Fatalf("Prepare = %v, %v", fs, err)
	}
	if want := PersonalData(c.SQL[0]); len(c.PersonalData) != 1 || c.PersonalData[0] != want || want == "" {
		t.Errorf("PersonalData = %q, want [%q]", c.PersonalData, want)
	}
}
