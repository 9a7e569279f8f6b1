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

  /// The routines of `kind` learned from `days`, on the standard kinds of day (see
  /// ``DayKind/partitions``).
  ///
  /// `times` holds the kind's events near the learning days (those not yet happened left out).
  func routines(of kind: EventKind, times: KindTimes, days: LearningDays) -> [Routine] {
    var routines: [Routine] = []
    let clusters = placedClusters(of: times, days: days)
    for placed in clusters {
      let scores = DayKind.partitions.map { score($0, placed.daily, placed.cluster, days) }
      // A split must be strictly better than a simpler one to be chosen.
      let best = scores.indices.reduce(0) { scores[$1] > scores[$0] ? $1 : $0 }
      for dayKind in DayKind.partitions[best] {
        if let routine = slotRoutine(kind, dayKind, in: placed, times, days) {
          routines.append(routine)
        }
      }
    }
    return followingMoves(routines, of: kind, clusters: clusters, times: times, days: days)
  }

  /// `routines` with those that moved (``ChangePoint``: their last days of their kind agree on
  /// another time) replaced: the old time gives way, and the new one is learned from the day
  /// the move began only, so that its days before the move, without the event at the new
  /// time, do not count against it (docs/analytics.md, "A routine that moves").
  private func followingMoves(
    _ routines: [Routine], of kind: EventKind, clusters: [PlacedCluster], times: KindTimes,
    days: LearningDays
  ) -> [Routine] {
    guard configuration.followsMoves else { return routines }
    var result = routines
    for routine in routines {
      guard let (move, since) = self.move(of: routine, among: routines, times: times, days: days)
      else { continue }
      // The old slot, and what was learned at the new time over the whole span, give way.
      result.removeAll {
        $0.dayKind.weekdayMask & routine.dayKind.weekdayMask != 0
          && ($0.time == routine.time
            || $0.time.distance(to: move.time) <= 2 * configuration.toleranceSeconds)
      }
      let minute = move.time.secondsSinceMidnight / 60
      guard
        let placed = clusters.first(where: {
          floorMod(minute - $0.cluster.start, 1440) < $0.cluster.length
        }),
        let followed = slotRoutine(kind, routine.dayKind, in: placed, times, days, since: since)
      else { continue }
      result.append(followed)
    }
    return result
  }

  /// The move of `routine` (the new time, and the index of the learning day it began on),
  /// judged on the last ``ChangePoint/days`` observed days of its kind of day, each by the
  /// day's event of the kind nearest to its time. A time that another routine of the kind
  /// kept before the move began is that routine's, not a move (breakfast skipped two days is
  /// no move to lunch), and a routine of weekdays and weekends alike moves only when the new
  /// time holds on a weekday (a weekend slept in is no move).
  private func move(
    of routine: Routine, among routines: [Routine], times: KindTimes, days: LearningDays
  ) -> (ChangePoint.Move, since: Int)? {
    let tolerance = configuration.toleranceSeconds
    // The observed days of its kind, oldest first.
    let kindDays = (0..<days.count).filter {
      days.isObserved[$0] && days.isDay($0, of: routine.dayKind)
    }
    guard kindDays.count >= ChangePoint.agreeing else { return nil }
    // Each learning day's event nearest to the routine's time, as an offset from it.
    let shift = Int32(43_200 - routine.time.secondsSinceMidnight)
    let first = Int32(days.first)
    var nearest = [Int?](repeating: nil, count: days.count)
    for event in 0..<times.count {
      let (day, position) = times.shifted(event, by: shift)
      let index = Int(day - first)
      guard index >= 0, index < days.count else { continue }
      let offset = Int(position) - 43_200
      if nearest[index].map({ abs(offset) < abs($0) }) ?? true { nearest[index] = offset }
    }
    func time(on day: Int) -> TimeOfDay? {
      nearest[day].map {
        TimeOfDay(secondsSinceMidnight: floorMod(routine.time.secondsSinceMidnight + $0, 86_400))
      }
    }
    let recent = kindDays.suffix(ChangePoint.days).map(time(on:))
    // Two days of a routine of two days a week are one weekend: it moves after three.
    let needed =
      routine.dayKind.weekdayMask.nonzeroBitCount >= 5
      ? ChangePoint.agreeing : ChangePoint.agreeing + 1
    guard let move = ChangePoint.move(recent: recent, usual: routine.time, agreeing: needed)
    else { return nil }
    // The move began on the first of the trailing days done at the new time.
    var since = kindDays.last!
    for day in kindDays.reversed() {
      guard let done = time(on: day), done.distance(to: move.time) <= ChangePoint.spreadSeconds
      else { break }
      since = day
    }
    // Days off that differ (a weekend slept in) are no move of a routine of every kind of
    // day: the split of the week learns them. The new time must hold on a weekday too.
    let mask = routine.dayKind.weekdayMask
    if mask & DayKind.weekdays.weekdayMask != 0, mask & DayKind.weekends.weekdayMask != 0,
      !kindDays.contains(where: { $0 >= since && days.isDay($0, of: .weekdays) })
    {
      return nil
    }
    // Another routine at the new time that was kept beside this one, on days with both, is a
    // slot of its own: breakfast skipped two days is no move to lunch. One kept instead of it
    // (a late wake-up on some weekdays) is the same act at another time, and moving there is
    // a move; so is a weekend's, on other days.
    func daysDone(near time: TimeOfDay) -> Set<Int> {
      var found = Set<Int>()
      for event in 0..<times.count {
        let day = Int(times.days[event] - first)
        guard day >= 0, day < since, days.isDay(day, of: routine.dayKind) else { continue }
        let at = TimeOfDay(secondsSinceMidnight: Int(times.seconds[event]))
        if at.distance(to: time) <= tolerance { found.insert(day) }
      }
      return found
    }
    // And a routine kept on more days than this one is no place this one moved to: the days
    // off at 10:00 of a 07:00 wake-up do not move to 07:00.
    let keptDays = daysDone(near: routine.time)
    let established = routines.contains { other in
      guard other.time != routine.time,
        other.time.distance(to: move.time) <= ChangePoint.spreadSeconds,
        other.dayKind.weekdayMask & mask != 0
      else { return false }
      let otherDays = daysDone(near: other.time)
      return otherDays.count >= keptDays.count
        || otherDays.intersection(keptDays).count >= ChangePoint.agreeing + 1
    }
    return established ? nil : (move, since)
  }

  /// The routines of `kind` kept on some days of the week only, learned from the longer
  /// horizon `days` (see ``AnalysisConfiguration/weeklyDays``): the gym on Monday, Wednesday and
  /// Friday (a weekday set), or a brunch at weekends, which a week's window, with two weekend
  /// days, cannot show three times.
  ///
  /// For each cluster of the kind's times it asks which split of the week predicts held-out
  /// days best: the standard splits (see ``DayKind/partitions``) as in a window, or a weekday
  /// set S and the other days, which must beat them by
  /// ``AnalysisConfiguration/weeklyMargin``. When the winner has a part on whose days the event
  /// happened at least twice as often as on the others, that part's routine is returned, when
  /// claimed. The sets tried are the j weekdays (j = 1...6) on which the event happened most
  /// often: the best set of each size, without trying all 126.
  func weeklyRoutines(of kind: EventKind, times: KindTimes, days: LearningDays) -> [Routine] {
    var routines: [Routine] = []
    let clusters = placedClusters(of: times, days: days)
    for placed in clusters {
      let daily = placed.daily
      // How often the event happened on the observed days of a kind of day.
      func rate(_ dayKind: DayKind) -> Double {
        let observed = days.observedCount(of: dayKind)
        return observed == 0 ? 0 : Double(daily.count(on: dayKind)) / Double(observed)
      }
      let ranked = [2, 3, 4, 5, 6, 7, 1].sorted {
        rate(DayKind(WeekdaySet([$0]))) > rate(DayKind(WeekdaySet([$1])))
      }
      // A routine of some days is kept on them and not on the others: its days must have the
      // event at least twice as often. Times that merely differ by weekday (a bed time a
      // little later on some nights) are the window's business, and with every day alike,
      // which weekdays rank first is noise. Checked first: most kinds have no such days, and
      // then nothing is scored.
      func isKept(_ set: DayKind) -> Bool {
        days.observedCount(of: set) > 0 && days.observedCount(of: set.complement) > 0
          && rate(set) >= 2 * rate(set.complement)
      }
      let kept = (1...6).map { DayKind(WeekdaySet(ranked.prefix($0))) }.filter(isKept)
      guard !kept.isEmpty else { continue }
      // The standard splits first, simpler first, each only when strictly better; a weekday
      // set pays the margin.
      var best: (partition: [DayKind], score: Double)?
      let candidates =
        DayKind.partitions.map { ($0, 0.0) }
        + kept.filter(\.isWeekdaySet).map { ([$0, $0.complement], configuration.weeklyMargin) }
      for (partition, price) in candidates {
        let score = score(partition, daily, placed.cluster, days) - price
        if best == nil || score > best!.score { best = (partition, score) }
      }
      // The part kept on its days: a weekday set, or a standard kind (weekends, when only
      // Sunday ranked first).
      // Only claimed: the model, which could vouch for a refused slot, does not score these.
      guard let part = best?.partition.first(where: isKept),
        var routine = slotRoutine(kind, part, in: placed, times, days), routine.isClaimed
      else { continue }
      // Learned over the horizon with a half-life of weeks and no track record: the
      // confidence model, fitted on next-day forecasts from a window, does not speak for it,
      // and its held-out estimate stands (docs/analytics.md, "The confidence estimator").
      routine.evidence = nil
      routines.append(routine)
    }
    // A weekday set that moved is followed as a daily routine is; only what the significance
    // test claims, and with the held-out estimate as its confidence.
    return followingMoves(routines, of: kind, clusters: clusters, times: times, days: days)
      .compactMap {
        guard $0.isClaimed else { return nil }
        var routine = $0
        routine.evidence = nil
        return routine
      }
  }

  /// A cluster of the kind's times with its events placed once around its peak: every kind of
  /// day is a subset of them.
  private struct PlacedCluster {
    let cluster: TimeOfDayClusters.Cluster
    let peak: TimeOfDay
    let members: Members
    let daily: DailyTimes
  }

  /// The clusters of the kind's times of day on `days`, their events placed.
  private func placedClusters(of times: KindTimes, days: LearningDays) -> [PlacedCluster] {
    var histogram = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
    // The slots are the window's: the lookback before it only adds days to known slots.
    let first = Int32(days.first + days.windowStart)
    let last = Int32(days.first + days.count - 1)
    for index in 0..<times.count where times.days[index] >= first && times.days[index] <= last {
      histogram[Int(times.seconds[index]) / 60] += 1
    }
    return TimeOfDayClusters.find(
      histogram: histogram, radius: configuration.smoothingRadiusMinutes,
      mergeRatio: configuration.peakMergeRatio
    ).map { cluster in
      let peak = TimeOfDay(secondsSinceMidnight: cluster.peak * 60)
      let placed = members(times, cluster, days, center: peak)
      return PlacedCluster(
        cluster: cluster, peak: peak, members: placed,
        daily: DailyTimes(placed, cluster, center: peak, days: days))
    }
  }

  /// The routine of `dayKind` in `placed`, when it has enough hit days: claimed when the
  /// significance test says so, else marked unclaimed (``ConfidenceFeatures/unclaimed``).
  private func slotRoutine(
    _ kind: EventKind, _ dayKind: DayKind, in placed: PlacedCluster, _ times: KindTimes,
    _ days: LearningDays, since: Int? = nil
  ) -> Routine? {
    guard
      let candidate = learn(
        dayKind, placed.members, times, placed.cluster, days, center: placed.peak, since: since),
      candidate.hitsInSample >= configuration.minimumDays
    else { return nil }
    var result = routine(kind, from: candidate)
    result.movedOn = since.map { LocalDate(daysSince1970: days.first + $0) }
    // A slot the significance test refuses is kept as a forecast for the confidence model to
    // score; the analyzer shows it only when the model trusts it (``RoutineAnalyzer/shown``).
    if !isClaimed(candidate) { result.evidence?.features.unclaimed = true }
    return result
  }

  /// Each day's time in a cluster (the event nearest the middle of the arc), as a minute of the
  /// grouped day, per weekday: any kind of day is a union of weekdays, so each split is scored
  /// from these without placing the events again.
  private struct DailyTimes {
    /// `minutes[weekday]`: the time of each day of that weekday that had the event.
    var minutes: [[Int]]

    init(
      _ members: Members, _ cluster: TimeOfDayClusters.Cluster, center: TimeOfDay,
      days: LearningDays
    ) {
      let centre = RoutineLearner.arcStart(of: cluster, center: center) + cluster.length / 2
      minutes = [[Int]](repeating: [], count: 8)
      for run in 0..<members.runCount {
        var chosen: Int?
        for index in members.runs[run]..<members.runs[run + 1] where members.inCluster[index] {
          let minute = Int(members.positions[index]) / 60
          if chosen == nil || abs(minute - centre) < abs(chosen! - centre) { chosen = minute }
        }
        guard let chosen else { continue }
        minutes[days.weekday(of: members.day(ofRun: run))].append(chosen)
      }
    }

    /// How many days of `dayKind` had the event.
    func count(on dayKind: DayKind) -> Int {
      dayKind.days.reduce(0) { $0 + minutes[$1].count }
    }

    /// The days' times, counted by minute (a histogram keeps the scoring linear in the days,
    /// which matters over decades), and how many days had one, on the days of `dayKind`.
    func times(on dayKind: DayKind) -> (histogram: [Int], count: Int) {
      var histogram = [Int](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
      var count = 0
      for weekday in dayKind.days {
        for minute in minutes[weekday] { histogram[minute] += 1 }
        count += minutes[weekday].count
      }
      return (histogram, count)
    }
  }

  /// How well splitting the week by `partition`, each kind of day learned separately, predicts
  /// the held-out days: the summed leave-one-day-out log-likelihood of when, if at all, the
  /// event happened.
  ///
  /// The kernel width comes from the spread pooled over the partition's day kinds (each day's
  /// distance from the median of its own kind of day). With two Fridays and Saturdays in a week,
  /// a width from those two alone would be as narrow as they happen to lie, and a split that
  /// merely groups a few close times would look like a better forecast than it is.
  private func score(
    _ partition: [DayKind], _ daily: DailyTimes, _ cluster: TimeOfDayClusters.Cluster,
    _ days: LearningDays
  ) -> Double {
    let minutes = TimeOfDayClusters.minutesPerDay
    // Times a few minutes apart hit or miss the same reminders: differences well inside the
    // tolerance must not decide the split, so no kernel is narrower than half of it.
    let narrowest = Double(configuration.toleranceSeconds) / 120
    let parts = partition.map { daily.times(on: $0) }
    // Each day's distance from the median of its own kind of day, pooled.
    var deviations = [Int](repeating: 0, count: minutes)
    for part in parts {
      let middle = histogramMedian(part.histogram, count: part.count)
      for (minute, days) in part.histogram.enumerated() where days > 0 {
        deviations[min(Int(abs(Double(minute) - middle).rounded()), minutes - 1)] += days
      }
    }
    let scale = 1.4826 * histogramMedian(deviations, count: parts.reduce(0) { $0 + $1.count })
    return zip(partition, parts).reduce(0.0) { total, element in
      let (dayKind, part) = element
      let width = 0.9 * scale * pow(Double(max(part.count, 1)), -0.2)
      return total
        + leaveOneOutLogScore(
          histogram: part.histogram, withEvent: part.count,
          observedDays: days.observedCount(of: dayKind),
          bandwidth: min(max(width, narrowest), 60), arcLength: cluster.length)
    }
  }

  /// The first minute of `cluster`'s arc on the day grouped around `center` (whose noon, minute
  /// 720, is `center`).
  private static func arcStart(of cluster: TimeOfDayClusters.Cluster, center: TimeOfDay) -> Int {
    720 - floorMod(center.secondsSinceMidnight / 60 - cluster.start, 1440)
  }

  /// The candidate for `dayKind` from `members` (grouped around `center`), expressed on the
  /// routine days of its own time: a routine's day is the date its suggestion falls on
  /// (``Routine/routineDay(ofLocalSeconds:)``), which the report's rows, the outlier check and
  /// the planner's calendar days all read.
  ///
  /// When the time lies on the other side of midnight from `center` (Friday and Saturday
  /// nights grouped around 23:40, learned at 00:30), the same nights are the next dates: the
  /// events are grouped again around the time and the kind of day moves a day on (Saturdays and
  /// Sundays at 00:30). Counted around the time, `daysMatched` is what a reader counts on the
  /// routine's rows, and the planner fires on the dates the events happened. The second pass
  /// searches that date only, so the time cannot cross back.
  ///
  /// With `since` (a learning day's index), no day before it is learned from: a routine that
  /// moved then.
  private func learn(
    _ dayKind: DayKind, _ members: Members, _ times: KindTimes,
    _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays, center: TimeOfDay,
    since: Int? = nil
  ) -> Candidate? {
    guard
      let first = learn(dayKind, members, cluster, days, groupedAround: center, since: since)
    else {
      return nil
    }
    let moved = datesMoved(from: center, to: first.time)
    guard moved != 0 else { return first }
    let regrouped = self.members(times, cluster, days, center: first.time)
    return learn(
      Self.dayKind(dayKind, movedBy: moved), regrouped, cluster, days, groupedAround: first.time,
      sameDate: true, since: since.map { $0 + moved })
  }

  /// -1, 0 or 1: how many dates the short way round the clock from `a` to `b` moves (1 when it
  /// passes midnight forwards).
  private func datesMoved(from a: TimeOfDay, to b: TimeOfDay) -> Int {
    let end = a.secondsSinceMidnight + a.signedDistance(to: b)
    return end < 0 ? -1 : end >= TimeOfDay.secondsPerDay ? 1 : 0
  }

  /// `dayKind`'s weekdays each moved `days` days on (Friday and Saturday nights, moved 1, are
  /// the Saturday and Sunday dates after them).
  static func dayKind(_ dayKind: DayKind, movedBy days: Int) -> DayKind {
    DayKind(WeekdaySet(dayKind.weekdays.map { floorMod($0 - 1 + days, 7) + 1 }))
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

  /// With `sameDate`, the time is searched for on the date of `center` only.
  private func learn(
    _ dayKind: DayKind, _ members: Members, _ cluster: TimeOfDayClusters.Cluster,
    _ days: LearningDays, groupedAround center: TimeOfDay, sameDate: Bool = false,
    since: Int? = nil
  ) -> Candidate? {
    // The runs (days) of this kind of day, from the first of its last days with the event.
    let ofKind = (0..<members.runCount).filter { days.isDay(members.day(ofRun: $0), of: dayKind) }
    let spanStart = max(self.spanStart(of: ofKind, members, days), since ?? 0)
    let runs = ofKind.filter { members.day(ofRun: $0) >= spanStart }
    guard !runs.isEmpty else { return nil }

    // The hot loops read the member arrays through buffer pointers: no bounds checks, no
    // reference counting per access.
    return members.positions.withUnsafeBufferPointer { positions in
      members.inCluster.withUnsafeBufferPointer { inClusterFlags in
        members.runs.withUnsafeBufferPointer { runStarts in
          days.weights.withUnsafeBufferPointer { dayWeights in
            learn(
              dayKind, members, runs, positions: positions, inCluster: inClusterFlags,
              runStarts: runStarts, dayWeights: dayWeights, cluster, days, center: center,
              sameDate: sameDate, spanStart: spanStart)
          }
        }
      }
    }
  }

  private func learn(
    _ dayKind: DayKind, _ members: Members, _ runs: [Int],
    positions: UnsafeBufferPointer<Int32>, inCluster inClusterFlags: UnsafeBufferPointer<Bool>,
    runStarts: UnsafeBufferPointer<Int>, dayWeights: UnsafeBufferPointer<Double>,
    _ cluster: TimeOfDayClusters.Cluster, _ days: LearningDays, center: TimeOfDay,
    sameDate: Bool, spanStart: Int
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
    let arcStart = Self.arcStart(of: cluster, center: center)
    var searchRange = arcStart...(arcStart + cluster.length - 1)
    // Positions (seconds) on the date of `center`: its midnights lie 12 hours either side.
    let dateStart = 43_200 - center.secondsSinceMidnight
    let dateEnd = dateStart + TimeOfDay.secondsPerDay - 1
    if sameDate {
      let low = max(searchRange.lowerBound, floorDiv(dateStart + 59, 60))
      let high = min(searchRange.upperBound, floorDiv(dateEnd, 60))
      guard low <= high else { return nil }
      searchRange = low...high
    }
    var curve = HitCurve(
      histogram: histogram,
      bandwidth: HitCurve.bandwidth(histogram: clusterHistogram, days: clusterDays),
      toleranceMinutes: tolerance / 60, searchRange: searchRange)
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
    // Every observed day of the kind in the span counts, with the event or without.
    let (observed, observedWeight) = days.observed(of: dayKind, from: spanStart)
    // The peak is a whole minute; the events it stands for may all lie later in that minute or
    // earlier in the next. The suggestion must lie within the range the reasoning states.
    var suggested = hitsInSample == 0 ? position : min(max(position, earliest), latest)
    if sameDate { suggested = min(max(suggested, dateStart), dateEnd) }
    return Candidate(
      time: TimeOfDay(secondsSinceMidnight: base + suggested),
      dayKind: dayKind,
      daysObserved: observed,
      hitsInSample: hitsInSample,
      eventsPerDay: Double(count) / Double(max(observed, 1)),
      weightedHits: weightedHits,
      weightedDays: observedWeight,
      occurrences: occurrencesNear,
      earliest: TimeOfDay(secondsSinceMidnight: base + (hitsInSample == 0 ? position : earliest)),
      latest: TimeOfDay(secondsSinceMidnight: base + (hitsInSample == 0 ? position : latest)),
      spreadSeconds: 1.4826 * 60 * medianMinute(deviationMinutes, count: runs.count))
  }

  /// The first learning day a kind of day learns from: the window's first day, or earlier, the
  /// first of its last ``AnalysisConfiguration/eventDays`` days with an event in the cluster
  /// (`runs` are the kind of day's runs, oldest first); the whole lookback when it has fewer.
  private func spanStart(of runs: [Int], _ members: Members, _ days: LearningDays) -> Int {
    let wanted = configuration.eventDays
    guard wanted > 0, days.windowStart > 0 else { return days.windowStart }
    var found = 0
    for run in runs.reversed() {
      let events = members.runs[run]..<members.runs[run + 1]
      guard events.contains(where: { members.inCluster[$0] }) else { continue }
      found += 1
      if found == wanted { return min(members.day(ofRun: run), days.windowStart) }
    }
    return 0
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
    // The kernel density of all days' times at each day's minute; each day's own term is
    // removed below, which makes the held-out density exact without a pass per day.
    let occupied = histogram.indices.filter { histogram[$0] > 0 }
    var density = [Double](repeating: 0, count: occupied.count)
    if occupied.count < kernel.count {
      // A week's few distinct minutes: pair them directly.
      for (slot, minute) in occupied.enumerated() {
        for other in occupied where abs(other - minute) <= radius {
          density[slot] += Double(histogram[other]) * kernel[radius + other - minute]
        }
      }
    } else {
      // Years of days: spread each minute's days over the grid once.
      var grid = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay + 2 * radius)
      for minute in occupied {
        for (offset, weight) in kernel.enumerated() {
          grid[minute + offset] += Double(histogram[minute]) * weight
        }
      }
      for (slot, minute) in occupied.enumerated() { density[slot] = grid[minute + radius] }
    }
    let uniform = 1 / Double(max(arcLength, 1))
    var score = 0.0
    let others = Double(withEvent - 1)
    for (slot, minute) in occupied.enumerated() {
      let happens = (others + 1) / (n + 1)
      let kde = others > 0 ? max(density[slot] - kernel[radius], 0) / others : 0
      score += Double(histogram[minute]) * (log(happens) + log(0.9 * kde + 0.1 * uniform))
    }
    // A held-out day without the event: the others had it on `withEvent` days.
    let missing = Double(observedDays - withEvent)
    if missing > 0 { score += missing * log(missing / (n + 1)) }
    return score
  }

  private func routine(_ kind: EventKind, from candidate: Candidate) -> Routine {
    let a = configuration.priorHits
    let b = configuration.priorMisses
    let heldOut = (candidate.weightedHits + a) / (candidate.weightedDays + a + b)
    let features = ConfidenceFeatures(
      heldOut: heldOut, windowWeight: configuration.trackRecordWindowWeight)
    let threshold = max(
      Double(configuration.outlierFloorSeconds),
      configuration.outlierScore * candidate.spreadSeconds)
    return Routine(
      kind: kind,
      time: candidate.time,
      dayKind: candidate.dayKind,
      // The window's own estimate; the track record turns it into the model's (see
      // ``TrackRecord``). Where there is no record at all (windows as long as the record), the
      // estimate stands: the model was fitted where there is one.
      confidence: configuration.boundsByEvidence
        ? EvidenceBound.bounded(
          heldOut, hits: candidate.hitsInSample, of: candidate.daysObserved) : heldOut,
      occurrences: candidate.occurrences,
      daysMatched: candidate.hitsInSample,
      daysObserved: candidate.daysObserved,
      earliest: candidate.earliest,
      latest: candidate.latest,
      spreadMinutes: candidate.spreadSeconds / 60,
      outlierThresholdSeconds: Int(threshold.rounded()),
      reasoning: Wording.reasoning(
        kind: kind, dayKind: candidate.dayKind, matched: candidate.hitsInSample,
        observed: candidate.daysObserved, earliest: candidate.earliest, latest: candidate.latest),
      evidence: RoutineEvidence(features: features))
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
