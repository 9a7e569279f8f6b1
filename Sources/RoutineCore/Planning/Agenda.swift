import Foundation

/// Every occurrence of a set of requests in a range.
public enum Agenda {
  /// One notification firing.
  public struct Item: Hashable, Sendable {
    /// When, seconds since 1970 UTC.
    public var at: Int64
    /// What.
    public var request: NotificationRequest
    /// The local date and time the firing belongs to, for a wall-clock trigger.
    public var slot: FiringSlot?

    /// `request` firing at `at`.
    public init(at: Int64, request: NotificationRequest, slot: FiringSlot? = nil) {
      self.at = at
      self.request = request
      self.slot = slot
    }

    /// The firing.
    public var firing: Firing { Firing(at: at, slot: slot) }
  }

  /// The range `agenda` covers when no end is given: 7 local days.
  public static let defaultDays = 7
  /// The longest range an agenda covers: 366 local days (a year, a leap year's too).
  public static let maximumDays = 366

  /// The instant `days` local days after `start` at the same wall-clock time in `timeZone`:
  /// across a daylight-saving change, 7 days are 167 or 169 hours, not 168. A wall-clock time
  /// that does not exist on the later date, or exists twice, resolves by the time rules
  /// (``WallClock``): the end of the gap, the first of the two.
  public static func end(after start: Int64, days: Int, in timeZone: Zone) -> Int64 {
    let local = start + WallClock.offset(at: start, in: timeZone)
    let date = WallClock.localDate(at: start, in: timeZone)
    let time = TimeOfDay(
      secondsSinceMidnight: Int(local - Int64(date.daysSince1970) * 86_400))
    return WallClock.instant(on: date.adding(days: days), at: time, in: timeZone)
  }

  /// The occurrences of `requests` in `from..<to` in `timeZone`, ordered by time, then identifier.
  public static func items(
    for requests: [NotificationRequest], from: Int64, to: Int64, in timeZone: Zone
  ) -> [Item] {
    Array(stream(for: requests, from: from, to: to, in: timeZone))
  }

  /// The occurrences of ``items(for:from:to:in:)`` one at a time, in the same order, without
  /// holding them all: a year of thousands of requests is printed as it is worked out.
  public static func stream(
    for requests: [NotificationRequest], from: Int64, to: Int64, in timeZone: Zone
  ) -> Items {
    Items(requests: requests, from: from, to: to, in: timeZone)
  }

  /// A merge of each request's firings (each in time order) into one sequence ordered by time,
  /// then identifier: a heap holds each request's next firing, so memory follows the number of
  /// requests, not of firings.
  public struct Items: Sequence, IteratorProtocol {
    private let requests: [NotificationRequest]
    /// Each request's place among the others by identifier: ties in time compare these
    /// integers, not the strings.
    private let ranks: [Int]
    private var sequences: [Trigger.Firings]
    /// Each request's next firing (`nil` when it has no more).
    private var heads: [Firing?]
    /// The requests with a next firing, a binary min-heap by (time, rank).
    private var heap: [Int] = []

    init(requests: [NotificationRequest], from: Int64, to: Int64, in timeZone: Zone) {
      self.requests = requests
      var ranks = [Int](repeating: 0, count: requests.count)
      let byID = requests.indices.sorted { (requests[$0].id, $0) < (requests[$1].id, $1) }
      for (rank, index) in byID.enumerated() { ranks[index] = rank }
      self.ranks = ranks
      guard from < to else {
        sequences = []
        heads = []
        return
      }
      // The range's days are worked out once for every request.
      let days = ZoneDays(timeZone, from: from, to: to)
      sequences = requests.map { $0.trigger.firingSequence(from: from, to: to, days: days) }
      heads = Array(repeating: nil, count: requests.count)
      heap.reserveCapacity(requests.count)
      for index in requests.indices {
        heads[index] = sequences[index].next()
        if heads[index] != nil { push(index) }
      }
    }

    /// The next occurrence, or `nil` after the last.
    public mutating func next() -> Item? {
      guard let index = heap.first, let firing = heads[index] else { return nil }
      heads[index] = sequences[index].next()
      if heads[index] != nil {
        siftDown(from: 0)
      } else {
        let last = heap.removeLast()
        if !heap.isEmpty {
          heap[0] = last
          siftDown(from: 0)
        }
      }
      return Item(at: firing.at, request: requests[index], slot: firing.slot)
    }

    private func precedes(_ lhs: Int, _ rhs: Int) -> Bool {
      let left = heads[lhs]?.at ?? Int64.max
      let right = heads[rhs]?.at ?? Int64.max
      return left != right ? left < right : ranks[lhs] < ranks[rhs]
    }

    private mutating func push(_ index: Int) {
      heap.append(index)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard precedes(heap[child], heap[parent]) else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    private mutating func siftDown(from start: Int) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { return }
        let right = left + 1
        let child = right < heap.count && precedes(heap[right], heap[left]) ? right : left
        guard precedes(heap[child], heap[parent]) else { return }
        heap.swapAt(child, parent)
        parent = child
      }
    }
  }
}
