/// A set of days of the week, 1 = Sunday ... 7 = Saturday (as `Calendar` and the original
/// designs number them), in one byte: bit `w` is weekday `w`.
public struct WeekdaySet: Hashable, Sendable, Sequence, CustomStringConvertible {
  /// The bits.
  public let rawValue: UInt8

  /// The set with these bits (bit 0 and bits above 7 are ignored).
  public init(rawValue: UInt8) {
    self.rawValue = rawValue & 0b1111_1110
  }

  /// The set of `weekdays` (1 = Sunday ... 7 = Saturday; others are ignored).
  public init<S: Sequence>(_ weekdays: S) where S.Element == Int {
    var bits: UInt8 = 0
    for weekday in weekdays where (1...7).contains(weekday) { bits |= 1 << weekday }
    self.init(rawValue: bits)
  }

  /// No day.
  public static let none = WeekdaySet(rawValue: 0)
  /// Every day.
  public static let everyDay = WeekdaySet(1...7)
  /// Monday to Friday.
  public static let weekdays = WeekdaySet(2...6)
  /// Saturday and Sunday.
  public static let weekends = WeekdaySet([1, 7])

  /// Whether weekday `weekday` is in the set.
  public func contains(_ weekday: Int) -> Bool {
    (1...7).contains(weekday) && rawValue & (1 << weekday) != 0
  }

  /// Whether the set holds no day.
  public var isEmpty: Bool { rawValue == 0 }

  /// How many days.
  public var count: Int { rawValue.nonzeroBitCount }

  /// The days in order, Sunday first.
  public func makeIterator() -> IndexingIterator<[Int]> {
    (1...7).filter(contains).makeIterator()
  }

  /// The only day, when there is exactly one.
  public var single: Int? { count == 1 ? rawValue.trailingZeroBitCount : nil }

  /// The set with `weekday` moved by `days` (a reminder whose lead crosses midnight fires the
  /// day before).
  public func shifted(by days: Int) -> WeekdaySet {
    WeekdaySet(map { ($0 - 1 + days % 7 + 7) % 7 + 1 })
  }

  /// Three-letter English names, Monday first: the order people read a week in.
  static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

  /// `daily`, `weekdays`, `weekends`, or the days (`mon,wed,fri`), as the command line takes them.
  public var description: String {
    switch self {
    case .everyDay: return "daily"
    case .weekdays: return "weekdays"
    case .weekends: return "weekends"
    case .none: return "none"
    default:
      return ([2, 3, 4, 5, 6, 7, 1].filter(contains).map { WeekdaySet.names[$0 - 1] })
        .joined(separator: ",")
    }
  }

  /// Parses `daily`, `weekdays`, `weekends`, `none`, or a comma-separated list of days named
  /// by any unambiguous start of their English name (`mon,wed,fri`, `tu`, `Thursday`), ignoring
  /// case; `nil` for anything else.
  public init?(parsing text: String) {
    let lowered = text.lowercased().trimmingWhiteSpace
    switch lowered {
    case "daily", "all": self = .everyDay
    case "weekdays": self = .weekdays
    case "weekends": self = .weekends
    case "none": self = .none
    default:
      var days: [Int] = []
      // `mon,wed`, `mon-fri`, `fri-mon` (a range wraps round the end of the week).
      for part in lowered.split(separator: ",", omittingEmptySubsequences: false) {
        let ends = part.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(ends.count) else { return nil }
        var numbers: [Int] = []
        for end in ends {
          let word = String(end).trimmingWhiteSpace
          let matches = WeekdaySet.fullNames.indices.filter {
            word.count >= 2 && WeekdaySet.fullNames[$0].hasPrefix(word)
          }
          guard matches.count == 1 else { return nil }
          numbers.append(matches[0] + 1)
        }
        var day = numbers[0]
        days.append(day)
        while day != numbers[numbers.count - 1] {
          day = day % 7 + 1
          days.append(day)
        }
      }
      self.init(days)
    }
  }

  static let fullNames = [
    "sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
  ]
}

extension String {
  /// The text without spaces and tabs at either end.
  var trimmingWhiteSpace: String {
    var text = Substring(self)
    while text.first == " " || text.first == "\t" { text = text.dropFirst() }
    while text.last == " " || text.last == "\t" { text = text.dropLast() }
    return String(text)
  }
}
