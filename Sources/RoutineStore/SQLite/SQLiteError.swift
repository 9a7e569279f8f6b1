#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The `errno` of the system call that failed under an I/O error (`sqlite3_system_errno`),
  /// or 0.
  public let systemErrno: Int32

  /// An error with the given parts.
  public init(code: Int32, message: String, sql: String?, systemErrno: Int32 = 0) {
    self.code = code
    self.message = message
    self.sql = sql
    self.systemErrno = systemErrno
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

  /// Whether the disk is full: SQLITE_FULL, or an I/O error whose system call found no space
  /// (`ENOSPC`, `EDQUOT`), as when the WAL's shared-memory file cannot grow.
  public var isDiskFull: Bool {
    primaryCode == 13 || (primaryCode == 10 && [ENOSPC, EDQUOT].contains(systemErrno))
  }

  /// Whether the file is not a database or is damaged.
  public var isCorrupt: Bool { primaryCode == 11 || primaryCode == 26 }  // CORRUPT, NOTADB

  /// A textual representation.
  public var description: String {
    let statement = sql.map { " in `\($0)`" } ?? ""
    return "SQLite error \(code): \(message)\(statement)"
  }
}
