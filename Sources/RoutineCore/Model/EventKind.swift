/// What happened: "Wake Up", "Leaving Home", "Coffee". Free text chosen by the user.
///
/// Two spellings name the same kind when they are equal after trimming, collapsing runs of
/// white space to one space and lowercasing: "wake up", "Wake Up" and " WAKE  UP " are one kind.
/// The kind keeps the spelling it was first seen with as its display ``name``.
public struct EventKind: Hashable, Sendable, CustomStringConvertible {
  /// The spelling shown to the user.
  public let name: String
  /// The normalized spelling that decides identity.
  public let key: String

  /// A kind displayed as `name` (trimmed, white space collapsed), or `nil` when `name` is blank.
  public init?(_ name: String) {
    let words = name.split(whereSeparator: \.isWhitespace)
    guard !words.isEmpty else { return nil }
    let display = words.joined(separator: " ")
    self.name = display
    self.key = display.lowercased()
  }

  /// A kind with an already normalized display name and key, as stored.
  public init(name: String, key: String) {
    self.name = name
    self.key = key
  }

  /// The display name without white space, as in notification identifiers (`routine_WakeUp`).
  public var compactName: String {
    name.filter { !$0.isWhitespace }
  }

  /// The display name.
  public var description: String { name }

  /// Whether the two are the same.
  public static func == (lhs: EventKind, rhs: EventKind) -> Bool { lhs.key == rhs.key }
  /// Feeds the identity into `hasher`.
  public func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

extension EventKind {
  /// Kinds the original designs know by name; they get their own wording.
  public enum Known: String, Sendable, CaseIterable {
    case wakeUp = "wake up"
    case bedTime = "bed time"
    case leavingHome = "leaving home"
    case arrivingAtWork = "arriving at work"
    case leavingWork = "leaving work"
    case arrivingHome = "arriving home"
    case workout = "workout"
    case meditation = "meditation"
  }

  /// The known kind this is, if any.
  public var known: Known? { Known(rawValue: key) }
}
