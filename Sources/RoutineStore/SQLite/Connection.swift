import CSQLite
import Foundation

/// One connection to a SQLite database, set up the same way every time: extended result codes, a
/// busy timeout and foreign keys on. ``useWAL()`` switches to WAL journaling with
/// `synchronous = NORMAL` (verified); it is a separate step so that a file can be inspected
/// before anything about it is changed.
///
/// Not thread-safe: a connection belongs to one thread at a time, and each process opens its own.
public final class Connection {
  /// How long a writer waits for another process's lock before giving up with `SQLITE_BUSY`.
  public static let defaultBusyTimeoutMilliseconds: Int32 = 5000

  let handle: OpaquePointer
  /// The file the connection opened.
  public let path: String
  /// How many transactions are open, the outermost first: nested ones are savepoints.
  private var depth = 0

  /// Opens the database at `path`, creating it when missing if `creating`. With `wal` (the
  /// default), switches it to WAL journaling at once.
  public init(
    path: String, creating: Bool = true, wal: Bool = true,
    busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds
  ) throws(SQLiteError) {
    _ = Connection.configureOnce
    var pointer: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (creating ? SQLITE_OPEN_CREATE : 0)
    let status = sqlite3_open_v2(path, &pointer, flags, nil)
    guard status == SQLITE_OK, let pointer else {
      let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      let code = pointer.map { sqlite3_extended_errcode($0) } ?? status
      let systemErrno = pointer.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(pointer)
      throw SQLiteError(code: code, message: message, sql: nil, systemErrno: systemErrno)
    }
    handle = pointer
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    try execute("PRAGMA foreign_keys = ON")
    if wal { try useWAL() }
  }

  /// How a connection that only reads shares the database with others.
  public enum ReadingAccess: Sendable {
    /// As any connection (`mode=ro`): the WAL's shared-memory file is created or written where
    /// it must be.
    case shared
    /// The WAL's shared-memory file is opened read-only (`readonly_shm=1`): where it exists but
    /// cannot be written or grown (a read-only directory, a full disk), the connection reads the
    /// log into private memory instead, and still sees every committed transaction.
    case privateIndex
    /// The file is taken as unchanging (`immutable=1`): no locks, no shared memory, and the
    /// write-ahead log is not read at all, so its transactions are not seen.
    case immutable
  }

  /// Opens the existing database at `path` for reading only, through a `file:` URI with
  /// `mode=ro` and what `access` adds: for a store in a place this process may not write (a
  /// read-only directory where SQLite cannot create the WAL's shared-memory file) or on a full
  /// disk (where it cannot grow).
  public init(readingOnly path: String, access: ReadingAccess) throws(SQLiteError) {
    _ = Connection.configureOnce
    var escaped = ""
    for scalar in path.unicodeScalars {
      switch scalar {
      case "%", "?", "#": escaped += String(format: "%%%02X", scalar.value)
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    let parameters: String
    switch access {
    case .shared: parameters = "mode=ro"
    case .privateIndex: parameters = "mode=ro&readonly_shm=1"
    case .immutable: parameters = "mode=ro&immutable=1"
    }
    let uri = "file:\(escaped)?\(parameters)"
    var pointer: OpaquePointer?
    let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
    let status = sqlite3_open_v2(uri, &pointer, flags, nil)
    guard status == SQLITE_OK, let pointer else {
      let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      let code = pointer.map { sqlite3_extended_errcode($0) } ?? status
      let systemErrno = pointer.map { sqlite3_system_errno($0) } ?? 0
      sqlite3_close_v2(pointer)
      throw SQLiteError(code: code, message: message, sql: nil, systemErrno: systemErrno)
    }
    handle = pointer
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, Connection.defaultBusyTimeoutMilliseconds)
  }

  /// Switches the database to WAL journaling with `synchronous = NORMAL`, and checks that the
  /// mode really is WAL (a file system without shared memory can refuse it).
  public func useWAL() throws(SQLiteError) {
    let mode = try scalarText("PRAGMA journal_mode = WAL")
    guard mode?.lowercased() == "wal" || path == ":memory:" else {
      throw SQLiteError(
        code: SQLITE_ERROR, message: "journal mode is '\(mode ?? "unknown")', expected 'wal'",
        sql: "PRAGMA journal_mode = WAL")
    }
    try execute("PRAGMA synchronous = NORMAL")
  }

  /// Process-wide settings, applied before SQLite initializes (a lazy global runs once).
  private static let configureOnce: Void = {
    _ = csqlite_disable_memory_statistics()
  }()

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more statements without results.
  public func execute(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let status = sqlite3_exec(handle, sql, nil, nil, &message)
    if status != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(
        code: sqlite3_extended_errcode(handle), message: text, sql: sql,
        systemErrno: sqlite3_system_errno(handle))
    }
  }

  /// Prepares a statement; `persistent` tells SQLite it will be reused many times.
  public func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteError) -> Statement {
    try Statement(connection: self, sql: sql, persistent: persistent)
  }

  /// The first column of the first row as text, if any.
  public func scalarText(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try prepare(sql)
    return try statement.step() ? statement.text(at: 0) : nil
  }

  /// The first column of the first row as an integer, if any.
  public func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
    let statement = try prepare(sql)
    return try statement.step() && !statement.isNull(at: 0) ? statement.int(at: 0) : nil
  }

  /// Runs `body` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so two
  /// writers queue on the busy timeout instead of failing halfway. Any error thrown rolls back.
  /// Inside another transaction, `body` runs in a savepoint: its error rolls back its own work,
  /// and the outer transaction decides about the rest.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try nested(begin: "BEGIN IMMEDIATE", body)
  }

  /// Runs `body` in a read transaction: every read in it sees the same snapshot of the database,
  /// whatever other processes commit meanwhile. Inside another transaction, it simply runs.
  public func readTransaction<T>(_ body: () throws -> T) throws -> T {
    guard depth == 0 else { return try body() }
    return try nested(begin: "BEGIN DEFERRED", body)
  }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { depth > 0 }

  private func nested<T>(begin: String, _ body: () throws -> T) throws -> T {
    let savepoint = depth > 0 ? "nested\(depth)" : nil
    try execute(savepoint.map { "SAVEPOINT \($0)" } ?? begin)
    depth += 1
    func rollBack() {
      if let savepoint {
        try? execute("ROLLBACK TO \(savepoint); RELEASE \(savepoint)")
      } else {
        try? execute("ROLLBACK")
      }
    }
    let result: T
    do {
      result = try body()
    } catch {
      depth -= 1
      rollBack()
      throw error
    }
    depth -= 1
    do {
      // A COMMIT can fail too (a full disk): then nothing of the transaction is kept.
      try execute(savepoint.map { "RELEASE \($0)" } ?? "COMMIT")
    } catch {
      rollBack()
      throw error
    }
    return result
  }

  /// Rows changed by the last statement.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the last insert.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  func error(sql: String?) -> SQLiteError {
    SQLiteError(
      code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
      sql: sql, systemErrno: sqlite3_system_errno(handle))
  }
}
