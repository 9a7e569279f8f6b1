import Foundation
import RoutineCore

/// What the CSV and JSON array readers share for files read through `--columns`: a declared
/// date pattern, a fixed text, a header repeated inside the file.
enum ColumnReading {
  /// Why a timestamp did not follow the declared pattern.
  enum PatternProblem: Error {
    /// The text does not follow the pattern (or is no valid date and time).
    case mismatch
    /// A local time, and no zone to read it in: the ISO 8601 text it was read as.
    case local(String)
  }

  /// The timestamp of `date` (and `time`, joined by a space) read by `pattern`.
  static func patterned(
    _ pattern: DatePattern, date: UnsafeRawBufferPointer, time: UnsafeRawBufferPointer?,
    timestamps: inout TimestampParser
  ) -> Result<Timestamp, PatternProblem> {
    let text: String?
    if let time {
      var joined = Array(date)
      joined.append(0x20)
      joined.append(contentsOf: time)
      text = joined.withUnsafeBytes { pattern.isoText($0) }
    } else {
      text = pattern.isoText(date)
    }
    guard var text else { return .failure(.mismatch) }
    if let parsed = text.withUTF8({ timestamps.parse(UnsafeRawBufferPointer($0)) }) {
      return .success(parsed)
    }
    return .failure(.local(text.replacingOccurrences(of: "T", with: " ")))
  }

  /// The message for a timestamp that does not follow `pattern`.
  static func message(
    _ problem: PatternProblem, pattern: DatePattern, date: UnsafeRawBufferPointer,
    time: UnsafeRawBufferPointer?, dateLabel: String?, timeLabel: String?
  ) -> String {
    let column =
      dateLabel.map { date in
        timeLabel.map { "columns '\(date)' and '\($0)': " } ?? "column '\(date)': "
      } ?? ""
    switch problem {
    case .mismatch:
      var found = quoted(date)
      if let time {
        var joined = Array(date)
        joined.append(0x20)
        joined.append(contentsOf: time)
        found = joined.withUnsafeBytes { quoted($0) }
      }
      return
        "\(column)expected a date and time in the pattern '\(pattern.text)' (--date-format), found \(found)"
    case .local(let text):
      return
        "\(column)expected a time with a UTC offset, found the local time '\(text)' "
        + "(give --assume-zone ZONE to read local times)"
    }
  }

  /// Whether the record's fields are the header's names again (`header`, in lower case).
  static func repeatsHeader(
    _ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, _ header: [String]
  ) -> Bool {
    guard !header.isEmpty, parser.fieldCount == header.count else { return false }
    var scratch = ByteScratch()
    defer { scratch.deallocate() }
    for index in 0..<header.count {
      let bytes = trim(parser.bytes(of: parser.fields[index], in: window, scratch: &scratch))
      guard String(decoding: bytes, as: UTF8.self).lowercased() == header[index] else {
        return false
      }
    }
    return true
  }

  /// `bytes` in `scratch`, valid until its next change.
  static func copy(_ bytes: [UInt8], into scratch: inout ByteScratch) -> UnsafeRawBufferPointer {
    scratch.reset()
    for byte in bytes { scratch.append(byte) }
    return scratch.bytes
  }
}
