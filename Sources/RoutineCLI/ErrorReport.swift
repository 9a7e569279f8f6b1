import RoutineCore
import RoutineStore

/// Turns any error into the sentence printed after `error: ` and the exit status (the table in
/// docs/cli.md).
enum ErrorReport {
  static func describe(_ error: any Error) -> (ExitCode, String) {
    switch error {
    case let error as UsageError:
      return (error.exitCode, error.message)
    case let error as CommandError:
      return (error.code, error.message)
    case let error as SinkError:
      return (error.code, error.description)
    case let error as DefinitionError:
      return (.dataError, error.description)
    case let error as FormatError:
      return (.dataError, error.description)
    case let error as ArchiveError:
      return (.dataError, error.description)
    case let error as FileError:
      switch error {
      case .cannotOpen: return (.noInput, error.description)
      case .readFailed, .writeFailed: return (.ioError, error.description)
      }
    case let error as StoreError:
      return (code(for: error), error.description)
    default:
      return (.failure, "\(error)")
    }
  }

  private static func code(for error: StoreError) -> ExitCode {
    switch error {
    case .database(let sqlite, _):
      if sqlite.isBusy { return .temporaryFailure }
      if sqlite.isCorrupt { return .dataError }
      if sqlite.isIOError { return .ioError }
      return .failure
    case .cannotCreateDirectory, .cannotCreateFile, .isDirectory, .notAFile, .diskFull:
      return .ioError
    case .newerVersion, .foreign, .notADatabase, .damaged: return .dataError
    case .noLocation: return .usage
    case .missing: return .noInput
    }
  }
}

/// A failure a command reports with its own exit status and sentence.
struct CommandError: Error, CustomStringConvertible {
  /// The exit status.
  var code: ExitCode
  /// The sentence.
  var message: String
  /// What was probably meant, when the error is a typo (an action near an offered one).
  var suggestion: String?

  init(_ code: ExitCode, _ message: String, suggestion: String? = nil) {
    self.code = code
    self.message = message
    self.suggestion = suggestion
  }

  var description: String { message }
}
