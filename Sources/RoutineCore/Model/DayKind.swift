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

  /// The weekdays (1 = Sunday ... 7 = Saturday) of this kind.
  public var weekdays: [Int] {
    switch self {
    case .all: Array(1...7)
    case .weekdays: [2, 3, 4, 5, 6]
    case .weekends: [1, 7]
    }
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
