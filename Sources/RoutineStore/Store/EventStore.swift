import Foundation
import RoutineCore

/// The SQLite store of events (and, later, of notification requests and settings).
///
/// Each process opens its own store; SQLite's WAL mode lets readers run beside one writer, and
/// writers queue on the busy timeout. Every write is one `BEGIN IMMEDIATE` transaction.
public final class EventStore {
  /// The connection (exposed for modules that add tables through migrations of their own).
  public let connection: Connection
  /// The file.
  public let path: String
  private var kindIDs: [String: Int64] = [:]

  /// Opens the store at `path`, creating the file and its directory on first use and applying
  /// any migrations it lacks.
  public init(path: String) throws(StoreError) {
    self.path = path
    let directory = (path as NSString).deletingLastPathComponent
    if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      } catch {
        throw .cannotCreateDirectory(path: directory, reason: error.localizedDescription)
      }
    }
    do {
      connection = try Connection(path: path)
    } catch {
      throw .database(error, path: path)
    }
    try migrate()
  }

  /// Runs `body`, reporting SQLite failures as store errors of this store.
  func withDatabase<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw StoreError.database(error, path: path)
    }
  }

  private func migrate() throws(StoreError) {
    do {
      try connection.execute(
        "CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)"
      )
      var applied = try appliedMigrations()
      let known = Set(Migration.all.map(\.name))
      let unknown = applied.subtracting(known)
      guard unknown.isEmpty else {
        throw StoreError.newerVersion(path: path, unknownMigrations: unknown.sorted())
      }
      for migration in Migration.all where !applied.contains(migration.name) {
        try connection.transaction {
          // Another process may have applied it while we waited for the lock.
          applied = try appliedMigrations()
          guard !applied.contains(migration.name) else { return }
          try connection.execute(migration.sql)
          let record = try connection.prepare(
            "INSERT INTO migrations (name, applied_at) VALUES (?, strftime('%s', 'now'))")
          try record.bind(migration.name, at: 1)
          try record.step()
        }
      }
    } catch let error as StoreError {
      throw error
    } catch let error as SQLiteError {
      throw .database(error, path: path)
    } catch {
      throw .database(SQLiteError(code: 1, message: "\(error)", sql: nil), path: path)
    }
  }

  private func appliedMigrations() throws -> Set<String> {
    let statement = try connection.prepare("SELECT name FROM migrations")
    var names = Set<String>()
    while try statement.step() { names.insert(statement.text(at: 0) ?? "") }
    return names
  }

  /// The names of the applied migrations, in order.
  public func migrations() throws -> [String] {
    try withDatabase {
      let statement = try connection.prepare("SELECT name FROM migrations ORDER BY name")
      var names: [String] = []
      while try statement.step() { names.append(statement.text(at: 0) ?? "") }
      return names
    }
  }

  // MARK: Writing

  /// Adds `event` unless the store already holds it (same instant, kind, value and note), in its
  /// own transaction. Returns whether it was added.
  @discardableResult
  public func insert(_ event: Event) throws -> Bool {
    try write {
      let inserter = try EventInserter(connection: connection, source: event.source)
      return try inserter.insert(
        at: event.timestamp, kindID: try kindID(for: event.kind), value: event.value,
        note: event.note)
    }
  }

  /// Runs `body` in one write transaction. Kinds added by a transaction that rolls back are
  /// gone from the database, so they are forgotten here too.
  func write<T>(_ body: () throws -> T) throws -> T {
    try withDatabase {
      do {
        return try connection.transaction(body)
      } catch {
        kindIDs = [:]
        throw error
      }
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
  }

  /// Imports every record of the file `reader` reads, in one transaction: all or nothing. With
  /// `reader.skipsInvalid`, invalid records are skipped and listed; otherwise the first one
  /// throws and nothing is added. Importing the same file again adds nothing.
  public func importEvents(from reader: EventFileReader, source: EventSource = .import) throws
    -> ImportSummary
  {
    try write {
      var sink = ImportSink(
        inserter: try EventInserter(connection: connection, source: source),
        kindID: { try self.kindID(for: $0) })
      try reader.read(into: &sink)
      return sink.summary
    }
  }

  /// The id of `kind`, adding it when new (inside the caller's transaction).
  func kindID(for kind: EventKind) throws -> Int64 {
    if let id = kindIDs[kind.key] { return id }
    let select = try connection.prepare("SELECT id FROM kinds WHERE key = ?")
    try select.bind(kind.key, at: 1)
    if try select.step() {
      let id = select.int(at: 0)
      kindIDs[kind.key] = id
      return id
    }
    let insert = try connection.prepare("INSERT INTO kinds (key, name) VALUES (?, ?)")
    try insert.bind(kind.key, at: 1)
    try insert.bind(kind.name, at: 2)
    try insert.step()
    let id = connection.lastInsertRowID
    kindIDs[kind.key] = id
    return id
  }

  // MARK: Reading

  /// Every kind in the store, by id.
  public func kinds() throws -> [Int64: EventKind] {
    try withDatabase {
      let statement = try connection.prepare("SELECT id, key, name FROM kinds")
      var result: [Int64: EventKind] = [:]
      while try statement.step() {
        result[statement.int(at: 0)] = EventKind(
          name: statement.text(at: 2) ?? "", key: statement.text(at: 1) ?? "")
      }
      return result
    }
  }

  /// Calls `body` with the events at instants in `from..<to` (either bound optional), of `kind`
  /// when given, in time order.
  public func forEachEvent(
    from: Int64? = nil, to: Int64? = nil, kind: EventKind? = nil, _ body: (Event) throws -> Void
  ) throws {
    let kinds = try kinds()
    try withDatabase {
      var sql = "SELECT e.at, e.utc_offset, e.kind_id, e.value, e.note, e.source FROM events e"
      var conditions = ["e.at >= ?1", "e.at < ?2"]
      if kind != nil { conditions.append("e.kind_id = (SELECT id FROM kinds WHERE key = ?3)") }
      sql += " WHERE " + conditions.joined(separator: " AND ") + " ORDER BY e.at, e.id"
      let statement = try connection.prepare(sql)
      try statement.bind(from ?? Int64.min, at: 1)
      try statement.bind(to ?? Int64.max, at: 2)
      if let kind { try statement.bind(kind.key, at: 3) }
      while try statement.step() {
        guard let eventKind = kinds[statement.int(at: 2)] else { continue }
        let event = Event(
          kind: eventKind,
          timestamp: Timestamp(
            secondsSince1970: statement.int(at: 0), utcOffsetSeconds: Int32(statement.int(at: 1))),
          value: statement.isNull(at: 3) ? nil : statement.double(at: 3),
          note: statement.text(at: 4),
          source: EventSource(rawValue: statement.text(at: 5) ?? "") ?? .import)
        try body(event)
      }
    }
  }

  /// The events whose local dates may fall on `days` (a day either side included), for
  /// analytics. Kinds appear in the order of their ids.
  public func eventLog(days: ClosedRange<LocalDate>) throws -> EventLog {
    let kinds = try kinds()
    return try withDatabase {
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
        let timestamp = Timestamp(
          secondsSince1970: statement.int(at: 0), utcOffsetSeconds: Int32(statement.int(at: 1)))
        log.append(Occurrence(timestamp), toKindAt: kindIndex)
      }
      log.sort()
      return log
    }
  }

  /// The number of events.
  public func count() throws -> Int {
    try withDatabase { Int(try connection.scalarInt("SELECT count(*) FROM events") ?? 0) }
  }
}

/// The prepared insert shared by single events and imports, for one source. Bindings survive
/// a reset, so the source is bound once and each row binds only what changes.
struct EventInserter {
  private let statement: Statement
  private let connection: Connection

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
private struct ImportSink: RecordSink {
  let inserter: EventInserter
  let kindID: (EventKind) throws -> Int64
  let kinds = ByteKeyTable<Int64>()
  var summary = EventStore.ImportSummary()

  mutating func consume(_ record: RawRecord) throws {
    let id: Int64
    if let known = kinds.value(for: record.kind) {
      id = known
    } else {
      id = try kindID(try eventKind(record.kind))
      kinds.insert(id, for: record.kind)
    }
    summary.read += 1
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
