import Foundation

/// Whether times in texts read "6:46 AM" or "06:46".
public enum ClockStyle: String, Sendable, Hashable {
  /// "6:46 AM", "12:05 PM": where the locale keeps a 12-hour clock (en_US, en_AU, ...).
  case twelveHour
  /// "06:46": everywhere else, and for the C locale.
  case twentyFourHour

  /// The clock of the locale `identifier` (`en_US`, `de_DE`; `C` and `POSIX` are 24-hour).
  /// Only the hour cycle is taken from the locale: the rest of the wording is English, and
  /// formatting by hand keeps the text the same on every platform and in every ICU version
  /// (no narrow no-break space before "AM").
  public init(localeIdentifier identifier: String) {
    guard identifier != "C", identifier != "POSIX", !identifier.isEmpty else {
      self = .twentyFourHour
      return
    }
    switch Locale(identifier: identifier).hourCycle {
    case .oneToTwelve, .zeroToEleven: self = .twelveHour
    default: self = .twentyFourHour
    }
  }

  /// `time`, rounded to the minute, in this style.
  public func format(_ time: TimeOfDay) -> String {
    let rounded = time.roundedToMinute
    switch self {
    case .twentyFourHour:
      return rounded.description
    case .twelveHour:
      let hour = rounded.hour % 12 == 0 ? 12 : rounded.hour % 12
      return "\(hour):\(pad(rounded.minute, 2)) \(rounded.hour < 12 ? "AM" : "PM")"
    }
  }

  /// `time` as it is, with its seconds when there are any (`17:22:10`, `5:22:10 PM`): an
  /// instant something fires at, which rounding would move.
  public func formatExact(_ time: TimeOfDay) -> String {
    let seconds = time.secondsSinceMidnight % 60
    guard seconds != 0 else { return format(time) }
    let minutes = "\(pad(time.minute, 2)):\(pad(seconds, 2))"
    switch self {
    case .twentyFourHour:
      return "\(pad(time.hour, 2)):\(minutes)"
    case .twelveHour:
      let hour = time.hour % 12 == 0 ? 12 : time.hour % 12
      return "\(hour):\(minutes) \(time.hour < 12 ? "AM" : "PM")"
    }
  }

  /// `06:43` for 06:43:30: the minute a clock shows at that moment, for when something happened
  /// (an event recorded at 06:43:30 was not recorded at 06:44).
  public func formatClock(_ time: TimeOfDay) -> String {
    format(TimeOfDay(secondsSinceMidnight: time.secondsSinceMidnight / 60 * 60))
  }
}

/// The words of reminders, as the original design phrased them: titles of at most
/// ``maximumTitleLength`` and bodies of at most ``maximumLength`` characters, with times in the
/// user's clock style.
public struct ReminderMessages: Sendable {
  /// The longest body, in characters (the design kept messages under 100).
  public static let maximumLength = 99
  /// The longest title, in characters: a notification's title is one short line.
  public static let maximumTitleLength = 60

  /// How times are written.
  public let clock: ClockStyle

  /// Messages with times in `clock`'s style ("7:05 AM" or "07:05").
  public init(clock: ClockStyle) {
    self.clock = clock
  }

  /// `time` in the user's style.
  public func format(_ time: TimeOfDay) -> String { clock.format(time) }

  /// "Time for Wake Up".
  public func title(for kind: EventKind) -> String {
    ReminderMessages.fit("Time for \(kind.name)", maximum: ReminderMessages.maximumTitleLength)
  }

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

  /// `text` cut to at most `maximum` characters, with an ellipsis when cut.
  public static func fit(_ text: String, maximum: Int = maximumLength) -> String {
    text.count <= maximum ? text : String(text.prefix(maximum - 1)) + "…"
  }
}
