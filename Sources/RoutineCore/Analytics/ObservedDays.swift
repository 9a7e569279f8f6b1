/// Which days of a range the user was logging at all.
///
/// A day counts as observed unless it is part of a run of at least ``minimumGap`` consecutive
/// days on which nothing at all was logged: such runs are times the user was not logging
/// (travel, a lost phone), not evidence that every routine failed. A single empty day still
/// counts, so a sparse log of one kind is not flattered.
public struct ObservedDays: Sendable, Hashable {
  /// The shortest run of empty days treated as a logging gap.
  public static let minimumGap = 2

  /// The days considered.
  public let range: ClosedRange<LocalDate>
  private var observed: [Bool]

  /// The observed days of `range` in `log`.
  public init(_ log: EventLog, range: ClosedRange<LocalDate>) {
    self.range = range
    let first = range.lowerBound.daysSince1970
    let count = range.upperBound.daysSince1970 - first + 1
    var hasEvent = [Bool](repeating: false, count: count)
    let lower = Int64(first) * 86_400
    let upper = Int64(range.upperBound.daysSince1970 + 1) * 86_400
    for list in log.times {
      var index = list.lowerBound(localSeconds: lower)
      while index < list.count, list[index].localSeconds < upper {
        hasEvent[list[index].localDate.daysSince1970 - first] = true
        index += 1
      }
    }
    observed = hasEvent
    var day = 0
    while day < count {
      guard !hasEvent[day] else {
        day += 1
        continue
      }
      var end = day
      while end < count, !hasEvent[end] { end += 1 }
      if end - day < ObservedDays.minimumGap {
        for gapDay in day..<end { observed[gapDay] = true }
      }
      day = end
    }
  }

  /// Whether `date` (inside ``range``) was observed; dates outside the range are not.
  public func contains(_ date: LocalDate) -> Bool {
    guard range.contains(date) else { return false }
    return observed[date.daysSince1970 - range.lowerBound.daysSince1970]
  }
}
