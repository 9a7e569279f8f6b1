import RoutineCore

/// An event as stored, with its row id (for deleting exactly what was shown).
public struct StoredEvent: Hashable, Sendable {
  /// The row id.
  public var id: Int64
  /// The event.
  public var event: Event
}

/// Which events a command lists or deletes.
public struct EventSelection: Sendable, Equatable {
  /// The first instant (inclusive), seconds since 1970.
  public var from: Int64?
  /// The end (exclusive).
  public var to: Int64?
  /// Only this kind.
  public var kind: EventKind?
  /// Only the latest `last` of the events otherwise selected.
  public var last: Int?

  /// A selection; everything when nothing is given.
  public init(from: Int64? = nil, to: Int64? = nil, kind: EventKind? = nil, last: Int? = nil) {
    self.from = from
    self.to = to
    self.kind = kind
    self.last = last
  }

  /// Whether it selects every event.
  public var isEverything: Bool { from == nil && to == nil && kind == nil && last == nil }
}

extension EventStore {
  // MARK: Writing

  /// Adds `event` unless the store already holds it (same instant, kind, value and note), in its
  /// own transaction (or the caller's). Returns whether it was added.
  @discardableResult
  public func insert(_ event: Event) throws -> Bool {
    try write {
      let inserter = try EventInserter(connection: connection, source: event.source)
      return try inserter.insert(
        at: event.timestamp, kindID: try kindID(for: event.kind), value: event.value,
        note: event.note)
    }
  }

  /// Adds `event` unless the store holds it already, and returns its row id either way (the
  /// answer that logged it points at it).
  public func insertReturningID(_ event: Event) throws -> (id: Int64, added: Bool) {
    try write {
      let kindID = try kindID(for: event.kind)
      let inserter = try EventInserter(connection: connection, source: event.source)
      if try inserter.insert(
        at: event.timestamp, kindID: kindID, value: event.value, note: event.note)
      {
        return (connection.lastInsertRowID, true)
      }
      let select = try connection.prepare(
        """
        SELECT id FROM events WHERE at = ? AND kind_id = ? AND ifnull(value, '') = ifnull(?, '')
          AND ifnull(note, '') = ifnull(?, '')
        """)
      try select.bind(event.timestamp.secondsSince1970, at: 1)
      try select.bind(kindID, at: 2)
      try select.bind(event.value, at: 3)
      try select.bind(event.note, at: 4)
      return (try select.step() ? select.int(at: 0) : 0, false)
    }
  }

  /// What an import did.
  public struct ImportSummary: Sendable, Equatable {
    /// Valid records read.
    public var read = 0
    /// Records added.
    public var added = 0
    /// Records the store already held.
    public var alreadyPresent = 0
    /// Invalid records skipped (only with skipping on).
    public var skipped: [FormatError] = []
    /// Valid records left out because their local date is before the first date asked for.
    public var beforeFirstDate = 0
  }

  /// Imports every record of the file `reader` reads, in one transaction: all or nothing. With
  /// `reader.skipsInvalid`, invalid records are skipped and listed; otherwise the first one
  /// throws and nothing is added. Importing the same file again adds nothing. With `firstDate`,
  /// records whose local date (at their own offset) comes before it are read but not added.
  public func importEvents(
    from reader: EventFileReader, source: EventSource = .import, firstDate: LocalDate? = nil
  ) throws -> ImportSummary {
    try write {
      var sink = ImportSink(
        inserter: try EventInserter(connection: connection, source: source),
        defaultSource: source, firstDate: firstDate, kindID: { try self.kindID(for: $0) })
      try reader.read(into: &sink)
      return sink.summary
    }
  }

  /// Deletes the events with these row ids whose content is still `expected` (so that what is
  /// deleted is exactly what the user was shown), in one transaction; returns how many. An
  /// answer that logged one of them is marked undone at `now`: its firing can be answered
  /// again, and the history says so.
  @discardableResult
  public func delete(_ expected: [StoredEvent], at now: Int64) throws -> Int {
    try write {
      let kinds = try kinds()
      let select = try connection.prepare(
        "SELECT at, utc_offset, kind_id, value, note, source FROM events WHERE id = ?")
      let delete = try connection.prepare("DELETE FROM events WHERE id = ?")
      var count = 0
      var deleted: [Int64] = []
      for stored in expected {
        select.reset()
        try select.bind(stored.id, at: 1)
        guard try select.step(), EventStore.event(from: select, kinds: kinds) == stored.event
        else { continue }
        delete.reset()
        try delete.bind(stored.id, at: 1)
        try delete.step()
        count += connection.changes
        deleted.append(stored.id)
      }
      try markAnswersUndone(eventIDs: deleted, at: now)
      return count
    }
  }

