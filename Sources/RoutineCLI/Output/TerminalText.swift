/// Text from outside (event names, notes, file names) made safe to show on a terminal.
///
/// A name logged with an escape sequence in it must not recolour, retitle or clear the user's
/// terminal, and a right-to-left override must not make one name look like another. So text
/// output shows every control character as an escape: `\n`, `\r`, `\t`, `\x1B` for the other
/// C0 controls and DEL, `\u{9B}` for C1 controls and for the invisible bidirectional and
/// zero-width formatting characters. JSON output escapes them by JSON's own rules.
enum TerminalText {
  /// `text` with control and bidirectional formatting characters escaped.
  static func escaped(_ text: String) -> String {
    guard !isPlain(text, allowingLineBreaks: false) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar.value {
      case 0x0A: result += "\\n"
      case 0x0D: result += "\\r"
      case 0x09: result += "\\t"
      case 0..<0x20, 0x7F: result += hexEscape(UInt8(scalar.value))
      default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return result
  }

  /// `\x1B`: one byte in hex.
  static func hexEscape(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "\\x" + (digits.count == 1 ? "0" : "") + digits
  }

  /// Whether `text` certainly holds nothing to escape (line breaks aside when allowed): no byte
  /// below 0x20, no DEL, and none of 0xC2, 0xD8, 0xE2 and 0xEF, which lead the UTF-8 encodings
  /// of the C1 controls and of the formatting characters (0xD8 the Arabic letter mark's). A byte
  /// loop over the contiguous UTF-8: text output passes every line through here.
  @inline(__always)
  static func isPlain(_ text: String, allowingLineBreaks: Bool) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for byte in bytes {
        if byte < 0x20 {
          if allowingLineBreaks && byte == 0x0A { continue }
          return false
        }
        if byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF {
          return false
        }
      }
      return true
    }
  }

  /// Whether `scalar` must not reach a terminal raw: C0 and C1 controls, DEL, and the
  /// characters that reorder or hide text (every explicit bidirectional formatting character
  /// of Unicode's bidi algorithm: the marks LRM, RLM and the Arabic letter mark, embeddings,
  /// overrides and isolates; zero-width spaces and joiners; the line and paragraph separators;
  /// the byte order mark).
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F: true
    case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF: true
    default: false
    }
  }
}
