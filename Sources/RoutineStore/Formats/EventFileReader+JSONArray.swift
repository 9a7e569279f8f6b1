import Foundation
import RoutineCore

/// A file holding one JSON array of objects (`[ {...}, ... ]`, as Fitbit and Google Takeout
/// write): each object is an event, its keys named by `--columns` as a CSV's headers are (or
/// routine's own keys without it). Read streaming, an object at a time: each at most 1 MiB.
extension EventFileReader {
  /// Whether the first byte that is not white space opens an array.
  static func startsArray(_ bytes: UnsafeRawBufferPointer) -> Bool {
    for byte in bytes where !isSpace(byte) && byte != 0x0A && byte != 0x0D {
      return byte == UInt8(ascii: "[")
    }
    return false
  }

  /// Whether the file is read as one JSON array: it starts with `[` and is not named as JSON
  /// Lines (`.jsonl`, `.ndjson`), whose every line is an object.
  func readsArray(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let lower = path.lowercased()
    return Self.startsArray(bytes) && !lower.hasSuffix(".jsonl") && !lower.hasSuffix(".ndjson")
  }

  /// Reads the objects of the array `file` holds into `sink`.
  func readJSONArray<Sink: RecordSink>(_ file: ChunkedFile, into sink: inout Sink) throws {
    let mapping =
      columns
      ?? ColumnMapping([
        .timestamp: ["timestamp"], .event: ["event"], .value: ["value"], .note: ["note"],
        .source: ["source"],
      ])
    var reading = ArrayReading(mapping: mapping, zone: assumedZone, order: dateOrder)
    defer { reading.deallocate() }
    var line = 1
    var opened = false
    var expectsElement = true
    var closed = false
    while true {
      let atEnd = file.isAtEnd
      let window = file.unread
      var offset = 0
      scanning: while offset < window.count {
        let byte = window[offset]
        switch byte {
        case 0x0A:
          line += 1
          offset += 1
        case 0x20, 0x09, 0x0D:
          offset += 1
        case _ where closed:
          throw FormatError(
            file: path, line: line,
            message:
              "expected the end of the file after the array's ']', found '\(Character(UnicodeScalar(byte)))'"
          )
        case UInt8(ascii: "[") where !opened:
          opened = true
          offset += 1
        case UInt8(ascii: "]") where opened:
          closed = true
          offset += 1
        case UInt8(ascii: ",") where opened && !expectsElement:
          expectsElement = true
          offset += 1
        case UInt8(ascii: "{") where opened && expectsElement:
          guard let end = Self.objectEnd(window, from: offset) else { break scanning }
          let object = UnsafeRawBufferPointer(rebasing: window[offset..<end])
          try reading.record(object, line: line, reader: self, into: &sink)
          for inner in object where inner == 0x0A { line += 1 }
          offset = end
          expectsElement = false
        default:
          throw FormatError(
            file: path, line: line,
            message:
              "expected \(expectsElement ? "an object '{'" : "',' or ']'") in the array, found '\(Character(UnicodeScalar(byte)))'"
          )
        }
      }
      file.start += offset
      if atEnd {
        guard closed else {
          throw FormatError(
            file: path, line: line,
            message: "expected the array to end with ']', found the end of the file")
        }
        return
      }
      try fill(file, line: line)
    }
  }

  /// The offset after the object that starts at `start`, or `nil` when it ends past the window.
  private static func objectEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    var depth = 0
    var inString = false
    var index = start
    while index < bytes.count {
      let byte = bytes[index]
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        depth += 1
      } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
        depth -= 1
        if depth == 0 { return index + 1 }
      }
      index += 1
    }
    return nil
  }
}

/// An object already reported (or skipped): it gives no record.
private struct SkippedObject: Error {}

/// What is wrong with an object's timestamp.
private struct ObjectProblem: Error {
  var message: String
}

/// The state of a JSON array read: its parsers and scratch memory.
private struct ArrayReading {
  let mapping: ColumnMapping
  /// The zone local times are read in: a night's next morning is found there.
  let zone: Zone?
  var timestamps: TimestampParser
  var loose: LooseDateTime
  var kind = ByteScratch()
  var note = ByteScratch()
  var other = ByteScratch()

  init(mapping: ColumnMapping, zone: Zone?, order: DateOrder?) {
    self.mapping = mapping
    self.zone = zone
    timestamps = TimestampParser(assumingZone: zone)
    loose = LooseDateTime(order: order, zone: zone)
  }

  func deallocate() {
    for buffer in [kind, note, other] { buffer.deallocate() }
  }

  /// The value of `key` in `members` (keys matched ignoring case, as headers are).
  private func member(_ key: String, in members: [JSONValue.Member]) -> JSONValue? {
    let lower = key.lowercased()
    return members.last { $0.key.lowercased() == lower }?.value
  }

