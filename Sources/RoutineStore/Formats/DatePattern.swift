import RoutineCore

/// A declared date and time pattern (`--date-format 'dd.MM.yyyy HH:mm'`, docs/formats.md), read
/// by hand: no `DateFormatter`, whose set-up and locale rules cost more than the import.
///
/// Letters, as Unicode date patterns write them: `yyyy` year, `MM` or `M` month, `MMM` an
/// English month name (`Mar`, `March`), `dd` or `d` day, `HH` or `H` hour 0-23, `hh` or `h`
/// hour 1-12 with `a` (AM/PM, any case, `a.m.` too), `mm` minute, `ss` second, `SSS` fraction
/// (dropped), `XXX` or `Z` an offset (`+02:00`, `+0200`, `Z`). Two letters read exactly two
/// digits, one letter one or two. Any other character is itself; text in single quotes is
/// literal (`yyyy-MM-dd'T'HH:mm`). Runs of spaces match any run of spaces.
public struct DatePattern: Sendable, Equatable {
  enum Token: Sendable, Equatable {
    case year, month(digits: Int), monthName, day(digits: Int), hour24(digits: Int)
    case hour12(digits: Int), meridiem, minute, second, fraction, offset
    case literal(UInt8)
    case spaces
  }

  let tokens: [Token]
  /// The pattern as given, for messages.
  public let text: String

  /// What is wrong with a pattern.
  public struct Problem: Error, Sendable {
    /// What was expected and what was found.
    public var message: String
  }

