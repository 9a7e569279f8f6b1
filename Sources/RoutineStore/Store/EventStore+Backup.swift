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
    let extensions = ["", "-journal", "-wal", "-shm"]
    // What a backup killed before it finished left here (a full copy of the store, readable by
    // its owner only), now that its process is gone.
    FileSystem.removeStaleTemporaries(of: path, tag: "backup", extensions: extensions)
    let temporary = FileSystem.hiddenSibling(of: path, suffix: "backup-\(getpid())")
    let leftovers = extensions.map { temporary + $0 }
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
    // Created 0600 before SQLite opens it, whatever the umask: SQLite would create it 0644 (its
    // default, under the umask), readable by others from the first page it writes; its journal
    // and write-ahead log take the mode of the file itself.
    do throws(FileSystemFailure) {
      guard try FileSystem.createFile(temporary, mode: 0o600) else {
        throw FileSystemFailure(
          path: temporary, reason: "another process created its temporary copy meanwhile")
      }
    } catch {
      throw FileError.writeFailed(path: path, reason: Self.backupFailure(error.reason, at: path))
    }
    let copy: Connection
    do {
      copy = try Connection(path: temporary, creating: false, wal: false)
    } catch {
      throw FileError.writeFailed(path: path, reason: Self.backupFailure(error, at: path))
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
        let failure = SQLiteError(
          code: sqlite3_extended_errcode(copy.handle),
          message: String(cString: sqlite3_errstr(status)), sql: "backup",
          systemErrno: sqlite3_system_errno(copy.handle))
        // The copy's side failed (its disk is full, its directory went away): that is about
        // the target, not the store, which was only read.
        guard failure.isIOError else { throw failure }
        throw FileError.writeFailed(path: path, reason: Self.backupFailure(failure, at: path))
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
    // 0600 from its creation; set again in case the file system ignored the mode it was
    // created with.
    guard fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0 else {
      throw FileError.writeFailed(
        path: path, reason: Self.backupFailure(FileSystem.errorText(), at: path))
    }
    let placed = replacing ? rename(temporary, path) : link(temporary, path)
    guard placed == 0 else {
      let reason =
        errno == EEXIST
        ? "it exists already (give --force to replace it)" : FileSystem.errorText()
      throw FileError.writeFailed(path: path, reason: reason)
    }
  }

  /// Why writing the backup to `path` failed, in words about `path`: its directory is missing,
  /// its disk is full (naming where that disk is mounted), or the system's reason.
  static func backupFailure(_ reason: String, at path: String) -> String {
    let directory = FileSystem.parent(of: path)
    if FileSystem.kind(of: directory.isEmpty ? "." : directory) != .directory {
      return "its directory '\(directory)' does not exist"
    }
    return reason
  }

  /// ``backupFailure(_:at:)`` for a failure SQLite reported.
  static func backupFailure(_ error: SQLiteError, at path: String) -> String {
    if error.isDiskFull {
      let directory = FileSystem.parent(of: path)
      return StoreError.diskFullReason(
        FileSystem.mountPoint(of: directory.isEmpty ? "." : directory))
    }
    let reason =
      error.systemErrno != 0 ? FileSystem.errorText(error.systemErrno) : error.message
    return backupFailure(reason, at: path)
  }
}
