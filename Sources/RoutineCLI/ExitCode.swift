/// Exit statuses, following sysexits(3). Documented in docs/cli.md.
public enum ExitCode: Int32, Sendable {
  /// Success.
  case ok = 0
  /// Anything else.
  case failure = 1
  /// The command line is wrong (EX_USAGE).
  case usage = 64
  /// Input data is wrong: a malformed line, a damaged store (EX_DATAERR).
  case dataError = 65
  /// An input file does not exist or cannot be read (EX_NOINPUT).
  case noInput = 66
  /// A program or service routine needs is missing: `notify-send`, a D-Bus session
  /// (EX_UNAVAILABLE).
  case unavailable = 69
  /// Reading or writing failed (EX_IOERR).
  case ioError = 74
  /// The store is busy; try again (EX_TEMPFAIL).
  case temporaryFailure = 75
}

extension ExitCode {
  /// Every status routine exits with, in the order docs/cli.md's table lists them.
  public static let documented: [ExitCode] = [
    .ok, .failure, .usage, .dataError, .noInput, .unavailable, .ioError, .temporaryFailure,
  ]

  /// What the status means, as docs/cli.md's table and the manual page say (a test compares them).
  public var meaning: String {
    switch self {
    case .ok: "success"
    case .failure: "anything else"
    case .usage: "usage error: the command line is wrong (a usage line follows the message)"
    case .dataError: "bad data"
    case .noInput: "an input file does not exist or cannot be read"
    case .unavailable: "a service routine needs is unavailable"
    case .ioError: "I/O error"
    case .temporaryFailure:
      "temporary failure: the store stayed busy (another routine process writing) for more than 5 s; try again"
    }
  }
}
