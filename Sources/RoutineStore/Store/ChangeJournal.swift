import RoutineCore

/// Records what each write transaction of a command changes, in the same transaction, for
/// `routine undo` (docs/cli.md, "Undo").
///
/// Rows of the user's tables are recorded by temporary triggers of the connection: each insert,
/// update and delete leaves the SQL that reverts it (a deleted row's content with it). Events
/// added are not recorded row by row: a change keeps the range of row ids they got, so that an
/// import of millions adds one row to the journal, not millions.
final class ChangeJournal {
  /// How many changes the store keeps: older ones are forgotten as new ones are recorded.
  static let kept: Int64 = 100

  /// A table whose rows are recorded.
  struct Table {
    var name: String
    /// Derived from other tables (requests, cancellations, adaptations): what a later `plan`
    /// rewrote is replaced, not a reason to refuse the undo.
    var derived = false
    /// Rows added are recorded (events are not: their ids are a range).
    var recordsInserts = true
  }

  /// The tables whose changes are a user's: the planner's own bookkeeping (deliveries, state,
  /// learned routines) is not recorded, and not undone.
  static let tables: [Table] = [
    Table(name: "events", recordsInserts: false), Table(name: "kinds"),
    Table(name: "settings"), Table(name: "reminders"), Table(name: "habits"),
    Table(name: "tasks"), Table(name: "deleted_ids"), Table(name: "answers"),
    Table(name: "requests", derived: true), Table(name: "cancellations", derived: true),
    Table(name: "adaptations", derived: true),
    // Days done without a time (Loop Habit Tracker's checkmarks): a few thousand at most.
    Table(name: "day_marks"),
  ]

  /// The command line, as `undo --list` shows it.
  let command: String
  /// The process's mark: the changes of one command are undone together.
  let run: String
  /// When the command ran (its `--now`), seconds since 1970.
  let madeAt: Int64

  init(command: String, run: String, madeAt: Int64) {
    self.command = command
    self.run = run
    self.madeAt = madeAt
  }

  /// A change being recorded: its row, and the last event id before it.
  struct Open {
    var id: Int64
    var eventsBefore: Int64
  }

  /// Creates the connection's triggers (temporary: they exist only for a process that records,
  /// so that other writers, `undo` among them, pay nothing).
  func install(on connection: Connection) throws {
    try connection.execute("CREATE TEMP TABLE IF NOT EXISTS undo_current (id INTEGER NOT NULL)")
    for table in ChangeJournal.tables {
      let info = try connection.prepare("PRAGMA main.table_info(\(table.name))")
      var columns: [String] = []
      var keys: [(Int64, String)] = []
      while try info.step() {
        let name = info.text(at: 1) ?? ""
        columns.append(name)
        if info.int(at: 5) > 0 { keys.append((info.int(at: 5), name)) }
      }
      let key = keys.sorted { $0.0 < $1.0 }.map(\.1)
      func matching(_ row: String) -> String {
        key.map { "\"\($0)\" = ' || quote(\(row).\"\($0)\") || '" }.joined(separator: " AND ")
      }
      let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
      let values = columns.map { "' || quote(old.\"\($0)\") || '" }.joined(separator: ", ")
      let assignments = columns.map { "\"\($0)\" = ' || quote(old.\"\($0)\") || '" }
        .joined(separator: ", ")
      let insertVerb = table.derived ? "INSERT OR REPLACE" : "INSERT"
      // An update that writes the values a row already has (settings are saved whole) is
      // no change.
      let changed = columns.map { "old.\"\($0)\" IS NOT new.\"\($0)\"" }
        .joined(separator: " OR ")
      var reverts: [(event: String, action: String, row: String, when: String, sql: String)] = [
        (
          "DELETE", "delete", "old", "",
          "'\(insertVerb) INTO \(table.name) (\(quoted)) VALUES (\(values))'"
        ),
        (
          "UPDATE", "update", "new", "WHEN \(changed)",
          "'UPDATE \(table.name) SET \(assignments) WHERE \(matching("new"))'"
        ),
      ]
      if table.recordsInserts {
        // An answer is not erased but marked undone (at the undo's time, ?1), as undoing the
        // event it logged always did: the history says so, and the firing can be answered again.
        let sql =
          table.name == "answers"
          ? "'UPDATE answers SET undone_at = ?1 WHERE \(matching("new")) AND undone_at IS NULL'"
          : "'DELETE FROM \(table.name) WHERE \(matching("new"))'"
        reverts.append(("INSERT", "insert", "new", "", sql))
      }
      if table.name == "events" {
        // Deleted events keep their rows (not SQL text), restored together by `undo`.
        reverts.removeAll { $0.action == "delete" }
        try connection.execute(
          """
          CREATE TEMP TRIGGER IF NOT EXISTS undo_events_delete
          AFTER DELETE ON main.events BEGIN
            INSERT INTO change_events (change_id, id, at, utc_offset, kind_id, value, note, source)
              SELECT id, old.id, old.at, old.utc_offset, old.kind_id, old.value, old.note,
                old.source
              FROM undo_current;
          END
          """)
      }
      for revert in reverts {
        try connection.execute(
          """
          CREATE TEMP TRIGGER IF NOT EXISTS undo_\(table.name)_\(revert.action)
          AFTER \(revert.event) ON main.\(table.name) \(revert.when) BEGIN
            INSERT INTO change_steps (change_id, target, action, row_key, revert)
              SELECT id, '\(table.name)', '\(revert.action)', '\(matching(revert.row))',
                \(revert.sql)
              FROM undo_current;
          END
          """)
      }
    }
  }

