/// A named, append-only schema change. Migrations are never edited once released: a new change
/// is a new migration at the end of ``all``.
struct Migration {
  let name: String
  let sql: String

  static let all: [Migration] = [
    Migration(
      name: "0001-events",
      sql: """
        CREATE TABLE kinds (
          id INTEGER PRIMARY KEY,
          key TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL
        );
        CREATE TABLE events (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          utc_offset INTEGER NOT NULL,
          kind_id INTEGER NOT NULL REFERENCES kinds(id),
          value REAL,
          note TEXT,
          -- Written with OR: an IN list makes SQLite build a temporary index on every insert.
          source TEXT NOT NULL CHECK (source = 'cli' OR source = 'import' OR source = 'notification')
        );
        -- An event's identity: the same instant, kind, value and note is the same event, so
        -- re-imports and repeated answers add nothing. It also serves queries by time.
        CREATE UNIQUE INDEX events_identity
          ON events(at, kind_id, ifnull(value, ''), ifnull(note, ''));
        """)
  ]
}
