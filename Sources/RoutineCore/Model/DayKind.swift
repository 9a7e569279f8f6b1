/// Which days of the week a routine applies to.
///
/// Besides every day, routines split days two ways. By the calendar: weekdays (Monday to Friday)
/// and weekends. And by the day that follows: the evenings before a working day (Sunday to
/// Thursday) and the evenings before a day off (Friday and Saturday). A 23:00 bed time that
/// moves to 23:30 on Friday and Saturday nights follows the second split; a wake-up follows the
/// first. The analysis picks, per routine, the split that predicts held-out days best
/// (docs/analytics.md).
public enum DayKind: String, Sendable, CaseIterable, Comparable {
  /// Every day.
  case all
  /// Monday to Friday.
  case weekdays
  /// Saturday and Sunday.
  case weekends
  /// Sunday to Thursday: the days before a weekday.
  case sundayToThursday
  /// Friday and Saturday: the days before a weekend day.
  case fridayAndSaturday

  /// The ways routines split the week, each a set of day kinds that covers every day once, in
  /// order of preference when they predict equally well (simpler first).
  public static let partitions: [[DayKind]] = [
    [.all], [.weekdays, .weekends], [.sundayToThursday, .fridayAndSaturday],
  ]

  /// The weekdays (1 = Sunday ... 7 = Saturday) of this kind.
  public var weekdays: [Int] {
    switch self {
    case .all: Array(1...7)
    case .weekdays: [2, 3, 4, 5, 6]
    case .weekends: [1, 7]
    case .sundayToThursday: [1, 2, 3, 4, 5]
    case .fridayAndSaturday: [6, 7]
    }
  }

  /// Bit `w` is set for each weekday `w` (1 = Sunday ... 7 = Saturday) of this kind: membership
  /// in one instruction, for the loops over every day of a long window.
  var weekdayMask: UInt8 {
    switch self {
    case .all: 0b1111_1110
    case .weekdays: 0b0111_1100
    case .weekends: 0b1000_0010
    case .sundayToThursday: 0b0011_1110
    case .fridayAndSaturday: 0b1100_0000
    }
  }

  /// Whether weekday `weekday` (1 = Sunday ... 7 = Saturday) is a day of this kind.
  public func contains(weekday: Int) -> Bool {
    (1...7).contains(weekday) && weekdayMask & (1 << weekday) != 0
  }

  /// Whether `date` is a day of this kind.
  public func contains(_ date: LocalDate) -> Bool {
    contains(weekday: date.weekday)
  }

  /// "weekdays", "Fridays and Saturdays": the noun for `count` days of this kind in sentences
  /// ("on 4 of the last 5 weekdays").
  public func noun(count: Int) -> String {
    let one = count == 1
    return switch self {
    case .all: one ? "day" : "days"
    case .weekdays: one ? "weekday" : "weekdays"
    case .weekends: one ? "weekend day" : "weekend days"
    case .sundayToThursday: one ? "day from Sunday to Thursday" : "days from Sunday to Thursday"
    case .fridayAndSaturday: one ? "Friday or Saturday" : "Fridays and Saturdays"
    }
  }

  /// "all", "weekdays", "Sun-Thu": a short label for tables (at most 8 characters).
  public var label: String {
    switch self {
    case .all, .weekdays, .weekends: rawValue
    case .sundayToThursday: "Sun-Thu"
    case .fridayAndSaturday: "Fri-Sat"
    }
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: DayKind, rhs: DayKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
