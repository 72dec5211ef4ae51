package sql

import "testing"

// TestCredentialUpdate: an UPDATE that sets what an account logs in with
// is account takeover (high); columns about a credential, and reading
// one, are not.
func TestCredentialUpdate(t *testing.T) {
	for _, c := range []tc{
		is("UPDATE public.users SET password_hash = '$2b$12$KIXQJxk4VZ1y7oN3fJ0lUe6pQ9m3m1Yb3rZ2c8r0X5sF7uT9wH1eC' WHERE email = 'admin@acme.io';", high, RulePrivileges+" table:public.users"),
		is("UPDATE users SET encrypted_password = crypt('x', gen_salt('bf')), updated_at = now() WHERE id = 1", high, RulePrivileges),
		is("UPDATE users u SET u.otp_secret = NULL WHERE u.id = 1", high, RulePrivileges),
		is(`UPDATE users SET name = 'x', "api_key" = 'k' WHERE id = 1`, high, RulePrivileges),
		is("UPDATE accounts SET recovery_codes = '{}' WHERE id = 1", high, RulePrivileges),
		is("UPDATE auth_user SET password = 'pbkdf2_sha256$1$x$y' WHERE username = 'admin'", high, RulePrivileges),
		is("UPDATE users SET reset_password_token = 'abc', reset_password_sent_at = now() WHERE id = 7", high, RulePrivileges),
		is("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP' WHERE id = 7", high, RulePrivileges),
		// look-alikes: metadata about a credential, a credential in a
		// condition or a subquery, a stored OAuth token of an integration
		is("UPDATE users SET password_reset_sent_at = now() WHERE id = 3", medium).without(RulePrivileges),
		is("UPDATE users SET password_changed_at = now(), failed_login_attempts = 0 WHERE id = 3", medium).without(RulePrivileges),
		is("UPDATE users SET updated_at = now() WHERE password_hash IS NULL", medium).without(RulePrivileges),
		is("UPDATE users SET note = (SELECT password FROM legacy WHERE id = 1) WHERE id = 3", medium).without(RulePrivileges),
		is("UPDATE users SET otp_enabled = false WHERE id = 2", medium).without(RulePrivileges),
		is("UPDATE integrations SET access_token = 'x' WHERE id = 2", medium).without(RulePrivileges),
		is("SELECT password_hash IS NULL AS no_password FROM users WHERE id = 3", low).without(RulePrivileges),
	} {
		check(t, c, Analyze(c.sql))
	}
}

// TestRecoveryLogs: deleting every binary log (PURGE … BEFORE NOW(), RESET
// MASTER) is high; a bounded retention medium; listing them low.
func TestRecoveryLogs(t *testing.T) {
	for _, c := range []tc{
		is("PURGE BINARY LOGS BEFORE NOW();", high, RuleServerConfig),
		is("PURGE MASTER LOGS BEFORE CURRENT_TIMESTAMP", high, RuleServerConfig),
		is("RESET MASTER", high, RuleServerConfig),
		is("RESET BINARY LOGS AND GTIDS", high, RuleServerConfig),
		is("PURGE BINARY LOGS BEFORE NOW() - INTERVAL 7 DAY", medium, RuleServerConfig),
		is("PURGE BINARY LOGS TO 'mysql-bin.000010'", medium, RuleServerConfig),
		is("PURGE BINARY LOGS BEFORE '2026-11-01 00:00:00'", medium, RuleServerConfig),
		is("SHOW BINARY LOGS", low, RuleRead),
		is("SELECT pg_drop_replication_slot('debezium')", medium, RuleServerConfig),
	} {
		check(t, c, Analyze(c.sql))
	}
}
