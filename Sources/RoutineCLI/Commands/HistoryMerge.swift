import RoutineCore
import RoutineStore

/// The entries of `routine history` in order of time, then request: a merge of three streams
/// read from the store as they are printed (deliveries by firing, answers by answer time,
/// cancellations ahead by firing), so that memory stays flat however long the range is.
///
/// The order is that of sorting every entry by time and request, deliveries before answers
/// before cancellations when both tie, each stream keeping its own order among equals. A
/// stream's rows come ordered by a time no later entry of it can precede (an alarm's later
/// ring is listed at its ring, after its firing), so each stream is put in order through a
/// small heap of the entries that could still be overtaken.
struct HistoryMerge {
  private var sources: [Source]

  /// The entries of firings and answers in `from..<to`, and the cancellations ahead of `now` in
  /// it; only those whose request `keep` accepts, when given.
  init(
    store: EventStore, from: Int64, to: Int64, now: Int64, clock: ClockStyle,
    keep: ((String) -> Bool)?, outcomes: OutcomeReader? = nil
  ) throws {
    let deliveries = try store.deliveryCursor(from: from, to: to)
    let answers = try store.answerCursor(from: from, to: to)
    // Cancellations ahead (those that came due are delivery records 'cancelled'): at most a
    // day of each reminder's firings, so they are read at once.
    var ahead: [StoredCancellation] = []
    for stored in try store.cancellations(from: max(from, now))
    where stored.cancellation.occurrence.at < to
      && keep?(stored.cancellation.occurrence.requestID) != false
    {
      if try !store.isDecided(stored.cancellation.occurrence) { ahead.append(stored) }
    }
    var titles: [String: String] = [:]
    if !ahead.isEmpty {
      for request in try store.pendingRequests(clock: clock) where titles[request.id] == nil {
        titles[request.id] = request.title
      }
    }
    var next = ahead.makeIterator()
    sources = [
      Source { () throws -> (HistoryEntry, Int64)? in
        while let record = try deliveries.next() {
          var entry = HistoryEntry(record)
          if keep?(entry.requestID) == false { continue }
          entry.result = try outcomes?.outcome(of: record)
          // Rows come by firing; an entry is at its firing or a later ring.
          return (entry, record.occurrence.at)
        }
        return nil
      },
      Source { () throws -> (HistoryEntry, Int64)? in
        while let answer = try answers.next() {
          var entry = HistoryEntry(answer)
          if keep?(entry.requestID) == false { continue }
          // An answer is shown on the clock of the firing it answers (after a trip, with that
          // zone's offset): answers are few, one lookup each.
          entry.slot = try store.latestDelivery(
            requestID: answer.occurrence.requestID, occurrence: answer.occurrence.at)?.occurrence
            .slot
          return (entry, entry.at)
        }
        return nil
      },
      Source { () -> (HistoryEntry, Int64)? in
        guard let stored = next.next() else { return nil }
        let id = stored.cancellation.occurrence.requestID
        let entry = HistoryEntry(stored, clock: clock, title: titles[id] ?? id)
        return (entry, entry.at)
      },
    ]
  }

  /// The next entry, or `nil` after the last.
  mutating func next() throws -> HistoryEntry? {
    var chosen: Int?
    for index in sources.indices {
      guard let head = try sources[index].head() else { continue }
      if let best = chosen, let current = try sources[best].head(),
        (current.at, current.requestID) <= (head.at, head.requestID)
      {
        continue
      }
      chosen = index
    }
    guard let chosen else { return nil }
    return sources[chosen].removeHead()
  }

  /// One stream of entries, put in order of (time, request, position).
  private struct Source {
    /// The next row: its entry, and the earliest time any later entry can have.
    let pull: () throws -> (HistoryEntry, Int64)?
    /// The row read but not yet taken into the heap.
    private var lookahead: (HistoryEntry, Int64)?
    private var isStarted = false
    /// Entries that later rows could still precede, a min-heap by (time, request, position).
    private var heap: [(entry: HistoryEntry, position: Int)] = []
    private var position = 0

    init(_ pull: @escaping () throws -> (HistoryEntry, Int64)?) {
      self.pull = pull
    }

    /// The entry that comes next in this stream, once no later row can precede it.
    mutating func head() throws -> HistoryEntry? {
      if !isStarted {
        isStarted = true
        lookahead = try pull()
      }
      while let (entry, bound) = lookahead, heap.isEmpty || heap[0].entry.at >= bound {
        push(entry)
        lookahead = try pull()
      }
      return heap.first?.entry
    }

    /// Takes the head (after ``head()``).
    mutating func removeHead() -> HistoryEntry? {
      guard !heap.isEmpty else { return nil }
      let first = heap[0].entry
      let last = heap.removeLast()
      if !heap.isEmpty {
        heap[0] = last
        siftDown()
      }
      return first
    }

    private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
      let (left, right) = (heap[lhs], heap[rhs])
      return (left.entry.at, left.entry.requestID, left.position)
        < (right.entry.at, right.entry.requestID, right.position)
    }

    private mutating func push(_ entry: HistoryEntry) {
      heap.append((entry, position))
      position += 1
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard precedes(child, parent) else { return }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    private mutating func siftDown() {
      var parent = 0
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { return }
        let right = left + 1
        let child = right < heap.count && precedes(right, left) ? right : left
        guard precedes(child, parent) else { return }
        heap.swapAt(child, parent)
        parent = child
      }
    }
  }
}