  /// Turns one object into its records (two for a session).
  mutating func record<Sink: RecordSink>(
    _ bytes: UnsafeRawBufferPointer, line: Int, reader: EventFileReader, into sink: inout Sink
  ) throws {
    let path = reader.path
    func fail(_ message: String) throws {
      try reader.fail(FormatError(file: path, line: line, message: message), &sink)
    }
    let members: [JSONValue.Member]
    do {
      guard case .object(let parsed) = try JSONValue.parse(bytes) else { return }
      members = parsed
    } catch {
      try fail(error.message)
      return
    }
    // The text of the key `header`: a string, a number as written; nil for null or missing.
    func text(_ header: String) throws -> String? {
      switch member(header, in: members) {
      case .none, .null?: return nil
      case .string(let value)?: return value
      case .integer(let value)?: return String(value)
      case .number(let value)?: return String(value)
      case .bool?, .object?, .array?:
        try fail("key \"\(header)\": expected a string or a number")
        throw SkippedObject()
      }
    }
    do {
      func stamp(_ field: ColumnMapping.Field) throws -> Timestamp {
        guard let headers = mapping.headers[field] else { throw SkippedObject() }
        guard let date = try text(headers[0]), !date.isEmpty else {
          try fail("key \"\(headers[0])\": expected a date and time, found nothing")
          throw SkippedObject()
        }
        let time = headers.count > 1 ? try text(headers[1]) ?? "" : nil
        // In scratch memory (the kind's and the note's, free until the kind and note are
        // read): the parsers take bytes.
        let dateBuffer = ColumnReading.copy(Array(date.utf8), into: &kind)
        let timeBuffer = time.map { ColumnReading.copy(Array($0.utf8), into: &note) }
        let timeLabel = headers.count > 1 ? headers[1] : nil
        let result: Result<Timestamp, ObjectProblem>
        if let pattern = reader.options.datePattern {
          switch ColumnReading.patterned(
            pattern, date: dateBuffer, time: timeBuffer, timestamps: &timestamps)
          {
          case .success(let parsed): result = .success(parsed)
          case .failure(let problem):
            result = .failure(
              ObjectProblem(
                message: ColumnReading.message(
                  problem, pattern: pattern, date: dateBuffer, time: timeBuffer,
                  dateLabel: headers[0], timeLabel: timeLabel)))
          }
        } else if timeBuffer == nil, let parsed = timestamps.parse(dateBuffer) {
          result = .success(parsed)
        } else {
          let parsed =
            timeBuffer.map { loose.parse(date: dateBuffer, time: $0) } ?? loose.parse(dateBuffer)
          switch parsed {
          case .success(let value): result = .success(value)
          case .failure(let problem):
            result = .failure(
              ObjectProblem(
                message: reader.looseProblem(
                  problem, date: dateBuffer, time: timeBuffer, dateLabel: headers[0],
                  timeLabel: timeLabel, field: "")))
          }
        }
        switch result {
        case .success(let value): return value
        case .failure(let problem):
          // Messages name keys as a CSV's columns; here they are keys.
          try fail(problem.message.replacingColumnWords)
          throw SkippedObject()
        }
      }
      let isSession = mapping.headers[.start] != nil
      let timestamp = try stamp(isSession ? .start : .timestamp)
      var end = isSession ? try stamp(.end) : nil
      // One date and two times (`start=date+from,end=date+to`): an end before the start on the
      // start's own date is the next morning, as in a CSV.
      if let early = end, early.secondsSince1970 < timestamp.secondsSince1970,
        let starts = mapping.headers[.start], let ends = mapping.headers[.end],
        starts.count > 1, ends.count > 1, starts[0] == ends[0]
      {
        end = EventFileReader.nextDay(early, in: zone)
      }
      if let end, end.secondsSince1970 < timestamp.secondsSince1970 {
        try fail(
          "key \"\(mapping.headers[.end]![0])\": expected the end at or after the start (\(timestamp)), found \(end)"
        )
        return
      }
      var value: Double?
      if let header = mapping.headers[.value]?.first {
        switch member(header, in: members) {
        case .integer(let number)?: value = Double(number)
        case .number(let number)?: value = number
        case .string(let text)? where !text.isEmpty:
          let bytes = ColumnReading.copy(Array(text.utf8), into: &kind)
          value = reader.options.number(bytes, scratch: &other)
          if value == nil {
            try fail("key \"\(header)\": expected a number, found '\(text)'")
            return
          }
        case .none, .null?, .string?: break
        case .bool?, .object?, .array?:
          try fail("key \"\(header)\": expected a number")
          return
        }
      }
      var source: EventSource?
      if let header = mapping.headers[.source]?.first, let named = try text(header),
        !named.isEmpty
      {
        guard let parsed = EventSource(rawValue: named) else {
          try fail("expected \(EventSource.expected) for key \"\(header)\", found '\(named)'")
          return
        }
        source = parsed
      }
      let kindText =
        isSession
        ? mapping.fixed[.start]!
        : try mapping.fixed[.event] ?? text(mapping.headers[.event]![0]) ?? ""
      let noteText =
        try mapping.fixed[.note] ?? mapping.headers[.note].map { try text($0[0]) ?? "" } ?? ""
      let kindBytes = ColumnReading.copy(Array(kindText.utf8), into: &kind)
      let trimmedKind = trim(kindBytes)
      let noteBytes = ColumnReading.copy(Array(noteText.utf8), into: &note)
      if let problem = reader.checkText(kind: trimmedKind, note: noteBytes) {
        try fail(problem)
        return
      }
      try reader.deliver(
        RawRecord(
          line: line, timestamp: timestamp, kind: trimmedKind, value: value, note: noteBytes,
          source: source), to: &sink)
      if let end {
        try reader.deliver(
          RawRecord(
            line: line, timestamp: end,
            kind: ColumnReading.copy(Array(mapping.fixed[.end]!.utf8), into: &kind), value: nil,
            note: UnsafeRawBufferPointer(start: nil, count: 0), source: source), to: &sink)
      }
    } catch is SkippedObject {
      return
    }
  }
}

extension String {
  /// A CSV message's "column 'X'" as a JSON object's "key 'X'".
  fileprivate var replacingColumnWords: String {
    var text = self
    for (from, to) in [("columns '", "keys '"), ("column '", "key '")] {
      while let range = text.range(of: from) { text.replaceSubrange(range, with: to) }
    }
    return text
  }
}
