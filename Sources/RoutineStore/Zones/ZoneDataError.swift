/// Zone data that cannot be used: a TZif file that is not one, is cut short or contradicts
/// itself, or cannot be read.
public struct ZoneDataError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public enum Problem: Sendable, Equatable {
    /// The bytes do not start with `TZif`.
    case notTZif
    /// The file ends before the data its header announces (`needed` bytes, `found` there).
    case truncated(needed: Int, found: Int)
    /// The data contradicts itself or the format (the reason, a phrase).
    case invalid(String)
    /// The file cannot be read (the system's reason).
    case unreadable(String)
  }

  /// What is wrong.
  public var problem: Problem
  /// The file, when known.
  public var path: String?

  /// An error about the file at `path`.
  public init(_ problem: Problem, path: String? = nil) {
    self.problem = problem
    self.path = path
  }

  /// `'/usr/share/zoneinfo/Europe/Berlin' is not a valid TZif file: ...`.
  public var description: String {
    let subject = path.map { "'\($0)'" } ?? "the zone data"
    switch problem {
    case .notTZif:
      return "\(subject) is not a TZif file (it does not start with 'TZif')"
    case .truncated(let needed, let found):
      return
        "\(subject) is not a valid TZif file: it is cut short (its header announces \(needed) bytes, it has \(found))"
    case .invalid(let reason):
      return "\(subject) is not a valid TZif file: \(reason)"
    case .unreadable(let reason):
      return "cannot read \(subject): \(reason)"
    }
  }
}
