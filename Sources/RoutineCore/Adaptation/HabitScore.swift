import Foundation

/// How strong a habit is, and its streak, from the days it was on (docs/reminders.md).
///
/// The strength is an exponentially weighted share of those days done, as Loop Habit Tracker's
/// score: each day it was on moves it towards 1 (done) or 0 (not done) by a fraction such that
/// the last 13 days carry half of it. The streak counts the days it was on and done in a row,
/// back from the last; today counts once done, and does not break the streak before.
public enum HabitScore {
  /// The days that carry half the strength: 13.
  public static let halfLifeDays = 13.0

  /// The strength (0...1) and streak of `done` (whether each day it was on was done, oldest
  /// first). When `lastIsToday`, the last day is today, which counts once done and otherwise
  /// waits.
  public static func score(_ done: [Bool], lastIsToday: Bool = false) -> (
    strength: Double, streak: Int
  ) {
    let multiplier = pow(0.5, 1 / halfLifeDays)
    var strength = 0.0
    let counted = lastIsToday && done.last == false ? done.dropLast() : done[...]
    for day in counted { strength = strength * multiplier + (day ? 1 - multiplier : 0) }
    var streak = 0
    for day in counted.reversed() {
      guard day else { break }
      streak += 1
    }
    return (strength, streak)
  }
}

extension HabitScore {
  /// Whether each day from `first` through `last` that `isOn` holds was done: an act on its
  /// local date (where it was done: the act's own offset), or a day marked done without a time
  /// (``DayMark``, another tracker's checkmark). Oldest first.
  public static func days(
    from first: LocalDate, through last: LocalDate, isOn: (LocalDate) -> Bool, acts: [Timestamp],
    markedDays: [LocalDate] = []
  ) -> [Bool] {
    var doneDates = Set<Int>()
    for act in acts { doneDates.insert(act.localDate.daysSince1970) }
    for date in markedDays { doneDates.insert(date.daysSince1970) }
    var result: [Bool] = []
    var date = first
    while date <= last {
      if isOn(date) { result.append(doneDates.contains(date.daysSince1970)) }
      date = date.adding(days: 1)
    }
    return result
  }
}

extension Habit {
  /// Whether the habit is on on `date`: every day, its weekdays, or its day of the month (the
  /// month's last day for a day the month lacks).
  public func isOn(_ date: LocalDate) -> Bool {
    switch repetition {
    case .weekly: return weekdays.contains(date.weekday)
    case .monthly:
      let (year, month, day) = date.components
      return day == min(dayOfMonth ?? 1, LocalDate.daysIn(month: month, year: year))
    case .daily, .once: return true
    }
  }
}
