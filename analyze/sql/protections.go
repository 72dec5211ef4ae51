package sql

import (
	"strings"

	"github.com/agentwarden/warden/paths"
	"github.com/agentwarden/warden/risk"
)

// Switching a database's protections off: row-level security, the
// triggers that keep an audit trail or the data's integrity, the server's
// audit and statement logs, encrypted transport, and the settings that
// keep the server from running operating-system commands. Each leaves the
// data open, or what is done to it unrecorded: high, as disabling a
// firewall or clearing a shell's history is. Turning them on, reading
// them (SHOW ssl, pg_settings) and disabling one ordinary trigger in a
// migration are not it.

// protectionsOff judges ALTER TABLE name's actions from index k: DISABLE
// or NO FORCE ROW LEVEL SECURITY, DISABLE TRIGGER ALL|USER or an audit
// trigger. It reports whether it added a finding.
func (s *stmt) protectionsOff(k int, name string) bool {
	for j := k; j < len(s.ts); j++ {
		t := s.ts[j]
		switch {
		case t.is("DISABLE") && s.at(j+1).is("ROW") && s.at(j+2).is("LEVEL"),
			t.is("NO") && s.at(j+1).is("FORCE") && s.at(j+2).is("ROW"):
			s.add(RuleSecurityOff, risk.High, true, tableRes(name),
				"ALTER TABLE "+orUnknown(name)+" switches row-level security off: every role with table rights sees and changes every row")
			return true
		case t.is("DISABLE") && s.at(j+1).is("TRIGGER"):
			if trig := s.at(j + 2); trig.is("ALL") || trig.is("USER") || auditName(trig.value()) {
				s.add(RuleSecurityOff, risk.High, true, tableRes(name),
					"ALTER TABLE "+orUnknown(name)+" disables trigger "+trig.value()+": the audit trail or integrity checks it keeps stop")
				return true
			}
		}
	}
	return false
}

