import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

struct CSVReaderTests {
  let directory = TemporaryDirectory()

  @Test func readsTheHeaderColumnsInAnyOrderAndOptionalFields() throws {
    let path = directory.file(
      "log.csv",
      """
      Event, TIMESTAMP ,note
      Wake Up,2026-04-20T07:05:00+02:00,
      Coffee,2026-04-20T07:30+02:00,first one
      """)
    let records = try read(path).records
    #expect(records.map(\.kind) == ["Wake Up", "Coffee"])
    #expect(records.map(\.timestamp) == ["2026-04-20T07:05:00+02:00", "2026-04-20T07:30:00+02:00"])
    #expect(records.map(\.note) == ["", "first one"])
    #expect(records.map(\.line) == [2, 3])
  }

  @Test func followsRFC4180Quoting() throws {
    let path = directory.file(
      "quoted.csv",
      "timestamp,event,value,note\r\n"
        + "2026-04-20T07:05Z,\"Meal, big\",2.5,\"pasta, with \"\"too much\"\" cheese\"\r\n"
        + "2026-04-20T08:00Z,Coffee,,\"two\nlines\"\r\n"
        + "2026-04-20T09:00Z,Water,330,\r\n")
    let records = try read(path).records
    #expect(records.count == 3)
    #expect(records[0].kind == "Meal, big")
    #expect(records[0].value == 2.5)
    #expect(records[0].note == "pasta, with \"too much\" cheese")
    #expect(records[1].note == "two\nlines")
    // The record after a quoted line break starts on line 5.
    #expect(records.map(\.line) == [2, 3, 5])
    #expect(records[2].value == 330)
  }

  @Test func toleratesAByteOrderMarkBlankLinesAndMissingTrailingFields() throws {
    let path = directory.file(
      "bom.csv",
      "\u{FEFF}timestamp,event,value,note\n\n2026-04-20T07:05Z,Wake Up\n\n2026-04-21T07:05Z,Wake Up,,"
    )
    let records = try read(path).records
    #expect(records.map(\.line) == [3, 5])
    #expect(records.allSatisfy { $0.value == nil && $0.note.isEmpty })
  }

  @Test(arguments: [
    (
      "timestamp,event\n2026-04-20T07:05Z,Wake Up\n2026-13-01T07:05Z,Wake Up\n",
      "'bad.csv' line 3: expected an ISO 8601 timestamp with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z), found '2026-13-01T07:05Z'"
    ),
    (
      "timestamp,event\n2026-04-20T07:05,Wake Up\n",
      "'bad.csv' line 2: expected an ISO 8601 timestamp with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z), found '2026-04-20T07:05', a local time without offset (give --assume-zone ZONE to read local times)"
    ),
    (
      "timestamp,event\n2026-04-20T07:05Z,\n",
      "'bad.csv' line 2: expected an event name, found an empty field"
    ),
    (
      "timestamp,event\n2026-04-20T07:05Z,   \n",
      "'bad.csv' line 2: expected an event name, found an empty field"
    ),
    (
      "timestamp,event,value\n2026-04-20T07:05Z,Coffee,two\n",
      "'bad.csv' line 2: expected a number for value, found 'two'"
    ),
    (
      "timestamp,event,value\n2026-04-20T07:05Z,Coffee,nan\n",
      "'bad.csv' line 2: expected a number for value, found 'nan'"
    ),
    (
      "timestamp,event\n2026-04-20T07:05Z,Meal, big\n",
      "'bad.csv' line 2: expected at most 2 fields, found 3; quote fields that contain commas"
    ),
    (
      "timestamp,event,note\n2026-04-20T07:05Z,Meal,\"open\n",
      "'bad.csv' line 2: expected a closing double quote, found the end of the file"
    ),
    (
      "timestamp,event,note\n2026-04-20T07:05Z,Meal,\"a\"b\n",
      "'bad.csv' line 2: expected a comma or the end of the line after a closing double quote, found 'b'"
    ),
    (
      "2026-04-20T07:05Z,Wake Up\n",
      "'bad.csv' line 1: expected a header line 'timestamp,event[,value][,note][,source]', found a data line"
    ),
    (
      "timestamp,kind\n",
      "'bad.csv' line 1: expected the columns timestamp and event; found timestamp, kind. To read them, add: --columns \"timestamp=timestamp,event=kind\""
    ),
    ("timestamp,event,event\n", "'bad.csv' line 1: column 'event' appears twice in the header"),
    (
      "timestamp,note\n",
      "'bad.csv' line 1: expected a header line 'timestamp,event[,value][,note][,source]', found no 'event' column"
    ),
  ])
  func reportsTheFileTheLineAndWhatWasExpected(text: String, message: String) {
    let path = directory.file("bad.csv", text)
    #expect(readError(path) == message.replacingOccurrences(of: "'bad.csv'", with: "'\(path)'"))
  }

