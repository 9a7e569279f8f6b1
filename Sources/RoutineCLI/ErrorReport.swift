import RoutineCore
import RoutineStore

/// Turns any error into the sentence printed after `error: ` and the exit status.
enum ErrorReport {
  static func describe(_ error: any Error) -> (ExitCode, String) {
    switch error {
    case let error as UsageError:
      return (.usage, error.message)
    case let error as FormatError:
      return (.dataError, error.description)
    case let error as FileError:
      switch error {
      case .cannotOpen: return (.noInput, error.description)
      case .readFailed, .writeFailed: return (.ioError, error.description)
      }
    case let error as StoreError:
      switch error {
      case .database(let sqlite, _):
        if sqlite.isBusy { return (.temporaryFailure, error.description) }
        if sqlite.isCorrupt { return (.dataError, error.description) }
        if sqlite.isIOError { return (.ioError, error.description) }
        return (.failure, error.description)
      case .cannotCreateDirectory: return (.ioError, error.description)
      case .newerVersion: return (.dataError, error.description)
      case .noLocation: return (.usage, error.description)
      }
    default:
      return (.failure, "\(error)")
    }
  }
}