// auditName reports a trigger, audit or setting name that keeps a record
// of what is done: audit, log, history, journal, changelog, tracking.
func auditName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range [...]string{"audit", "log", "history", "journal", "track", "versioning"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// disableTrigger judges SQL Server's DISABLE TRIGGER {ALL | name} ON …
// (and ENABLE, which is not a tampering) from index i.
func (s *stmt) disableTrigger(i int) {
	s.st.Kind = Schema
	if s.st.Verb != "DISABLE" || !s.at(i+1).is("TRIGGER") {
		s.add(RuleSchema, risk.Medium, true, "", s.st.Verb+" changes what the database runs")
		return
	}
	trig := s.at(i + 2)
	if trig.is("ALL") || auditName(trig.value()) || s.topLevel(i, "SERVER") > 0 {
		s.add(RuleSecurityOff, risk.High, true, "", "DISABLE TRIGGER "+trig.value()+" stops the triggers that keep an audit trail or guard the database")
		return
	}
	s.add(RuleSchema, risk.Medium, true, "", "DISABLE TRIGGER "+trig.value()+" stops a trigger")
}

// auditOff judges ALTER SERVER AUDIT, ALTER … AUDIT SPECIFICATION (SQL
// Server) and ALTER EVENT TRIGGER: STATE = OFF, DISABLE. It reports
// whether it added a finding.
func (s *stmt) auditOff(i int, obj string) bool {
	switch {
	case obj == "EVENT TRIGGER":
		if s.anyWord(i, "DISABLE") > 0 {
			name, _ := s.name(i)
			s.add(RuleSecurityOff, risk.High, true, "", "ALTER EVENT TRIGGER disables "+orUnknown(name)+", a guard over every schema change")
			return true
		}
	case s.anyWord(i, "AUDIT") > 0:
		if j := s.anyWord(i, "STATE"); j > 0 && s.at(j+1).is("=") && s.at(j+2).is("OFF") {
			s.add(RuleSecurityOff, risk.High, true, "", "ALTER "+obj+" … AUDIT sets STATE = OFF: the server stops recording what is done")
			return true
		}
	case obj == "DATABASE":
		if j := s.anyWord(i, "TRUSTWORTHY"); j > 0 && s.at(j+1).is("ON") {
			s.add(RuleSecurityOff, risk.High, true, "", "ALTER DATABASE … SET TRUSTWORTHY ON lets the database's code act with the server's rights")
			return true
		}
	}
	return false
}

// offValue reports a value token that turns a setting off.
func offValue(t token) bool {
	switch t.kind {
	case tkIdent:
		return t.is("OFF") || t.is("FALSE") || t.is("NONE")
	case tkNumber:
		return strings.Trim(t.text, "0.") == ""
	case tkString:
		switch strings.ToLower(t.value()) {
		case "off", "false", "none", "0", "no", "":
			return true
		}
	}
	return false
}

// settingsOff judges SET and ALTER SYSTEM SET of a setting that protects
// the server, from index i: logging and auditing (log_statement,
// log_connections, general_log, audit_log…, pgaudit.log, sql_log_bin)
// and encrypted transport (ssl, require_secure_transport) turned off,
// passwords stored as plain MD5, files loaded from the client (local_infile)
// turned on. It reports whether it added a finding.
func (s *stmt) settingsOff(i int) bool {
	for j := i; j+2 < len(s.ts) && j < i+8; j++ {
		t := s.ts[j]
		if t.kind != tkIdent && t.kind != tkQuotedIdent {
			continue
		}
		name, k := s.name(j)
		if s.at(k).is("=") || s.at(k).is("TO") || s.at(k).is(":=") {
			k++
		} else {
			continue
		}
		v := s.at(k)
		n := strings.ToLower(name)
		if p := strings.LastIndexByte(n, '.'); p >= 0 && (strings.HasPrefix(n, "@@") || strings.HasPrefix(n, "global.") || strings.HasPrefix(n, "persist")) {
			n = n[p+1:]
		}
		n = strings.TrimPrefix(n, "@@")
		var why string
		switch {
		case n == "ssl" || n == "require_secure_transport" || n == "ssl_enforce" || n == "rds.force_ssl":
			if offValue(v) {
				why = "turns encrypted connections off: passwords and data cross the network in clear"
			}
		case n == "password_encryption":
			if strings.EqualFold(v.value(), "md5") || offValue(v) {
				why = "stores new passwords as weak MD5 hashes"
			}
		case n == "local_infile":
			if truthy(v) {
				why = "lets clients make the server read their files (LOAD DATA LOCAL)"
			}
		case strings.HasPrefix(n, "log_") && n != "log_min_duration_statement" || n == "general_log" || n == "sql_log_bin" ||
			n == "sql_log_off" || strings.Contains(n, "audit") || n == "logging_collector" || n == "log_statement":
			if n == "sql_log_off" && truthy(v) || n != "sql_log_off" && offValue(v) {
				why = "turns the server's statement, connection or audit log off: what is done is no longer recorded"
			}
		}
		if why != "" {
			s.add(RuleSecurityOff, risk.High, true, "", "SET "+name+" "+why)
			return true
		}
		j = k
	}
	return false
}

// spConfigure judges SQL Server's sp_configure 'option', value from the
// index of sp_configure: xp_cmdshell, OLE automation, CLR and external
// scripts turned on (or CLR's strict security off) let the server's SQL
// run operating-system commands or native code.
func (s *stmt) spConfigure(i int) bool {
	opt := s.at(i + 1)
	if opt.kind != tkString {
		return false
	}
	v := s.at(i + 2)
	if v.is(",") {
		v = s.at(i + 3)
	}
	o := strings.ToLower(strings.TrimSpace(opt.value()))
	on := truthy(v)
	switch o {
	case "xp_cmdshell", "ole automation procedures", "clr enabled", "external scripts enabled", "ad hoc distributed queries", "cross db ownership chaining":
	case "clr strict security":
		on = offValue(v)
	default:
		return false
	}
	if !on {
		return false
	}
	s.add(RuleSecurityOff, risk.High, true, "", "sp_configure '"+opt.value()+"' opens a way for SQL to run operating-system commands or native code on the server")
	return true
}

// export adds the finding of a statement that writes data to file path:
// medium, and high when path is in a folder a web server or static site
// publishes (see paths.Served), where whoever fetches the site reads what
// was exported. what says what is written ("query results", "table t");
// verb how ("SELECT … INTO OUTFILE").
func (s *stmt) export(res, verb, what, path string) {
	if paths.Served(path) {
		s.add(RuleExportFile, risk.High, false, res, verb+" writes "+what+" to "+shorten(path)+", in a folder a web server or static site publishes: whoever fetches it can read it")
		return
	}
	s.add(RuleExportFile, risk.Medium, true, res, verb+" writes "+what+" to file "+shorten(path))
}
