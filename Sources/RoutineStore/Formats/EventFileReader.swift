import Dispatch
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

  /// A reader for `path` (`-` is standard input).
  public init(
    path: String, format: EventFileFormat? = nil, skipsInvalid: Bool = false,
    assumedZone: Zone? = nil, columns: ColumnMapping? = nil, dateOrder: DateOrder? = nil
  ) {
    self.path = path
    self.format = format
    self.skipsInvalid = skipsInvalid
    self.assumedZone = assumedZone
    self.columns = columns
    self.dateOrder = dateOrder
  }

  /// The longest record (a line, or for CSV the lines of one quoted record): 1 MiB.
  public static let maximumRecordBytes = ChunkedFile.chunkSize

  /// Reads every record into `sink`. Throws `FileError` when the file cannot be read and
  /// `FormatError` for the first invalid record (unless skipping), or for a bad CSV header.
  public func read<Sink: RecordSink>(into sink: inout Sink) throws {
    let (file, format) = try open()
    switch format {
    case .csv:
      var state = CSVState(zone: assumedZone, order: dateOrder)
      defer { state.deallocate() }
      _ = try scanCSV(file, &state, until: .endOfFile, into: &sink)
    case .jsonl:
      var state = JSONState(zone: assumedZone, order: dateOrder)
      defer { state.deallocate() }
      _ = try scanJSONL(file, &state, until: .endOfFile, into: &sink)
    }
  }

  /// One part of a file read in parallel: its sink, and how many lines precede the part (add it
  /// to the line numbers the sink recorded for skipped records).
  public struct Part<Sink> {
    /// The records of this part.
    public var sink: Sink
    /// Lines before the part.
    public var lineOffset: Int
  }

  /// Reads the file like ``read(into:)`` but, when it is large, in two halves on two threads,
  /// each into its own sink from `makeSink`. Records arrive in file order within each part; the
  /// parts come back in file order. Errors are the same as a sequential read's, with the same
  /// line numbers: the first invalid record in file order is the one thrown.
  public func read<Sink: RecordSink>(
    inParallel makeSink: () -> Sink, minimumSize: Int64 = 4 << 20
  ) throws -> [Part<Sink>] {
    let (file, format) = try open()
    var first = Part(sink: makeSink(), lineOffset: 0)
    var csv = CSVState(zone: assumedZone, order: dateOrder)
    var json = JSONState(zone: assumedZone, order: dateOrder)
    defer {
      csv.deallocate()
      json.deallocate()
    }
    if format == .csv {
      // The header first: both halves need its columns.
      _ = try scanCSV(file, &csv, until: .header, into: &first.sink)
    }
    let dataStart = file.unreadOffset
    guard file.isSeekable, csv.columns != nil || format == .jsonl,
      file.size - dataStart >= minimumSize,
      let split = try lineStart(after: dataStart + (file.size - dataStart) / 2, in: file.size)
    else {
      switch format {
      case .csv: _ = try scanCSV(file, &csv, until: .endOfFile, into: &first.sink)
      case .jsonl: _ = try scanJSONL(file, &json, until: .endOfFile, into: &first.sink)
      }
      return [first]
    }

    // The second half starts at a line break, which is a record boundary unless a quoted field
    // spans it. The first half checks that when it reaches the split: if it stopped inside a
    // record, it reads on to the end of the file and the second half's work is dropped.
    file.restrict(to: dataStart..<split)
    let second = try ChunkedFile(path: path)
    second.restrict(to: split..<file.size)
    let work = ParallelParts(first: first, second: Part(sink: makeSink(), lineOffset: 0))
    var secondCSV = CSVState(columns: csv.columns, zone: assumedZone, order: dateOrder)
    var secondJSON = JSONState(zone: assumedZone, order: dateOrder)
    defer {
      secondCSV.deallocate()
      secondJSON.deallocate()
    }
    let states = UncheckedBox((csv, json, secondCSV, secondJSON))
    let firstHalf = {
      do {
        let clean: Bool
        switch format {
        case .csv:
          clean = try scanCSV(file, &states.value.0, until: .endOfRegion, into: &work.first.sink)
        case .jsonl:
          clean = try scanJSONL(file, &states.value.1, until: .endOfRegion, into: &work.first.sink)
        }
        guard !clean else { return }
        work.spansSplit = true
        file.extendToEnd()
        switch format {
        case .csv: _ = try scanCSV(file, &states.value.0, until: .endOfFile, into: &work.first.sink)
        case .jsonl:
          _ = try scanJSONL(file, &states.value.1, until: .endOfFile, into: &work.first.sink)
        }
      } catch {
        work.firstError = error
      }
    }
    let secondHalf = {
      do {
        switch format {
        case .csv:
          _ = try scanCSV(second, &states.value.2, until: .endOfFile, into: &work.second.sink)
        case .jsonl:
          _ = try scanJSONL(second, &states.value.3, until: .endOfFile, into: &work.second.sink)
        }
      } catch {
        work.secondError = error
      }
    }
    Jobs([firstHalf, secondHalf]).runConcurrently()
    (csv, json, secondCSV, secondJSON) = states.value
    if let error = work.firstError { throw error }
    if work.spansSplit { return [work.first] }
    let offset = (format == .csv ? csv.line : json.line) - 1
    if let error = work.secondError {
      guard let format = error as? FormatError else { throw error }
      throw FormatError(file: format.file, line: format.line + offset, message: format.message)
    }
    work.second.lineOffset = offset
    return [work.first, work.second]
  }

  /// Opens the file, skips a byte order mark, and settles the format.
  private func open() throws -> (ChunkedFile, EventFileFormat) {
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
    if format == .jsonl, columns != nil {
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
  private func lineStart(after offset: Int64, in size: Int64) throws -> Int64? {
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

  private func sniff(_ bytes: UnsafeRawBufferPointer) -> EventFileFormat {
    for byte in bytes where !isSpace(byte) && byte != 0x0A && byte != 0x0D {
      return byte == UInt8(ascii: "{") ? .jsonl : .csv
    }
    return .csv
  }

  private func fail<Sink: RecordSink>(_ error: FormatError, _ sink: inout Sink) throws {
    guard skipsInvalid else { throw error }
    sink.skip(error)
  }

  // MARK: CSV

  private struct Columns {
    var timestamp = -1
    /// The time column joined to the date in `timestamp` (`--columns timestamp=Date+Time`).
    var time = -1
    var event = -1
    var value = -1
    var note = -1
    var source = -1
    var count = 0
    /// The header's names as written, for messages; empty for routine's own header.
    var names: [String] = []
    static let expected = "timestamp,event[,value][,note][,source]"

    /// How messages name column `index`: by its header when mapped, else by the field.
    func label(_ index: Int, field: String) -> String {
      names.isEmpty ? field : "column '\(names[index])'"
    }
  }

  /// Where a scan stops.
  private enum Stop {
    /// Right after the CSV header.
    case header
    /// At the end of the file's current range, reporting whether it ended between records.
    case endOfRegion
    /// At the end of the file (an incomplete last record is an error).
    case endOfFile
  }

  /// What a CSV scan carries from one region to the next.
  private struct CSVState {
    var parser = CSVRecordParser()
    var timestamps: TimestampParser
    var loose: LooseDateTime
    var line = 1
    var columns: Columns?
    var kind = ByteScratch()
    var note = ByteScratch()
    var timestamp = ByteScratch()
    var value = ByteScratch()
    var other = ByteScratch()

    init(columns: Columns? = nil, zone: Zone?, order: DateOrder?) {
      self.columns = columns
      timestamps = TimestampParser(assumingZone: zone)
      loose = LooseDateTime(order: order, zone: zone)
    }

    func deallocate() {
      parser.deallocate()
      for buffer in [kind, note, timestamp, value, other] { buffer.deallocate() }
    }
  }

  /// Scans CSV records until `stop`; returns whether the scan ended between records.
  private func scanCSV<Sink: RecordSink>(
    _ file: ChunkedFile, _ state: inout CSVState, until stop: Stop, into sink: inout Sink
  ) throws -> Bool {
    while true {
      let atEnd = file.isAtEnd
      let isFinal = atEnd && stop != .endOfRegion
      let window = file.unread
      var offset = 0
      parsing: while offset < window.count {
        if stop == .header, state.columns != nil { break parsing }
        switch state.parser.parse(window, from: offset, isAtEnd: isFinal) {
        case .needMore:
          break parsing
        case .blank(let next):
          state.line += 1
          offset = next
        case .malformed(let problem, let position, let next, let newlines):
          let message = CSVRecordParser.message(problem, at: position, in: window)
          if state.columns == nil {
            throw FormatError(file: path, line: state.line, message: message)
          }
          try fail(FormatError(file: path, line: state.line, message: message), &sink)
          state.line += newlines
          offset = next
        case .record(let next, let newlines):
          if let columns = state.columns {
            try record(
              state.parser, window, columns: columns, line: state.line, into: &sink,
              kind: &state.kind, note: &state.note, timestamp: &state.timestamp,
              value: &state.value, other: &state.other, timestamps: &state.timestamps,
              loose: &state.loose)
          } else {
            state.columns = try header(state.parser, window, line: state.line)
          }
          state.line += newlines
          offset = next
        }
      }
      file.start += offset
      if stop == .header, state.columns != nil { return true }
      if atEnd { return file.unread.isEmpty }
      try fill(file, line: state.line)
    }
  }

  /// Reads more of `file`; a record that does not fit the buffer is an error at `line`, never
  /// skipped (a file without line breaks would otherwise be read forever).
  private func fill(_ file: ChunkedFile, line: Int) throws {
    do {
      _ = try file.fill()
    } catch is ChunkedFile.RecordTooLong {
      throw FormatError(
        file: path, line: line,
        message:
          "expected a record of at most 1 MiB (\(EventFileReader.maximumRecordBytes) bytes), "
          + "found a longer one; is this an event log?")
    }
  }

  private func header(_ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, line: Int) throws
    -> Columns
  {
    var names: [String] = []
    for field in parser.fields.prefix(parser.fieldCount) {
      var scratch = ByteScratch()
      defer { scratch.deallocate() }
      names.append(
        String(
          decoding: trim(parser.bytes(of: field, in: window, scratch: &scratch)), as: UTF8.self))
    }
    if let columns { return try mapped(names, by: columns, line: line) }
    var result = Columns()
    result.count = names.count
    for (index, original) in names.enumerated() {
      let name = original.lowercased()
      let slot: WritableKeyPath<Columns, Int>
      switch name {
      case "timestamp": slot = \.timestamp
      case "event": slot = \.event
      case "value": slot = \.value
      case "note": slot = \.note
      case "source": slot = \.source
      default:
        if name.first?.isNumber == true || (index == 0 && name.hasPrefix("{")) {
          var found = "a data line"
          if name.hasPrefix("{") {
            found =
              "a JSON object: this looks like JSON Lines"
              + (format == .csv ? ", not CSV as --format says" : "; name the file .jsonl")
          }
          throw FormatError(
            file: path, line: line,
            message: "expected a header line '\(Columns.expected)', found \(found)")
        }
        throw FormatError(file: path, line: line, message: Self.unknownHeader(names))
      }
      guard result[keyPath: slot] < 0 else {
        throw FormatError(
          file: path, line: line, message: "column '\(name)' appears twice in the header")
      }
      result[keyPath: slot] = index
    }
    guard result.timestamp >= 0, result.event >= 0 else {
      let missing = result.timestamp < 0 ? "timestamp" : "event"
      throw FormatError(
        file: path, line: line,
        message: "expected a header line '\(Columns.expected)', found no '\(missing)' column")
    }
    return result
  }

  /// The message for a header of another application's names: what was found, and the
  /// `--columns` that reads it (guessed from the names), or a template to fill in.
  static func unknownHeader(_ names: [String]) -> String {
    if let first = names.first, let hint = foreignFormat(first.utf8) {
      return "expected a CSV header line '\(Columns.expected)'; \(hint)"
    }
    var found = names.map { $0.isEmpty ? "''" : $0 }.joined(separator: ", ")
    if found.count > 200 { found = found.prefix(200) + "..." }
    if names.count == 1, names[0].contains(";") || names[0].contains("\t") {
      return
        "expected the columns timestamp and event; found one column, \(found): the columns seem "
        + "to be separated by \(names[0].contains(";") ? "semicolons" : "tabs"), and routine "
        + "reads comma-separated files. Save the file from your spreadsheet as CSV with commas "
        + "(docs/formats.md#other-apps-csv)"
    }
    var message = "expected the columns timestamp and event; found \(found). "
    if let guess = ColumnMapping.guess(names) {
      message += "To read them, add: --columns \(guess.shellArgument)"
    } else {
      message +=
        "To read them, name the columns that hold each field: "
        + "--columns \"timestamp=DATE+TIME,event=NAME,value=AMOUNT,note=COMMENT\""
    }
    return message
  }

  /// What a file that is neither CSV nor JSON Lines seems to be, from its first bytes, and what
  /// reads it: an Apple Health export, a ZIP archive, a SQLite database (a store or a backup).
  static func foreignFormat<Bytes: Collection>(_ start: Bytes) -> String?
  where Bytes.Element == UInt8 {
    func starts(_ text: String) -> Bool { start.starts(with: text.utf8) }
    if starts("<?xml") || starts("<HealthData") || starts("<!DOCTYPE HealthData") {
      return
        "this looks like XML, as an Apple Health export.xml is: read it with --format apple-health"
    }
    if starts("PK\u{3}\u{4}") {
      return
        "this looks like a ZIP archive, as an Apple Health export.zip is: read it with --format apple-health"
    }
    if starts("SQLite format 3") {
      return
        "this is a SQLite database, as a routine store or backup is: use it with --store FILE, "
        + "or write its events with 'routine export --store FILE' and import those"
    }
    return nil
  }

  /// The columns of a header read through `mapping`; a header the mapping names and the file
  /// lacks is an error naming what the file has.
  private func mapped(_ names: [String], by mapping: ColumnMapping, line: Int) throws -> Columns {
    var result = Columns()
    result.count = names.count
    result.names = names
    let keys = names.map { $0.lowercased() }
    func index(_ header: String) throws -> Int {
      guard let found = keys.firstIndex(of: header.lowercased()) else {
        throw FormatError(
          file: path, line: line,
          message:
            "expected a column '\(header)' (--columns names it), found "
            + names.map { "'\($0)'" }.joined(separator: ", "))
      }
      return found
    }
    for (field, headers) in mapping.headers {
      let first = try index(headers[0])
      switch field {
      case .timestamp:
        result.timestamp = first
        if headers.count > 1 { result.time = try index(headers[1]) }
      case .event: result.event = first
      case .value: result.value = first
      case .note: result.note = first
      case .source: result.source = first
      }
    }
    return result
  }

  private func record<Sink: RecordSink>(
    _ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, columns: Columns, line: Int,
    into sink: inout Sink, kind kindScratch: inout ByteScratch, note noteScratch: inout ByteScratch,
    timestamp timestampScratch: inout ByteScratch, value valueScratch: inout ByteScratch,
    other otherScratch: inout ByteScratch, timestamps: inout TimestampParser,
    loose: inout LooseDateTime
  ) throws {
    let fields = parser.fields
    let fieldCount = parser.fieldCount
    guard fieldCount <= columns.count else {
      try fail(
        FormatError(
          file: path, line: line,
          message: "expected at most \(columns.count) fields, found \(fieldCount); "
            + "quote fields that contain commas"), &sink)
      return
    }
    let stamp = csvField(columns.timestamp, fields, fieldCount, parser, window, &timestampScratch)
    let timestamp: Timestamp
    if columns.time < 0, let parsed = timestamps.parse(stamp) {
      timestamp = parsed
    } else {
      let time =
        columns.time < 0
        ? nil : csvField(columns.time, fields, fieldCount, parser, window, &otherScratch)
      let result = time.map { loose.parse(date: stamp, time: $0) } ?? loose.parse(stamp)
      switch result {
      case .success(let parsed): timestamp = parsed
      case .failure(let problem):
        let message = looseProblem(
          problem, date: stamp, time: time,
          dateLabel: columns.names.isEmpty ? nil : columns.names[columns.timestamp],
          timeLabel: time == nil ? nil : columns.names[columns.time], field: "")
        try fail(FormatError(file: path, line: line, message: message), &sink)
        return
      }
    }
    let valueBytes = csvField(columns.value, fields, fieldCount, parser, window, &valueScratch)
    var value: Double?
    if !valueBytes.isEmpty {
      guard let number = parseNumber(valueBytes) else {
        var message =
          columns.names.isEmpty
          ? "expected a number for value, found \(quoted(valueBytes))"
          : "\(columns.label(columns.value, field: "value")): expected a number, found \(quoted(valueBytes))"
        if valueBytes.contains(UInt8(ascii: ",")) {
          message += "; write decimals with a point (1.5), without thousands separators"
        }
        try fail(FormatError(file: path, line: line, message: message), &sink)
        return
      }
      value = number
    }
    var source: EventSource?
    if columns.source >= 0 {
      let bytes = csvField(columns.source, fields, fieldCount, parser, window, &otherScratch)
      if !bytes.isEmpty {
        guard let named = EventSource(bytes: bytes) else {
          let label = columns.label(columns.source, field: "source")
          try fail(
            FormatError(
              file: path, line: line,
              message: "expected \(EventSource.expected) for \(label), found \(quoted(bytes))"),
            &sink)
          return
        }
        source = named
      }
    }
    let kind = trim(csvField(columns.event, fields, fieldCount, parser, window, &kindScratch))
    let note = csvField(columns.note, fields, fieldCount, parser, window, &noteScratch)
    if let problem = checkText(kind: kind, note: note) {
      try fail(FormatError(file: path, line: line, message: problem), &sink)
      return
    }
    try deliver(
      RawRecord(
        line: line, timestamp: timestamp, kind: kind, value: value, note: note, source: source),
      to: &sink)
  }

  /// The message for a timestamp neither ISO 8601 nor another form read: the column (`dateLabel`,
  /// `timeLabel`: the headers of a mapped file) and what was wrong. A file of routine's own
  /// gets the ISO 8601 message unless the other forms say something more useful (an ambiguous
  /// date, a two-digit year).
  private func looseProblem(
    _ problem: LooseDateTime.Problem, date: UnsafeRawBufferPointer,
    time: UnsafeRawBufferPointer?, dateLabel: String?, timeLabel: String?, field: String
  ) -> String {
    let column = dateLabel.map { "column '\($0)': " } ?? ""
    switch problem {
    case .twoDigitYear:
      return "\(column)expected a four-digit year (27/04/2026), found \(quoted(date))"
    case .ambiguousDate(let first, let second):
      return
        "\(column)\(quoted(date)) could be day \(first) of month \(second) or day \(second) of month \(first); "
        + "give --date-order dmy (day first) or --date-order mdy (month first)"
    case .local(let text):
      guard dateLabel != nil else {
        var message = timestampProblem(date, field: field)
        if !TimestampParser.isLocalTime(date) {
          message += ", a local time without offset (give --assume-zone ZONE to read local times)"
        }
        return message
      }
      let columns =
        timeLabel.map { "columns '\(dateLabel!)' and '\($0)': " } ?? column
      return
        "\(columns)expected a time with a UTC offset, found the local time '\(text.replacingOccurrences(of: "T", with: " "))' "
        + "(give --assume-zone ZONE to read local times)"
    case .date where dateLabel != nil:
      return "\(column)expected a date such as 2026-04-27, 27/04/2026 or 04/27/2026"
        + "\(timeLabel == nil ? " and a time" : ""), found \(date.isEmpty ? "an empty field" : quoted(date))"
    case .time where timeLabel != nil:
      let found = time.map { $0.isEmpty ? "an empty field" : quoted($0) } ?? "nothing"
      return "column '\(timeLabel!)': expected a time such as 07:05 or 7:05 PM, found \(found)"
    case .time where dateLabel != nil:
      return
        "\(column)expected a date and a time such as 2026-04-27 07:05 or 04/27/2026 7:05 PM, found \(quoted(date))"
    case .date, .time:
      return timestampProblem(date, field: field)
    }
  }

  private func deliver<Sink: RecordSink>(_ record: RawRecord, to sink: inout Sink) throws {
    do {
      try sink.consume(record)
    } catch let rejection as RecordRejection {
      try fail(FormatError(file: path, line: record.line, message: rejection.message), &sink)
    }
  }

  /// Field `index` of the record (empty when the record has fewer fields), trimmed unless quoted.
  private func csvField(
    _ index: Int, _ fields: UnsafeMutableBufferPointer<CSVRecordParser.Field>, _ count: Int,
    _ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, _ scratch: inout ByteScratch
  ) -> UnsafeRawBufferPointer {
    guard index >= 0, index < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    let bytes = parser.bytes(of: fields[index], in: window, scratch: &scratch)
    return fields[index].isQuoted ? bytes : trim(bytes)
  }

  // MARK: JSON Lines

  /// What a JSON Lines scan carries from one region to the next.
  private struct JSONState {
    var parser = JSONLineParser()
    var timestamps: TimestampParser
    var loose: LooseDateTime
    var line = 1

    init(zone: Zone?, order: DateOrder?) {
      timestamps = TimestampParser(assumingZone: zone)
      loose = LooseDateTime(order: order, zone: zone)
    }

    func deallocate() { parser.deallocate() }
  }

  /// Scans JSON Lines records until `stop`; returns whether the scan ended between records.
  private func scanJSONL<Sink: RecordSink>(
    _ file: ChunkedFile, _ state: inout JSONState, until stop: Stop, into sink: inout Sink
  ) throws -> Bool {
    while true {
      let atEnd = file.isAtEnd && stop != .endOfRegion
      let window = file.unread
      var offset = 0
      while let (content, next) = window.line(from: offset, atEnd: atEnd) {
        offset = next
        defer { state.line += 1 }
        if trim(content).isEmpty { continue }
        switch state.parser.parse(content) {
        case .failure(var message):
          if state.line == 1, trim(content).elementsEqual([UInt8(ascii: "{")]) {
            message +=
              "; this looks like one JSON document (as 'routine events --json' prints): import "
              + "reads JSON Lines, one event per line, as 'routine export --format jsonl' writes"
          } else if let hint = Self.foreignFormat(trim(content)) {
            message += "; \(hint)"
          } else if ![UInt8(ascii: "{"), UInt8(ascii: "[")].contains(trim(content).first ?? 0) {
            message +=
              "; this does not look like JSON Lines: is it CSV? "
              + (format == .jsonl
                ? "(--format jsonl was given)" : "(--format csv reads it as CSV)")
          }
          try fail(FormatError(file: path, line: state.line, message: message), &sink)
        case .success(let fields):
          var timestamp: Timestamp
          if let parsed = state.timestamps.parse(fields.timestamp) {
            timestamp = parsed
          } else {
            switch state.loose.parse(fields.timestamp) {
            case .success(let parsed): timestamp = parsed
            case .failure(let problem):
              let message = looseProblem(
                problem, date: fields.timestamp, time: nil, dateLabel: nil, timeLabel: nil,
                field: " for \"timestamp\"")
              try fail(FormatError(file: path, line: state.line, message: message), &sink)
              continue
            }
          }
          let kind = trim(fields.event)
          if let problem = checkText(kind: kind, note: fields.note) {
            try fail(FormatError(file: path, line: state.line, message: problem), &sink)
            continue
          }
          try deliver(
            RawRecord(
              line: state.line, timestamp: timestamp, kind: kind, value: fields.value,
              note: fields.note, source: fields.source),
            to: &sink)
        }
      }
      file.start += offset
      if file.isAtEnd && (atEnd || stop == .endOfRegion) { return file.unread.isEmpty }
      try fill(file, line: state.line)
    }
  }

  // MARK: Fields

  /// What is wrong with a timestamp; a local time gets the hint that reads it.
  private func timestampProblem(_ bytes: UnsafeRawBufferPointer, field: String) -> String {
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
  private func checkText(kind: UnsafeRawBufferPointer, note: UnsafeRawBufferPointer) -> String? {
    if kind.isEmpty { return "expected an event name, found an empty field" }
    if !note.isEmpty, !isValidUTF8(note) {
      return "expected UTF-8 text for the note, found invalid bytes"
    }
    return nil
  }
}

/// A decimal number (`12`, `-0.5`, `2.5e3`); `nil` for anything else, including NaN and infinity.
func parseNumber(_ bytes: UnsafeRawBufferPointer) -> Double? {
  guard !bytes.isEmpty, bytes.count < 64 else { return nil }
  var sawDigit = false
  for byte in bytes {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
    case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"),
      UInt8(ascii: "E"):
      break
    default: return nil
    }
  }
  guard sawDigit, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
    return nil
  }
  return value
}

func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

/// The bytes without leading and trailing spaces and tabs.
func trim(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
  var lower = 0
  var upper = bytes.count
  while lower < upper, isSpace(bytes[lower]) { lower += 1 }
  while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
  return UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
}

/// Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
  var index = 0
  let count = bytes.count
  // Event names are nearly always ASCII: check eight bytes at a time first.
  while index + 8 <= count,
    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
  {
    index += 8
  }
  while index < count {
    let lead = bytes[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    let length: Int
    var minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
    default: return false
    }
    guard index + length <= count else { return false }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return false }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      return false
    }
    minimum = 0
    index += length
  }
  return true
}

/// Mutable state shared by the two halves of a parallel read; each half touches only its own
/// fields until the join.
private final class ParallelParts<Sink>: @unchecked Sendable {
  var first: EventFileReader.Part<Sink>
  var second: EventFileReader.Part<Sink>
  var spansSplit = false
  var firstError: (any Error)?
  var secondError: (any Error)?

  init(first: EventFileReader.Part<Sink>, second: EventFileReader.Part<Sink>) {
    self.first = first
    self.second = second
  }
}

/// A value handed to worker threads that use disjoint parts of it.
private final class UncheckedBox<Value>: @unchecked Sendable {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// Closures run on separate threads, each touching only its own state until the join.
private final class Jobs: @unchecked Sendable {
  private let jobs: [() -> Void]

  init(_ jobs: [() -> Void]) {
    self.jobs = jobs
  }

  func runConcurrently() {
    DispatchQueue.concurrentPerform(iterations: jobs.count) { self.jobs[$0]() }
  }
}
