// Package storetest is the conformance suite of session.Store
// implementations: every store (memory, SQLite, PostgreSQL) runs it, so
// that the engine can rely on one contract whichever keeps its
// conversations.
package storetest
