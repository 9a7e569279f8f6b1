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

  /// The display name reduced to letters and digits, as in notification identifiers
  /// (`routine_WakeUp`): white space, punctuation, symbols and control characters are dropped,
  /// so an identifier is safe to type, to pass in an environment variable and to print. May be
  /// empty (a name of emoji); the planner then uses a hash of the key.
  public var compactName: String {
    var result = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber,
        .otherNumber:
        result.append(scalar)
      default:
        continue
      }
    }
    return String(result)
  }

  /// Whether the kind records an arrival ("Arriving Home", "Arriving at Work"). An arrival
  /// follows from leaving on time; a reminder to arrive could not be acted on, so the planner
  /// makes none (the departure has one).
  public var isArrival: Bool {
    key.hasPrefix("arriving ") || key.hasPrefix("arrive ") || key == "arrival"
      || key.hasPrefix("arrival ") || key.hasPrefix("arrived ")
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
