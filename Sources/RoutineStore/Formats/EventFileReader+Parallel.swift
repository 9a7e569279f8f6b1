import Dispatch
import RoutineCore

// Reading a large file in two halves on two threads.
extension EventFileReader {
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
    if format == .jsonl, readsArray(file.unread) {
      try readJSONArray(file, into: &first.sink)
      return [first]
    }
    var csv = CSVState(zone: assumedZone, order: dateOrder, preamble: options.skipLines)
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
}

/// Mutable state shared by the two halves of a parallel read; each half touches only its own
/// fields until the join.
final class ParallelParts<Sink>: @unchecked Sendable {
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
final class UncheckedBox<Value>: @unchecked Sendable {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// Closures run on separate threads, each touching only its own state until the join.
final class Jobs: @unchecked Sendable {
  private let jobs: [() -> Void]

  init(_ jobs: [() -> Void]) {
    self.jobs = jobs
  }

  func runConcurrently() {
    DispatchQueue.concurrentPerform(iterations: jobs.count) { self.jobs[$0]() }
  }
}
