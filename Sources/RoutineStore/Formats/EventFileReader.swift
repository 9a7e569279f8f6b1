import Foundation
import RoutineCore

/// Thrown by a sink that cannot accept a record; the reader reports it like any invalid line
/// (with the file and line) or skips it when asked to.
public struct RecordRejection: Error {
  /// What was expected and what was found.
  public var message: String

  /// A rejection saying `message`.
  public init(_ message: String) {
    self.message = message
  }
}

/// Receives the records of a file as they are read.
public protocol RecordSink {
  /// A valid record. Its byte buffers are valid only during the call. Throw ``RecordRejection``
  /// to refuse it.
  mutating func consume(_ record: RawRecord) throws
  /// An invalid record, skipped because the reader was asked to skip invalid records.
  mutating func skip(_ error: FormatError)
}

/// Reads events from a CSV or JSON Lines file, streaming: memory stays at the chunk size.
///
/// CSV needs a header naming the columns `timestamp` and `event`, optionally `value` and `note`,
/// in any order; fields follow RFC 4180 (double quotes around fields with commas, quotes or line
/// breaks; `""` for a quote inside). JSON Lines has one object per line with the keys
/// `timestamp`, `event` and optionally `value` (number or null) and `note` (string or null);
/// other keys are ignored. Both may carry a `source` (`cli`, `import` or `notification`), as
/// exports do. Blank lines are skipped; a UTF-8 byte order mark is allowed.
///
/// Another application's CSV is read through a ``ColumnMapping`` (its date and time columns
/// joined); timestamps that are not ISO 8601 are read by ``LooseDateTime`` (in any file: the
/// plain path pays for it only when the ISO parse fails).
public struct EventFileReader: Sendable {
  /// The path as the user named it (used in messages).
  public let path: String
  /// The format, or `nil` to guess from the extension and then the first byte.
  public let format: EventFileFormat?
  /// Whether invalid records are reported to the sink and skipped instead of thrown.
  public let skipsInvalid: Bool
  /// The zone timestamps without a UTC offset are read in (by the rules of docs/time.md); `nil`
  /// rejects them.
  public let assumedZone: Zone?
  /// Which CSV columns hold which fields; `nil` for routine's own header names.
  public let columns: ColumnMapping?
  /// The order of numeric dates whose day and month could be swapped; `nil` refuses them.
  public let dateOrder: DateOrder?
  /// A declared date pattern, thousands separator and preamble.
  public let options: ReadingOptions

  /// A reader for `path` (`-` is standard input).
  public init(
    path: String, format: EventFileFormat? = nil, skipsInvalid: Bool = false,
    assumedZone: Zone? = nil, columns: ColumnMapping? = nil, dateOrder: DateOrder? = nil,
    options: ReadingOptions = ReadingOptions()
  ) {
    self.path = path
    self.format = format
    self.skipsInvalid = skipsInvalid
    self.assumedZone = assumedZone
    self.columns = columns
    self.dateOrder = dateOrder
    self.options = options
  }

  /// The longest record (a line, or for CSV the lines of one quoted record): 1 MiB.
  public static let maximumRecordBytes = ChunkedFile.chunkSize

  /// Reads every record into `sink`. Throws `FileError` when the file cannot be read and
  /// `FormatError` for the first invalid record (unless skipping), or for a bad CSV header.
  public func read<Sink: RecordSink>(into sink: inout Sink) throws {
    let (file, format) = try open()
    if format == .jsonl, readsArray(file.unread) {
      try readJSONArray(file, into: &sink)
      return
    }
    switch format {
    case .csv:
      var state = CSVState(zone: assumedZone, order: dateOrder, preamble: options.skipLines)
      defer { state.deallocate() }
      _ = try scanCSV(file, &state, until: .endOfFile, into: &sink)
    case .jsonl:
      var state = JSONState(zone: assumedZone, order: dateOrder)
      defer { state.deallocate() }
      _ = try scanJSONL(file, &state, until: .endOfFile, into: &sink)
    }
  }

  /// Opens the file, skips a byte order mark, and settles the format.
  func open() throws -> (ChunkedFile, EventFileFormat) {
    let file = try ChunkedFile(path: path)
    _ = try file.fill()
    let head = file.unread
    if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { file.start += 3 }
    // A file of another kind is named for what it is before any line is parsed: a database's
    // first bytes may hold a quote, which the CSV parser would report instead.
    if let hint = Self.foreignFormat(file.unread) {
      throw FormatError(
        file: path, line: 1,
        message: "expected \(format?.rawValue.uppercased() ?? "CSV or JSON Lines") events; \(hint)")
    }
    let format = format ?? EventFileFormat.guess(fromPath: path) ?? sniff(file.unread)
    if format == .jsonl, columns != nil, !readsArray(file.unread) {
      // Named keys have no columns to map: ignoring --columns would import something else
      // than what was asked for.
      throw FormatError(
        file: path, line: 1,
        message:
          "expected CSV, whose columns --columns names; found JSON Lines, whose keys are "
          + "timestamp, event, value, note and source (import it without --columns)")
    }
    return (file, format)
  }

  /// The offset just after the first line break at or after `offset`, or `nil` when there is
  /// none before `size`.
  func lineStart(after offset: Int64, in size: Int64) throws -> Int64? {
    let probe = try ChunkedFile(path: path)
    probe.restrict(to: offset..<size)
    while try probe.fill() || !probe.unread.isEmpty {
      if let index = probe.unread.firstIndex(of: 0x0A) {
        let position = probe.unreadOffset + Int64(index) + 1
        return position < size ? position : nil
      }
      probe.start = probe.end
      if probe.isAtEnd { return nil }
    }
    return nil
  }

  func sniff(_ bytes: UnsafeRawBufferPointer) -> EventFileFormat {
    for byte in bytes where !isSpace(byte) && byte != 0x0A && byte != 0x0D {
      return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") ? .jsonl : .csv
    }
    return .csv
  }

  func fail<Sink: RecordSink>(_ error: FormatError, _ sink: inout Sink) throws {
    guard skipsInvalid else { throw error }
    sink.skip(error)
  }

  // MARK: Fields

  /// What is wrong with a timestamp; a local time gets the hint that reads it.
  func timestampProblem(_ bytes: UnsafeRawBufferPointer, field: String) -> String {
    let found = bytes.isEmpty ? "an empty field" : quoted(bytes)
    if let assumedZone {
      // Local times are welcome here: the message must not ask for the option already given.
      return "expected \(Timestamp.expectedFormat), or a local date and time like "
        + "2026-04-20 07:05 or 2026-04-20T07:05:00 (read in \(assumedZone.identifier))\(field), "
        + "found \(found)"
    }
    var message = "expected \(Timestamp.expectedFormat)\(field), found \(found)"
    if TimestampParser.isLocalTime(bytes) {
      message += ", a local time without offset (give --assume-zone ZONE to read local times)"
    }
    return message
  }

  /// The kind's encoding is checked by the sink when it meets a name for the first time
  /// (``eventKind(_:)``): names repeat millions of times, validating each once is enough.
  func checkText(kind: UnsafeRawBufferPointer, note: UnsafeRawBufferPointer) -> String? {
    if kind.isEmpty { return "expected an event name, found an empty field" }
    if !note.isEmpty, !isValidUTF8(note) {
      return "expected UTF-8 text for the note, found invalid bytes"
    }
    return nil
  }
}
