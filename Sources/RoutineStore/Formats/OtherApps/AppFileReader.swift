import Foundation
import RoutineCore

/// Reads the export of another app (``AppFormat``) into ``AppRecords``, streaming CSV one record
/// at a time (memory stays at the chunk size plus what the records hold).
///
/// Local times (every one of these apps writes them without a UTC offset, but Health Auto
/// Export) are read in the zone the file names where it has one (Sleep as Android's `Tz`),
/// else in ``zone``, by the rules of docs/time.md. A record that cannot be read is an error
/// naming the file, the line and what was expected, or is skipped and reported with
/// ``skipsInvalid``, as for routine's own CSV.
public struct AppFileReader: Sendable {
  /// The path as the user named it (used in messages; `-` is standard input).
  public let path: String
  /// The app whose export it is.
  public let format: AppFormat
  /// Whether invalid records are skipped (and reported in the summary) instead of thrown.
  public let skipsInvalid: Bool
  /// The zone local times are read in when the file names none.
  public let zone: Zone
  /// The zone a file names (Sleep as Android's `Tz` column), or `nil` when unknown.
  public let zoneNamed: @Sendable (String) -> Zone?

  /// A reader of `path` as an export of `format`.
  public init(
    path: String, format: AppFormat, skipsInvalid: Bool = false, zone: Zone,
    zoneNamed: @escaping @Sendable (String) -> Zone?
  ) {
    self.path = path
    self.format = format
    self.skipsInvalid = skipsInvalid
    self.zone = zone
    self.zoneNamed = zoneNamed
  }

  /// What reading found besides the records.
  public struct Summary: Sendable, Equatable {
    /// Records (rows, entries or objects) read, valid or not.
    public var records = 0
    /// Invalid records skipped (with ``skipsInvalid``).
    public var invalid: [FormatError] = []
  }

  /// The largest JSON export read (they are read whole): 256 MiB.
  public static let maximumJSONBytes = 256 << 20

  /// Reads every record into `records`. Throws `FileError` when the file cannot be read and
  /// `FormatError` for the first invalid record (unless skipping) or a file of another shape.
  public func read(into records: inout AppRecords) throws -> Summary {
    var summary = Summary()
    switch format {
    case .sleepAsAndroid: try readSleepAsAndroid(into: &records, &summary)
    case .fitbit: try readFitbit(into: &records, &summary)
    case .garmin: try readGarmin(into: &records, &summary)
    case .healthAutoExport: try readHealthAutoExport(into: &records, &summary)
    case .daylio: try readDaylio(into: &records, &summary)
    }
    return summary
  }

  /// Throws `error`, or records it as skipped.
  func fail(_ error: FormatError, _ summary: inout Summary) throws {
    guard skipsInvalid else { throw error }
    summary.invalid.append(error)
  }

  /// An error at `line`.
  func error(_ line: Int, _ message: String) -> FormatError {
    FormatError(file: path, line: line, message: message)
  }

  // MARK: CSV

  /// Calls `body` with each CSV record of the file (blank lines skipped, a byte order mark
  /// allowed), in order; a record that breaks the quoting rules is an invalid record.
  func forEachRow(
    _ summary: inout Summary, _ body: (CSVRow, inout Summary) throws -> Void
  ) throws {
    let file = try ChunkedFile(path: path)
    var parser = CSVRecordParser()
    defer { parser.deallocate() }
    var line = 1
    try fill(file, line: line)
    let head = file.unread
    if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { file.start += 3 }
    while true {
      let atEnd = file.isAtEnd
      let window = file.unread
      var offset = 0
      parsing: while offset < window.count {
        switch parser.parse(window, from: offset, isAtEnd: atEnd) {
        case .needMore:
          break parsing
        case .blank(let next):
          line += 1
          offset = next
        case .malformed(let problem, let position, let next, let newlines):
          summary.records += 1
          try fail(
            error(line, CSVRecordParser.message(problem, at: position, in: window)), &summary)
          line += newlines
          offset = next
        case .record(let next, let newlines):
          try body(CSVRow(line: line, parser: parser, window: window), &summary)
          line += newlines
          offset = next
        }
      }
      file.start += offset
      if atEnd { return }
      try fill(file, line: line)
    }
  }

