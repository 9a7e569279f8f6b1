/// The invisible characters that reorder text around them: Unicode's explicit bidirectional
/// formatting characters (the marks LRM, RLM and the Arabic letter mark, the embeddings and
/// overrides U+202A-202E, the isolates U+2066-2069).
///
/// A kind named with a right-to-left override shows "Coffee" as "eeffoC" and can make the words
/// after it read backwards. Output that has no visible escape for them (a page, a status bar, a
/// calendar) drops them; terminal output shows them as `\u{202E}`, and JSON keeps them escaped.
public enum BidiControls {
  /// Whether `scalar` is one of them.
  @inline(__always)
  public static func contains(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` without them.
  public static func removed(from text: String) -> String {
    // Every one of them is encoded in UTF-8 from a lead byte 0xD8 (U+061C) or 0xE2.
    guard text.utf8.contains(where: { $0 == 0xD8 || $0 == 0xE2 }) else { return text }
    var scalars = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !contains(scalar) { scalars.append(scalar) }
    return String(scalars)
  }
}
