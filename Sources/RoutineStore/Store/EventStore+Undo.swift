import RoutineCore

/// One change the store recorded (``EventStore/recordChanges(as:run:at:)``).
public struct RecordedChange: Sendable, Equatable {
  /// Its number in the journal.
  public var id: Int64
  /// The process that made it.
  public var run: String
  /// When, seconds since 1970.
  public var madeAt: Int64
  /// The command line that made it.
  public var command: String
  /// Events it added.
  public var eventsAdded: Int
  /// Rows it inserted, updated or deleted, by table.
  public var tallies: [ChangeTally]
  /// When it was undone, if it was.
  public var undoneAt: Int64?
}

/// How many rows of one table a change inserted, updated and deleted.
public struct ChangeTally: Sendable, Equatable {
  /// The table (`events`, `kinds`, `reminders`, ...).
  public var table: String
  /// Rows inserted.
  public var inserted = 0
  /// Rows updated.
  public var updated = 0
  /// Rows deleted.
  public var deleted = 0

  /// A tally of `table`, with nothing counted yet.
  public init(table: String, inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
    self.table = table
    self.inserted = inserted
    self.updated = updated
    self.deleted = deleted
  }
}

/// Why there is nothing to undo.
public struct NothingToUndo: Sendable, Equatable {
  /// When the store started recording changes, seconds since 1970.
  public var journalStarted: Int64?
  /// The store held data when it started recording: those changes cannot be undone.
  public var predatesJournal: Bool
  /// Older changes were recorded but have been forgotten (the journal keeps the last 100).
  public var olderForgotten: Bool
  /// How many recorded changes there are, every one of them undone already.
  public var undoneAlready = 0

  /// A reason; none of these: the store never held anything to undo.
  public init(
    journalStarted: Int64? = nil, predatesJournal: Bool = false, olderForgotten: Bool = false
  ) {
    self.journalStarted = journalStarted
    self.predatesJournal = predatesJournal
    self.olderForgotten = olderForgotten
  }
}

/// A change `undo` cannot revert, and why.
public struct UndoRefusal: Error, Sendable, Equatable {
  /// The change.
  public var change: RecordedChange
  /// Why, in words ("2 of the events it would restore are in the store again").
  public var reason: String
}

extension EventStore {
  /// The most recent recorded changes, newest first (undone ones too).
  public func recordedChanges(limit: Int) throws -> [RecordedChange] {
    try read {
      try changes(where: "1", limit: limit)
    }
  }

  /// What `undo` would revert now: the latest change not yet undone, with the earlier ones the
  /// same command made (newest first); empty when there is none.
  public func nextUndo() throws -> [RecordedChange] {
    try read {
      let pending = try changes(where: "undone_at IS NULL", limit: 1000)
      guard let latest = pending.first else { return [] }
      return Array(pending.prefix { $0.run == latest.run })
    }
  }

  /// Why nothing is left to undo.
  public func nothingToUndo() throws -> NothingToUndo {
    try read {
      let started = try state("journal_started").flatMap { Int64($0) }
      let predated = try state("journal_predated") == "1"
      let forgot = try state("journal_forgot") == "1"
      var reason = NothingToUndo(
        journalStarted: started, predatesJournal: predated, olderForgotten: forgot)
      reason.undoneAlready =
        try connection.scalarInt(
          "SELECT count(*) FROM changes WHERE undone_at IS NOT NULL"
        ).map(Int.init) ?? 0
      return reason
    }
  }

  /// Reverts the latest change not yet undone (all the transactions of the command that made
  /// it), in one transaction, and marks it undone at `now`. When `expected` is given and the
  /// latest change is another (someone changed or undid something meanwhile), nothing is
  /// reverted and `nil` is returned, as when there is nothing to undo. Two processes undoing
  /// at once revert two different changes, never one twice: each finds and marks its change
  /// while it holds the write lock.
  ///
  /// Throws ``UndoRefusal`` when the store no longer is as the change left it. `reverted` runs
  /// before the transaction commits (to say what was reverted): if it throws, nothing is undone.
  public func undoLatest(
    expected: Int64? = nil, at now: Int64,
    reverted: ([RecordedChange]) throws -> Void = { _ in }
  ) throws -> [RecordedChange]? {
    // An undo is no change to record (its triggers record nothing without an open change).
    let recording = journal
    journal = nil
    defer {
      journal = recording
      forgetKindIDs()
    }
    return try write {
      let group = try nextUndo()
      guard let latest = group.first, expected == nil || expected == latest.id else { return nil }
      for change in group { try revert(change, at: now) }
      try reverted(group)
      return group
    }
  }

