/// Which days of the week a routine applies to.
///
/// Most routines split the days two ways. By the calendar: weekdays (Monday to Friday) and
/// weekends. And by the day that follows: the evenings before a working day (Sunday to
/// Thursday) and the evenings before a day off (Friday and Saturday). A 23:00 bed time that
/// moves to 23:30 on Friday and Saturday nights follows the second split; a wake-up follows the
/// first. These are the five standard kinds (``standard``), learned from the analysis window.
///
/// A routine can also hold on any other set of weekdays, a *weekday set*: gym on Monday,
/// Wednesday and Friday, a class every Tuesday. Those need weeks of evidence and are learned
/// from a longer horizon (``AnalysisConfiguration/weeklyDays``). The analysis picks, per
/// routine, what predicts held-out days best, preferring the standard kinds
/// (docs/analytics.md).
public struct DayKind: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The days of the week.
  public let days: WeekdaySet

  /// The kind of day made of `days`: one of the standard kinds when it has their days.
  public init(_ days: WeekdaySet) {
    self.days = days
  }

  /// Every day.
  public static let all = DayKind(.everyDay)
  /// Monday to Friday.
  public static let weekdays = DayKind(.weekdays)
  /// Saturday and Sunday.
  public static let weekends = DayKind(.weekends)
  /// Sunday to Thursday: the days before a weekday.
  public static let sundayToThursday = DayKind(WeekdaySet(1...5))
  /// Friday and Saturday: the days before a weekend day.
  public static let fridayAndSaturday = DayKind(WeekdaySet([6, 7]))

  /// The standard kinds, in order of preference (simpler first).
  public static let standard: [DayKind] = [
    .all, .weekdays, .weekends, .sundayToThursday, .fridayAndSaturday,
  ]

  /// The ways routines split the week, each a set of day kinds that covers every day once, in
  /// order of preference when they predict equally well (simpler first).
  public static let partitions: [[DayKind]] = [
    [.all], [.weekdays, .weekends], [.sundayToThursday, .fridayAndSaturday],
  ]

  /// Whether this is a weekday set rather than one of the ``standard`` kinds.
  public var isWeekdaySet: Bool { !Self.standard.contains(self) }

  /// The other days of the week.
  public var complement: DayKind {
    DayKind(WeekdaySet(rawValue: ~days.rawValue))
  }

  /// The weekdays (1 = Sunday ... 7 = Saturday) of this kind.
  public var weekdays: [Int] { Array(days) }

  /// Bit `w` is set for each weekday `w` (1 = Sunday ... 7 = Saturday) of this kind: membership
  /// in one instruction, for the loops over every day of a long window.
  var weekdayMask: UInt8 { days.rawValue }

  /// Whether weekday `weekday` (1 = Sunday ... 7 = Saturday) is a day of this kind.
  public func contains(weekday: Int) -> Bool {
    days.contains(weekday)
  }

  /// Whether `date` is a day of this kind.
  public func contains(_ date: LocalDate) -> Bool {
    contains(weekday: date.weekday)
  }

  /// `all`, `weekdays`, `weekends`, `sundayToThursday`, `fridayAndSaturday`, or `weekly` for a
  /// weekday set: the name `analyze --json` gives (with the days in `daysOfWeek`).
  public var name: String {
    switch self {
    case .all: "all"
    case .weekdays: "weekdays"
    case .weekends: "weekends"
    case .sundayToThursday: "sundayToThursday"
    case .fridayAndSaturday: "fridayAndSaturday"
    default: "weekly"
    }
  }

  /// The same as ``name``.
  public var description: String { name }

  /// "weekdays", "Fridays and Saturdays", "Mondays, Wednesdays and Fridays", "days other than
  /// Sundays": the noun for `count` days of this kind in sentences ("on 4 of the last 5
  /// weekdays").
  public func noun(count: Int) -> String {
    let one = count == 1
    switch self {
    case .all: return one ? "day" : "days"
    case .weekdays: return one ? "weekday" : "weekdays"
    case .weekends: return one ? "weekend day" : "weekend days"
    case .sundayToThursday:
      return one ? "day from Sunday to Thursday" : "days from Sunday to Thursday"
    case .fridayAndSaturday: return one ? "Friday or Saturday" : "Fridays and Saturdays"
    default:
      // Five or six days read better by the ones left out.
      guard days.count < 5 else {
        return (one ? "day other than " : "days other than ")
          + Self.listed(complement.days, plural: !one, or: one)
      }
      return Self.listed(days, plural: !one, or: one)
    }
  }

  /// "Mondays, Wednesdays and Fridays", "Monday, Wednesday or Friday".
  private static func listed(_ days: WeekdaySet, plural: Bool, or: Bool) -> String {
    let names = mondayFirst(days).map { englishName($0) + (plural ? "s" : "") }
    guard names.count > 1 else { return names.joined() }
    return names.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + names.last!
  }

  /// "all", "weekdays", "Sun-Thu", "Mon/Wed/Fri", "not Sun": a short label for tables (at most
  /// 8 characters for the standard kinds; a weekday set names its days, or the days it leaves
  /// out when it has five or six).
  public var label: String {
    switch self {
    case .all, .weekdays, .weekends: name
    case .sundayToThursday: "Sun-Thu"
    case .fridayAndSaturday: "Fri-Sat"
    default:
      days.count < 5
        ? Self.abbreviated(days) : "not " + Self.abbreviated(complement.days)
    }
  }

  /// Standard kinds in their order, then weekday sets, by their first day from Monday.
  public static func < (lhs: DayKind, rhs: DayKind) -> Bool {
    func key(_ kind: DayKind) -> (Int, [Int]) {
      // Monday is position 0, Sunday 6.
      (standard.firstIndex(of: kind) ?? standard.count, mondayFirst(kind.days).map { ($0 + 5) % 7 })
    }
    let (left, right) = (key(lhs), key(rhs))
    return left.0 != right.0 ? left.0 < right.0 : left.1.lexicographicallyPrecedes(right.1)
  }

  /// The weekdays (1 = Sunday ... 7 = Saturday) of `days` in the order people read a week,
  /// Monday first.
  private static func mondayFirst(_ days: WeekdaySet) -> [Int] {
    [2, 3, 4, 5, 6, 7, 1].filter(days.contains)
  }

  /// "Mon/Wed/Fri".
  private static func abbreviated(_ days: WeekdaySet) -> String {
    mondayFirst(days).map { String(englishName($0).prefix(3)) }.joined(separator: "/")
  }

  /// "Monday" for weekday 2.
  private static func englishName(_ weekday: Int) -> String {
    let name = WeekdaySet.fullNames[weekday - 1]
    return name.prefix(1).uppercased() + name.dropFirst()
  }
}
