import RoutineCore

/// The order of day and month in a numeric date such as `04/05/2026`.
public enum DateOrder: String, Sendable, CaseIterable {
  /// Day first: `27/04/2026`, `27.04.2026`.
  case dmy
  /// Month first: `04/27/2026`.
  case mdy
}

/// Reads the dates and times other applications export, when a timestamp is not ISO 8601 with an
/// offset: a date `2026-04-27`, `2026/04/27`, `27/04/2026`, `04/27/2026` or `27.04.2026`
/// (four-digit years only), then a time `07:05`, `7:05:30` or `7:05 PM` (`pm`, `p.m.`; `12:00 AM`
/// is midnight), optionally followed by an offset (`Z`, `+02:00`), which wins over any assumed
/// zone. Without an offset, the time is local: read in the assumed zone by the rules of
/// docs/time.md, and refused without one.
///
/// A numeric date whose day and month could be swapped (`04/05/2026`, both at most 12 and
/// different) is refused unless the order is given: guessing would move events by months.
struct LooseDateTime: Sendable {
  /// The order of ambiguous numeric dates, or `nil` to refuse them.
  let order: DateOrder?
  private var timestamps: TimestampParser

  init(order: DateOrder?, zone: Zone?) {
    self.order = order
    timestamps = TimestampParser(assumingZone: zone)
  }

  /// Why a date and time could not be read.
  enum Problem: Error, Equatable {
    /// The date is not one of the forms read.
    case date
    /// The year has two digits: which century is a guess.
    case twoDigitYear
    /// Day and month could be swapped, and no order was given.
    case ambiguousDate(first: Int, second: Int)
    /// The time is not one of the forms read (or missing).
    case time
    /// A local time, and no zone to read it in: the ISO 8601 text it was read as.
    case local(String)
  }

  /// The timestamp of a date and a time given in one field (`04/27/2026 7:05 PM`), separated by a
  /// space or `T`.
  mutating func parse(_ bytes: UnsafeRawBufferPointer) -> Result<Timestamp, Problem> {
    let split = bytes.firstIndex { $0 == 0x20 || $0 == 0x54 || $0 == 0x74 } ?? bytes.count
    let date = UnsafeRawBufferPointer(rebasing: bytes[..<split])
    let time = UnsafeRawBufferPointer(rebasing: bytes[min(split + 1, bytes.count)...])
    return parse(date: date, time: time)
  }

  /// The timestamp of a date and a time given in two fields.
  mutating func parse(date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer) -> Result<
    Timestamp, Problem
  > {
    let day: (year: Int, month: Int, day: Int)
    switch Self.date(date, order: order) {
    case .success(let parsed): day = parsed
    case .failure(let problem): return .failure(problem)
    }
    guard let clock = Self.time(trim(time)) else { return .failure(.time) }
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    var text =
      "\(pad(day.year, 4))-\(pad(day.month, 2))-\(pad(day.day, 2))T\(pad(clock.hour, 2)):"
      + "\(pad(clock.minute, 2)):\(pad(clock.second, 2))"
    let local = text
    text += clock.offset
    let parsed = text.withUTF8 { timestamps.parse(UnsafeRawBufferPointer($0)) }
    if let parsed { return .success(parsed) }
    return .failure(clock.offset.isEmpty ? .local(local) : .time)
  }

  /// Year, month and day of a numeric date.
  private static func date(_ bytes: UnsafeRawBufferPointer, order: DateOrder?) -> Result<
    (year: Int, month: Int, day: Int), Problem
  > {
    var groups: [(value: Int, digits: Int)] = []
    var separator: UInt8?
    var index = 0
    while index < bytes.count {
      var value = 0
      var digits = 0
      while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 5 {
        value = value * 10 + Int(bytes[index] - 0x30)
        digits += 1
        index += 1
      }
      guard digits > 0 else { return .failure(.date) }
      groups.append((value, digits))
      guard index < bytes.count else { break }
      let mark = bytes[index]
      guard mark == 0x2D || mark == 0x2F || mark == 0x2E, separator == nil || separator == mark,
        groups.count < 3
      else { return .failure(.date) }
      separator = mark
      index += 1
      guard index < bytes.count else { return .failure(.date) }
    }
    guard groups.count == 3 else { return .failure(.date) }
    let (year, month, day): (Int, Int, Int)
    if groups[0].digits == 4 {
      guard groups[1].digits <= 2, groups[2].digits <= 2 else { return .failure(.date) }
      (year, month, day) = (groups[0].value, groups[1].value, groups[2].value)
    } else {
      guard groups[0].digits <= 2, groups[1].digits <= 2 else { return .failure(.date) }
      guard groups[2].digits == 4 else {
        return .failure(groups[2].digits == 2 ? .twoDigitYear : .date)
      }
      let (first, second) = (groups[0].value, groups[1].value)
      let resolved: DateOrder
      if let order {
        resolved = order
      } else if first > 12 {
        resolved = .dmy
      } else if second > 12 || first == second {
        resolved = .mdy
      } else {
        return .failure(.ambiguousDate(first: first, second: second))
      }
      year = groups[2].value
      (month, day) = resolved == .dmy ? (second, first) : (first, second)
    }
    guard year >= 1, month >= 1, month <= 12, day >= 1,
      day <= LocalDate.daysIn(month: month, year: year)
    else { return .failure(.date) }
    return .success((year, month, day))
  }

  /// A time of day: `7:05`, `07:05:30`, `7:05 PM`, `7:05pm`, `7:05 p.m.`, with an optional
  /// offset after it (returned as written, for the ISO 8601 parser to check).
  private static func time(_ bytes: UnsafeRawBufferPointer) -> (
    hour: Int, minute: Int, second: Int, offset: String
  )? {
    var index = 0
    func number(maximumDigits: Int) -> (Int, Int) {
      var value = 0
      var digits = 0
      while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < maximumDigits {
        value = value * 10 + Int(bytes[index] - 0x30)
        digits += 1
        index += 1
      }
      return (value, digits)
    }
    let (hour, hourDigits) = number(maximumDigits: 2)
    guard hourDigits > 0, index < bytes.count, bytes[index] == 0x3A else { return nil }
    index += 1
    let (minute, minuteDigits) = number(maximumDigits: 2)
    guard minuteDigits == 2, minute <= 59 else { return nil }
    var second = 0
    if index < bytes.count, bytes[index] == 0x3A {
      index += 1
      let (value, digits) = number(maximumDigits: 2)
      guard digits == 2, value <= 59 else { return nil }
      second = value
      if index < bytes.count, bytes[index] == 0x2E {
        index += 1
        guard number(maximumDigits: 9).1 > 0 else { return nil }
      }
    }
    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    var hour24 = hour
    if index < bytes.count, [0x61, 0x70].contains(bytes[index] | 0x20) {
      let isAfternoon = bytes[index] | 0x20 == 0x70
      index += 1
      if index < bytes.count, bytes[index] == 0x2E { index += 1 }
      guard index < bytes.count, bytes[index] | 0x20 == 0x6D else { return nil }
      index += 1
      if index < bytes.count, bytes[index] == 0x2E { index += 1 }
      guard hour >= 1, hour <= 12 else { return nil }
      hour24 = hour % 12 + (isAfternoon ? 12 : 0)
      while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    } else {
      guard hour <= 23 else { return nil }
    }
    let offset = String(decoding: bytes[index...], as: UTF8.self)
    guard
      offset.isEmpty || offset.first == "Z" || offset.first == "z" || offset.first == "+"
        || offset.first == "-"
    else { return nil }
    return (hour24, minute, second, offset)
  }
}