  /// Starts recording the transaction `store` has just begun.
  func begin(_ store: EventStore) throws -> Open {
    let connection = store.connection
    let before = try connection.scalarInt("SELECT ifnull(max(id), 0) FROM events") ?? 0
    let insert = try connection.prepare(
      """
      INSERT INTO changes (run, made_at, command, events_before, events_after)
      VALUES (?, ?, ?, ?, ?)
      """)
    try insert.bind(run, at: 1)
    try insert.bind(madeAt, at: 2)
    try insert.bind(command, at: 3)
    try insert.bind(before, at: 4)
    try insert.bind(before, at: 5)
    try insert.step()
    let id = connection.lastInsertRowID
    try connection.execute("DELETE FROM undo_current; INSERT INTO undo_current VALUES (\(id))")
    return Open(id: id, eventsBefore: before)
  }

  /// Completes the record before the transaction commits: the events' range, or no record at
  /// all when nothing was changed; older changes past ``kept`` are forgotten.
  func finish(_ change: Open, _ store: EventStore) throws {
    let connection = store.connection
    try connection.execute("DELETE FROM undo_current")
    let after = max(
      change.eventsBefore, try connection.scalarInt("SELECT ifnull(max(id), 0) FROM events") ?? 0)
    let added =
      after > change.eventsBefore
      ? try connection.scalarInt(
        "SELECT count(*) FROM events WHERE id > \(change.eventsBefore) AND id <= \(after)") ?? 0
      : 0
    let steps =
      try connection.scalarInt(
        """
        SELECT (SELECT count(*) FROM change_steps WHERE change_id = \(change.id))
          + (SELECT count(*) FROM change_events WHERE change_id = \(change.id))
        """) ?? 0
    guard added > 0 || steps > 0 else {
      try connection.execute("DELETE FROM changes WHERE id = \(change.id)")
      return
    }
    try connection.execute(
      "UPDATE changes SET events_after = \(after), events_added = \(added) WHERE id = \(change.id)"
    )
    let oldest = change.id - ChangeJournal.kept
    if oldest > 0 {
      try connection.execute("DELETE FROM change_steps WHERE change_id <= \(oldest)")
      try connection.execute("DELETE FROM change_events WHERE change_id <= \(oldest)")
      try connection.execute("DELETE FROM changes WHERE id <= \(oldest)")
      // Numbers skipped by changes that changed nothing do not say that; this does.
      if connection.changes > 0 {
        try connection.execute(
          "INSERT OR REPLACE INTO state (key, value) VALUES ('journal_forgot', '1')")
      }
    }
  }
}

extension EventStore {
  /// Records every change this store's writes make from now on, as one change of `command`
  /// (the changes of one `run` are undone together), made at `now` (seconds since 1970).
  public func recordChanges(as command: String, run: String, at now: Int64) throws {
    let journal = ChangeJournal(command: command, run: run, madeAt: now)
    try withDatabase { try journal.install(on: connection) }
    self.journal = journal
  }
}

extension EventStore {
  /// How many changes a store keeps for `routine undo`.
  public static let keptChanges = Int(ChangeJournal.kept)
}
