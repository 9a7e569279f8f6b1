/// A JSON value whose objects keep their keys in the order given, so that output is stable and
/// matches the documented shapes.
public indirect enum JSON: Sendable, Equatable {
  case object([(String, JSON)])
  case array([JSON])
  case string(String)
  case integer(Int)
  case number(Double)
  case bool(Bool)
  case null

  /// Whether the two are the same.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    lhs.serialized() == rhs.serialized()
  }

  /// A string, or null.
  public static func optional(_ text: String?) -> JSON { text.map(JSON.string) ?? .null }
  /// A number, or null.
  public static func optional(_ value: Double?) -> JSON { value.map(JSON.number) ?? .null }
  /// A number rounded to `places` decimals, or null.
  public static func rounded(_ value: Double?, places: Int) -> JSON {
    guard let value else { return .null }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return .number((value * scale).rounded() / scale)
  }

  /// The value as text, pretty-printed with two-space indentation; with `indent`, as it reads
  /// nested that deep (its first line not indented: the caller has placed it).
  public func serialized(indent: Int = 0) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    write(to: &bytes, indent: indent)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The value as text on one line, without spaces: one record of JSON Lines.
  public func compact() -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    writeCompact(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func writeCompact(to bytes: inout [UInt8]) {
    switch self {
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSON.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.writeCompact(to: &bytes)
      }
      bytes.append(UInt8(ascii: "}"))
    case .array(let items):
      bytes.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        item.writeCompact(to: &bytes)
      }
      bytes.append(UInt8(ascii: "]"))
    default:
      write(to: &bytes, indent: 0)
    }
  }

  private static func newline(_ bytes: inout [UInt8], indent: Int) {
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(0x20, count: indent))
  }

  private func write(to bytes: inout [UInt8], indent: Int) {
    switch self {
    case .object(let members):
      guard !members.isEmpty else { return bytes.append(contentsOf: "{}".utf8) }
      bytes.append(UInt8(ascii: "{"))
      for (index, (key, value)) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSON.newline(&bytes, indent: indent + 2)
        JSON.writeString(key, to: &bytes)
        bytes.append(contentsOf: ": ".utf8)
        value.write(to: &bytes, indent: indent + 2)
      }
      JSON.newline(&bytes, indent: indent)
      bytes.append(UInt8(ascii: "}"))
    case .array(let items):
      guard !items.isEmpty else { return bytes.append(contentsOf: "[]".utf8) }
      bytes.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        JSON.newline(&bytes, indent: indent + 2)
        item.write(to: &bytes, indent: indent + 2)
      }
      JSON.newline(&bytes, indent: indent)
      bytes.append(UInt8(ascii: "]"))
    case .string(let value): JSON.writeString(value, to: &bytes)
    case .integer(let value): bytes.append(contentsOf: String(value).utf8)
    case .number(let value): bytes.append(contentsOf: JSON.format(value).utf8)
    case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
    case .null: bytes.append(contentsOf: "null".utf8)
    }
  }

  /// A finite number in its shortest round-tripping form; whole numbers without a fraction.
  static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }

  /// A JSON string literal, appended to `text`.
  static func writeString(_ value: String, to text: inout String) {
    var bytes: [UInt8] = []
    writeString(value, to: &bytes)
    text += String(decoding: bytes, as: UTF8.self)
  }

  /// A JSON string literal as UTF-8. Text without quotes, backslashes or control characters (the
  /// usual case) is copied in one go. Besides what JSON requires, DEL, C1 controls and the
  /// invisible bidirectional formatting characters are written as `\u` escapes, so that JSON
  /// shown on a terminal cannot drive it either (see ``TerminalText``).
  static func writeString(_ value: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    let utf8 = value.utf8
    // 0xC2, 0xD8, 0xE2 and 0xEF lead the UTF-8 encodings of C1 controls and of the formatting
    // characters; text without them (and without the ASCII specials) needs no escaping.
    if !utf8.contains(where: {
      $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F
        || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 || $0 == 0xEF
    }) {
      bytes.append(contentsOf: utf8)
    } else {
      for scalar in value.unicodeScalars {
        switch scalar.value {
        case 0x22: bytes.append(contentsOf: "\\\"".utf8)
        case 0x5C: bytes.append(contentsOf: "\\\\".utf8)
        case 0x0A: bytes.append(contentsOf: "\\n".utf8)
        case 0x0D: bytes.append(contentsOf: "\\r".utf8)
        case 0x09: bytes.append(contentsOf: "\\t".utf8)
        case _ where TerminalText.needsEscape(scalar):
          let hex = String(scalar.value, radix: 16)
          bytes.append(
            contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
        default: UTF8.encode(scalar) { bytes.append($0) }
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
