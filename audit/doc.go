// Package audit is warden's audit trail: every verdict the engine makes,
// every approval, refusal, observation and reported result, recorded
// durably and provably unedited.
//
// Each Event is stored as the canonical JSON the engine sealed it into (a
// Record) with its SHA-256 hash, and each carries the hash of the event
// before it (Event.Prev): editing, deleting, inserting or reordering an
// event breaks the chain at the first event touched. A chain anyone who
// can write the database recomputes from the start would verify again, so
// the head of the chain is also signed, with each append, by an Ed25519
// key kept outside the database (a Checkpoint): with the public key,
// Verify detects a recomputed chain too, and a chain cut short.
//
// The stores are Backends (store/sqlite, store/postgres, and NewMemory for
// tests and processes without a store); a Log seals events onto one,
// committing concurrent appends together.
package audit
