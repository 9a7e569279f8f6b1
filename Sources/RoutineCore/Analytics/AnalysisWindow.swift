import Foundation

/// The days analytics learns from: the `days` whole local days before today, where today is
/// the user's local date at `now`. Events of today (up to `now`) are checked for outliers but
/// not learned from: today is not over.
public struct AnalysisWindow: Sendable, Hashable {
  /// Whole days learned from.
  public let days: Int
  /// The user's local date at ``now``.
  public let today: LocalDate
  /// The moment of the analysis, seconds since 1970 UTC.
  public let now: Int64
  /// The user's time zone, which decides what "today" is.
  public let timeZone: Zone

  /// The window of `days` days before the date of `now` in `zone`.
  public init(now: Date, days: Int, zone: Zone) {
    self.days = max(days, 1)
    self.timeZone = zone
    self.now = Int64(now.timeIntervalSince1970.rounded(.down))
    self.today = WallClock.localDate(at: self.now, in: zone)
  }

  /// The first day learned from.
  public var firstDay: LocalDate { today.adding(days: -days) }

  /// The days learned from: `firstDay` through yesterday.
  public var learningDays: ClosedRange<LocalDate> { firstDay...today.adding(days: -1) }

  /// The instant the window starts: local midnight of ``firstDay`` (or the first instant after
  /// it when midnight falls in a daylight-saving gap).
  public var start: Timestamp {
    let instant = WallClock.instant(
      on: firstDay, at: TimeOfDay(secondsSinceMidnight: 0), in: timeZone)
    return Timestamp(
      secondsSince1970: instant,
      utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: timeZone)))
  }

  /// ``now`` with the user's offset.
  public var end: Timestamp {
    Timestamp(
      secondsSince1970: now, utcOffsetSeconds: Int32(WallClock.offset(at: now, in: timeZone)))
  }
}
