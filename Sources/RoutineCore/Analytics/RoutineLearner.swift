import Foundation

/// Learns the routines of one event kind from its occurrences over the learning days.
///
/// The kind's times of day are first split into clusters (breakfast, lunch, dinner). For each
/// cluster it chooses how to split the week (every day; weekdays and weekends; Sunday to Thursday
/// and Friday and Saturday), whichever predicts held-out days' events best. For each kind of day
/// in that split it then finds the suggested time (the peak of the smoothed hit curve), counts
/// the days with an event within the tolerance, and estimates the confidence from
/// recency-weighted leave-one-day-out hits.
/// docs/analytics.md explains each step.
struct RoutineLearner: Sendable {
  let configuration: AnalysisConfiguration

  /// What one kind of day says about one cluster.
  struct Candidate {
    var time: TimeOfDay
    var dayKind: DayKind
    var daysObserved: Int
    var hitsInSample: Int
    /// Events of the kind per observed day of this kind, over the window.
    var eventsPerDay: Double
    /// Recency-weighted held-out hits and observed days: the confidence's evidence.
    var weightedHits: Double
    var weightedDays: Double
    var occurrences: Int
    var earliest: TimeOfDay
    var latest: TimeOfDay
    var spreadSeconds: Double
  }

  /// The kind's events placed on routine days around a grouping centre: day indexes (from the
  /// first learning day), positions in seconds on the day (the centre sits at 43200, noon), and
  /// whether each lies on the cluster's arc. Ordered by day, then position; each day's events
  /// are one run, `runs[i]..<runs[i + 1]`.
  private struct Members {
    var days: [Int32] = []
    var positions: [Int32] = []
    var inCluster: [Bool] = []
    var runs: [Int] = [0]

    var runCount: Int { runs.count - 1 }

    /// The learning day of run `run`.
    func day(ofRun run: Int) -> Int { Int(days[runs[run]]) }
  }

  /// The routines of `kind` learned from `days`.
  ///
  /// `times` holds the kind's events near the learning days (those not yet happened left out).
  func routines(of kind: EventKind, times: KindTimes, days: LearningDays) -> [Routine] {
    var histogram = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
    let first = Int32(days.first)
    let last = Int32(days.first + days.count - 1)
    for index in 0..<times.count where times.days[index] >= first && times.days[index] <= last {
      histogram[Int(times.seconds[index]) / 60] += 1
    }
    let clusters = TimeOfDayClusters.find(
      histogram: histogram, radius: configuration.smoothingRadiusMinutes,
      mergeRatio: configuration.peakMergeRatio)

    var routines: [Routine] = []
    for cluster in clusters {
      let peak = TimeOfDay(secondsSinceMidnight: cluster.peak * 60)
      // Place the events once; every kind of day is a subset of all days.
      let everyDay = members(times, cluster, days, center: peak)
      for dayKind in split(everyDay, cluster, days, center: peak) {
        if let candidate = learn(dayKind, everyDay, times, cluster, days, center: peak),
          isClaimed(candidate)
        {
          routines.append(routine(kind, from: candidate))
        }
      }
    }
    return routines
  }

