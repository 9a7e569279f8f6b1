/// How a routine's events spread over the 24 hours: event counts per half hour, for a glance at
/// a routine in the terminal (`routine analyze`).
///
/// The events counted are the routine's kind on the days its confidence counts (the last
/// ``Routine/daysObserved`` observed days of its kind up to `lastDay`), each counted for the routine of
/// its kind whose time is nearest (circularly) on that day: a morning and an evening coffee show
/// one peak each, and times of the kind that made no routine of their own show beside it.
public struct TimeOfDayHistogram: Sendable, Equatable {
  /// Minutes per bin.
  public static let binMinutes = 30
  /// Bins over the day, the first from 00:00.
  public static let binCount = 1440 / binMinutes

  /// Events per bin, ``binCount`` of them.
  public private(set) var counts: [Int]

  /// Counts for `routine`, one of `routines` (the analysis's), from `log`'s events on the
  /// routine's days up to `lastDay` (the last day learned from).
  public init(_ routine: Routine, among routines: [Routine], log: EventLog, lastDay: LocalDate) {
    // The days its confidence counts are days of its kind the user was logging on
    // (ObservedDays): a week per day of the kind at most, as every kind has a day a week.
    let horizon = lastDay.adding(days: -7 * max(routine.daysObserved, 1))...lastDay
    let observed = ObservedDays(log, range: horizon)
    var first = lastDay.adding(days: 1)
    var counted = 0
    while counted < routine.daysObserved, first > horizon.lowerBound {
      first = first.adding(days: -1)
      if routine.dayKind.contains(first), observed.contains(first) { counted += 1 }
    }
    let days = first...lastDay
    counts = Array(repeating: 0, count: Self.binCount)
    guard let index = log.index(ofKey: routine.kind.key) else { return }
    let siblings = routines.filter { $0.kind == routine.kind }
    for time in log.times[index] {
      let date = time.localDate
      guard days.contains(date), routine.dayKind.contains(date) else { continue }
      let clock = time.timeOfDay
      let nearest = siblings.filter { $0.dayKind.contains(date) }
        .min { $0.time.distance(to: clock) < $1.time.distance(to: clock) }
      guard nearest == routine else { continue }
      counts[clock.secondsSinceMidnight / (Self.binMinutes * 60)] += 1
    }
  }

  /// Each bin's height from 0 (no event) to `levels` (the fullest bin); a bin with any event is
  /// at least 1, so that a single early morning shows.
  public func heights(levels: Int) -> [Int] {
    let highest = counts.max() ?? 0
    guard highest > 0 else { return counts.map { _ in 0 } }
    return counts.map { count in
      count == 0 ? 0 : max(1, Int((Double(count * levels) / Double(highest)).rounded()))
    }
  }
}
