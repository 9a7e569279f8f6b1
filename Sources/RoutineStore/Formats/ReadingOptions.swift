/// How to read another application's file beyond its columns (docs/formats.md, "Other apps'
/// CSV"): a declared date pattern, a thousands separator, lines before the header.
public struct ReadingOptions: Sendable, Equatable {
  /// The pattern of the timestamp columns (`--date-format`), instead of the forms routine
  /// recognises.
  public var datePattern: DatePattern?
  /// The thousands separator of numbers (`--thousands`): `,` `.` `'` or a space. With `.`, a
  /// comma is the decimal separator (`1.250,5`).
  public var thousands: UInt8?
  /// Lines before the header to skip (`--skip-lines`): a title, an export's preamble.
  public var skipLines: Int

  /// Options; the defaults read a file as routine's own.
  public init(datePattern: DatePattern? = nil, thousands: UInt8? = nil, skipLines: Int = 0) {
    self.datePattern = datePattern
    self.thousands = thousands
    self.skipLines = skipLines
  }

  /// The separators `--thousands` takes.
  public static let thousandsSeparators: [Character] = [",", ".", "'", " "]

  /// `bytes` as a number, its thousands separators (``thousands``) dropped; `nil` when it is
  /// no number, or a separator is not between groups of three digits.
  func number(_ bytes: UnsafeRawBufferPointer, scratch: inout ByteScratch) -> Double? {
    guard let thousands else { return parseNumber(bytes) }
    scratch.reset()
    // Digits since the last separator, and whether one was seen: "1,25" or ",250" are no
    // thousands, and reading them as such would be a guess.
    var digits = 0
    var grouped = false
    var decimal = false
    for byte in bytes {
      if byte == thousands, !decimal {
        guard digits > 0, !grouped || digits == 3 else { return nil }
        if grouped || digits <= 3 {
          grouped = true
          digits = 0
          continue
        }
        return nil
      }
      if thousands == UInt8(ascii: "."), byte == UInt8(ascii: ",") {
        guard !grouped || digits == 3 else { return nil }
        decimal = true
        scratch.append(UInt8(ascii: "."))
        continue
      }
      if byte == UInt8(ascii: ".") {
        guard !grouped || digits == 3 else { return nil }
        decimal = true
      }
      if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { digits += 1 }
      scratch.append(byte)
    }
    guard !grouped || decimal || digits == 3 else { return nil }
    return parseNumber(scratch.bytes)
  }
}
