import CSQLite
import Foundation

/// One connection to a SQLite database, set up the same way every time: extended result codes, a
/// busy timeout, foreign keys on, and WAL journaling with `synchronous = NORMAL` (verified).
///
/// Not thread-safe: a connection belongs to one thread at a time, and each process opens its own.
public final class Connection {
  /// How long a writer waits for another process's lock before giving up with `SQLITE_BUSY`.
  public static let defaultBusyTimeoutMilliseconds: Int32 = 5000

  let handle: OpaquePointer
  /// The file the connection opened.
  public let path: String

  /// Opens (and creates, when missing) the database at `path`.
  public init(
    path: String, busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds
  )
    throws(SQLiteError)
  {
    var pointer: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &pointer, flags, nil)
    guard status == SQLITE_OK, let pointer else {
      let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      let code = pointer.map { sqlite3_extended_errcode($0) } ?? status
      sqlite3_close_v2(pointer)
      throw SQLiteError(code: code, message: message, sql: nil)
    }
    handle = pointer
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    try execute("PRAGMA foreign_keys = ON")
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
      throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
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
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Rows changed by the last statement.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// The rowid of the last insert.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  func error(sql: String?) -> SQLiteError {
    SQLiteError(
      code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
      sql: sql)
  }
}
