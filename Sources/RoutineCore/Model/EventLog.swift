/// Occurrences grouped by kind: what analytics reads.
///
/// A log is built by appending in any order, then ``sorted()`` (cheap when the input already is
/// in time order, as logs almost always are). Exact duplicates (same kind, same local time and
/// offset) count once: reading the same file twice must not double the evidence.
public struct EventLog: Sendable {
  /// The kinds, in the order first seen.
  public private(set) var kinds: [EventKind] = []
  /// Event times per kind, indexed like ``kinds``.
  public private(set) var times: [[EventTime]] = []
  private var indexByKey: [String: Int] = [:]

  /// An empty log.
  public init() {}

  /// A log holding `events`, sorted.
  public init(_ events: [(EventKind, Timestamp)]) {
    for (kind, timestamp) in events {
      append(EventTime(timestamp), toKindAt: index(of: kind))
    }
    sort()
  }

  /// The index of `kind`, adding it when new.
  public mutating func index(of kind: EventKind) -> Int {
    if let index = indexByKey[kind.key] { return index }
    let index = kinds.count
    kinds.append(kind)
    times.append([])
    indexByKey[kind.key] = index
    return index
  }

  /// The index of the kind whose key is `key`, or `nil` when the log has none.
  public func index(ofKey key: String) -> Int? {
    indexByKey[key]
  }

  /// Adds an event time of the kind at `index`; call ``sort()`` before analysing.
  public mutating func append(_ time: EventTime, toKindAt index: Int) {
    times[index].append(time)
  }

  /// Adds times of the kind at `index`; call ``sort()`` before analysing.
  public mutating func append<S: Sequence>(contentsOf list: S, toKindAt index: Int)
  where S.Element == EventTime {
    times[index].append(contentsOf: list)
  }

  /// Sorts each kind's times by local time and drops exact duplicates.
  public mutating func sort() {
    for index in times.indices {
      var list = times[index]
      times[index] = []
      var ordered = true
      for i in list.indices.dropFirst() where list[i] <= list[i - 1] {
        ordered = false
        break
      }
      if !ordered {
        list.sort()
        var write = 0
        for read in list.indices where write == 0 || list[read] != list[write - 1] {
          list[write] = list[read]
          write += 1
        }
        list.removeLast(list.count - write)
      }
      times[index] = list
    }
  }

  /// The total number of times.
  public var count: Int { times.reduce(0) { $0 + $1.count } }

  /// The earliest and latest local dates of any event.
  public var dateRange: ClosedRange<LocalDate>? {
    var first: EventTime?
    var last: EventTime?
    for list in times {
      guard let head = list.first, let tail = list.last else { continue }
      if first == nil || head < first! { first = head }
      if last == nil || tail > last! { last = tail }
    }
    guard let first, let last else { return nil }
    return first.localDate...last.localDate
  }

  /// The latest local date of any event on or before `day`, or `nil` when none is (the log must
  /// be sorted).
  public func latestDate(through day: LocalDate) -> LocalDate? {
    let end = Int64(day.daysSince1970 + 1) * 86_400
    var latest: EventTime?
    for list in times {
      let index = list.lowerBound(localSeconds: end) - 1
      guard index >= 0 else { continue }
      if latest == nil || list[index] > latest! { latest = list[index] }
    }
    return latest?.localDate
  }
}
