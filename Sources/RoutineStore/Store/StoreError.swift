import RoutineCore

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// SQLite failed on the store at `path`.
  case database(SQLiteError, path: String)
  /// The directory for a new store could not be created.
  case cannotCreateDirectory(path: String, reason: String)
  /// The store file could not be created.
  case cannotCreateFile(path: String, reason: String)
  /// The store was written by a newer version of routine (it has migrations this one lacks).
  case newerVersion(path: String, unknownMigrations: [String])
  /// No store location: no `--store`, `ROUTINE_STORE`, `XDG_DATA_HOME` or `HOME`.
  case noLocation
  /// The store does not exist (and was not to be created).
  case missing(path: String)
  /// The path names a directory, not a file.
  case isDirectory(path: String)
  /// The path names something other than a regular file: `what` it is ("a character device",
  /// "a file of the kernel's proc file system").
  case notAFile(path: String, what: String)
  /// The file is a SQLite database of another application; routine leaves it alone.
  case foreign(path: String, detail: String)
  /// The file is not a SQLite database at all.
  case notADatabase(path: String)
  /// The file is a damaged SQLite database.
  case damaged(path: String, detail: String)
  /// The file system holding the store at `path` has no space left; it is mounted at
  /// `mountPoint`.
  case diskFull(path: String, mountPoint: String)

  /// This error with `path` where it names `other` (a store built under a hidden name, reported
  /// under its own).
  func naming(_ path: String, insteadOf other: String) -> StoreError {
    func swap(_ named: String) -> String { named == other ? path : named }
    switch self {
    case .database(let error, let named): return .database(error, path: swap(named))
    case .cannotCreateFile(let named, let reason):
      return .cannotCreateFile(path: swap(named), reason: reason)
    case .newerVersion(let named, let migrations):
      return .newerVersion(path: swap(named), unknownMigrations: migrations)
    case .missing(let named): return .missing(path: swap(named))
    case .isDirectory(let named): return .isDirectory(path: swap(named))
    case .notAFile(let named, let what): return .notAFile(path: swap(named), what: what)
    case .foreign(let named, let detail): return .foreign(path: swap(named), detail: detail)
    case .notADatabase(let named): return .notADatabase(path: swap(named))
    case .damaged(let named, let detail): return .damaged(path: swap(named), detail: detail)
    case .diskFull(let named, let mountPoint):
      return .diskFull(path: swap(named), mountPoint: mountPoint)
    case .cannotCreateDirectory, .noLocation: return self
    }
  }

  /// Whether another process held the store for longer than the busy timeout.
  public var isBusy: Bool {
    if case .database(let error, _) = self { return error.isBusy }
    return false
  }

  /// Why a full disk stops a write, and what to do: the end of ``diskFull(path:mountPoint:)``'s
  /// sentence.
  public static func diskFullReason(_ mountPoint: String) -> String {
    "the disk is full (no space left on the file system mounted at '\(mountPoint)'); free some "
      + "space there and try again"
  }

  /// A textual representation: a sentence saying what failed and where.
  public var description: String {
    switch self {
    case .database(let error, let path):
      if error.isBusy {
        return "the store '\(path)' is busy: another routine process held it for more than "
          + "\(Connection.defaultBusyTimeoutMilliseconds / 1000) s; try again"
      }
      if error.isCorrupt {
        return StoreError.damaged(path: path, detail: error.message).description
      }
      if error.primaryCode == 13 {
        return "cannot write the store '\(path)': the disk is full (\(error.message))"
      }
      if error.primaryCode == 14 {
        return "cannot open the store '\(path)' (\(error.message)); check that you may read and "
          + "write it and its directory"
      }
      if error.primaryCode == 8 {
        return "cannot write the store '\(path)': it is read-only (\(error.message)); check "
          + "that you may write '\(path)', '\(path)-wal', '\(path)-shm' and their directory"
      }
      return "store '\(path)': \(error)"
    case .cannotCreateDirectory(let path, let reason):
      return "cannot create the directory '\(path)' for the store: \(reason)"
    case .cannotCreateFile(let path, let reason):
      return "cannot create the store '\(path)': \(reason)"
    case .newerVersion(let path, let unknown):
      return "the store '\(path)' was written by a newer version of routine "
        + "(migrations \(unknown.joined(separator: ", "))); upgrade routine to use it"
    case .noLocation:
      return "no store location: pass --store PATH or set ROUTINE_STORE, XDG_DATA_HOME or HOME"
    case .missing(let path):
      return "there is no store at '\(path)' yet; 'routine log' or 'routine import' creates it"
    case .isDirectory(let path):
      return "the store '\(path)' names a directory; give the path of a file, such as "
        + "'\(path.hasSuffix("/") ? path : path + "/")routine.db'"
    case .notAFile(let path, let what):
      return "the store '\(path)' is not a regular file (it is \(what)); give the path of a file, "
        + "such as '~/.local/share/routine/routine.db'"
    case .foreign(let path, let detail):
      return "'\(path)' is not a routine store but another application's SQLite database "
        + "(\(detail)); routine leaves it unchanged: give another --store path"
    case .notADatabase(let path):
      return "'\(path)' is not a routine store (it is not a SQLite database); routine leaves it "
        + "unchanged: give another --store path"
    case .damaged(let path, let detail):
      return "the store '\(path)' is damaged (\(detail)); restore it from a backup, or move it "
        + "away to start a new store"
    case .diskFull(let path, let mountPoint):
      return "cannot write the store '\(path)': \(StoreError.diskFullReason(mountPoint))"
    }
  }
}
