/// Which days a routine applies to.
public enum DayKind: String, Sendable, CaseIterable, Comparable {
  /// Every day.
  case all
  /// Monday to Friday.
  case weekdays
  /// Saturday and Sunday.
  case weekends

  /// Whether `date` is a day of this kind.
  public func contains(_ date: LocalDate) -> Bool {
    switch self {
    case .all: true
    case .weekdays: !date.isWeekend
    case .weekends: date.isWeekend
    }
  }

  /// Whether a day with weekday `weekday` (1 = Sunday ... 7 = Saturday) is of this kind.
  public func contains(weekday: Int) -> Bool {
    switch self {
    case .all: true
    case .weekdays: weekday >= 2 && weekday <= 6
    case .weekends: weekday == 1 || weekday == 7
    }
  }

  /// The weekdays (1 = Sunday ... 7 = Saturday) of this kind.
  public var weekdays: [Int] { (1...7).filter(contains(weekday:)) }

  /// The number of days of this kind in the inclusive range of dates.
  public func count(from first: LocalDate, through last: LocalDate) -> Int {
    guard first <= last else { return 0 }
    let total = last.daysSince1970 - first.daysSince1970 + 1
    if self == .all { return total }
    var weekendDays = total / 7 * 2
    var date = first.adding(days: total / 7 * 7)
    while date <= last {
      if date.isWeekend { weekendDays += 1 }
      date = date.adding(days: 1)
    }
    return self == .weekends ? weekendDays : total - weekendDays
  }

  /// "days", "weekdays", "weekend days": the plural noun used in sentences.
  public var noun: String {
    switch self {
    case .all: "days"
    case .weekdays: "weekdays"
    case .weekends: "weekend days"
    }
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: DayKind, rhs: DayKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}