  /// Reads more of `file`; a record longer than the buffer is an error at `line`.
  private func fill(_ file: ChunkedFile, line: Int) throws {
    do {
      _ = try file.fill()
    } catch is ChunkedFile.RecordTooLong {
      throw error(
        line,
        "expected a record of at most 1 MiB, found a longer one; is this a \(format.appName) export?"
      )
    }
  }

  // MARK: JSON

  /// The whole file parsed as JSON, and the line each object starts on, in document order.
  func readJSON() throws -> (JSONValue, [Int]) {
    let file = try ChunkedFile(path: path)
    var bytes: [UInt8] = []
    while try file.fill() || !file.unread.isEmpty {
      bytes.append(contentsOf: file.unread)
      file.start = file.end
      if bytes.count > Self.maximumJSONBytes {
        throw error(1, "expected a JSON export of at most 256 MiB, found a larger file")
      }
      if file.isAtEnd { break }
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    do {
      return (try JSONValue.parse(bytes), Self.objectLines(bytes))
    } catch {
      throw self.error(error.line, error.message)
    }
  }

  /// How messages show a JSON value: a string or number as written, else what it is.
  static func shown(_ value: JSONValue?) -> String {
    switch value {
    case nil: "nothing"
    case .string(let text)?: "\"\(text.count > 60 ? text.prefix(60) + "..." : Substring(text))\""
    case .integer(let number)?: "\(number)"
    case .number(let number)?: "\(number)"
    case .bool(let flag)?: "\(flag)"
    case .null?: "null"
    case .object?: "an object"
    case .array?: "an array"
    }
  }

  /// The line of every `{` outside strings, in order: the n-th object a walk of the parsed
  /// document meets (objects before their members) starts on the n-th of these lines.
  static func objectLines(_ bytes: [UInt8]) -> [Int] {
    var lines: [Int] = []
    var line = 1
    var inString = false
    var escaped = false
    for byte in bytes {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") {
        lines.append(line)
      }
      if byte == 0x0A { line += 1 }
    }
    return lines
  }
}

/// One CSV record, valid during the callback that receives it.
struct CSVRow {
  /// The line it starts on.
  let line: Int
  let parser: CSVRecordParser
  let window: UnsafeRawBufferPointer

  /// How many fields it has.
  var count: Int { parser.fieldCount }

  /// Field `index` as text, trimmed unless quoted; empty when the record is shorter.
  func text(_ index: Int) -> String {
    guard index >= 0, index < min(count, parser.fields.count) else { return "" }
    let field = parser.fields[index]
    let bytes = UnsafeRawBufferPointer(rebasing: window[field.start..<field.end])
    var text = String(decoding: field.isQuoted ? bytes : trim(bytes), as: UTF8.self)
    if field.hasEscapes { text = text.replacingOccurrences(of: "\"\"", with: "\"") }
    return text
  }

  /// The first fields, as text (for headers).
  func texts() -> [String] {
    (0..<min(count, parser.fields.count)).map { text($0).trimmingSpaces }
  }
}

/// The columns of a header, found by name.
struct HeaderColumns {
  let names: [String]
  private let index: [String: Int]

  init(_ names: [String]) {
    self.names = names
    var index: [String: Int] = [:]
    for (position, name) in names.enumerated() where index[name.lowercased()] == nil {
      index[name.lowercased()] = position
    }
    self.index = index
  }

  /// The position of the column `name` (case-insensitive), or `nil`.
  subscript(_ name: String) -> Int? { index[name.lowercased()] }
}
