import RoutineCore

/// The file formats events are read from.
public enum EventFileFormat: String, Sendable, CaseIterable {
  /// Comma-separated values with a header `timestamp,event[,value][,note]` (RFC 4180 quoting).
  case csv
  /// JSON Lines: one object `{"timestamp": ..., "event": ..., "value": ..., "note": ...}` per line.
  case jsonl

  /// The format a file name suggests: `.csv`, or `.jsonl`/`.ndjson`/`.json`; `nil` otherwise.
  public static func guess(fromPath path: String) -> EventFileFormat? {
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") { return .csv }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") || lower.hasSuffix(".json") {
      return .jsonl
    }
    return nil
  }
}

/// One record as read from a file. The byte buffers are valid only during the callback that
/// receives the record.
public struct RawRecord {
  /// The 1-based line the record starts on.
  public var line: Int
  /// When the event happened.
  public var timestamp: Timestamp
  /// The event name, trimmed, as bytes: not yet normalized, nor checked to be UTF-8 (sinks turn
  /// new names into kinds with ``eventKind(_:)``, which checks).
  public var kind: UnsafeRawBufferPointer
  /// The optional number.
  public var value: Double?
  /// The note as UTF-8; empty when there is none.
  public var note: UnsafeRawBufferPointer
  /// Where the event came from, when the file says (a `source` column or key, as exports
  /// write); `nil` leaves it to the importer (`import`).
  public var source: EventSource? = nil
}

extension EventSource {
  /// What a file may name as a source, for messages.
  static let expected = "cli, import or notification"

  /// The source `bytes` name exactly (`cli`, `import`, `notification`), or `nil`.
  init?(bytes: UnsafeRawBufferPointer) {
    guard bytes.count <= 12 else { return nil }
    self.init(rawValue: String(decoding: bytes, as: UTF8.self))
  }
}
