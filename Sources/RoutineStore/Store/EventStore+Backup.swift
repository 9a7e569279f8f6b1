import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension EventStore {
  /// Copies the whole store (events, reminders, settings, history) to `path` with SQLite's online
  /// backup API, consistent as of one instant while other processes go on writing.
  ///
  /// The copy is made in one step from one read transaction: in WAL mode a reader blocks no
  /// writer, while a backup made page by page would start over after every write another process
  /// commits, and might never finish beside a busy writer. It is written to a hidden file beside
  /// `path`, checked with `PRAGMA integrity_check`, flushed to disk, given mode 0600 and only then
  /// linked into place, so a failed backup leaves nothing behind. An existing `path` is replaced
  /// only when `replacing`; otherwise it is refused (``FileError/writeFailed(path:reason:)``), and
  /// the check and the link are one step, so two backups at once cannot overwrite each other.
  public func backup(to path: String, replacing: Bool = false) throws {
    let temporary = FileSystem.hiddenSibling(of: path, suffix: "backup-\(getpid())")
    let leftovers = ["", "-journal", "-wal", "-shm"].map { temporary + $0 }
    for file in leftovers { unlink(file) }
    defer { for file in leftovers { unlink(file) } }
    if !replacing, FileSystem.exists(path) {
      throw FileError.writeFailed(
        path: path, reason: "it exists already (give --force to replace it)")
    }
    try copy(to: temporary, for: path)
    try finishBackup(temporary, at: path, replacing: replacing)
  }

  /// The backup itself, into a new database at `temporary`, closed when this returns.
  private func copy(to temporary: String, for path: String) throws {
    let copy: Connection
    do {
      copy = try Connection(path: temporary, creating: true, wal: false)
    } catch {
      throw FileError.writeFailed(path: path, reason: error.message)
    }
    try withDatabase {
      guard let backup = sqlite3_backup_init(copy.handle, "main", connection.handle, "main") else {
        throw SQLiteError(
          code: sqlite3_extended_errcode(copy.handle),
          message: String(cString: sqlite3_errmsg(copy.handle)), sql: "backup")
      }
      var status: Int32
      repeat {
        status = sqlite3_backup_step(backup, -1)
        // Another connection holds a lock the copy needs (a checkpoint): wait and go on.
        if status == SQLITE_BUSY || status == SQLITE_LOCKED { usleep(20_000) }
      } while status == SQLITE_OK || status == SQLITE_BUSY || status == SQLITE_LOCKED
      sqlite3_backup_finish(backup)
      guard status == SQLITE_DONE else {
        throw SQLiteError(
          code: status, message: String(cString: sqlite3_errstr(status)), sql: "backup")
      }
    }
    let check = try copy.prepare("PRAGMA integrity_check")
    var problems: [String] = []
    while try check.step() {
      if let line = check.text(at: 0), line != "ok" { problems.append(line) }
    }
    guard problems.isEmpty else {
      throw StoreError.damaged(path: path, detail: problems.prefix(3).joined(separator: "; "))
    }
  }

  /// Flushes the copy to disk with mode 0600 and puts it in place: renamed over an old file when
  /// `replacing`, else linked (which fails if a file appeared there meanwhile).
  private func finishBackup(_ temporary: String, at path: String, replacing: Bool) throws {
    let descriptor = open(temporary, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw FileError.writeFailed(path: path, reason: FileSystem.errorText())
    }
    defer { close(descriptor) }
    guard fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0 else {
      throw FileError.writeFailed(path: path, reason: FileSystem.errorText())
    }
    let placed = replacing ? rename(temporary, path) : link(temporary, path)
    guard placed == 0 else {
      let reason =
        errno == EEXIST
        ? "it exists already (give --force to replace it)" : FileSystem.errorText()
      throw FileError.writeFailed(path: path, reason: reason)
    }
  }
}