  /// The pattern `text` spells; throws ``Problem`` for a letter it does not know, a pattern
  /// without a year, month and day, or `hh` without `a`.
  public init(_ text: String) throws(Problem) {
    self.text = text
    var tokens: [Token] = []
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      var run = 1
      while index + run < bytes.count, bytes[index + run] == byte { run += 1 }
      func letters(_ allowed: [Int: Token]) throws(Problem) -> Token {
        guard let token = allowed[run] else {
          throw Problem(
            message:
              "'\(String(repeating: Character(UnicodeScalar(byte)), count: run))' is not a pattern field; expected yyyy, MM, dd, HH, hh, mm, ss, a, ... (docs/formats.md)"
          )
        }
        return token
      }
      switch byte {
      case UInt8(ascii: "y"): tokens.append(try letters([4: .year]))
      case UInt8(ascii: "M"):
        tokens.append(
          try letters([1: .month(digits: 1), 2: .month(digits: 2), 3: .monthName, 4: .monthName]))
      case UInt8(ascii: "d"): tokens.append(try letters([1: .day(digits: 1), 2: .day(digits: 2)]))
      case UInt8(ascii: "H"):
        tokens.append(try letters([1: .hour24(digits: 1), 2: .hour24(digits: 2)]))
      case UInt8(ascii: "h"):
        tokens.append(try letters([1: .hour12(digits: 1), 2: .hour12(digits: 2)]))
      case UInt8(ascii: "m"): tokens.append(try letters([2: .minute]))
      case UInt8(ascii: "s"): tokens.append(try letters([2: .second]))
      case UInt8(ascii: "S"): tokens.append(.fraction)
      case UInt8(ascii: "a"): tokens.append(try letters([1: .meridiem]))
      case UInt8(ascii: "X"), UInt8(ascii: "Z"), UInt8(ascii: "x"): tokens.append(.offset)
      case UInt8(ascii: " "): tokens.append(.spaces)
      case UInt8(ascii: "'"):
        run = 1
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "'") {
          tokens.append(.literal(bytes[end]))
          end += 1
        }
        guard end < bytes.count else {
          throw Problem(message: "expected a closing ' in the pattern '\(text)'")
        }
        if end == index + 1 { tokens.append(.literal(UInt8(ascii: "'"))) }
        run = end - index + 1
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
        throw Problem(
          message:
            "'\(Character(UnicodeScalar(byte)))' is not a pattern field; expected yyyy, MM, dd, HH, hh, mm, ss, a, ... (put literal letters in single quotes: 'T')"
        )
      default:
        for _ in 0..<run { tokens.append(.literal(byte)) }
      }
      index += run
    }
    let has = { (test: (Token) -> Bool) in tokens.contains(where: test) }
    guard has({ $0 == .year }), has({ if case .month = $0 { true } else { $0 == .monthName } }),
      has({ if case .day = $0 { true } else { false } })
    else {
      throw Problem(
        message: "expected a pattern with a year, a month and a day (yyyy, MM, dd); found '\(text)'"
      )
    }
    let twelve = has({ if case .hour12 = $0 { true } else { false } })
    guard twelve == has({ $0 == .meridiem }) else {
      throw Problem(
        message: "hh (hour 1-12) goes with a (AM or PM), HH reads 0-23; found '\(text)'")
    }
    self.tokens = tokens
  }

  /// The local date and time (and offset, when the pattern has one) `bytes` hold, as the ISO
  /// 8601 text the timestamp parser reads; `nil` when they do not follow the pattern.
  func isoText(_ bytes: UnsafeRawBufferPointer) -> String? {
    var index = 0
    var year = 0
    var month = 0
    var day = 0
    var hour = 0
    var minute = 0
    var second = 0
    var meridiem: Int?
    var offset = ""
    func number(_ minimum: Int, _ maximum: Int) -> Int? {
      var value = 0
      var count = 0
      while count < maximum, index < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
      {
        value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
        count += 1
      }
      return count >= minimum ? value : nil
    }
    for token in tokens {
      switch token {
      case .year: guard let value = number(4, 4) else { return nil }; year = value
      case .month(let digits):
        guard let value = number(digits, 2) else { return nil }; month = value
      case .day(let digits): guard let value = number(digits, 2) else { return nil }; day = value
      case .hour24(let digits):
        guard let value = number(digits, 2) else { return nil }; hour = value
      case .hour12(let digits):
        guard let value = number(digits, 2), (1...12).contains(value) else { return nil }
        hour = value
      case .minute: guard let value = number(2, 2) else { return nil }; minute = value
      case .second: guard let value = number(2, 2) else { return nil }; second = value
      case .fraction: guard number(1, 9) != nil else { return nil }
      case .monthName:
        var end = index
        while end < bytes.count, (bytes[end] | 0x20) >= UInt8(ascii: "a"),
          (bytes[end] | 0x20) <= UInt8(ascii: "z")
        {
          end += 1
        }
        let name = String(decoding: bytes[index..<end], as: UTF8.self).lowercased()
        guard name.count >= 3,
          let found = Self.months.firstIndex(where: { $0.hasPrefix(name) || name == $0 })
        else { return nil }
        month = found + 1
        index = end
      case .meridiem:
        var letters: [UInt8] = []
        while index < bytes.count, letters.count < 2 {
          let lower = bytes[index] | 0x20
          if lower == UInt8(ascii: "a") || lower == UInt8(ascii: "p") || lower == UInt8(ascii: "m")
          {
            letters.append(lower)
          } else if bytes[index] != UInt8(ascii: ".") {
            break
          }
          index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") { index += 1 }
        guard letters == Array("am".utf8) || letters == Array("pm".utf8) else { return nil }
        meridiem = letters[0] == UInt8(ascii: "p") ? 12 : 0
      case .offset:
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") {
          offset = "Z"
          index += 1
        } else {
          guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
            return nil
          }
          let sign = bytes[index] == UInt8(ascii: "+") ? "+" : "-"
          index += 1
          guard let hours = number(2, 2) else { return nil }
          if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
          let minutes = number(2, 2) ?? 0
          offset = sign + Self.pad(hours, 2) + ":" + Self.pad(minutes, 2)
        }
      case .literal(let byte):
        guard index < bytes.count, bytes[index] == byte else { return nil }
        index += 1
      case .spaces:
        guard index < bytes.count, isSpace(bytes[index]) else { return nil }
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
      }
    }
    guard index == bytes.count else { return nil }
    if let meridiem { hour = hour % 12 + meridiem }
    guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    return "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(hour, 2)):"
      + "\(Self.pad(minute, 2)):\(Self.pad(second, 2))\(offset)"
  }

  private static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ]

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
