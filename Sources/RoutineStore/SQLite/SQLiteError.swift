/// A failure reported by SQLite: the extended result code, SQLite's message and the statement.
///
/// Bound values are never part of the error: they may be personal data.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_BUSY_SNAPSHOT` and so on).
  public let code: Int32
  /// SQLite's message.
  public let message: String
  /// The SQL that failed, if any.
  public let sql: String?

  /// An error with the given parts.
  public init(code: Int32, message: String, sql: String?) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code (the low byte of the extended one).
  public var primaryCode: Int32 { code & 0xFF }

  /// Whether another process held the lock for longer than the busy timeout.
  public var isBusy: Bool { primaryCode == 5 || primaryCode == 6 }  // SQLITE_BUSY, SQLITE_LOCKED

  /// Whether the failure is in the file system (disk full, read-only, cannot open, I/O):
  /// SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY.
  public var isIOError: Bool { [10, 13, 14, 8].contains(primaryCode) }

  /// Whether the failure is a matter of permissions: SQLITE_PERM, SQLITE_READONLY (which
  /// includes a WAL that cannot be set up in a read-only directory), SQLITE_CANTOPEN.
  public var isPermissionDenied: Bool { [3, 8, 14].contains(primaryCode) }

  /// Whether the file is not a database or is damaged.
  public var isCorrupt: Bool { primaryCode == 11 || primaryCode == 26 }  // CORRUPT, NOTADB

  /// A textual representation.
  public var description: String {
    let statement = sql.map { " in `\($0)`" } ?? ""
    return "SQLite error \(code): \(message)\(statement)"
  }
}
