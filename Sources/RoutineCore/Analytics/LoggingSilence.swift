import Foundation

/// How long nothing at all has been logged, and what that does to the learned routines
/// (docs/analytics.md, "When logging stops").
///
/// A day with no event is a day the person may not have logged at all. One such day is still a
/// day of logging (as for the logging-gap rule, a single empty day counts), so it lowers
/// nothing: on the real logs, forecasts after one silent day came true as often as others.
/// From the second on, a run in which the next day's forecasts may come true in life but not in
/// the log, each lowers every learned confidence (a half-life of ``halfLifeDays``), and after
/// ``pauseDays`` such days `plan` plans no learned reminder until something is logged again:
/// reminders of a habit a person no longer records are reminders about nothing.
public struct LoggingSilence: Sendable, Hashable {
  /// Silent days after which learned reminders pause: 3.
  public static let pauseDays = 3
  /// The half-life of a confidence over silent days: 3 days.
  public static let halfLifeDays = 3.0
  /// Silent days that lower nothing: 1.
  public static let graceDays = 1

  /// The last local date with any event (up to today), or `nil` when none is known.
  public let lastLogged: LocalDate?
  /// Today.
  public let today: LocalDate

  /// Silence from `lastLogged` to `today`.
  public init(lastLogged: LocalDate?, today: LocalDate) {
    self.lastLogged = lastLogged
    self.today = today
  }

  /// The whole days before today since the last one with an event: 0 when something was
  /// logged yesterday or today.
  public var silentDays: Int {
    guard let lastLogged else { return 0 }
    return max(0, today.daysSince1970 - lastLogged.daysSince1970 - 1)
  }

  /// What every learned confidence is multiplied by: 2^(-(silent days - grace) / half-life),
  /// 1 within the grace.
  public var decay: Double {
    let lowering = silentDays - LoggingSilence.graceDays
    return lowering <= 0 ? 1 : pow(2, -Double(lowering) / LoggingSilence.halfLifeDays)
  }

  /// Whether learned reminders pause: ``pauseDays`` or more silent days.
  public var pausesLearned: Bool { silentDays >= LoggingSilence.pauseDays }

  /// "nothing logged since Thu 2026-04-23: learned reminders pause until you log again", when
  /// they pause.
  public var message: String? {
    guard pausesLearned, let lastLogged else { return nil }
    return Self.pauseMessage(lastLogged: lastLogged)
  }

  /// What a pause says, for a pause that began after `lastLogged`.
  public static func pauseMessage(lastLogged: LocalDate) -> String {
    "nothing logged since \(lastLogged.weekdayName) \(lastLogged): learned reminders pause "
      + "until you log again"
  }
}
