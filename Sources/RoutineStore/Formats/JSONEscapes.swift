/// The escapes of JSON strings (RFC 8259, section 7), shared by the line parser of event files
/// and the reader of definition files.
enum JSONEscapes {
  /// The byte a one-character escape stands for (`n` for a line feed), or `nil` for `u` and for
  /// what is no escape.
  static func byte(for code: UInt8) -> UInt8? {
    switch code {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): code
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }

  /// Whether a `\u` escape is the first half of a surrogate pair.
  static func isHighSurrogate(_ unit: UInt32) -> Bool { (0xD800...0xDBFF).contains(unit) }

  /// Whether a `\u` escape is the second half of a surrogate pair.
  static func isLowSurrogate(_ unit: UInt32) -> Bool { (0xDC00...0xDFFF).contains(unit) }

  /// The scalar a surrogate pair stands for.
  static func scalar(high: UInt32, low: UInt32) -> UInt32 {
    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
  }
}
