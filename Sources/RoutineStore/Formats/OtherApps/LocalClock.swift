import RoutineCore

/// A date and time as an export writes it, before a zone is applied.
struct ClockReading: Equatable {
  var year: Int
  var month: Int
  var day: Int
  var hour: Int
  var minute: Int
  var second = 0
  /// The UTC offset written after the time, in seconds, when there is one.
  var offset: Int?

  /// The instant in `zone` (by the rules of docs/time.md: in a daylight-saving gap the end of
  /// the gap, in a repeated hour the first), or at the offset written; `nil` for a date that
  /// does not exist.
  func timestamp(in zone: Zone) -> Timestamp? {
    guard let date = LocalDate(year: year, month: month, day: day), (0...23).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let local = Int64(date.daysSince1970) * 86400 + Int64(hour * 3600 + minute * 60 + second)
    if let offset {
      return Timestamp(secondsSince1970: local - Int64(offset), utcOffsetSeconds: Int32(offset))
    }
    let instant = WallClock.resolve(localSeconds: local, in: zone).instant
    return Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }
}

/// Reads the few date and time shapes the exports write, strictly (no guessing of orders).
struct ClockScanner {
  private let bytes: [UInt8]
  private var index = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  var isAtEnd: Bool { index == bytes.count }

  mutating func skipSpaces() {
    while index < bytes.count, bytes[index] == 0x20 { index += 1 }
  }

  /// A number of `minimum` to `maximum` digits.
  mutating func number(_ minimum: Int, _ maximum: Int) -> Int? {
    var value = 0
    var digits = 0
    while index < bytes.count, digits < maximum, (48...57).contains(bytes[index]) {
      value = value * 10 + Int(bytes[index] - 48)
      digits += 1
      index += 1
    }
    return digits >= minimum ? value : nil
  }

  /// Whether the next byte is `character` (consumed if so).
  mutating func take(_ character: Character) -> Bool {
    guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
    index += 1
    return true
  }

  /// `H:MM[:SS[.fraction]]`, then optionally `AM`/`PM` (any case, a space before it allowed).
  mutating func time() -> (hour: Int, minute: Int, second: Int)? {
    guard var hour = number(1, 2), take(":"), let minute = number(2, 2) else { return nil }
    var second = 0
    if take(":") {
      guard let seconds = number(2, 2) else { return nil }
      second = seconds
      if take(".") { _ = number(1, 9) }
    }
    let saved = index
    skipSpaces()
    if index + 1 < bytes.count, [0x41, 0x61, 0x50, 0x70].contains(bytes[index]),
      bytes[index + 1] | 0x20 == 0x6D
    {
      let isPM = bytes[index] | 0x20 == 0x70
      index += 2
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (isPM ? 12 : 0)
    } else {
      index = saved
    }
    return (hour, minute, second)
  }

  /// An offset `Z`, `+HH:MM`, `+HHMM` or `+HH`, when one follows (spaces before it allowed).
  mutating func offset() -> Int?? {
    skipSpaces()
    if isAtEnd { return .some(nil) }
    if take("Z") { return .some(0) }
    let sign: Int
    if take("+") {
      sign = 1
    } else if take("-") {
      sign = -1
    } else {
      return nil
    }
    guard let hours = number(2, 2) else { return nil }
    _ = take(":")
    let minutes = number(2, 2) ?? 0
    guard hours <= 18, minutes <= 59 else { return nil }
    return .some(sign * (hours * 3600 + minutes * 60))
  }

  /// `YYYY-MM-DD` then a space or `T` and a time (``time()``), then an optional offset:
  /// `2026-03-04 23:12`, `2026-03-04T23:12:30.000`, `2026-03-04 11:12PM`,
  /// `2026-03-04 23:12:30 +0100`.
  static func isoLike(_ text: String) -> ClockReading? {
    var scanner = ClockScanner(text.trimmingSpaces)
    guard let year = scanner.number(4, 4), scanner.take("-"), let month = scanner.number(1, 2),
      scanner.take("-"), let day = scanner.number(1, 2), scanner.take(" ") || scanner.take("T")
    else { return nil }
    scanner.skipSpaces()
    guard let time = scanner.time(), let offset = scanner.offset(), scanner.isAtEnd else {
      return nil
    }
    return ClockReading(
      year: year, month: month, day: day, hour: time.hour, minute: time.minute,
      second: time.second, offset: offset)
  }

  /// `YYYY-MM-DD` alone.
  static func date(_ text: String) -> (year: Int, month: Int, day: Int)? {
    var scanner = ClockScanner(text.trimmingSpaces)
    guard let year = scanner.number(4, 4), scanner.take("-"), let month = scanner.number(1, 2),
      scanner.take("-"), let day = scanner.number(1, 2), scanner.isAtEnd
    else { return nil }
    return (year, month, day)
  }

  /// A time alone (``time()``): `20:15`, `8:15 pm`.
  static func timeOfDay(_ text: String) -> (hour: Int, minute: Int, second: Int)? {
    var scanner = ClockScanner(text.trimmingSpaces)
    guard let time = scanner.time(), scanner.isAtEnd else { return nil }
    return time
  }

  /// A duration `H:MM:SS` (or `MM:SS`, `H:MM:SS.f`) in seconds: Garmin's `Time`.
  static func duration(_ text: String) -> Double? {
    var scanner = ClockScanner(text.trimmingSpaces)
    guard let first = scanner.number(1, 4), scanner.take(":"), let second = scanner.number(2, 2)
    else { return nil }
    var total = Double(first * 60 + second)
    if scanner.take(":") {
      guard let third = scanner.number(2, 2), second < 60 else { return nil }
      total = Double(first * 3600 + second * 60 + third)
    }
    if scanner.take(".") {
      let start = scanner.index
      guard let fraction = scanner.number(1, 9) else { return nil }
      total += Double(fraction) / pow10(scanner.index - start)
    }
    return scanner.isAtEnd ? total : nil
  }

  private static func pow10(_ digits: Int) -> Double {
    var value = 1.0
    for _ in 0..<digits { value *= 10 }
    return value
  }

  /// Sleep as Android's `04. 03. 2026 23:30` (day, month, year; spaces optional).
  static func dottedDayFirst(_ text: String) -> ClockReading? {
    var scanner = ClockScanner(text.trimmingSpaces)
    guard let day = scanner.number(1, 2), scanner.take(".") else { return nil }
    scanner.skipSpaces()
    guard let month = scanner.number(1, 2), scanner.take(".") else { return nil }
    scanner.skipSpaces()
    guard let year = scanner.number(4, 4) else { return nil }
    scanner.skipSpaces()
    guard let time = scanner.time(), scanner.isAtEnd else { return nil }
    return ClockReading(
      year: year, month: month, day: day, hour: time.hour, minute: time.minute,
      second: time.second)
  }
}