  /// How to split the week for this cluster: the partition (see ``DayKind/partitions``) whose
  /// day kinds, each learned separately, predict the held-out days best, judged by the summed
  /// leave-one-day-out log-likelihood of when, if at all, the event happened. A split must be
  /// strictly better than a simpler one to be chosen.
  ///
  /// The kernel width comes from the spread pooled over the partition's day kinds (each day's
  /// distance from the median of its own kind of day). With two Fridays and Saturdays in a week,
  /// a width from those two alone would be as narrow as they happen to lie, and a split that
  /// merely groups a few close times would look like a better forecast than it is.
  private func split(
    _ members: Members, _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays,
    center: TimeOfDay
  ) -> [DayKind] {
    let centre = arcStart(of: cluster, center: center) + cluster.length / 2
    // Times a few minutes apart hit or miss the same reminders: differences well inside the
    // tolerance must not decide the split, so no kernel is narrower than half of it.
    let narrowest = Double(configuration.toleranceSeconds) / 120
    // Each day's time (the event nearest the middle of the arc), counted by minute of the
    // grouped day for every kind of day the day belongs to: histograms keep this linear in
    // the days, which matters over decades.
    let minutes = TimeOfDayClusters.minutesPerDay
    let kinds = DayKind.allCases
    var cells = [[Int]](repeating: [Int](repeating: 0, count: minutes), count: kinds.count)
    var counts = [Int](repeating: 0, count: kinds.count)
    for run in 0..<members.runCount {
      var chosen: Int?
      for index in members.runs[run]..<members.runs[run + 1] where members.inCluster[index] {
        let minute = Int(members.positions[index]) / 60
        if chosen == nil || abs(minute - centre) < abs(chosen! - centre) { chosen = minute }
      }
      guard let chosen else { continue }
      let day = members.day(ofRun: run)
      for (cell, dayKind) in kinds.enumerated() where days.isDay(day, of: dayKind) {
        cells[cell][chosen] += 1
        counts[cell] += 1
      }
    }
    var best: (partition: [DayKind], score: Double)?
    for partition in DayKind.partitions {
      let indexes = partition.map { kinds.firstIndex(of: $0)! }
      // Each day's distance from the median of its own kind of day, pooled.
      var deviations = [Int](repeating: 0, count: minutes)
      for cell in indexes {
        let middle = histogramMedian(cells[cell], count: counts[cell])
        for (minute, days) in cells[cell].enumerated() where days > 0 {
          deviations[min(Int(abs(Double(minute) - middle).rounded()), minutes - 1)] += days
        }
      }
      let scale = 1.4826 * histogramMedian(deviations, count: indexes.reduce(0) { $0 + counts[$1] })
      let score = indexes.reduce(0.0) { total, cell in
        let width = 0.9 * scale * pow(Double(max(counts[cell], 1)), -0.2)
        return total
          + leaveOneOutLogScore(
            histogram: cells[cell], withEvent: counts[cell],
            observedDays: days.observedCount(of: kinds[cell]),
            bandwidth: min(max(width, narrowest), 60), arcLength: cluster.length)
      }
      if best == nil || score > best!.score { best = (partition, score) }
    }
    return best?.partition ?? [.all]
  }

  /// The first minute of `cluster`'s arc on the day grouped around `center` (whose noon, minute
  /// 720, is `center`).
  private func arcStart(of cluster: TimeOfDayClusters.Cluster, center: TimeOfDay) -> Int {
    720 - floorMod(center.secondsSinceMidnight / 60 - cluster.start, 1440)
  }

  /// The candidate for `dayKind` from `members` (grouped around `center`), re-grouped around its
  /// own time when the first grouping put the time on the other side of midnight (the routine day
  /// must be the date the suggestion is on).
  private func learn(
    _ dayKind: DayKind, _ members: Members, _ times: KindTimes,
    _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays, center: TimeOfDay
  ) -> Candidate? {
    guard let first = learn(dayKind, members, cluster, days, groupedAround: center) else {
      return nil
    }
    guard crossesMidnight(from: center, to: first.time) else { return first }
    let regrouped = self.members(times, cluster, days, center: first.time)
    guard let second = learn(dayKind, regrouped, cluster, days, groupedAround: first.time),
      !crossesMidnight(from: first.time, to: second.time)
    else { return first }
    return second
  }

  /// Whether the short way round the clock from `a` to `b` passes midnight.
  private func crossesMidnight(from a: TimeOfDay, to b: TimeOfDay) -> Bool {
    let end = a.secondsSinceMidnight + a.signedDistance(to: b)
    return end < 0 || end >= TimeOfDay.secondsPerDay
  }

