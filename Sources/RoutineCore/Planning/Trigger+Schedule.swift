import Foundation

/// When triggers fire: the time rules of docs/time.md, through ``WallClock``.
///
/// A calendar trigger fires on each local date whose weekday matches (or every date), at its
/// wall-clock time in `timeZone`: in a daylight-saving gap at the first instant after the gap, in
/// a repeated hour at the first of the two instants. Triggers store wall-clock times, not instants,
/// so when the user's zone changes they keep their wall-clock time in the new zone. Date triggers
/// are instants and do not move.
extension Trigger {
  /// The first instant strictly after `instant` at which this trigger fires, or `nil` (a date
  /// trigger already past).
  public func nextFire(after instant: Int64, in timeZone: TimeZone) -> Int64? {
    switch self {
    case .date(let at):
      return at > instant ? at : nil
    case .calendar(let calendar):
      // The firing instant of a date only grows with the date, and each weekday recurs within
      // a week; a day before today covers zones whose offset is ahead of the wall clock.
      let today = WallClock.localDate(at: instant, in: timeZone)
      for offset in -1...8 {
        let date = today.adding(days: offset)
        guard let fire = calendar.fire(on: date, in: timeZone), fire > instant else { continue }
        return fire
      }
      return nil
    }
  }

  /// Every instant in `from..<to` at which this trigger fires, in order. A calendar trigger that
  /// does not repeat fires once, at its first match at or after `from`.
  public func occurrences(from: Int64, to: Int64, in timeZone: TimeZone) -> [Int64] {
    guard from < to else { return [] }
    switch self {
    case .date(let at):
      return at >= from && at < to ? [at] : []
    case .calendar(let calendar):
      guard calendar.repeats else {
        return nextFire(after: from - 1, in: timeZone).map { $0 < to ? [$0] : [] } ?? []
      }
      var result: [Int64] = []
      var date = WallClock.localDate(at: from, in: timeZone).adding(days: -1)
      let last = WallClock.localDate(at: to, in: timeZone).adding(days: 1)
      while date <= last {
        if let fire = calendar.fire(on: date, in: timeZone), fire >= from, fire < to {
          result.append(fire)
        }
        date = date.adding(days: 1)
      }
      return result
    }
  }
}

extension CalendarTrigger {
  /// The instant this trigger fires on the local `date`, or `nil` when the weekday does not match.
  public func fire(on date: LocalDate, in timeZone: TimeZone) -> Int64? {
    if let weekday, date.weekday != weekday { return nil }
    return WallClock.instant(on: date, at: time, in: timeZone)
  }
}
