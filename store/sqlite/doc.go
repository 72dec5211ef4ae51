// Package sqlite is a session.Store in one SQLite file (modernc.org/sqlite,
// no cgo): the default store of the CLI and the agent hooks, which start a
// process for every tool call and continue the conversation from the file.
//
// The file holds the table warden_sessions (one row per conversation: its
// id, the encoding version, the encoded session.State, the time it was
// last saved), warden_meta (the schema version and the key under which
// the conversations' remembered values are hashed) and, later, the audit
// trail. It is created with mode 0600 in a directory created with mode
// 0700, and kept in WAL mode so that readers never wait for a writer.
// Each Update is one write transaction (BEGIN IMMEDIATE): processes that
// continue one conversation at once are serialized, and lose nothing.
package sqlite