  /// The events on observed learning days, placed around `center`.
  private func members(
    _ times: KindTimes, _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays,
    center: TimeOfDay
  ) -> Members {
    var members = Members()
    members.days.reserveCapacity(times.count)
    members.positions.reserveCapacity(times.count)
    members.inCluster.reserveCapacity(times.count)
    let shift = Int32(43_200 - center.secondsSinceMidnight)
    let first = Int32(days.first)
    for index in 0..<times.count {
      let (routineDay, position) = times.shifted(index, by: shift)
      let day = Int(routineDay - first)
      guard day >= 0, day < days.count, days.isObserved[day] else { continue }
      members.days.append(Int32(day))
      members.positions.append(position)
      var arcOffset = Int(times.seconds[index]) / 60 - cluster.start
      if arcOffset < 0 { arcOffset += 1440 }
      members.inCluster.append(arcOffset < cluster.length)
      if members.days.count > 1, members.days[members.days.count - 2] != Int32(day) {
        members.runs.append(members.days.count - 1)
      }
    }
    members.runs.append(members.days.count)
    if members.days.isEmpty { members.runs = [0] }
    return members
  }

  private func learn(
    _ dayKind: DayKind, _ members: Members, _ cluster: TimeOfDayClusters.Cluster,
    _ days: LearningDays, groupedAround center: TimeOfDay
  ) -> Candidate? {
    // The runs (days) of this kind of day.
    let runs = (0..<members.runCount).filter { days.isDay(members.day(ofRun: $0), of: dayKind) }
    guard !runs.isEmpty else { return nil }

    // The hot loops read the member arrays through buffer pointers: no bounds checks, no
    // reference counting per access.
    return members.positions.withUnsafeBufferPointer { positions in
      members.inCluster.withUnsafeBufferPointer { inClusterFlags in
        members.runs.withUnsafeBufferPointer { runStarts in
          days.weights.withUnsafeBufferPointer { dayWeights in
            learn(
              dayKind, members, runs, positions: positions, inCluster: inClusterFlags,
              runStarts: runStarts, dayWeights: dayWeights, cluster, days, center: center)
          }
        }
      }
    }
  }

