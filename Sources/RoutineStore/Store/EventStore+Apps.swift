import RoutineCore

extension EventStore {
  /// What importing another app's export did: the reader's counts, the mapping's, and the
  /// store's.
  public struct AppImportSummary: Sendable, Equatable {
    /// What the reader saw (records, invalid ones skipped).
    public var reading: AppFileReader.Summary
    /// Sleep sessions and workouts read (before merging).
    public var sleeps = 0
    /// Workouts read (before merging copies).
    public var workouts = 0
    /// What the records became.
    public var mapping: HealthMapping.Result
    /// Events added.
    public var added = 0
    /// Events the store already held, the same or (a workout, a night) as another source
    /// wrote it.
    public var alreadyPresent = 0
  }

  /// Imports the export `reader` reads, mapped by the rules of ``AppRecords`` (events before
  /// `firstDate`, their own local date, are left out), in one transaction: all or nothing.
  /// Importing the same export again adds nothing; a workout or a night the store already holds
  /// from another source (an Apple Health export, another app) is not added again.
  public func importAppExport(
    from reader: AppFileReader, from firstDate: LocalDate? = nil
  ) throws -> AppImportSummary {
    var records = AppRecords(format: reader.format, from: firstDate)
    let reading = try reader.read(into: &records)
    let result = records.finish()
    return try write {
      var summary = AppImportSummary(
        reading: reading, sleeps: records.sleeps, workouts: records.workouts, mapping: result)
      (summary.added, summary.alreadyPresent) = try insertImported(result.events, source: .import)
      return summary
    }
  }

  /// Inserts imported events (in time order) unless the store holds them: the same event, or,
  /// for a "Workout" and for a night (a "Bed Time" and the "Wake Up" after it), one that is the
  /// same session by the rule that merges copies within an Apple Health export (their spans
  /// overlap by at least half of the shorter one; under a minute, they start within a minute),
  /// whatever app wrote it. The session already stored is kept. Returns how many events were
  /// added and how many were already there. Call inside a write transaction.
  func insertImported(_ events: [Event], source: EventSource) throws -> (
    added: Int, alreadyPresent: Int
  ) {
    let workout = EventKind("Workout")!
    let bedTime = EventKind("Bed Time")!
    let wakeUp = EventKind("Wake Up")!
    // The events that belong to a session the store already holds.
    var held = Set<Int>()
    var workouts: [(index: Int, span: SessionSpan)] = []
    var nights: [(bed: Int, wake: Int, span: SessionSpan)] = []
    var openBed: Int?
    for (index, event) in events.enumerated() {
      let start = event.timestamp.secondsSince1970
      if event.kind == workout {
        let length = Int64(((event.value ?? 0) * 60).rounded())
        workouts.append((index, SessionSpan(start: start, end: start + max(0, length))))
      } else if event.kind == bedTime {
        openBed = index
      } else if event.kind == wakeUp, let bed = openBed {
        let bedStart = events[bed].timestamp.secondsSince1970
        if start - bedStart <= SleepNights.maximumNight {
          nights.append((bed, index, SessionSpan(start: bedStart, end: start)))
        }
        openBed = nil
      }
    }
    if !workouts.isEmpty {
      let stored = try storedSpans(
        kind: workout, around: workouts.map(\.span)
      ) { event in
        let start = event.timestamp.secondsSince1970
        return SessionSpan(
          start: start, end: start + max(0, Int64(((event.value ?? 0) * 60).rounded())))
      }
      for (index, span) in workouts where stored.containsSame(as: span) { held.insert(index) }
    }
    if !nights.isEmpty {
      let stored = try storedNights(around: nights.map(\.span), bedTime: bedTime, wakeUp: wakeUp)
      for night in nights where stored.containsSame(as: night.span) {
        held.insert(night.bed)
        held.insert(night.wake)
      }
    }
    let inserter = try EventInserter(connection: connection, source: source)
    var kinds: [EventKind: Int64] = [:]
    var added = 0
    for (index, event) in events.enumerated() where !held.contains(index) {
      let id: Int64
      if let known = kinds[event.kind] {
        id = known
      } else {
        id = try kindID(for: event.kind)
        kinds[event.kind] = id
      }
      if try inserter.insert(at: event.timestamp, kindID: id, value: event.value, note: event.note)
      {
        added += 1
      }
    }
    return (added, events.count - added)
  }

  /// The spans of the stored events of `kind` that could match one of `spans`.
  private func storedSpans(
    kind: EventKind, around spans: [SessionSpan], span: (Event) -> SessionSpan
  ) throws -> StoredSpans {
    let (from, to) = Self.window(spans)
    return StoredSpans(
      try storedEvents(EventSelection(from: from, to: to, kind: kind)).map { span($0.event) })
  }

  /// The stored nights (each "Bed Time" and the first "Wake Up" after it, before the next Bed
  /// Time and within the longest night) that could match one of `spans`.
  private func storedNights(
    around spans: [SessionSpan], bedTime: EventKind, wakeUp: EventKind
  ) throws -> StoredSpans {
    let (from, to) = Self.window(spans)
    let beds = try storedEvents(EventSelection(from: from, to: to, kind: bedTime))
      .map(\.event.timestamp.secondsSince1970).sorted()
    let wakes = try storedEvents(EventSelection(from: from, to: to, kind: wakeUp))
      .map(\.event.timestamp.secondsSince1970).sorted()
    var result: [SessionSpan] = []
    var next = 0
    for (position, bed) in beds.enumerated() {
      while next < wakes.count, wakes[next] <= bed { next += 1 }
      guard next < wakes.count else { break }
      let wake = wakes[next]
      if wake - bed <= SleepNights.maximumNight,
        position + 1 == beds.count || beds[position + 1] >= wake
      {
        result.append(SessionSpan(start: bed, end: wake))
      }
    }
    return StoredSpans(result)
  }

  /// The instants to look at: a day either side of the new spans.
  private static func window(_ spans: [SessionSpan]) -> (Int64, Int64) {
    let first = spans.map(\.start).min() ?? 0
    let last = spans.map(\.end).max() ?? 0
    return (first - 86400, last + 86400)
  }
}

/// A workout's or a night's span, seconds since 1970.
struct SessionSpan: Equatable {
  var start: Int64
  var end: Int64

  /// Whether the two are one session by the rule of ``HealthMapping``: their spans overlap by at
  /// least half of the shorter one, or, when one lasts under a minute, they start within a
  /// minute of each other.
  func isSame(as other: SessionSpan) -> Bool {
    let shorter = min(end - start, other.end - other.start)
    if shorter < 60 { return abs(start - other.start) <= 60 }
    let overlap = min(end, other.end) - max(start, other.start)
    return overlap * 2 >= shorter
  }
}

/// Stored spans, sorted by start, searched for a match.
struct StoredSpans {
  private let spans: [SessionSpan]
  private let longest: Int64

  init(_ spans: [SessionSpan]) {
    self.spans = spans.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    longest = spans.map { $0.end - $0.start }.max() ?? 0
  }

  /// Whether one of them is the same session as `span`.
  func containsSame(as span: SessionSpan) -> Bool {
    // Only spans that start before `span` ends (or within a minute of its start) can match;
    // look back from there as far as the longest span reaches.
    var high = spans.count
    var low = 0
    let limit = max(span.end, span.start + 60)
    while low < high {
      let middle = (low + high) / 2
      if spans[middle].start <= limit { low = middle + 1 } else { high = middle }
    }
    var index = low - 1
    while index >= 0, spans[index].start >= span.start - longest - 60 {
      if spans[index].isSame(as: span) { return true }
      index -= 1
    }
    return false
  }
}
