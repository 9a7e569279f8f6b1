import RoutineCore

// CSV: the header (routine's own names, or a --columns mapping) and its records.
extension EventFileReader {
  // MARK: CSV

  struct Columns {
    var timestamp = -1
    /// The time column joined to the date in `timestamp` (`--columns timestamp=Date+Time`).
    var time = -1
    var event = -1
    var value = -1
    var note = -1
    var source = -1
    /// A session's end (`--columns start=From,end=To`) and the time joined to it.
    var end = -1
    var endTime = -1
    /// The kind every row gets (`event='Run'`, or a session's start kind); empty: a column's.
    var fixedKind: [UInt8] = []
    /// The note every row gets (`note='...'`).
    var fixedNote: [UInt8] = []
    /// A session's end kind.
    var endKind: [UInt8] = []
    var count = 0
    /// The header's names as written, for messages; empty for routine's own header.
    var names: [String] = []
    /// The header's names in lower case (routine's own too): a row repeating them is skipped.
    var header: [String] = []
    static let expected = "timestamp,event[,value][,note][,source]"

    /// How messages name column `index`: by its header when mapped, else by the field.
    func label(_ index: Int, field: String) -> String {
      names.isEmpty ? field : "column '\(names[index])'"
    }
  }

  /// Where a scan stops.
  enum Stop {
    /// Right after the CSV header.
    case header
    /// At the end of the file's current range, reporting whether it ended between records.
    case endOfRegion
    /// At the end of the file (an incomplete last record is an error).
    case endOfFile
  }

  /// What a CSV scan carries from one region to the next.
  struct CSVState {
    var parser = CSVRecordParser()
    var timestamps: TimestampParser
    var loose: LooseDateTime
    var line = 1
    /// Lines before the header still to skip (`--skip-lines`).
    var preamble = 0
    var columns: Columns?
    var kind = ByteScratch()
    var note = ByteScratch()
    var timestamp = ByteScratch()
    var value = ByteScratch()
    var other = ByteScratch()

    init(columns: Columns? = nil, zone: Zone?, order: DateOrder?, preamble: Int = 0) {
      self.columns = columns
      self.preamble = preamble
      timestamps = TimestampParser(assumingZone: zone)
      loose = LooseDateTime(order: order, zone: zone)
    }

    func deallocate() {
      parser.deallocate()
      for buffer in [kind, note, timestamp, value, other] { buffer.deallocate() }
    }
  }

