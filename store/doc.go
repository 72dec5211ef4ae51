// Package store opens the session store a DSN names: PostgreSQL for a
// postgres:// or postgresql:// URL, otherwise an SQLite file at that path.
// The stores themselves are packages store/sqlite and store/postgres;
// the memory store is session.NewMemoryStore.
package store
