import RoutineCore

/// The prepared insert shared by single events and imports. Bindings survive a reset, so the
/// source is bound once (again only when a file's rows change it) and each row binds only what
/// changes.
struct EventInserter {
  private let statement: Statement
  private let connection: Connection
  /// The source rows are inserted with until ``bind(_:)`` changes it.
  private(set) var source: EventSource

  init(connection: Connection, source: EventSource) throws {
    self.connection = connection
    // An event the store already holds (same instant, kind, value and note: the unique index
    // events_identity) is not added again: re-imports and repeated answers change nothing.
    // DO NOTHING applies to that conflict only; any other constraint still fails loudly.
    statement = try connection.prepare(
      """
      INSERT INTO events (at, utc_offset, kind_id, value, note, source)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6)
      ON CONFLICT DO NOTHING
      """, persistent: true)
    try statement.bind(source.rawValue, at: 6)
    self.source = source
  }

  /// Inserts the following rows with `source`.
  mutating func bind(_ source: EventSource) throws {
    guard source != self.source else { return }
    // A statement binds only between a reset and its next step.
    statement.reset()
    try statement.bind(source.rawValue, at: 6)
    self.source = source
  }

  /// Inserts an event unless it is already stored; returns whether it was added.
  func insert(at timestamp: Timestamp, kindID: Int64, value: Double?, note: String?) throws -> Bool
  {
    guard var note else {
      return try insert(at: timestamp, kindID: kindID, value: value, noteBytes: nil)
    }
    return try note.withUTF8 { bytes in
      try insert(
        at: timestamp, kindID: kindID, value: value, noteBytes: UnsafeRawBufferPointer(bytes))
    }
  }

  /// Inserts an event whose note is given as UTF-8 bytes (`nil` or empty for none), valid for the
  /// duration of the call.
  func insert(
    at timestamp: Timestamp, kindID: Int64, value: Double?, noteBytes: UnsafeRawBufferPointer?
  ) throws -> Bool {
    statement.reset()
    try statement.bind(timestamp.secondsSince1970, at: 1)
    try statement.bind(Int64(timestamp.utcOffsetSeconds), at: 2)
    try statement.bind(kindID, at: 3)
    try statement.bind(value, at: 4)
    if let noteBytes, !noteBytes.isEmpty {
      // Borrowed: the bytes outlive the step below, which copies them into the row.
      try statement.bindBorrowedText(noteBytes, at: 5)
    } else {
      try statement.bind(String?.none, at: 5)
    }
    try statement.step()
    return connection.changes > 0
  }
}

/// Feeds a file's records into the store.
struct ImportSink: RecordSink {
  var inserter: EventInserter
  /// The source of records whose file does not name one.
  let defaultSource: EventSource
  /// Records dated before this local date are counted, not added (`import --from`).
  var firstDate: LocalDate? = nil
  let kindID: (EventKind) throws -> Int64
  let kinds = ByteKeyTable<Int64>()
  var summary = EventStore.ImportSummary()

  mutating func consume(_ record: RawRecord) throws {
    if let firstDate, record.timestamp.localDate < firstDate {
      summary.read += 1
      summary.beforeFirstDate += 1
      return
    }
    let id: Int64
    if let known = kinds.value(for: record.kind) {
      id = known
    } else {
      id = try kindID(try eventKind(record.kind))
      kinds.insert(id, for: record.kind)
    }
    summary.read += 1
    try inserter.bind(record.source ?? defaultSource)
    if try inserter.insert(
      at: record.timestamp, kindID: id, value: record.value, noteBytes: record.note)
    {
      summary.added += 1
    } else {
      summary.alreadyPresent += 1
    }
  }

  mutating func skip(_ error: FormatError) {
    summary.skipped.append(error)
  }
}