  private func revert(_ change: RecordedChange, at now: Int64) throws {
    let range = try connection.prepare(
      "SELECT events_before, events_after FROM changes WHERE id = ?")
    try range.bind(change.id, at: 1)
    guard try range.step() else { return }
    let before = range.int(at: 0)
    let after = range.int(at: 1)
    let newest = try connection.scalarInt("SELECT ifnull(max(id), 0) FROM events") ?? 0
    if newest > after {
      throw UndoRefusal(
        change: change, reason: "events were added after it by a change that was not recorded")
    }
    if change.eventsAdded > 0 {
      let present =
        try connection.scalarInt(
          "SELECT count(*) FROM events WHERE id > \(before) AND id <= \(after)") ?? 0
      if present != change.eventsAdded {
        throw UndoRefusal(
          change: change,
          reason:
            "\(change.eventsAdded - Int(present)) of the \(change.eventsAdded) events it added were since removed"
        )
      }
      // Answers that logged these events can be given again (as `events delete` does).
      let answers = try connection.prepare(
        "UPDATE answers SET undone_at = ? WHERE event_id > ? AND event_id <= ? AND undone_at IS NULL"
      )
      try answers.bind(now, at: 1)
      try answers.bind(before, at: 2)
      try answers.bind(after, at: 3)
      try answers.step()
      try connection.execute("DELETE FROM events WHERE id > \(before) AND id <= \(after)")
    }
    let steps = try connection.prepare(
      "SELECT target, action, revert FROM change_steps WHERE change_id = ? ORDER BY id DESC")
    try steps.bind(change.id, at: 1)
    while try steps.step() {
      let sql = steps.text(at: 2) ?? ""
      let statement = try connection.prepare(sql)
      if sql.contains("?1") { try statement.bind(now, at: 1) }
      if let failure = stepping(statement) {
        // A constraint: what it would bring back is in the store again.
        if failure.primaryCode == 19 {
          throw UndoRefusal(change: change, reason: conflict(steps.text(at: 0) ?? ""))
        }
        throw failure
      }
    }
    // Deleted events last: every other row is as it was before the change by now, so they
    // come back into the store they left.
    let restore = try connection.prepare(
      """
      INSERT INTO events (id, at, utc_offset, kind_id, value, note, source)
        SELECT id, at, utc_offset, kind_id, value, note, source FROM change_events
        WHERE change_id = ? ORDER BY rowid
      """)
    try restore.bind(change.id, at: 1)
    if let failure = stepping(restore) {
      if failure.primaryCode == 19 {
        throw UndoRefusal(change: change, reason: conflict("events"))
      }
      throw failure
    }
    let mark = try connection.prepare("UPDATE changes SET undone_at = ? WHERE id = ?")
    try mark.bind(now, at: 1)
    try mark.bind(change.id, at: 2)
    try mark.step()
  }

  /// Runs `statement` once; its error, if it failed.
  private func stepping(_ statement: Statement) -> SQLiteError? {
    do {
      _ = try statement.step()
      return nil
    } catch {
      return error
    }
  }

  private func conflict(_ table: String) -> String {
    switch table {
    case "events":
      "the events it would restore were since changed (one of them is in the store again)"
    case "kinds": "the kind it would restore is in the store again under its name"
    default: "what it would restore is in the store again (\(table))"
    }
  }

  private func changes(where condition: String, limit: Int) throws -> [RecordedChange] {
    let select = try connection.prepare(
      """
      SELECT id, run, made_at, command, events_added, undone_at FROM changes
      WHERE \(condition) ORDER BY id DESC LIMIT ?
      """)
    try select.bind(Int64(limit), at: 1)
    var result: [RecordedChange] = []
    while try select.step() {
      result.append(
        RecordedChange(
          id: select.int(at: 0), run: select.text(at: 1) ?? "", madeAt: select.int(at: 2),
          command: select.text(at: 3) ?? "", eventsAdded: Int(select.int(at: 4)), tallies: [],
          undoneAt: select.isNull(at: 5) ? nil : select.int(at: 5)))
    }
    // Each row once: added (and perhaps edited after), edited, or removed; a row added and
    // removed again by the same change (a setting saved by replacing it) counts as added.
    let tally = try connection.prepare(
      """
      SELECT target, sum(added), sum(edited AND NOT added AND NOT removed),
        sum(removed AND NOT added)
      FROM (
        SELECT target, max(action = 'insert') AS added, max(action = 'update') AS edited,
          max(action = 'delete') AS removed
        FROM change_steps WHERE change_id = ? GROUP BY target, row_key)
      GROUP BY target ORDER BY target
      """)
    let deletedEvents = try connection.prepare(
      "SELECT count(*) FROM change_events WHERE change_id = ?")
    for index in result.indices {
      deletedEvents.reset()
      try deletedEvents.bind(result[index].id, at: 1)
      if try deletedEvents.step(), deletedEvents.int(at: 0) > 0 {
        result[index].tallies.append(
          ChangeTally(table: "events", deleted: Int(deletedEvents.int(at: 0))))
      }
      tally.reset()
      try tally.bind(result[index].id, at: 1)
      while try tally.step() {
        let table = tally.text(at: 0) ?? ""
        if let known = result[index].tallies.firstIndex(where: { $0.table == table }) {
          result[index].tallies[known].inserted += Int(tally.int(at: 1))
          result[index].tallies[known].updated += Int(tally.int(at: 2))
          result[index].tallies[known].deleted += Int(tally.int(at: 3))
        } else {
          result[index].tallies.append(
            ChangeTally(
              table: table, inserted: Int(tally.int(at: 1)), updated: Int(tally.int(at: 2)),
              deleted: Int(tally.int(at: 3))))
        }
      }
    }
    return result
  }
}
