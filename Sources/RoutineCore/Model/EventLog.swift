/// Occurrences grouped by kind: what analytics reads.
///
/// A log is built by appending in any order, then ``sorted()`` (cheap when the input already is
/// in time order, as logs almost always are). Exact duplicates (same kind, same local time and
/// offset) count once: reading the same file twice must not double the evidence.
public struct EventLog: Sendable {
  /// The kinds, in the order first seen.
  public private(set) var kinds: [EventKind] = []
  /// Occurrences per kind, indexed like ``kinds``.
  public private(set) var occurrences: [[Occurrence]] = []
  private var indexByKey: [String: Int] = [:]

  /// An empty log.
  public init() {}

  /// A log holding `events`, sorted.
  public init(_ events: [(EventKind, Timestamp)]) {
    for (kind, timestamp) in events {
      append(Occurrence(timestamp), toKindAt: index(of: kind))
    }
    sort()
  }

  /// The index of `kind`, adding it when new.
  public mutating func index(of kind: EventKind) -> Int {
    if let index = indexByKey[kind.key] { return index }
    let index = kinds.count
    kinds.append(kind)
    occurrences.append([])
    indexByKey[kind.key] = index
    return index
  }

  /// Adds an occurrence of the kind at `index`; call ``sort()`` before analysing.
  public mutating func append(_ occurrence: Occurrence, toKindAt index: Int) {
    occurrences[index].append(occurrence)
  }

  /// Adds occurrences of the kind at `index`; call ``sort()`` before analysing.
  public mutating func append<S: Sequence>(contentsOf list: S, toKindAt index: Int)
  where S.Element == Occurrence {
    occurrences[index].append(contentsOf: list)
  }

  /// Sorts each kind's occurrences by local time and drops exact duplicates.
  public mutating func sort() {
    for index in occurrences.indices {
      var list = occurrences[index]
      occurrences[index] = []
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
      occurrences[index] = list
    }
  }

  /// The total number of occurrences.
  public var count: Int { occurrences.reduce(0) { $0 + $1.count } }

  /// The earliest and latest local dates of any occurrence.
  public var dateRange: ClosedRange<LocalDate>? {
    var first: Occurrence?
    var last: Occurrence?
    for list in occurrences {
      guard let head = list.first, let tail = list.last else { continue }
      if first == nil || head < first! { first = head }
      if last == nil || tail > last! { last = tail }
    }
    guard let first, let last else { return nil }
    return first.localDate...last.localDate
  }
}