  @Test func rejectsInvalidUTF8() {
    let path = directory.file(
      "bytes.csv", bytes: Array("timestamp,event\n2026-04-20T07:05Z,Caf".utf8) + [0xE9] + [0x0A])
    #expect(
      readError(path)?.hasSuffix(
        "line 2: expected UTF-8 text for the event name, found invalid bytes") == true)
  }

  @Test func skippingReportsEveryInvalidLineAndKeepsTheRest() throws {
    let path = directory.file(
      "mixed.csv",
      "timestamp,event,value\n2026-04-20T07:05Z,Wake Up,\nnot a time,Wake Up,\n2026-04-21T07:05Z,Wake Up,x\n2026-04-22T07:05Z,Wake Up,\n"
    )
    let sink = try read(path, skipping: true)
    #expect(sink.records.map(\.line) == [2, 5])
    #expect(sink.skipped.map(\.line) == [3, 4])
  }

  @Test func recordsSpanningChunkBoundariesAreReadWhole() throws {
    // Notes long enough that records straddle the 1 MiB read chunks, one nearly a chunk long.
    var text = "timestamp,event,note\n"
    var expected: [String] = []
    for index in 0..<40 {
      let note = String(repeating: "n\(index % 10)", count: index == 20 ? 520_000 : 40_000)
      expected.append(note)
      text += "2026-04-20T07:\(String(format: "%02d", index))Z,Kind \(index),\"\(note)\"\n"
    }
    let records = try read(directory.file("long.csv", text)).records
    #expect(records.map(\.note) == expected)
    #expect(records.map(\.line) == Array(2...41))
  }

  @Test func theFormatIsGuessedFromTheExtensionThenTheContent() throws {
    let csv = directory.file("log.txt", "timestamp,event\n2026-04-20T07:05Z,Wake Up\n")
    let json = directory.file(
      "log.data", "\n{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"Wake Up\"}\n")
    #expect(try read(csv).records.count == 1)
    #expect(try read(json).records.count == 1)
    #expect(EventFileFormat.guess(fromPath: "a.NDJSON") == .jsonl)
    #expect(EventFileFormat.guess(fromPath: "a.csv") == .csv)
  }

  @Test func aMissingFileCannotBeOpened() {
    #expect(throws: FileError.self) { try read(directory.path("missing.csv")) }
    #expect(throws: FileError.self) { try read(directory.url.path) }
  }
}

struct JSONLinesReaderTests {
  let directory = TemporaryDirectory()

  @Test func readsObjectsWithEscapesNullsAndExtraKeys() throws {
    let path = directory.file(
      "log.jsonl",
      """
      {"timestamp": "2026-04-20T07:05:00+02:00", "event": "Wake Up"}
      {"event":"Caf\\u00e9 \\ud83d\\ude00","timestamp":"2026-04-20T07:30Z","value":1.5,"note":"a\\"b\\\\c\\nd"}

      {"timestamp": "2026-04-20T08:00Z", "event": "Water", "value": null, "note": null, "origin": {"app": [1, true, null]}}
      """)
    let records = try read(path).records
    #expect(records.map(\.line) == [1, 2, 4])
    #expect(records[1].kind == "Café 😀")
    #expect(records[1].value == 1.5)
    #expect(records[1].note == "a\"b\\c\nd")
    #expect(records[2].value == nil && records[2].note.isEmpty)
  }

  @Test(arguments: [
    ("[1, 2]", "line 1: expected a JSON object, found an array"),
    ("{\"event\": \"Wake Up\"}", "line 1: expected a \"timestamp\" key, found none"),
    ("{\"timestamp\": \"2026-04-20T07:05Z\"}", "line 1: expected an \"event\" key, found none"),
    (
      "{\"timestamp\": 20260420, \"event\": \"Wake Up\"}",
      "line 1: expected a string for \"timestamp\", found a number"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"Wake Up\", \"value\": \"3\"}",
      "line 1: expected a number or null for \"value\", found a string"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"A\", \"event\": \"B\"}",
      "line 1: the key \"event\" appears twice"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"A\"} x",
      "line 1: expected the end of the line after the object, found 'x'"
    ),
    (
      "{\"timestamp\": \"yesterday\", \"event\": \"A\"}",
      "line 1: expected an ISO 8601 timestamp with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z) for \"timestamp\", found 'yesterday'"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"A\\q\"}",
      "line 1: expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u), found '\\q'"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"\\ud83d\"}",
      "line 1: expected a low surrogate after \\uD83D"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"\"}",
      "line 1: expected an event name, found an empty field"
    ),
    (
      "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"A\"",
      "line 1: expected ',' or '}' after a value, found the end of the line"
    ),
  ])
  func reportsWhatWasExpected(line: String, message: String) {
    let path = directory.file("bad.jsonl", line + "\n")
    #expect(readError(path) == "'\(path)' " + message)
  }
}

struct ParallelReaderTests {
  let directory = TemporaryDirectory()

