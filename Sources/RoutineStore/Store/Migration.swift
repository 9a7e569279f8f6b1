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
        """),
    Migration(
      name: "0002-planner",
      sql: """
        CREATE TABLE settings (
          key TEXT PRIMARY KEY,
          value TEXT NOT NULL
        );
        -- Pending notification requests, like the system's pending notifications.
        CREATE TABLE requests (
          id TEXT PRIMARY KEY,
          origin TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          trigger_type TEXT NOT NULL CHECK (trigger_type = 'calendar' OR trigger_type = 'date'),
          weekday INTEGER CHECK (weekday BETWEEN 1 AND 7),
          hour INTEGER CHECK (hour BETWEEN 0 AND 23),
          minute INTEGER CHECK (minute BETWEEN 0 AND 59),
          repeats INTEGER,
          fire_at INTEGER,
          event_kind TEXT,
          suggested_time INTEGER,
          confidence REAL
        );
        -- Notifications already delivered (written when they fire, cleared by `clear --delivered`).
        CREATE TABLE delivered (
          id INTEGER PRIMARY KEY,
          request_id TEXT NOT NULL,
          category TEXT NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          delivered_at INTEGER NOT NULL
        );
        """),
  ]
}
