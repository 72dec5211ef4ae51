package sql

import "github.com/agentwarden/warden/risk"

// purgeLogs judges MySQL's PURGE BINARY|MASTER LOGS: BEFORE the present
// (NOW(), CURRENT_TIMESTAMP, SYSDATE(), UTC_TIMESTAMP(), with nothing taken
// off) deletes every binary log but the one in use, and with them recovery
// to a point in time and the history a replica that lags still needs:
// high, as RESET MASTER is. TO 'file' and BEFORE a date or NOW() -
// INTERVAL … keep a bounded retention, the routine way to free disk:
// medium. It reports whether the statement was one.
func (s *stmt) purgeLogs(i int) bool {
	if !(s.at(i+1).is("BINARY") || s.at(i+1).is("MASTER")) || !s.at(i+2).is("LOGS") {
		return false
	}
	j := i + 3
	if s.at(j).is("BEFORE") {
		k := j + 1
		now := s.at(k)
		if now.is("NOW") || now.is("CURRENT_TIMESTAMP") || now.is("SYSDATE") || now.is("UTC_TIMESTAMP") || now.is("LOCALTIMESTAMP") || now.is("LOCALTIME") {
			k++
			if s.at(k).is("(") && s.at(k+1).is(")") {
				k += 2
			}
			if t := s.at(k); k >= len(s.ts) || t.is(";") {
				s.add(RuleServerConfig, risk.High, false, "", "PURGE "+upper(s.at(i+1).text)+" LOGS BEFORE "+upper(now.text)+" deletes every binary log: recovery to a point in time, and replicas that still need them, are lost")
				return true
			}
		}
	}
	s.add(RuleServerConfig, risk.Medium, false, "", "PURGE "+upper(s.at(i+1).text)+" LOGS deletes the binary logs older than a bound (routine retention)")
	return true
}