  /// Scans CSV records until `stop`; returns whether the scan ended between records.
  func scanCSV<Sink: RecordSink>(
    _ file: ChunkedFile, _ state: inout CSVState, until stop: Stop, into sink: inout Sink
  ) throws -> Bool {
    while true {
      let atEnd = file.isAtEnd
      let isFinal = atEnd && stop != .endOfRegion
      let window = file.unread
      var offset = 0
      parsing: while offset < window.count {
        if stop == .header, state.columns != nil { break parsing }
        if state.columns == nil, state.preamble > 0 {
          // A title or an export's preamble: whatever it holds, quotes included.
          guard let (_, next) = window.line(from: offset, atEnd: isFinal) else { break parsing }
          offset = next
          state.line += 1
          state.preamble -= 1
          continue
        }
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
  func fill(_ file: ChunkedFile, line: Int) throws {
    try Self.fill(file, path: path, line: line)
  }

  /// ``fill(_:line:)`` for any reader of an event log of `path` (the cohort splitter's too).
  static func fill(_ file: ChunkedFile, path: String, line: Int) throws {
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

  func header(_ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, line: Int) throws
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
    result.header = names.map { $0.lowercased() }
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
    // Another app's export read as routine's CSV (piped without --format, or with --columns or
    // a date option, which turn recognition off): its reader is named, not a --columns guess.
    if let app = AppFormat.detect(Array((names.joined(separator: ",") + "\n").utf8)) {
      return
        "expected the columns timestamp and event; found the header of \(app.appName)'s export: "
        + "import it with --format \(app.rawValue) (without --columns or date options)"
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
  func mapped(_ names: [String], by mapping: ColumnMapping, line: Int) throws -> Columns {
    var result = Columns()
    result.count = names.count
    result.names = names
    let keys = names.map { $0.lowercased() }
    result.header = keys
    func index(_ header: String) throws -> Int {
      guard let found = keys.firstIndex(of: header.lowercased()) else {
        throw FormatError(
          file: path, line: line,
          message:
            "expected a column '\(header)' (--columns names it), found "
            + names.map { "'\($0)'" }.joined(separator: ", ")
            + (names.count == 1
              ? "; if this line is a title before the header, --skip-lines 1 skips it" : ""))
      }
      return found
    }
    // In the fields' order: the first header the file lacks is the one named, every time.
    for field in ColumnMapping.Field.allCases {
      guard let headers = mapping.headers[field] else { continue }
      let first = try index(headers[0])
      switch field {
      case .timestamp:
        result.timestamp = first
        if headers.count > 1 { result.time = try index(headers[1]) }
      case .event: result.event = first
      case .value: result.value = first
      case .note: result.note = first
      case .source: result.source = first
      case .start:
        result.timestamp = first
        if headers.count > 1 { result.time = try index(headers[1]) }
      case .end:
        result.end = first
        if headers.count > 1 { result.endTime = try index(headers[1]) }
      }
    }
    result.fixedKind = Array((mapping.fixed[.event] ?? mapping.fixed[.start] ?? "").utf8)
    result.endKind = Array((mapping.fixed[.end] ?? "").utf8)
    result.fixedNote = Array((mapping.fixed[.note] ?? "").utf8)
    return result
  }

  /// `stamp`'s wall-clock time a day later: in `zone` by the time rules (a night across a clock
  /// change keeps its 07:00), or 24 hours later at the same offset when it was written with one.
  static func nextDay(_ stamp: Timestamp, in zone: Zone?) -> Timestamp {
    guard let zone else {
      return Timestamp(
        secondsSince1970: stamp.secondsSince1970 + 86_400, utcOffsetSeconds: stamp.utcOffsetSeconds)
    }
    let instant = WallClock.instant(
      on: stamp.localDate.adding(days: 1), at: stamp.timeOfDay, in: zone)
    return Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }

  func record<Sink: RecordSink>(
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
    // The timestamp in columns `dateIndex` (and `timeIndex`, joined): ISO 8601, a declared
    // pattern, or the forms LooseDateTime reads. `nil` after reporting what is wrong, or for a
    // copy of the header (a file concatenated from several exports repeats it).
    func stamp(_ dateIndex: Int, _ timeIndex: Int) throws -> Timestamp? {
      let stamp = csvField(dateIndex, fields, fieldCount, parser, window, &timestampScratch)
      if timeIndex < 0, options.datePattern == nil, let parsed = timestamps.parse(stamp) {
        return parsed
      }
      let time =
        timeIndex < 0 ? nil : csvField(timeIndex, fields, fieldCount, parser, window, &otherScratch)
      let dateLabel = columns.names.isEmpty ? nil : columns.names[dateIndex]
      let timeLabel = timeIndex < 0 ? nil : columns.names[timeIndex]
      if let pattern = options.datePattern {
        let result = ColumnReading.patterned(
          pattern, date: stamp, time: time, timestamps: &timestamps)
        switch result {
        case .success(let parsed): return parsed
        case .failure(let problem):
          if ColumnReading.repeatsHeader(parser, window, columns.header) { return nil }
          let message = ColumnReading.message(
            problem, pattern: pattern, date: stamp, time: time, dateLabel: dateLabel,
            timeLabel: timeLabel)
          try fail(FormatError(file: path, line: line, message: message), &sink)
          return nil
        }
      }
      let result = time.map { loose.parse(date: stamp, time: $0) } ?? loose.parse(stamp)
      switch result {
      case .success(let parsed): return parsed
      case .failure(let problem):
        if ColumnReading.repeatsHeader(parser, window, columns.header) { return nil }
        let message = looseProblem(
          problem, date: stamp, time: time, dateLabel: dateLabel, timeLabel: timeLabel, field: "")
        try fail(FormatError(file: path, line: line, message: message), &sink)
        return nil
      }
    }
    guard let timestamp = try stamp(columns.timestamp, columns.time) else { return }
    var end: Timestamp?
    if columns.end >= 0 {
      guard var parsed = try stamp(columns.end, columns.endTime) else { return }
      // A night written as one date and two times (`Date,From,To` = `2026-03-09,23:30,07:00`,
      // `start=Date+From,end=Date+To`): an end before the start on the start's own date is on
      // the next day, at that wall-clock time.
      if parsed.secondsSince1970 < timestamp.secondsSince1970, columns.end == columns.timestamp,
        columns.endTime >= 0, columns.time >= 0
      {
        parsed = EventFileReader.nextDay(parsed, in: assumedZone)
      }
      guard parsed.secondsSince1970 >= timestamp.secondsSince1970 else {
        try fail(
          FormatError(
            file: path, line: line,
            message:
              "column '\(columns.names[columns.end])': expected the end at or after the start (\(timestamp)), found \(parsed)"
          ), &sink)
        return
      }
      end = parsed
    }
    let valueBytes = csvField(columns.value, fields, fieldCount, parser, window, &valueScratch)
    var value: Double?
    if !valueBytes.isEmpty {
      guard let number = options.number(valueBytes, scratch: &otherScratch) else {
        let expected =
          options.thousands.map {
            "a number with '\(Character(UnicodeScalar($0)))' between thousands (1\(Character(UnicodeScalar($0)))250)"
          } ?? "a number"
        var message =
          columns.names.isEmpty
          ? "expected \(expected) for value, found \(quoted(valueBytes))"
          : "\(columns.label(columns.value, field: "value")): expected \(expected), found \(quoted(valueBytes))"
        if options.thousands == nil, valueBytes.contains(UInt8(ascii: ",")) {
          message +=
            "; write decimals with a point (1.5), or declare the thousands separator (--thousands ,)"
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
    let kind =
      columns.fixedKind.isEmpty
      ? trim(csvField(columns.event, fields, fieldCount, parser, window, &kindScratch))
      : ColumnReading.copy(columns.fixedKind, into: &kindScratch)
    let note =
      columns.fixedNote.isEmpty
      ? csvField(columns.note, fields, fieldCount, parser, window, &noteScratch)
      : ColumnReading.copy(columns.fixedNote, into: &noteScratch)
    if let problem = checkText(kind: kind, note: note) {
      try fail(FormatError(file: path, line: line, message: problem), &sink)
      return
    }
    try deliver(
      RawRecord(
        line: line, timestamp: timestamp, kind: kind, value: value, note: note, source: source),
      to: &sink)
    if let end {
      // A session's end: its own kind; the value and note went with the start.
      try deliver(
        RawRecord(
          line: line, timestamp: end, kind: ColumnReading.copy(columns.endKind, into: &kindScratch),
          value: nil, note: UnsafeRawBufferPointer(start: nil, count: 0), source: source),
        to: &sink)
    }
  }

  /// The message for a timestamp neither ISO 8601 nor another form read: the column (`dateLabel`,
  /// `timeLabel`: the headers of a mapped file) and what was wrong. A file of routine's own
  /// gets the ISO 8601 message unless the other forms say something more useful (an ambiguous
  /// date, a two-digit year).
  func looseProblem(
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

  func deliver<Sink: RecordSink>(_ record: RawRecord, to sink: inout Sink) throws {
    do {
      try sink.consume(record)
    } catch let rejection as RecordRejection {
      try fail(FormatError(file: path, line: record.line, message: rejection.message), &sink)
    }
  }

  /// Field `index` of the record (empty when the record has fewer fields), trimmed unless quoted.
  func csvField(
    _ index: Int, _ fields: UnsafeMutableBufferPointer<CSVRecordParser.Field>, _ count: Int,
    _ parser: CSVRecordParser, _ window: UnsafeRawBufferPointer, _ scratch: inout ByteScratch
  ) -> UnsafeRawBufferPointer {
    guard index >= 0, index < count else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    let bytes = parser.bytes(of: fields[index], in: window, scratch: &scratch)
    return fields[index].isQuoted ? bytes : trim(bytes)
  }
}
