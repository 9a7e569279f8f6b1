import RoutineCore

/// Parses one JSON Lines record: an object with `timestamp` and `event` strings, an optional
/// `value` (number or null), `note` (string or null) and `source` (`cli`, `import`,
/// `notification` or null). Other keys are skipped, whatever they hold.
struct JSONLineParser {
  struct Fields {
    var timestamp: UnsafeRawBufferPointer
    var event: UnsafeRawBufferPointer
    var value: Double?
    var note: UnsafeRawBufferPointer
    var source: EventSource?
  }

  enum Result {
    case success(Fields)
    case failure(String)
  }

  private struct Failure: Error {
    var message: String
  }

  private var timestampScratch = ByteScratch()
  private var eventScratch = ByteScratch()
  private var noteScratch = ByteScratch()
  private var keyScratch = ByteScratch()
  private var skipScratch = ByteScratch()

  /// Frees the scratch memory.
  func deallocate() {
    for scratch in [timestampScratch, eventScratch, noteScratch, keyScratch, skipScratch] {
      scratch.deallocate()
    }
  }

  /// Parses `line` (without its line break). The returned fields stay valid until the next call.
  mutating func parse(_ line: UnsafeRawBufferPointer) -> Result {
    var cursor = Cursor(bytes: line)
    do {
      return .success(try object(&cursor))
    } catch let failure as Failure {
      return .failure(failure.message)
    } catch {
      return .failure("\(error)")
    }
  }

