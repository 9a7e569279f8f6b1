import Foundation

/// A simple method a skeptic would try before the learner, run on the same walk by
/// ``Backtest`` so the two compare fairly (docs/analytics.md, "Simple methods and the precision
/// curve").
///
/// Each learns from the events of each kind whose local dates lie in the window and nothing
/// else: no track record, no held-out days, no weekday sets. A kind of day's days are every day
/// of that kind in the window, logged or not.
public enum Baseline: String, CaseIterable, Sendable {
  /// The arithmetic mean of the seconds of day, with the share of the events within the
  /// tolerance of it as confidence: the original design's "consistency". Deliberately naive
  /// about midnight (23:50 and 00:10 average to noon).
  case mean
  /// The circular mean, with its resultant length times the share of days with an event.
  case circular
  /// ``circular`` on weekdays and on weekends apart.
  case circularSplit = "circular-split"
  /// Each cluster of times (split at gaps over 90 minutes, at least 3 events): its circular
  /// mean, with the share of days that had an event within the tolerance of it.
  case clusters
  /// ``clusters`` on weekdays and on weekends apart.
  case clustersSplit = "clusters-split"

  /// A gap between consecutive times of day longer than this splits two clusters.
  public static let clusterGapSeconds = 90 * 60
  /// The fewest events a cluster needs.
  public static let clusterMinimumEvents = 3

  /// The routines this method forecasts from the events of `log` on the local dates `days`;
  /// `toleranceSeconds` is how close an event must come to count (30 minutes).
  public func routines(
    in log: EventLog, days: ClosedRange<LocalDate>, toleranceSeconds: Int = 30 * 60
  ) -> [Routine] {
    let dayKinds: [DayKind] =
      switch self {
      case .mean, .circular, .clusters: [.all]
      case .circularSplit, .clustersSplit: [.weekdays, .weekends]
      }
    var result: [Routine] = []
    for (index, kind) in log.kinds.enumerated() {
      let list = log.times[index]
      let lower = list.lowerBound(localSeconds: Int64(days.lowerBound.daysSince1970) * 86_400)
      let upper = list.lowerBound(
        localSeconds: Int64(days.upperBound.daysSince1970 + 1) * 86_400)
      let window = list[lower..<upper]
      for dayKind in dayKinds {
        let sample = BaselineSample(
          events: window.filter { dayKind.contains($0.localDate) },
          days: (days.lowerBound.daysSince1970...days.upperBound.daysSince1970).filter {
            dayKind.contains(LocalDate(daysSince1970: $0))
          }.count,
          kind: kind, dayKind: dayKind, tolerance: toleranceSeconds)
        guard !sample.events.isEmpty, sample.days > 0 else { continue }
        switch self {
        case .mean: result += [sample.mean()]
        case .circular, .circularSplit: result += sample.circular().map { [$0] } ?? []
        case .clusters, .clustersSplit: result += sample.clusters()
        }
      }
    }
    return result.sorted { ($0.time, $0.kind.key) < ($1.time, $1.kind.key) }
  }
}

/// One kind's events on one kind of day in a window, and what each baseline makes of them.
private struct BaselineSample {
  let events: [EventTime]
  /// Days of ``dayKind`` in the window.
  let days: Int
  let kind: EventKind
  let dayKind: DayKind
  let tolerance: Int

  var seconds: [Int] { events.map { $0.timeOfDay.secondsSinceMidnight } }

  func mean() -> Routine {
    let values = seconds
    let average = Double(values.reduce(0, +)) / Double(values.count)
    let time = TimeOfDay(secondsSinceMidnight: Int(average.rounded()))
    let near = events.filter { $0.timeOfDay.distance(to: time) <= tolerance }
    let variance =
      values.reduce(0.0) { $0 + (Double($1) - average) * (Double($1) - average) }
      / Double(values.count)
    return routine(
      time: time, confidence: Double(near.count) / Double(events.count),
      members: events, near: near, spreadSeconds: variance.squareRoot(),
      why: "The mean of \(events.count) times is \(time); \(near.count) of them within "
        + "\(tolerance / 60) minutes of it.")
  }