  /// Reads `path` both ways; the records in file order (with absolute lines) must agree.
  func bothWays(_ path: String) throws -> (
    sequential: CollectingSink, parallel: [CollectingSink.Record], skipped: [Int]
  ) {
    var sequential = CollectingSink()
    try EventFileReader(path: path, skipsInvalid: true).read(into: &sequential)
    let parts = try EventFileReader(path: path, skipsInvalid: true).read(
      inParallel: { CollectingSink() }, minimumSize: 1)
    let records = parts.flatMap { part in
      part.sink.records.map { record in
        var shifted = record
        shifted.line += part.lineOffset
        return shifted
      }
    }
    let skipped = parts.flatMap { part in part.sink.skipped.map { $0.line + part.lineOffset } }
    return (sequential, records, skipped)
  }

  @Test(arguments: EventFileFormat.allCases)
  func theTwoHalvesTogetherEqualASequentialRead(format: EventFileFormat) throws {
    var random = SplitMix64(seed: 11)
    var text = format == .csv ? "timestamp,event,value,note\n" : ""
    for index in 0..<3000 {
      let minute = String(format: "%02d", index % 60)
      let invalid = random.chance(0.01)
      let stampText = invalid ? "soon" : "2026-04-20T07:\(minute)Z"
      if format == .csv {
        text +=
          "\(stampText),Kind \(index % 7),\(index % 3 == 0 ? "1" : ""),\(index % 5 == 0 ? "\"a, b\"" : "")\n"
      } else {
        text += "{\"timestamp\": \"\(stampText)\", \"event\": \"Kind \(index % 7)\"}\n"
      }
    }
    let path = directory.file("many.\(format.rawValue)", text)
    let (sequential, parallel, skipped) = try bothWays(path)
    #expect(parallel == sequential.records)
    #expect(skipped == sequential.skipped.map(\.line))
    #expect(!skipped.isEmpty)
  }

  @Test func aQuotedLineBreakAcrossTheSplitFallsBackToOneHalf() throws {
    // One giant quoted note in the middle of the file holds many line breaks: whichever line
    // break the split picks inside it, the first half must notice and read on.
    var text = "timestamp,event,note\n"
    for index in 0..<500 { text += "2026-04-20T07:00Z,Before \(index),\n" }
    text += "2026-04-20T08:00Z,Story,\"" + String(repeating: "line\n", count: 4000) + "end\"\n"
    for index in 0..<100 { text += "2026-04-20T09:00Z,After \(index),\n" }
    let path = directory.file("story.csv", text)
    let parts = try EventFileReader(path: path).read(
      inParallel: { CollectingSink() }, minimumSize: 1)
    #expect(parts.count == 1)
    let records = parts[0].sink.records
    #expect(records.count == 601)
    #expect(records[500].note.hasSuffix("line\nend"))
    #expect(records[501].line == 4503)
    #expect(records.last?.line == 4602)
  }

  @Test func anErrorInTheSecondHalfHasItsLineInTheWholeFile() {
    var text = "timestamp,event\n"
    for _ in 0..<1000 { text += "2026-04-20T07:00Z,Wake Up\n" }
    text += "later,Wake Up\n"
    for _ in 0..<10 { text += "2026-04-20T07:00Z,Wake Up\n" }
    let path = directory.file("late-error.csv", text)
    #expect(
      throws: FormatError(
        file: path, line: 1002, message: "expected \(Timestamp.expectedFormat), found 'later'")
    ) {
      _ = try EventFileReader(path: path).read(inParallel: { CollectingSink() }, minimumSize: 1)
    }
  }
}

struct ByteKeyTableTests {
  func hash(_ text: String) -> UInt64 {
    var text = text
    return text.withUTF8 { bytes in
      let key = UnsafeRawBufferPointer(bytes)
      let (head, tail) = ByteKeyTable<Int>.words(key)
      return ByteKeyTable<Int>.hash(key, head: head, tail: tail)
    }
  }

  @Test func namesSharingTheirEndsAndLengthHashApart() {
    // Same first and last eight bytes, same length: only the middle differs. Hashing the ends
    // alone put all of them in one chain and made an import of 40,000 such names quadratic.
    let names = (0..<10_000).map { "collide-\(String(format: "%08d", $0))-tail-xx" }
    #expect(Set(names.map(hash)).count == names.count)
    let long = (0..<1_000).map { "a long shared prefix \($0) and a long shared suffix" }
    #expect(Set(long.map(hash)).count == long.count)
  }

  @Test func lookupsFindEveryKeyAmongManyLongOnes() {
    let table = ByteKeyTable<Int>()
    let names =
      (0..<5_000).map { "collide-\(String(format: "%08d", $0))-tail-xx" } + ["", "a", "Wake Up"]
    for (index, name) in names.enumerated() {
      var text = name
      text.withUTF8 { table.insert(index, for: UnsafeRawBufferPointer($0)) }
    }
    for (index, name) in names.enumerated() {
      var text = name
      #expect(text.withUTF8 { table.value(for: UnsafeRawBufferPointer($0)) } == index)
    }
    var missing = "collide-99999999-tail-xx"
    #expect(missing.withUTF8 { table.value(for: UnsafeRawBufferPointer($0)) } == nil)
  }
}
