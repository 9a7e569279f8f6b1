import RoutineCore

/// The event kind named by raw record bytes, or a rejection when they are not UTF-8 or name
/// none (only white space).
public func eventKind(_ bytes: UnsafeRawBufferPointer) throws -> EventKind {
  guard isValidUTF8(bytes) else {
    throw RecordRejection("expected UTF-8 text for the event name, found invalid bytes")
  }
  guard let kind = EventKind(String(decoding: bytes, as: UTF8.self)) else {
    throw RecordRejection("expected an event name, found only white space")
  }
  return kind
}

/// Builds an ``EventLog`` straight from files, for analysis without a store (the batch mode).
public struct EventLogLoader {
  /// What the files held.
  public struct Summary: Sendable, Equatable {
    /// Valid records read, in or out of the days asked for.
    public var records = 0
    /// The earliest and latest local dates of any valid record.
    public var dates: ClosedRange<LocalDate>?
    /// Invalid records skipped (only with skipping on).
    public var skipped: [FormatError] = []
    /// The files that held no record at all (a quiet day's export): worth a warning.
    public var emptyFiles: [String] = []
  }

  /// Only events whose local date may fall on these days are kept (a day either side included).
  public let days: ClosedRange<LocalDate>

  /// A loader keeping events near `days`.
  public init(days: ClosedRange<LocalDate>) {
    self.days = days
  }

  /// Reads each file into `log` (call ``EventLog/sort()`` afterwards) and summarizes them. Large
  /// files are parsed in two halves on two threads.
  public func load(_ readers: [EventFileReader], into log: inout EventLog) throws -> Summary {
    let lower = Int64(days.lowerBound.daysSince1970 - 1) * 86_400
    let upper = Int64(days.upperBound.daysSince1970 + 2) * 86_400
    var summary = Summary()
    var earliest = Int64.max
    var latest = Int64.min
    for reader in readers {
      let before = (summary.records, summary.skipped.count)
      defer {
        if (summary.records, summary.skipped.count) == before {
          summary.emptyFiles.append(reader.path)
        }
      }
      for part in try reader.read(inParallel: { Sink(lower: lower, upper: upper) }) {
        let sink = part.sink
        for (index, kind) in sink.kinds.enumerated() {
          sink.lists[index].move(into: &log, kindAt: log.index(of: kind))
        }
        summary.records += sink.records
        earliest = min(earliest, sink.earliest)
        latest = max(latest, sink.latest)
        summary.skipped += sink.skipped.map {
          FormatError(file: $0.file, line: $0.line + part.lineOffset, message: $0.message)
        }
      }
    }
    if summary.records > 0 {
      summary.dates =
        LocalDate(
          daysSince1970: floorDivision(earliest, 86_400))...LocalDate(
          daysSince1970: floorDivision(latest, 86_400))
    }
    return summary
  }

  private struct Sink: RecordSink {
    /// Per kind, in the order first seen.
    var kinds: [EventKind] = []
    var lists: [OccurrenceBuffer] = []
    /// Index in ``kinds`` by kind key: spellings of one kind ("Wake Up", "wake up") share one.
    var indexByKey: [String: Int] = [:]
    let lower: Int64
    let upper: Int64
    let table = ByteKeyTable<Int>()
    var records = 0
    var earliest = Int64.max
    var latest = Int64.min
    var skipped: [FormatError] = []

    mutating func consume(_ record: RawRecord) throws {
      let index: Int
      if let known = table.value(for: record.kind) {
        index = known
      } else {
        let kind = try eventKind(record.kind)
        if let existing = indexByKey[kind.key] {
          index = existing
        } else {
          index = kinds.count
          indexByKey[kind.key] = index
          kinds.append(kind)
          lists.append(OccurrenceBuffer())
        }
        table.insert(index, for: record.kind)
      }
      records += 1
      let local = record.timestamp.localSeconds
      earliest = min(earliest, local)
      latest = max(latest, local)
      if local >= lower, local < upper { lists[index].append(EventTime(record.timestamp)) }
    }

    mutating func skip(_ error: FormatError) {
      skipped.append(error)
    }
  }
}

private func floorDivision(_ value: Int64, _ divisor: Int64) -> Int {
  Int(value >= 0 ? value / divisor : (value - divisor + 1) / divisor)
}

/// A growable list of occurrences in raw memory: appending millions of them one at a time into
/// nested Swift arrays pays a uniqueness check per append; this pays a pointer write.
private final class OccurrenceBuffer {
  private var pointer = UnsafeMutablePointer<EventTime>.allocate(capacity: 64)
  private var capacity = 64
  private var count = 0

  deinit { pointer.deallocate() }

  @inline(__always)
  func append(_ occurrence: EventTime) {
    if count == capacity {
      // Growing by half (not doubling) keeps the slack small on large files.
      let larger = UnsafeMutablePointer<EventTime>.allocate(capacity: capacity + capacity / 2)
      larger.moveInitialize(from: pointer, count: count)
      pointer.deallocate()
      pointer = larger
      capacity += capacity / 2
    }
    (pointer + count).initialize(to: occurrence)
    count += 1
  }

  /// Appends the occurrences to the log's kind at `index` and empties this buffer.
  func move(into log: inout EventLog, kindAt index: Int) {
    log.append(contentsOf: UnsafeBufferPointer(start: pointer, count: count), toKindAt: index)
    pointer.deallocate()
    pointer = .allocate(capacity: 1)
    capacity = 1
    count = 0
  }
}