  // MARK: Reading

  /// Calls `body` with the events at instants in `from..<to` (either bound optional), of `kind`
  /// when given, in time order.
  public func forEachEvent(
    from: Int64? = nil, to: Int64? = nil, kind: EventKind? = nil, _ body: (Event) throws -> Void
  ) throws {
    try forEachStoredEvent(EventSelection(from: from, to: to, kind: kind)) { try body($0.event) }
  }

  /// Calls `body` with the selected events and their row ids, in time order; events of one
  /// instant in the order they were added.
  public func forEachStoredEvent(
    _ selection: EventSelection, _ body: (StoredEvent) throws -> Void
  ) throws {
    try read {
      let kinds = try kinds()
      let statement = try eventsStatement(selection, byInsertion: true)
      while try statement.step() {
        guard let event = EventStore.event(from: statement, kinds: kinds) else { continue }
        try body(StoredEvent(id: statement.int(at: 6), event: event))
      }
    }
  }

  /// The selected events as their rows hold them, in the identity index's order (time, then
  /// kind, value and note: no sort per instant, which made an export of millions twice as
  /// slow), after the kinds they name (by id): an export writes these out without making an
  /// ``Event`` of each.
  public func forEachEventRow(
    _ selection: EventSelection, kinds body: ([Int64: EventKind]) throws -> Void,
    rows row: (EventRow) throws -> Void
  ) throws {
    try read {
      try body(try kinds())
      let statement = try eventsStatement(selection, byInsertion: false)
      while try statement.step() {
        try statement.withText(at: 4) { note in
          try row(
            EventRow(
              timestamp: .stored(at: statement.int(at: 0), offset: statement.int(at: 1)),
              kindID: statement.int(at: 2),
              value: statement.isNull(at: 3) ? nil : statement.double(at: 3), note: note,
              source: EventStore.source(statement.firstByte(at: 5))))
        }
      }
    }
  }

  /// The statement selecting `at, utc_offset, kind_id, value, note, source, id` of the
  /// selection, in time order (within an instant by insertion, or by the identity index).
  private func eventsStatement(_ selection: EventSelection, byInsertion: Bool) throws -> Statement {
    var conditions = ["e.at >= ?1", "e.at < ?2"]
    if selection.kind != nil {
      conditions.append("e.kind_id = (SELECT id FROM kinds WHERE key = ?3)")
    }
    var sql =
      "SELECT e.at, e.utc_offset, e.kind_id, e.value, e.note, e.source, e.id FROM events e WHERE "
      + conditions.joined(separator: " AND ")
    if selection.last != nil {
      // The latest `last`, then back in time order.
      sql = "SELECT * FROM (\(sql) ORDER BY e.at DESC, e.id DESC LIMIT ?4) ORDER BY 1, 7"
    } else {
      sql += byInsertion ? " ORDER BY e.at, e.id" : " ORDER BY e.at"
    }
    let statement = try connection.prepare(sql)
    try statement.bind(selection.from ?? Int64.min, at: 1)
    try statement.bind(selection.to ?? Int64.max, at: 2)
    if let kind = selection.kind { try statement.bind(kind.key, at: 3) }
    if let last = selection.last { try statement.bind(Int64(max(0, last)), at: 4) }
    return statement
  }

  /// The selected events, in time order.
  public func storedEvents(_ selection: EventSelection) throws -> [StoredEvent] {
    var result: [StoredEvent] = []
    try forEachStoredEvent(selection) { result.append($0) }
    return result
  }

  /// The event added last by `routine log` or by answering a notification: what `routine undo`
  /// removes. Imported events are not undone one at a time.
  public func lastLogged() throws -> StoredEvent? {
    try read {
      let statement = try connection.prepare(
        """
        SELECT at, utc_offset, kind_id, value, note, source, id FROM events
        WHERE source = 'cli' OR source = 'notification' ORDER BY id DESC LIMIT 1
        """)
      guard try statement.step(), let event = EventStore.event(from: statement, kinds: try kinds())
      else { return nil }
      return StoredEvent(id: statement.int(at: 6), event: event)
    }
  }

