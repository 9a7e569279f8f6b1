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

  /// The value as text, pretty-printed with two-space indentation.
  public func serialized() -> String {
    var text = ""
    write(to: &text, indent: 0)
    return text
  }

  private func write(to text: inout String, indent: Int) {
    switch self {
    case .object(let members):
      if members.isEmpty {
        text += "{}"
        return
      }
      text += "{\n"
      for (index, (key, value)) in members.enumerated() {
        text += String(repeating: " ", count: indent + 2)
        JSON.writeString(key, to: &text)
        text += ": "
        value.write(to: &text, indent: indent + 2)
        text += index + 1 < members.count ? ",\n" : "\n"
      }
      text += String(repeating: " ", count: indent) + "}"
    case .array(let items):
      if items.isEmpty {
        text += "[]"
        return
      }
      text += "[\n"
      for (index, item) in items.enumerated() {
        text += String(repeating: " ", count: indent + 2)
        item.write(to: &text, indent: indent + 2)
        text += index + 1 < items.count ? ",\n" : "\n"
      }
      text += String(repeating: " ", count: indent) + "]"
    case .string(let value): JSON.writeString(value, to: &text)
    case .integer(let value): text += String(value)
    case .number(let value): text += JSON.format(value)
    case .bool(let value): text += value ? "true" : "false"
    case .null: text += "null"
    }
  }

  /// A finite number in its shortest round-tripping form; whole numbers without a fraction.
  static func format(_ value: Double) -> String {
    guard value.isFinite else { return "null" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    return "\(value)"
  }

  /// A JSON string literal.
  static func writeString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}
