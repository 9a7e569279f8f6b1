/// A JSON document in memory, kept small: an object is its members in order (no dictionary, no
/// bridged Foundation objects), a number a `Double`. Read with ``parse(_:)``; made for
/// documents of a few megabytes that are read once (`reminders import`), where Foundation's
/// `JSONSerialization` held about 80 bytes of objects for each byte of the file.
public enum JSONValue: Sendable, Equatable {
  /// An object's members, in the order written.
  case object([Member])
  /// An array.
  case array([JSONValue])
  /// A string.
  case string(String)
  /// A number written without a fraction or exponent that fits an `Int`, exactly.
  case integer(Int)
  /// Any other number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// One member of an object.
  public struct Member: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// `key: value`.
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The member `key` of an object (the last one, when a key is written twice), or `nil` for a
  /// missing key or a value that is not an object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// Why a document could not be read, and where.
  public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line (from 1) of the problem.
    public var line: Int
    /// What was expected, and what was found.
    public var message: String

    /// `line 3: expected ',' or '}' after a member, found 'x'`.
    public var description: String { "line \(line): \(message)" }
  }

  /// How deep arrays and objects may nest: deeper is refused, not a crash of the stack.
  public static let maximumDepth = 512

  /// The document in `bytes` (UTF-8, a byte order mark allowed): one value, with only white
  /// space around it.
  public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
    let result: Result<JSONValue, ParseError> = bytes.withUnsafeBytes { buffer in
      do throws(ParseError) {
        return .success(try parse(buffer))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The document in `bytes`.
  public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> JSONValue {
    var parser = Parser(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else {
      throw parser.failure("expected the end of the document after its value")
    }
    return value
  }

  private struct Parser {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while index < bytes.count {
        switch bytes[index] {
        case 0x20, 0x09, 0x0A, 0x0D: index += 1
        default: return
        }
      }
    }

    /// What is at the cursor, for messages.
    var found: String {
      guard let byte = current else { return "the end of the document" }
      if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
      return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    func failure(_ expected: String) -> ParseError {
      var line = 1
      for byte in bytes[..<min(index, bytes.count)] where byte == 0x0A { line += 1 }
      return ParseError(line: line, message: "\(expected), found \(found)")
    }

    mutating func value(depth: Int) throws(ParseError) -> JSONValue {
      guard let byte = current else { throw failure("expected a value") }
      switch byte {
      case UInt8(ascii: "{"):
        guard depth < JSONValue.maximumDepth else {
          throw failure("expected at most \(JSONValue.maximumDepth) nested arrays and objects")
        }
        return try object(depth: depth + 1)
      case UInt8(ascii: "["):
        guard depth < JSONValue.maximumDepth else {
          throw failure("expected at most \(JSONValue.maximumDepth) nested arrays and objects")
        }
        return try array(depth: depth + 1)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default: throw failure("expected a value")
      }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) throws(ParseError) -> JSONValue
    {
      let count = word.utf8CodeUnitCount
      let rest = UnsafeRawBufferPointer(rebasing: bytes[index..<min(index + count, bytes.count)])
      let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: count)
      guard rest.elementsEqual(expected) else { throw failure("expected a value") }
      index += count
      return value
    }

    mutating func object(depth: Int) throws(ParseError) -> JSONValue {
      index += 1
      var members: [Member] = []
      skipSpace()
      if current == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      while true {
        guard current == UInt8(ascii: "\"") else { throw failure("expected a key in quotes") }
        let key = try string()
        skipSpace()
        guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
        index += 1
        skipSpace()
        members.append(Member(key: key, value: try value(depth: depth)))
        skipSpace()
        switch current {
        case UInt8(ascii: ","):
          index += 1
          skipSpace()
        case UInt8(ascii: "}"):
          index += 1
          return .object(members)
        default:
          throw failure("expected ',' or '}' after a member")
        }
      }
    }

    mutating func array(depth: Int) throws(ParseError) -> JSONValue {
      index += 1
      var elements: [JSONValue] = []
      skipSpace()
      if current == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        elements.append(try value(depth: depth))
        skipSpace()
        switch current {
        case UInt8(ascii: ","):
          index += 1
          skipSpace()
        case UInt8(ascii: "]"):
          index += 1
          return .array(elements)
        default:
          throw failure("expected ',' or ']' after an element")
        }
      }
    }

    /// A string at the cursor (its opening quote): escapes decoded, UTF-8 checked.
    mutating func string() throws(ParseError) -> String {
      index += 1
      let start = index
      var isPlain = true
      // The usual string has no escapes: one pass to find its end, one copy.
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") { break }
        if byte == UInt8(ascii: "\\") {
          isPlain = false
          break
        }
        if byte < 0x20 { throw failure("expected a control character in a string to be escaped") }
        index += 1
      }
      guard index < bytes.count else { throw failure("expected '\"' to end the string") }
      if isPlain {
        let text = try decoded(start..<index)
        index += 1
        return text
      }
      var utf8 = Array(bytes[start..<index])
      while true {
        guard let byte = current else { throw failure("expected '\"' to end the string") }
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          let result: Result<String, ParseError> = utf8.withUnsafeBytes { buffer in
            do throws(ParseError) {
              return .success(try decoded(buffer, at: start))
            } catch {
              return .failure(error)
            }
          }
          return try result.get()
        case UInt8(ascii: "\\"):
          index += 1
          guard let escape = current else { throw failure("expected an escape after '\\'") }
          index += 1
          if let byte = JSONEscapes.byte(for: escape) {
            utf8.append(byte)
            continue
          }
          switch escape {
          case UInt8(ascii: "u"):
            var scalar = try hex4()
            if JSONEscapes.isHighSurrogate(scalar) {
              // A high surrogate: its low half must follow as another \u escape.
              guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                bytes[index + 1] == UInt8(ascii: "u")
              else { throw failure("expected the second half of a surrogate pair") }
              index += 2
              let low = try hex4()
              guard JSONEscapes.isLowSurrogate(low) else {
                throw failure("expected the second half of a surrogate pair")
              }
              scalar = JSONEscapes.scalar(high: scalar, low: low)
            }
            guard let unicode = Unicode.Scalar(scalar) else {
              throw failure("expected a Unicode scalar, not half of a surrogate pair")
            }
            UTF8.encode(unicode) { utf8.append($0) }
          default:
            index -= 1
            throw failure("expected one of \" \\ / b f n r t u after '\\'")
          }
        default:
          if byte < 0x20 {
            throw failure("expected a control character in a string to be escaped")
          }
          utf8.append(byte)
          index += 1
        }
      }
    }

    /// Four hexadecimal digits.
    mutating func hex4() throws(ParseError) -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 {
        guard let byte = current else { throw failure("expected four hexadecimal digits") }
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
        default: throw failure("expected four hexadecimal digits")
        }
        value = value << 4 | UInt32(digit)
        index += 1
      }
      return value
    }

    func decoded(_ range: Range<Int>) throws(ParseError) -> String {
      try decoded(UnsafeRawBufferPointer(rebasing: bytes[range]), at: range.lowerBound)
    }

    /// `utf8` as a string; text that is not UTF-8 is refused (not repaired).
    func decoded(_ utf8: UnsafeRawBufferPointer, at start: Int) throws(ParseError) -> String {
      let text = String(decoding: utf8, as: UTF8.self)
      if utf8.contains(where: { $0 >= 0x80 }), !text.utf8.elementsEqual(utf8) {
        var copy = self
        copy.index = start
        throw copy.failure("expected UTF-8 text in the string")
      }
      return text
    }

    /// A number at the cursor, by JSON's grammar: `-`, digits without a leading zero, an
    /// optional fraction and exponent.
    mutating func number() throws(ParseError) -> JSONValue {
      let start = index
      if current == UInt8(ascii: "-") { index += 1 }
      func digits(_ parser: inout Parser) -> Int {
        var count = 0
        while let byte = parser.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
          parser.index += 1
          count += 1
        }
        return count
      }
      let first = current
      let whole = digits(&self)
      guard whole > 0 else { throw failure("expected a digit") }
      if first == UInt8(ascii: "0"), whole > 1 {
        index = start
        throw failure("expected a number without leading zeros")
      }
      var isInteger = true
      if current == UInt8(ascii: ".") {
        isInteger = false
        index += 1
        guard digits(&self) > 0 else { throw failure("expected a digit after '.'") }
      }
      if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
        isInteger = false
        index += 1
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
        guard digits(&self) > 0 else { throw failure("expected a digit in the exponent") }
      }
      let text = String(
        decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      if isInteger, let integer = Int(text) { return .integer(integer) }
      guard let value = Double(text), value.isFinite else {
        index = start
        throw failure("expected a number that fits a double")
      }
      return .number(value)
    }
  }
}
