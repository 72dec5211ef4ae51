package sql

import "testing"

// TestProtectionsOff: switching row-level security, audit triggers, logs,
// encrypted transport or the server's guards against OS commands off is
// high; turning them on, reading them and disabling one ordinary trigger
// are not.
func TestProtectionsOff(t *testing.T) {
	for _, c := range []tc{
		is("ALTER TABLE patient_records DISABLE ROW LEVEL SECURITY;", high, RuleSecurityOff+" table:patient_records"),
		is("ALTER TABLE IF EXISTS public.accounts NO FORCE ROW LEVEL SECURITY", high, RuleSecurityOff),
		is("ALTER TABLE orders DISABLE TRIGGER ALL", high, RuleSecurityOff),
		is("ALTER TABLE orders DISABLE TRIGGER USER", high, RuleSecurityOff),
		is("ALTER TABLE payments DISABLE TRIGGER payments_audit_trg", high, RuleSecurityOff),
		is("ALTER TABLE users DISABLE TRIGGER log_user_changes", high, RuleSecurityOff),
		is("ALTER SYSTEM SET ssl = off", high, RuleSecurityOff),
		is("ALTER SYSTEM SET log_statement = 'none'; ALTER SYSTEM SET log_connections = off; SELECT pg_reload_conf();", high, RuleSecurityOff),
		is("ALTER SYSTEM SET password_encryption = 'md5'", high, RuleSecurityOff),
		is("SET GLOBAL general_log = 'OFF'", high, RuleSecurityOff),
		is("SET GLOBAL audit_log_policy = 'NONE'", high, RuleSecurityOff),
		is("SET @@GLOBAL.require_secure_transport = OFF", high, RuleSecurityOff),
		is("SET GLOBAL local_infile = ON", high, RuleSecurityOff),
		is("SET sql_log_bin = 0", high, RuleSecurityOff),
		is("SET pgaudit.log = 'none'", high, RuleSecurityOff),
		is("ALTER SERVER AUDIT HIPAA_Audit WITH (STATE = OFF);", high, RuleSecurityOff),
		is("ALTER DATABASE AUDIT SPECIFICATION spec WITH (STATE = OFF)", high, RuleSecurityOff),
		is("ALTER DATABASE app SET TRUSTWORTHY ON", high, RuleSecurityOff),
		is("EXEC sp_configure 'xp_cmdshell', 1; RECONFIGURE;", high, RuleSecurityOff),
		is("sp_configure 'Ole Automation Procedures', 1", high, RuleSecurityOff),
		is("EXEC sp_configure 'clr strict security', 0", high, RuleSecurityOff),
		is("DISABLE TRIGGER ALL ON DATABASE", high, RuleSecurityOff),
		is("DISABLE TRIGGER trg_ddl_audit ON DATABASE", high, RuleSecurityOff),
		is("ALTER EVENT TRIGGER block_drops DISABLE", high, RuleSecurityOff),
		is("ALTER ROLE app BYPASSRLS", high, RulePrivileges),
		is("DROP POLICY tenant_isolation ON invoices", high),
		// look-alikes: protections turned on, read, or one ordinary trigger
		is("ALTER TABLE patient_records ENABLE ROW LEVEL SECURITY", medium).without(RuleSecurityOff),
		is("ALTER TABLE patient_records FORCE ROW LEVEL SECURITY", medium).without(RuleSecurityOff),
		is("CREATE POLICY tenant_isolation ON invoices USING (tenant_id = current_setting('app.tenant')::int)", medium).without(RuleSecurityOff),
		is("ALTER TABLE orders DISABLE TRIGGER set_updated_at", medium).without(RuleSecurityOff),
		is("ALTER TABLE orders ENABLE TRIGGER ALL", medium).without(RuleSecurityOff),
		is("DISABLE TRIGGER trg_touch ON orders", medium).without(RuleSecurityOff),
		is("ENABLE TRIGGER ALL ON DATABASE", medium).without(RuleSecurityOff),
		is("SHOW ssl", low),
		is("SELECT name, setting FROM pg_settings WHERE name IN ('log_statement', 'ssl', 'password_encryption')", low),
		is("SET log_statement = 'all'", safe),
		is("SET statement_timeout = 0", safe),
		is("SET search_path TO app, public", safe),
		is("ALTER SERVER AUDIT HIPAA_Audit WITH (STATE = ON)", medium).without(RuleSecurityOff),
		is("EXEC sp_configure 'xp_cmdshell', 0", medium).without(RuleSecurityOff),
		is("EXEC sp_configure 'max server memory', 4096", medium).without(RuleSecurityOff),
	} {
		check(t, c, Analyze(c.sql))
	}
}

