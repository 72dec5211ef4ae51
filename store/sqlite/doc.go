// Package sqlite is a session.Store in one SQLite file (modernc.org/sqlite,
// no cgo): the default store of the CLI and the agent hooks, which start a
// process for every tool call and continue the conversation from the file.
//
// The file holds the table warden_sessions (one row per conversation: its
// id, the encoding version, the encoded session.State, the time it was
// last saved), warden_meta (the schema version and the key under which
// the conversations' remembered values are hashed), and the audit trail
// (warden_audit and warden_audit_checkpoints, see Store.Audit). It is
// created with mode 0600 in a directory created with mode 0700, and kept
// in WAL mode so that readers never wait for a writer. Each Update, and
// each audit append, is one write transaction (BEGIN IMMEDIATE): processes
// that continue one conversation or append to the trail at once are
// serialized, and lose nothing. Every commit syncs the WAL
// (synchronous=FULL): what was committed survives a power loss.
//
// A file of an older schema is migrated in place when opened (schema 1,
// the sessions alone, gains the audit trail's tables); a file of a newer
// schema is refused.
package sqlite
