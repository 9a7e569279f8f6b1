import RoutineCore

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, CustomStringConvertible {
  /// SQLite failed on the store at `path`.
  case database(SQLiteError, path: String)
  /// The directory for a new store could not be created.
  case cannotCreateDirectory(path: String, reason: String)
  /// The store was written by a newer version of routine (it has migrations this one lacks).
  case newerVersion(path: String, unknownMigrations: [String])
  /// No store location: no `--store`, `ROUTINE_STORE`, `XDG_DATA_HOME` or `HOME`.
  case noLocation

  /// A textual representation.
  public var description: String {
    switch self {
    case .database(let error, let path):
      if error.isBusy {
        return "the store '\(path)' is busy: another routine process held it for more than "
          + "\(Connection.defaultBusyTimeoutMilliseconds / 1000) s; try again"
      }
      if error.isCorrupt {
        return "'\(path)' is not a routine store or is damaged (\(error.message))"
      }
      return "store '\(path)': \(error)"
    case .cannotCreateDirectory(let path, let reason):
      return "cannot create the directory '\(path)' for the store: \(reason)"
    case .newerVersion(let path, let unknown):
      return "the store '\(path)' was written by a newer version of routine "
        + "(migrations \(unknown.joined(separator: ", "))); upgrade routine to use it"
    case .noLocation:
      return "no store location: pass --store PATH or set ROUTINE_STORE, XDG_DATA_HOME or HOME"
    }
  }
}