  func circular() -> Routine? {
    guard let (time, length) = Self.circularMean(seconds) else { return nil }
    let covered = Set(events.map(\.localDate)).count
    let near = events.filter { $0.timeOfDay.distance(to: time) <= tolerance }
    return routine(
      time: time, confidence: length * Double(covered) / Double(days),
      members: events, near: near, spreadSeconds: Self.circularDeviation(length),
      why: "The circular mean of \(events.count) times is \(time) (resultant length "
        + "\(Self.twoPlaces(length))), with an event on \(covered) of \(days) "
        + "\(dayKind.noun(count: days)).")
  }

  func clusters() -> [Routine] {
    BaselineClusters.split(seconds, gap: Baseline.clusterGapSeconds).compactMap { members in
      guard members.count >= Baseline.clusterMinimumEvents,
        let (time, length) = Self.circularMean(members.map { seconds[$0] })
      else { return nil }
      let inCluster = members.map { events[$0] }
      let near = events.filter { $0.timeOfDay.distance(to: time) <= tolerance }
      // A day is matched by an event on the routine day of the suggestion (23:55's day owns
      // 00:10 after it), as the learner counts daysMatched.
      let probe = Routine(
        kind: kind, time: time, dayKind: dayKind, confidence: 0, occurrences: 0, daysMatched: 0,
        daysObserved: 0, earliest: time, latest: time, spreadMinutes: 0,
        outlierThresholdSeconds: 0, reasoning: "")
      let matched = Set(near.map { probe.routineDay(ofLocalSeconds: $0.localSeconds) })
        .filter(dayKind.contains).count
      return routine(
        time: time, confidence: min(Double(matched) / Double(days), 1),
        members: inCluster, near: near, spreadSeconds: Self.circularDeviation(length),
        why: "\(inCluster.count) times cluster around \(time); on \(matched) of \(days) "
          + "\(dayKind.noun(count: days)) one came within \(tolerance / 60) minutes of it.")
    }
  }

  private func routine(
    time: TimeOfDay, confidence: Double, members: [EventTime], near: [EventTime],
    spreadSeconds: Double, why: String
  ) -> Routine {
    // The earliest and latest of the events near the time, read round the clock from it.
    let offsets = near.map { time.signedDistance(to: $0.timeOfDay) }
    let spread = spreadSeconds.isFinite ? spreadSeconds / 60 : 720
    return Routine(
      kind: kind, time: time, dayKind: dayKind, confidence: max(0, min(confidence, 1)),
      occurrences: members.count,
      daysMatched: Set(near.map(\.localDate)).count, daysObserved: days,
      earliest: time.adding(seconds: offsets.min() ?? 0),
      latest: time.adding(seconds: offsets.max() ?? 0), spreadMinutes: spread,
      outlierThresholdSeconds: max(tolerance, Int((3 * spread * 60).rounded())),
      reasoning: why)
  }

  /// The circular mean of seconds of day and the resultant length (0...1), or `nil` when the
  /// times have no mean direction.
  static func circularMean(_ seconds: [Int]) -> (TimeOfDay, Double)? {
    TimeOfDay.circularMeanAndLength(seconds.map { TimeOfDay(secondsSinceMidnight: $0) })
  }

  /// The circular standard deviation, sqrt(-2 ln R), in seconds.
  static func circularDeviation(_ length: Double) -> Double {
    guard length > 0 else { return 43_200 }
    return (-2 * log(length)).squareRoot() / (2 * Double.pi) * 86_400
  }

  static func twoPlaces(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
  }
}

/// Times of day split into clusters at wide gaps, round the clock.
enum BaselineClusters {
  /// The indexes of `seconds` grouped into runs round the clock whose consecutive times are at
  /// most `gap` apart; one group when no gap round the clock is wider.
  static func split(_ seconds: [Int], gap: Int) -> [[Int]] {
    let order = seconds.indices.sorted { (seconds[$0], $0) < (seconds[$1], $1) }
    guard !order.isEmpty else { return [] }
    // Where a new cluster starts: after each gap wider than `gap`, the wrap past midnight
    // included.
    let starts = order.indices.filter { position in
      let previous = order[(position + order.count - 1) % order.count]
      let step = floorMod(seconds[order[position]] - seconds[previous], 86_400)
      return step > gap || (order.count == 1)
    }
    guard let first = starts.first else { return [order] }
    // Rotate so the first cluster starts at index 0: a cluster across midnight stays whole.
    let rotated = Array(order[first...] + order[..<first])
    let cuts = starts.map { $0 - first } + [order.count]
    return zip(cuts, cuts.dropFirst()).map { Array(rotated[$0..<$1]) }
  }

}
