import Foundation

/// The words of reminders, as the original design phrased them, under 100 characters, with times
/// in the user's locale style.
public struct ReminderMessages: Sendable {
  /// The longest body, in characters (the design kept messages under 100).
  public static let maximumLength = 99

  private let style: Date.FormatStyle?

  /// Messages with times formatted for `locale` ("7:05 AM" for en_US, "07:05" for de_DE); without
  /// a locale (the C locale), times are `HH:MM`.
  public init(locale: Locale?) {
    style = locale.map {
      Date.FormatStyle(
        date: .omitted, time: .shortened, locale: $0, timeZone: TimeZone(identifier: "UTC")!)
    }
  }

  /// `time` in the user's style.
  public func format(_ time: TimeOfDay) -> String {
    guard let style else { return time.description }
    return Date(timeIntervalSince1970: Double(time.roundedToMinute.secondsSinceMidnight)).formatted(
      style)
  }

  /// "Time for Wake Up".
  public func title(for kind: EventKind) -> String { "Time for \(kind.name)" }

  /// The body of a routine's reminder: Wake Up, Leaving Home (with the buffer, or else the
  /// commute), Bed Time, or else the routine's own reasoning (its times in the user's style).
  public func body(for routine: Routine, bufferMinutes: Int, commuteMinutes: Int?) -> String {
    let time = format(routine.time)
    let text: String
    switch routine.kind.known {
    case .wakeUp:
      text = "Time to start your day! Waking at \(time) keeps you on schedule."
    case .leavingHome where bufferMinutes > 0:
      text = "Time to leave! Including a \(bufferMinutes) min buffer for a stress-free commute."
    case .leavingHome:
      if let commuteMinutes {
        text =
          "Time to leave! Your commute takes \(commuteMinutes) minutes; leaving at \(time) gets you there on time."
      } else {
        text = "Time to leave! Leaving at your usual \(time) keeps you on schedule."
      }
    case .bedTime:
      text = "Consider winding down. You usually go to bed at \(time)."
    default:
      text = Wording.reasoning(
        kind: routine.kind, dayKind: routine.dayKind, matched: routine.daysMatched,
        observed: routine.daysObserved, earliest: routine.earliest, latest: routine.latest,
        format: format)
    }
    return ReminderMessages.fit(text)
  }

  /// `text` cut to at most ``maximumLength`` characters, with an ellipsis when cut.
  public static func fit(_ text: String) -> String {
    text.count <= maximumLength ? text : String(text.prefix(maximumLength - 1)) + "…"
  }
}