  private func learn(
    _ dayKind: DayKind, _ members: Members, _ runs: [Int],
    positions: UnsafeBufferPointer<Int32>, inCluster inClusterFlags: UnsafeBufferPointer<Bool>,
    runStarts: UnsafeBufferPointer<Int>, dayWeights: UnsafeBufferPointer<Double>,
    _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays, center: TimeOfDay
  ) -> Candidate? {
    let tolerance = configuration.toleranceSeconds
    let dayOfRun = { (run: Int) in members.day(ofRun: run) }
    // Each day weighs its recency weight, shared among its events.
    var histogram = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
    var clusterHistogram = [Int](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
    var clusterDays = 0
    var count = 0
    for run in runs {
      let events = runStarts[run]..<runStarts[run + 1]
      let share = dayWeights[dayOfRun(run)] / Double(events.count)
      var inCluster = false
      for index in events {
        let minute = Int(positions[index]) / 60
        histogram[minute] += share
        if inClusterFlags[index] {
          clusterHistogram[minute] += 1
          inCluster = true
        }
      }
      count += events.count
      if inCluster { clusterDays += 1 }
    }
    guard clusterDays > 0 else { return nil }
    // The arc, in minutes of the grouped day: the centre sits at minute 720, inside the arc.
    let arcStart = arcStart(of: cluster, center: center)
    var curve = HitCurve(
      histogram: histogram,
      bandwidth: HitCurve.bandwidth(histogram: clusterHistogram, days: clusterDays),
      toleranceMinutes: tolerance / 60, searchRange: arcStart...(arcStart + cluster.length - 1))
    guard let peak = curve.best() else { return nil }
    let position = peak * 60

    // Each day's nearest event to the suggestion decides whether the day was a hit; held out,
    // would the other days have suggested a time that this day hit?
    let leavesOneOut = runs.count <= configuration.leaveOneOutLimit
    var hitsInSample = 0
    var weightedHits = 0.0
    // Deviations per whole minute, for the median absolute deviation (the spread).
    var deviationMinutes = [Int](repeating: 0, count: 721)
    var earliest = Int.max
    var latest = Int.min
    var occurrencesNear = 0
    for run in runs {
      let events = runStarts[run]..<runStarts[run + 1]
      var nearest = Int.max
      for index in events {
        let offset = abs(Int(positions[index]) - position)
        nearest = min(nearest, offset)
        if offset <= tolerance {
          occurrencesNear += 1
          earliest = min(earliest, Int(positions[index]))
          latest = max(latest, Int(positions[index]))
        }
      }
      deviationMinutes[min(nearest / 60, 720)] += 1
      var isHit = nearest <= tolerance
      if isHit { hitsInSample += 1 }
      if leavesOneOut {
        let share = dayWeights[dayOfRun(run)] / Double(events.count)
        for index in events { curve.add(minute: Int(positions[index]) / 60, weight: -share) }
        let held = curve.best().map { $0 * 60 }
        for index in events { curve.add(minute: Int(positions[index]) / 60, weight: share) }
        isHit = false
        if let held {
          for index in events where abs(Int(positions[index]) - held) <= tolerance { isHit = true }
        }
      }
      if isHit { weightedHits += dayWeights[dayOfRun(run)] }
    }

    let base = center.secondsSinceMidnight - 43_200
    let observed = days.observedCount(of: dayKind)
    // The peak is a whole minute; the events it stands for may all lie later in that minute or
    // earlier in the next. The suggestion must lie within the range the reasoning states.
    let suggested = hitsInSample == 0 ? position : min(max(position, earliest), latest)
    return Candidate(
      time: TimeOfDay(secondsSinceMidnight: base + suggested),
      dayKind: dayKind,
      daysObserved: observed,
      hitsInSample: hitsInSample,
      eventsPerDay: Double(count) / Double(max(observed, 1)),
      weightedHits: weightedHits,
      weightedDays: days.totalWeight(of: dayKind),
      occurrences: occurrencesNear,
      earliest: TimeOfDay(secondsSinceMidnight: base + (hitsInSample == 0 ? position : earliest)),
      latest: TimeOfDay(secondsSinceMidnight: base + (hitsInSample == 0 ? position : latest)),
      spreadSeconds: 1.4826 * 60 * medianMinute(deviationMinutes, count: runs.count))
  }

  /// Whether the evidence is enough to claim a routine: enough days, and more hits than events
  /// falling at random times would give (see ``AnalysisConfiguration/significanceLevel``). The
  /// time was found by searching the whole day, so the p-value is multiplied by the number of
  /// hour-long windows in a waking day (Bonferroni): the chance of a false routine anywhere in
  /// the day, not at one place chosen beforehand.
  private func isClaimed(_ candidate: Candidate) -> Bool {
    guard candidate.hitsInSample >= configuration.minimumDays else { return false }
    let windows =
      Double(configuration.wakingDaySeconds) / Double(2 * configuration.toleranceSeconds)
    let chance = 1 - exp(-candidate.eventsPerDay / windows)
    let pValue = binomialTail(
      atLeast: candidate.hitsInSample, of: candidate.daysObserved, probability: min(chance, 1))
    return pValue * windows <= configuration.significanceLevel
  }

  /// The leave-one-day-out log-likelihood of a cluster's events on `observedDays` days, given
  /// the event's time on each of the `withEvent` days that had it (`histogram`, days per minute
  /// of the grouped day): each held-out day is predicted from the other n - 1 by the probability
  /// that the event happens at all, (k + 1) / (n + 1) when k of them had it, and, when it did,
  /// the density of its time: a Gaussian kernel density of the other days' times with width
  /// `bandwidth` (minutes), mixed with 10% uniform over the arc so that one odd day cannot
  /// dominate. A proper score on an outcome every split of the week shares: which would have
  /// predicted the held-out days best.
  private func leaveOneOutLogScore(
    histogram: [Int], withEvent: Int, observedDays: Int, bandwidth: Double, arcLength: Int
  ) -> Double {
    guard observedDays > 0 else { return 0 }
    let n = Double(observedDays)
    let radius = Int((4 * bandwidth).rounded(.up))
    let kernel = (-radius...radius).map { offset in
      exp(-0.5 * Double(offset * offset) / (bandwidth * bandwidth))
        / (bandwidth * (2 * Double.pi).squareRoot())
    }
    // The kernel density of all days' times on the minute grid; each day's own term is removed
    // below, which makes the held-out density exact without a pass per day.
    var density = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay + 2 * radius)
    for (minute, events) in histogram.enumerated() where events > 0 {
      for (offset, weight) in kernel.enumerated() {
        density[minute + offset] += Double(events) * weight
      }
    }
    let uniform = 1 / Double(max(arcLength, 1))
    var score = 0.0
    let others = Double(withEvent - 1)
    for (minute, events) in histogram.enumerated() where events > 0 {
      let happens = (others + 1) / (n + 1)
      let kde = others > 0 ? max(density[minute + radius] - kernel[radius], 0) / others : 0
      score += Double(events) * (log(happens) + log(0.9 * kde + 0.1 * uniform))
    }
    // A held-out day without the event: the others had it on `withEvent` days.
    let missing = Double(observedDays - withEvent)
    if missing > 0 { score += missing * log(missing / (n + 1)) }
    return score
  }