  /// The event in the current row of a statement selecting
  /// `at, utc_offset, kind_id, value, note, source` first.
  static func event(from statement: Statement, kinds: [Int64: EventKind]) -> Event? {
    guard let kind = kinds[statement.int(at: 2)] else { return nil }
    return Event(
      kind: kind,
      timestamp: .stored(at: statement.int(at: 0), offset: statement.int(at: 1)),
      value: statement.isNull(at: 3) ? nil : statement.double(at: 3),
      note: statement.isNull(at: 4) ? nil : statement.text(at: 4),
      source: source(statement.firstByte(at: 5)))
  }

  /// The source a stored event's `source` column names. The schema's CHECK allows only `cli`,
  /// `import` and `notification`, whose first letters differ: reading one byte instead of a
  /// `String` per row is a tenth of an export's time.
  static func source(_ first: UInt8?) -> EventSource {
    switch first {
    case UInt8(ascii: "c"): .cli
    case UInt8(ascii: "n"): .notification
    default: .import
    }
  }

  /// The events whose local dates may fall on `days` (a day either side included), for
  /// analytics. Kinds appear in the order of their ids.
  public func eventLog(days: ClosedRange<LocalDate>) throws -> EventLog {
    try read {
      let kinds = try kinds()
      var log = EventLog()
      var index: [Int64: Int] = [:]
      for id in kinds.keys.sorted() { index[id] = log.index(of: kinds[id]!) }
      // Local dates are the instant plus an offset of at most 18 hours either way.
      let margin: Int64 = 18 * 3600
      let statement = try connection.prepare(
        "SELECT at, utc_offset, kind_id FROM events WHERE at >= ? AND at < ? ORDER BY at")
      try statement.bind(Int64(days.lowerBound.daysSince1970 - 1) * 86_400 - margin, at: 1)
      try statement.bind(Int64(days.upperBound.daysSince1970 + 2) * 86_400 + margin, at: 2)
      while try statement.step() {
        guard let kindIndex = index[statement.int(at: 2)] else { continue }
        let timestamp = Timestamp.stored(at: statement.int(at: 0), offset: statement.int(at: 1))
        log.append(EventTime(timestamp), toKindAt: kindIndex)
      }
      log.sort()
      return log
    }
  }

  /// The local dates of the earliest and latest events, or `nil` for an empty store.
  public func eventDates() throws -> ClosedRange<LocalDate>? {
    try read {
      func date(_ sql: String) throws -> LocalDate? {
        let statement = try connection.prepare(sql)
        guard try statement.step() else { return nil }
        return Timestamp.stored(at: statement.int(at: 0), offset: statement.int(at: 1)).localDate
      }
      guard let first = try date("SELECT at, utc_offset FROM events ORDER BY at LIMIT 1"),
        let last = try date("SELECT at, utc_offset FROM events ORDER BY at DESC LIMIT 1")
      else { return nil }
      return first...max(first, last)
    }
  }

  /// The local date (by its own offset) of the last event at or before `now`, or `nil`.
  public func lastLoggedDate(notAfter now: Int64) throws -> LocalDate? {
    try read {
      let statement = try connection.prepare(
        "SELECT at, utc_offset FROM events WHERE at <= ? ORDER BY at DESC LIMIT 1")
      try statement.bind(now, at: 1)
      guard try statement.step() else { return nil }
      return Timestamp.stored(at: statement.int(at: 0), offset: statement.int(at: 1)).localDate
    }
  }

  /// The number of events.
  public func count() throws -> Int {
    try withDatabase { Int(try connection.scalarInt("SELECT count(*) FROM events") ?? 0) }
  }
}

extension EventStore {
  /// SQLite's `quick_check`: the problems it finds, none for a healthy store.
  public func problems() throws -> [String] {
    try withDatabase {
      let check = try connection.prepare("PRAGMA quick_check")
      var found: [String] = []
      while try check.step() {
        if let line = check.text(at: 0), line != "ok" { found.append(line) }
      }
      return found
    }
  }
}

extension EventStore {
  /// SQLite's `data_version`: it changes when another connection commits, never for this one's
  /// own writes. `routine watch` tells other processes' edits from its own by it.
  public func dataVersion() throws -> Int64 {
    try withDatabase { try connection.scalarInt("PRAGMA data_version") ?? 0 }
  }
}

/// One stored event as its row holds it (``EventStore/forEachEventRow(_:kinds:rows:)``); the
/// note's bytes are valid only during the callback.
public struct EventRow {
  /// When, with the offset it was logged at.
  public var timestamp: Timestamp
  /// The kind's id in the store.
  public var kindID: Int64
  /// The number, if any.
  public var value: Double?
  /// The note as UTF-8; empty when there is none.
  public var note: UnsafeRawBufferPointer
  /// Where it came from.
  public var source: EventSource
}