// TestExhaustion: rows, values or loops without an end exhaust the
// server (high); bounded series, recursion and loops do not.
func TestExhaustion(t *testing.T) {
	for _, c := range []tc{
		is("CREATE TABLE filler AS SELECT md5(random()::text) || repeat('x', 10000) AS junk FROM generate_series(1, 500000000);", high, RuleExhaustion),
		is("DO $$ BEGIN LOOP INSERT INTO audit_log SELECT * FROM audit_log; END LOOP; END $$;", high, RuleExhaustion+" table:audit_log"),
		is("SELECT count(*) FROM generate_series(1, 10^9)", high, RuleExhaustion),
		is("INSERT INTO t SELECT g FROM generate_series(1, 1e9::bigint) g", high, RuleExhaustion),
		is("SELECT * FROM generate_series(1, power(10, 10))", high, RuleExhaustion),
		is("SELECT * FROM generate_series(1,100000) a, generate_series(1,100000) b", high, RuleExhaustion),
		is("INSERT INTO blobs SELECT repeat('x', 1000000) FROM generate_series(1, 100000)", high, RuleExhaustion),
		is("SELECT BENCHMARK(1000000000, MD5('x'))", high, RuleExhaustion),
		is("SELECT repeat('x', 2000000000)", high, RuleExhaustion),
		is("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t) SELECT count(*) FROM t;", high, RuleExhaustion),
		is("DO $$ BEGIN FOR i IN 1..40 LOOP INSERT INTO big SELECT * FROM big; END LOOP; END $$", high, RuleExhaustion),
		is("DO $$ BEGIN WHILE true LOOP PERFORM pg_sleep(1); END LOOP; END $$", high, RuleExhaustion),
		is("CREATE PROCEDURE fill() BEGIN WHILE 1=1 DO INSERT INTO t VALUES (1); END WHILE; END", high, RuleExhaustion),
		is("WHILE 1=1 BEGIN INSERT INTO t DEFAULT VALUES END", high, RuleExhaustion),
		is("CREATE FUNCTION spin() RETURNS void AS $$ BEGIN LOOP PERFORM 1; END LOOP; END $$ LANGUAGE plpgsql", high, RuleExhaustion),
		// look-alikes: bounded series, recursion that stops, loops that exit
		is("SELECT * FROM generate_series(1, 1000)", low),
		is("INSERT INTO t SELECT g, md5(g::text) FROM generate_series(1, 1000000) g", medium).without(RuleExhaustion),
		is("SELECT d::date FROM generate_series('2026-01-01'::date, '2026-12-31', interval '1 day') d", low),
		is("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t WHERE n < 100) SELECT * FROM t", low),
		is("WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM t) SELECT * FROM t LIMIT 10", low),
		is("WITH RECURSIVE sub AS (SELECT id FROM cats WHERE id = 1 UNION ALL SELECT c.id FROM cats c JOIN sub s ON c.parent = s.id) SELECT * FROM sub", low),
		is("DO $$ BEGIN LOOP DELETE FROM q WHERE id IN (SELECT id FROM q LIMIT 1000); EXIT WHEN NOT FOUND; END LOOP; END $$", medium).without(RuleExhaustion),
		is("DO $$ DECLARE r record; BEGIN FOR r IN SELECT * FROM t LOOP UPDATE t SET x = 1 WHERE id = r.id; END LOOP; END $$", medium).without(RuleExhaustion),
		is("DO $$ BEGIN FOR i IN 1..5 LOOP INSERT INTO big SELECT * FROM big; END LOOP; END $$", medium).without(RuleExhaustion),
		is("DO $$ BEGIN WHILE (SELECT count(*) FROM q) > 0 LOOP DELETE FROM q WHERE id = (SELECT min(id) FROM q); END LOOP; END $$", medium).without(RuleExhaustion),
		is("SELECT BENCHMARK(1000000, MD5('x'))", low),
		is("SELECT lpad(id::text, 8, '0') FROM t", low),
		is("WHILE @i < 10 BEGIN SET @i = @i + 1 END", medium).without(RuleExhaustion),
		is("SELECT loop, while FROM x", low),
	} {
		check(t, c, Analyze(c.sql))
	}
}

// TestServedExport: an export into a folder a web server publishes is
// high on every route of SQL; elsewhere it stays medium, to the client
// (STDOUT) low.
func TestServedExport(t *testing.T) {
	for _, c := range []tc{
		is("SELECT * FROM patients INTO OUTFILE '/var/www/html/public/patients.csv' FIELDS TERMINATED BY ',';", high, RuleExportFile),
		is("COPY users TO '/srv/app/public/users.csv' CSV", high, RuleExportFile),
		is("COPY (SELECT * FROM orders) TO '/var/www/html/o.csv'", high, RuleExportFile),
		is("\\copy customers to 'static/c.csv' csv header", high, RuleExportFile),
		is("\\o public/report.txt", high, RuleExportFile),
		is("SELECT * FROM users INTO DUMPFILE '/usr/share/nginx/html/u.bin'", high, RuleExportFile),
		is("VACUUM INTO '/var/www/html/db.sqlite'", high, RuleExportFile),
		// look-alikes: elsewhere, or to the client
		is("SELECT * FROM orders INTO OUTFILE '/tmp/orders.csv'", medium, RuleExportFile),
		is("COPY orders TO '/tmp/orders.csv' CSV", medium, RuleExportFile),
		is("COPY customers TO '/var/lib/postgresql/exports/c.csv' CSV", medium, RuleExportFile),
		is("\\copy orders to 'exports/o.csv' csv", medium, RuleExportFile),
		is("\\copy orders to 'node_modules/pkg/public/o.csv' csv", medium, RuleExportFile),
		is("COPY (SELECT id, status FROM orders LIMIT 100) TO STDOUT WITH CSV HEADER", low),
		is("VACUUM INTO '/tmp/backup.sqlite'", medium, RuleExportFile),
	} {
		check(t, c, Analyze(c.sql))
	}
}