  private func routine(_ kind: EventKind, from candidate: Candidate) -> Routine {
    let a = configuration.priorHits
    let b = configuration.priorMisses
    let confidence = (candidate.weightedHits + a) / (candidate.weightedDays + a + b)
    let threshold = max(
      Double(configuration.outlierFloorSeconds),
      configuration.outlierScore * candidate.spreadSeconds)
    return Routine(
      kind: kind,
      time: candidate.time,
      dayKind: candidate.dayKind,
      confidence: confidence,
      occurrences: candidate.occurrences,
      daysMatched: candidate.hitsInSample,
      daysObserved: candidate.daysObserved,
      earliest: candidate.earliest,
      latest: candidate.latest,
      spreadMinutes: candidate.spreadSeconds / 60,
      outlierThresholdSeconds: Int(threshold.rounded()),
      reasoning: Wording.reasoning(
        kind: kind, dayKind: candidate.dayKind, matched: candidate.hitsInSample,
        observed: candidate.daysObserved, earliest: candidate.earliest, latest: candidate.latest))
  }
}

/// The value at `index` (from 0) of the sorted values a histogram counts by whole minute.
func minute(ofValue index: Int, in histogram: [Int]) -> Int {
  var seen = 0
  for (minute, values) in histogram.enumerated() {
    seen += values
    if seen > index { return minute }
  }
  return histogram.count - 1
}

/// The median of values given as a histogram of `count` values by whole minute (the middle of
/// the minute, so that a spread of a few seconds is not zero).
func medianMinute(_ histogram: [Int], count: Int) -> Double {
  guard count > 0 else { return 0 }
  return Double(minute(ofValue: (count - 1) / 2, in: histogram)) + 0.5
}

/// The median of values given as a histogram of `count` values by whole minute (the mean of
/// the two middle values for an even count; 0 for none).
func histogramMedian(_ histogram: [Int], count: Int) -> Double {
  guard count > 0 else { return 0 }
  let low = minute(ofValue: (count - 1) / 2, in: histogram)
  let high = minute(ofValue: count / 2, in: histogram)
  return Double(low + high) / 2
}

/// The median of non-negative numbers (0 for none).
func median(_ values: [Int32]) -> Double {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1
    ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
}

/// P(X >= k) for X ~ Binomial(n, p). The first term comes from log-gamma (no underflow on long
/// windows), the rest by the ratio of consecutive terms, stopping once they no longer matter.
func binomialTail(atLeast k: Int, of n: Int, probability p: Double) -> Double {
  guard k > 0 else { return 1 }
  guard k <= n else { return 0 }
  guard p > 0 else { return 0 }
  guard p < 1 else { return 1 }
  let ways = lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
  var term = exp(ways + Double(k) * log(p) + Double(n - k) * log(1 - p))
  var total = term
  let odds = p / (1 - p)
  var x = k
  while x < n {
    term *= Double(n - x) / Double(x + 1) * odds
    total += term
    x += 1
    if Double(x) > Double(n) * p, term < total * 1e-12 { break }
  }
  return min(total, 1)
}

extension Array where Element == EventTime {
  /// The index of the first occurrence at or after naive local seconds `local` (binary search).
  func lowerBound(localSeconds local: Int64) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].localSeconds < local { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
