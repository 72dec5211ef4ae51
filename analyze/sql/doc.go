// Package sql is warden's SQL analyzer: it splits SQL text into statements
// with its own dialect-tolerant lexer and classifies each one, so that a
// DROP TABLE is seen where it runs and never where it is only quoted or
// commented.
//
// The lexer knows single-quoted strings (a doubled quote escapes), E'…' strings with
// backslash escapes, double-quoted and backtick identifiers, -- and #
// comments, block comments (nested, as in PostgreSQL), dollar-quoted bodies
// ($$…$$, $tag$…$tag$), numbers, parameters and punctuation. It runs in
// linear time. Where PostgreSQL and MySQL read a text differently
// (backslashes in strings, # and nested comments, MySQL's /*! … */ comments
// whose text runs), Analyze reads it both ways and reports what either
// reading finds, so that no dialect can hide a statement. Text that cannot
// be lexed is reported as RuleUnparsable at High, never as safe.
//
// Each statement yields findings with stable rule IDs (the Rule*
// constants): DROP DATABASE is critical; DROP TABLE, TRUNCATE, DELETE or
// UPDATE without WHERE or with an always-true WHERE, ALTER TABLE … DROP,
// GRANT, REVOKE and password or superuser changes are high; COPY … PROGRAM
// is critical; filtered writes, other schema changes and exports to files
// are medium; reads are low. Data-modifying statements inside WITH clauses
// and subqueries, the target of EXPLAIN ANALYZE, DO and function bodies and
// EXECUTE literals are judged as the statements they are. A destructive
// statement stacked after the first adds RuleMultiStatement, and a
// production database (tool.IsProduction) raises destructive findings to
// critical (Escalate).
//
// Analyze is the pure entry point for text; Statements gives other
// analyzers the statements themselves; Fact reads a text once into what
// Analyze, Statements and PersonalData return (tool.SQLText), which
// Preparer records on a call (and the shell preparer for psql -c), so
// that Analyzer, which plugs the package into the engine, reads each text
// of a call without lexing it again.
//
// Not covered: client-side statement delimiters other than ; (mysql
// DELIMITER, SQL Server GO batches are read as statements), and SQL built
// at run time from values the text does not contain.
package sql
