// Package postgres is a session.Store in a PostgreSQL database
// (github.com/jackc/pgx/v5), for many processes and replicas that share
// conversations.
//
// The tables warden_sessions (one row per conversation: its id, the
// encoding version, the encoded session.State, the time it was last
// saved) and warden_meta (the schema version and the key under which the
// conversations' remembered values are hashed) are created in the
// connection's schema when missing, under an advisory lock, so that
// processes starting at once create them once. Each Update locks the
// conversation's row (SELECT … FOR UPDATE) for the whole of its
// transaction: Updates of one conversation are serialized across
// processes and hosts, and lose nothing.
//
// The same database holds the audit trail (Store.Audit, an audit.Backend):
// warden_audit (one row per event: its canonical JSON and hash, and the
// columns lists filter on), warden_audit_checkpoints (the signed heads)
// and warden_audit_head, the one row every append locks, so that
// processes and hosts appending at once keep one chain. An append in the
// fn of an Update writes in the Update's transaction and commits with the
// conversation's state.
package postgres
