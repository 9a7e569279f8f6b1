/// A calendar date (proleptic Gregorian) without a time zone: the date printed on a local clock.
///
/// Dates are counted as days since 1970-01-01 so that analytics can do day arithmetic with plain
/// integers instead of `Calendar`, which is slow on Linux and needs a time zone.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Days since 1970-01-01 (negative before).
  public let daysSince1970: Int

  /// The date `daysSince1970` days after 1970-01-01.
  public init(daysSince1970: Int) {
    self.daysSince1970 = daysSince1970
  }

  /// The given calendar date, or `nil` when the month or day is out of range.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year)
    else { return nil }
    self.daysSince1970 = LocalDate.days(year: year, month: month, day: day)
  }

  /// Year, month (1...12) and day of month.
  public var components: (year: Int, month: Int, day: Int) {
    // Howard Hinnant's civil_from_days: exact for every day, no tables.
    let z = daysSince1970 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The day of the week, 1 = Sunday ... 7 = Saturday (as `Calendar` and the original designs).
  public var weekday: Int {
    // 1970-01-01 was a Thursday (5).
    floorMod(daysSince1970 + 4, 7) + 1
  }

  /// Whether the date falls on a Saturday or Sunday.
  public var isWeekend: Bool {
    let day = weekday
    return day == 1 || day == 7
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> LocalDate {
    LocalDate(daysSince1970: daysSince1970 + days)
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    let (year, month, day) = components
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  /// The short English weekday name ("Mon").
  public var weekdayName: String {
    ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday - 1]
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    lhs.daysSince1970 < rhs.daysSince1970
  }

  /// Days in the month, taking leap years into account.
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2:
      let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
      return isLeap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a valid calendar date (Hinnant's days_from_civil).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}

/// `value` modulo `divisor`, always in `0..<divisor` (Swift's `%` keeps the sign of `value`).

func floorMod(_ value: Int, _ divisor: Int) -> Int {
  let r = value % divisor
  return r < 0 ? r + divisor : r
}

/// `value / divisor` rounded towards negative infinity.

func floorDiv(_ value: Int, _ divisor: Int) -> Int {
  let q = value / divisor
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? q - 1 : q
}

/// Zero-padded decimal of a non-negative number (negative numbers get a leading minus).
func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(abs(value))
  let padded =
    digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  return value < 0 ? "-" + padded : padded
}