  private struct Cursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
      while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A {
        index += 1
      }
    }

    /// What is at the cursor, for messages: "a number", "'x'", "the end of the line".
    var found: String {
      guard let byte = current else { return "the end of the line" }
      switch byte {
      case UInt8(ascii: "\""): return "a string"
      case UInt8(ascii: "{"): return "an object"
      case UInt8(ascii: "["): return "an array"
      case UInt8(ascii: "t") where starts(with: "true"),
        UInt8(ascii: "f") where starts(with: "false"):
        return "a boolean"
      case UInt8(ascii: "n") where starts(with: "null"): return "null"
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
      // Anything else is shown as it is ("found 'timestamp,event'"), not named after its first
      // letter.
      default: return quoted(UnsafeRawBufferPointer(rebasing: bytes[index...]))
      }
    }

    private func starts(with word: String) -> Bool {
      let rest = bytes[index...]
      guard rest.starts(with: word.utf8) else { return false }
      let after = index + word.utf8.count
      // `true,` or `true}` is the literal; `timestamp` is not `t...`.
      return after == bytes.count
        || !(bytes[after] >= UInt8(ascii: "a") && bytes[after] <= UInt8(ascii: "z"))
    }
  }

  private mutating func object(_ cursor: inout Cursor) throws -> Fields {
    cursor.skipSpace()
    guard cursor.current == UInt8(ascii: "{") else {
      throw Failure(message: "expected a JSON object, found \(cursor.found)")
    }
    cursor.index += 1
    var timestamp: UnsafeRawBufferPointer?
    var event: UnsafeRawBufferPointer?
    var value: Double?
    var note: UnsafeRawBufferPointer?
    var source: EventSource?
    var seenValue = false
    var seenSource = false
    cursor.skipSpace()
    if cursor.current == UInt8(ascii: "}") {
      cursor.index += 1
    } else {
      while true {
        cursor.skipSpace()
        guard cursor.current == UInt8(ascii: "\"") else {
          throw Failure(message: "expected a key in double quotes, found \(cursor.found)")
        }
        let key = String(decoding: try Self.string(&cursor, into: &keyScratch), as: UTF8.self)
        cursor.skipSpace()
        guard cursor.current == UInt8(ascii: ":") else {
          throw Failure(message: "expected ':' after the key \"\(key)\", found \(cursor.found)")
        }
        cursor.index += 1
        cursor.skipSpace()
        switch key {
        case "timestamp", "event", "note":
          if (key == "timestamp" && timestamp != nil) || (key == "event" && event != nil)
            || (key == "note" && note != nil)
          {
            throw Failure(message: "the key \"\(key)\" appears twice")
          }
          if key == "note", cursor.current == UInt8(ascii: "n") {
            try Self.literal("null", &cursor)
            note = UnsafeRawBufferPointer(start: nil, count: 0)
            break
          }
          guard cursor.current == UInt8(ascii: "\"") else {
            throw Failure(message: "expected a string for \"\(key)\", found \(cursor.found)")
          }
          switch key {
          case "timestamp": timestamp = try Self.string(&cursor, into: &timestampScratch)
          case "event": event = try Self.string(&cursor, into: &eventScratch)
          default: note = try Self.string(&cursor, into: &noteScratch)
          }
        case "value":
          guard !seenValue else { throw Failure(message: "the key \"value\" appears twice") }
          seenValue = true
          if cursor.current == UInt8(ascii: "n") {
            try Self.literal("null", &cursor)
          } else {
            guard let first = cursor.current,
              first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
            else {
              throw Failure(
                message: "expected a number or null for \"value\", found \(cursor.found)")
            }
            value = try Self.number(&cursor)
          }
        case "source":
          guard !seenSource else { throw Failure(message: "the key \"source\" appears twice") }
          seenSource = true
          if cursor.current == UInt8(ascii: "n") {
            try Self.literal("null", &cursor)
          } else {
            guard cursor.current == UInt8(ascii: "\"") else {
              throw Failure(message: "expected a string for \"source\", found \(cursor.found)")
            }
            let text = try Self.string(&cursor, into: &skipScratch)
            guard let named = EventSource(bytes: text) else {
              throw Failure(
                message: "expected \(EventSource.expected) for \"source\", found \(quoted(text))")
            }
            source = named
          }
        default:
          try skipValue(&cursor, depth: 0)
        }
        cursor.skipSpace()
        if cursor.current == UInt8(ascii: ",") {
          cursor.index += 1
          continue
        }
        guard cursor.current == UInt8(ascii: "}") else {
          throw Failure(message: "expected ',' or '}' after a value, found \(cursor.found)")
        }
        cursor.index += 1
        break
      }
    }
    cursor.skipSpace()
    guard cursor.current == nil else {
      throw Failure(message: "expected the end of the line after the object, found \(cursor.found)")
    }
    guard let timestamp else { throw Failure(message: "expected a \"timestamp\" key, found none") }
    guard let event else { throw Failure(message: "expected an \"event\" key, found none") }
    return Fields(
      timestamp: timestamp, event: event, value: value,
      note: note ?? UnsafeRawBufferPointer(start: nil, count: 0), source: source)
  }

  private static func literal(_ word: StaticString, _ cursor: inout Cursor) throws {
    let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard cursor.index + expected.count <= cursor.bytes.count,
      cursor.bytes[cursor.index..<(cursor.index + expected.count)].elementsEqual(expected)
    else { throw Failure(message: "expected \(word), found \(cursor.found)") }
    cursor.index += expected.count
  }

  /// A string at the cursor: a slice of the line when it has no escapes, else its unescaped copy.
  private static func string(_ cursor: inout Cursor, into scratch: inout ByteScratch) throws
    -> UnsafeRawBufferPointer
  {
    cursor.index += 1
    let start = cursor.index
    var escaped = false
    while let byte = cursor.current, byte != UInt8(ascii: "\"") {
      if byte == UInt8(ascii: "\\") {
        escaped = true
        cursor.index += 1
      } else if byte < 0x20 {
        throw Failure(
          message: "expected an escape sequence for a control character inside a string")
      }
      cursor.index += 1
    }
    guard cursor.current == UInt8(ascii: "\"") else {
      throw Failure(message: "expected a closing double quote, found the end of the line")
    }
    let raw = UnsafeRawBufferPointer(rebasing: cursor.bytes[start..<cursor.index])
    cursor.index += 1
    guard escaped else { return raw }
    scratch.reset()
    var index = 0
    while index < raw.count {
      let byte = raw[index]
      guard byte == UInt8(ascii: "\\") else {
        scratch.append(byte)
        index += 1
        continue
      }
      let code = raw[index + 1]
      index += 2
      if let byte = JSONEscapes.byte(for: code) {
        scratch.append(byte)
        continue
      }
      switch code {
      case UInt8(ascii: "u"):
        var scalar = try Self.hex4(raw, at: index)
        index += 4
        if JSONEscapes.isHighSurrogate(scalar) {
          guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"),
            raw[index + 1] == UInt8(ascii: "u")
          else { throw Failure(message: "expected a low surrogate after \\u\(Self.hex(scalar))") }
          let low = try Self.hex4(raw, at: index + 2)
          guard JSONEscapes.isLowSurrogate(low) else {
            throw Failure(message: "expected a low surrogate after \\u\(Self.hex(scalar))")
          }
          scalar = JSONEscapes.scalar(high: scalar, low: low)
          index += 6
        } else if JSONEscapes.isLowSurrogate(scalar) {
          throw Failure(message: "expected a high surrogate before \\u\(Self.hex(scalar))")
        }
        for byte in String(Character(Unicode.Scalar(scalar)!)).utf8 { scratch.append(byte) }
      default:
        throw Failure(
          message:
            "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u), found '\\\(Character(Unicode.Scalar(code)))'"
        )
      }
    }
    return scratch.bytes
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private static func hex4(_ raw: UnsafeRawBufferPointer, at index: Int) throws -> UInt32 {
    guard index + 4 <= raw.count else {
      throw Failure(message: "expected four hex digits after \\u")
    }
    var value: UInt32 = 0
    for byte in raw[index..<(index + 4)] {
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw Failure(message: "expected four hex digits after \\u")
      }
      value = value << 4 | digit
    }
    return value
  }

  private static func number(_ cursor: inout Cursor) throws -> Double {
    let start = cursor.index
    while let byte = cursor.current,
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
        || byte == UInt8(ascii: "E")
    {
      cursor.index += 1
    }
    let text = UnsafeRawBufferPointer(rebasing: cursor.bytes[start..<cursor.index])
    guard let value = parseNumber(text) else {
      throw Failure(message: "expected a number for \"value\", found \(quoted(text))")
    }
    return value
  }

  private mutating func skipValue(_ cursor: inout Cursor, depth: Int) throws {
    guard depth < 64 else { throw Failure(message: "expected values nested at most 64 deep") }
    cursor.skipSpace()
    switch cursor.current {
    case UInt8(ascii: "\"")?:
      _ = try Self.string(&cursor, into: &skipScratch)
    case UInt8(ascii: "t")?: try Self.literal("true", &cursor)
    case UInt8(ascii: "f")?: try Self.literal("false", &cursor)
    case UInt8(ascii: "n")?: try Self.literal("null", &cursor)
    case UInt8(ascii: "{")?, UInt8(ascii: "[")?:
      let close = cursor.current == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      let isObject = close == UInt8(ascii: "}")
      cursor.index += 1
      cursor.skipSpace()
      if cursor.current == close {
        cursor.index += 1
        return
      }
      while true {
        if isObject {
          cursor.skipSpace()
          guard cursor.current == UInt8(ascii: "\"") else {
            throw Failure(message: "expected a key in double quotes, found \(cursor.found)")
          }
          _ = try Self.string(&cursor, into: &skipScratch)
          cursor.skipSpace()
          guard cursor.current == UInt8(ascii: ":") else {
            throw Failure(message: "expected ':' after a key, found \(cursor.found)")
          }
          cursor.index += 1
        }
        try skipValue(&cursor, depth: depth + 1)
        cursor.skipSpace()
        if cursor.current == UInt8(ascii: ",") {
          cursor.index += 1
          continue
        }
        guard cursor.current == close else {
          throw Failure(
            message: "expected ',' or '\(Character(Unicode.Scalar(close)))', found \(cursor.found)")
        }
        cursor.index += 1
        return
      }
    default:
      guard let first = cursor.current,
        first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
      else { throw Failure(message: "expected a JSON value, found \(cursor.found)") }
      _ = try Self.number(&cursor)
    }
  }
}
