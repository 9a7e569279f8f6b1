/// A line of an input file that does not say what the format requires.
public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file, as the user named it.
  public let file: String
  /// The 1-based line where the offending record starts.
  public let line: Int
  /// What was expected and what was found.
  public let message: String

  /// An error at `line` of `file`.
  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `'log.csv' line 12: expected ..., found '...'`.
  public var description: String { "\(displayName(file)) line \(line): \(message)" }
}

/// `'log.csv'`, or `standard input` for `-`.
public func displayName(_ path: String) -> String {
  path == "-" ? "standard input" : "'\(path)'"
}

/// A file that cannot be read at all.
public enum FileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file does not exist or cannot be opened for reading.
  case cannotOpen(path: String, reason: String)
  /// Reading failed part-way (an I/O error).
  case readFailed(path: String, reason: String)
  /// Writing failed (disk full, no permission).
  case writeFailed(path: String, reason: String)

  /// A textual representation.
  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): "cannot open \(displayName(path)): \(reason)"
    case .readFailed(let path, let reason): "cannot read \(displayName(path)): \(reason)"
    case .writeFailed(let path, let reason): "cannot write \(displayName(path)): \(reason)"
    }
  }
}

/// Quotes raw bytes for an error message: at most 40 characters, control characters escaped.
func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
  let text = String(decoding: bytes.prefix(160), as: UTF8.self)
  var shown = ""
  for character in text.prefix(40) {
    switch character {
    case "\n": shown += "\\n"
    case "\r": shown += "\\r"
    case "\t": shown += "\\t"
    default: shown.append(character)
    }
  }
  if text.count > 40 { shown += "..." }
  return "'\(shown)'"
}
