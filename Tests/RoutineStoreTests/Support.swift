import Foundation
import RoutineCore

@testable import RoutineStore

/// A fresh temporary directory, removed when the value is dropped.
final class TemporaryDirectory {
  let url: URL

  init() {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-tests-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Writes `text` to `name` and returns the path.
  func file(_ name: String, _ text: String) -> String {
    let path = url.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  /// Writes raw bytes to `name` and returns the path.
  func file(_ name: String, bytes: [UInt8]) -> String {
    let path = url.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Collects what a reader delivers, as plain values.
struct CollectingSink: RecordSink {
  struct Record: Equatable {
    var line: Int
    var timestamp: String
    var kind: String
    var value: Double?
    var note: String
  }

  var records: [Record] = []
  var skipped: [FormatError] = []

  mutating func consume(_ record: RawRecord) throws {
    // Like the store's and the loader's sinks: names become kinds through eventKind(_:).
    _ = try eventKind(record.kind)
    records.append(
      Record(
        line: record.line, timestamp: record.timestamp.iso8601,
        kind: String(decoding: record.kind, as: UTF8.self), value: record.value,
        note: String(decoding: record.note, as: UTF8.self)))
  }

  mutating func skip(_ error: FormatError) {
    skipped.append(error)
  }
}

/// Reads `path` and returns the records, or throws the reader's error.
func read(_ path: String, format: EventFileFormat? = nil, skipping: Bool = false) throws
  -> CollectingSink
{
  var sink = CollectingSink()
  try EventFileReader(path: path, format: format, skipsInvalid: skipping).read(into: &sink)
  return sink
}

/// The error reading `path` throws.
func readError(_ path: String, format: EventFileFormat? = nil) -> String? {
  do {
    _ = try read(path, format: format)
    return nil
  } catch {
    return "\(error)"
  }
}
