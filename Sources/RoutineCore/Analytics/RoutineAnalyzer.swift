/// Turns an event log into routines, outliers and usual durations.
///
/// Pure: the window (with `now` and the user's zone) comes in, nothing is read from the clock,
/// the environment or the disk.
public struct RoutineAnalyzer: Sendable {
  /// The rules and their parameters.
  public var configuration: AnalysisConfiguration

  /// An analyzer with the given configuration (the documented defaults when omitted).
  public init(configuration: AnalysisConfiguration = AnalysisConfiguration()) {
    self.configuration = configuration
  }

  /// An analyzer with the documented defaults, learning routines of some days of the week from
  /// `weeklyDays` days (see ``AnalysisConfiguration/weeklyDays``) and each kind of day's time
  /// from its last `eventDays` days with the event (see ``AnalysisConfiguration/eventDays``).
  public init(weeklyDays: Int, eventDays: Int = AnalysisConfiguration().eventDays) {
    var configuration = AnalysisConfiguration()
    configuration.weeklyDays = weeklyDays
    configuration.eventDays = eventDays
    self.init(configuration: configuration)
  }

  /// The days of events ``analyze(_:window:)`` reads for `window`: the window, today, the
  /// days before the window that the track record learns from, and the longer horizon of
  /// routines of some days of the week.
  public func daysRead(for window: AnalysisWindow) -> ClosedRange<LocalDate> {
    let record = usesTrackRecord(windowDays: window.days) ? configuration.trackRecordDays : 0
    // Each day of the record learns from its own lookback.
    return window.today.adding(
      days: -record - lookbackDays(windowDays: window.days))...window
      .today
  }

  /// How many days before a day its daily routines read: the horizon when routines of some
  /// days are learned (the split of the week and the last days with events come from it),
  /// else the window.
  func lookbackDays(windowDays: Int) -> Int {
    learnsWeekly(windowDays: windowDays) ? configuration.weeklyDays : windowDays
  }

  /// The learning days of the window `window`: its days, after the lookback before them.
  func learningDays(in log: EventLog, window: ClosedRange<LocalDate>) -> LearningDays {
    let length = window.upperBound.daysSince1970 - window.lowerBound.daysSince1970 + 1
    let start = window.upperBound.adding(days: 1 - lookbackDays(windowDays: length))
    let first = min(start, window.lowerBound)
    return LearningDays(
      ObservedDays(log, range: first...window.upperBound),
      halfLife: configuration.recencyHalfLifeDays,
      windowStart: window.lowerBound.daysSince1970 - first.daysSince1970)
  }

  /// Routines, outliers and durations in `window`.
  public func analyze(_ log: EventLog, window: AnalysisWindow) -> RoutineAnalysis {
    let learning = window.learningDays
    let days = learningDays(in: log, window: learning)
    let longLookBack = self.longLookBack(windowDays: window.days)
    let longDays = longLookBack.map {
      learningDays(
        in: log, window: window.today.adding(days: -$0)...window.today.adding(days: -1))
    }
    let horizon = horizonDays(in: log, before: window.today, windowDays: window.days)
    let earliest = min(
      days.range.lowerBound, longDays?.range.lowerBound ?? learning.lowerBound,
      horizon?.range.lowerBound ?? learning.lowerBound)
    // Kinds are independent: learn them on all cores, collect them in kind order.
    let learner = RoutineLearner(configuration: configuration)
    let perKind = parallelMap(log.kinds.count) { index in
      let kind = log.kinds[index]
      let times = KindTimes(log.times[index], near: earliest...window.today, notAfter: window.now)
      let daily = learner.routines(of: kind, times: times, days: days)
      let long = longDays.map { learner.routines(of: kind, times: times, days: $0) } ?? []
      let weekly = horizon.map { learner.weeklyRoutines(of: kind, times: times, days: $0) }
      // Outliers are told from claimed routines only: a slot kept by chance says nothing
      // about what is unusual.
      let odd = self.outliers(
        of: kind, times: times,
        routines: self.merged(daily: daily.filter(\.isClaimed), weekly: weekly ?? []),
        days: learning.lowerBound...window.today)
      return (daily: daily, long: long, weekly: weekly ?? [], outliers: odd)
    }
    // The track record: the routines each look-back learned for each earlier day, of the kinds
    // with a routine today.
    let today = (short: perKind.flatMap(\.daily), long: perKind.flatMap(\.long))
    let kinds = Self.kindIndexes(of: today.short + today.long, in: log)
    let windowDays = window.days
    let recordDays =
      kinds.isEmpty || !usesTrackRecord(windowDays: windowDays) ? 0 : configuration.trackRecordDays
    let lookBacks = [windowDays] + (longLookBack.map { [$0] } ?? [])
    let history = parallelMap(recordDays * lookBacks.count) { index in
      let lookBack = lookBacks[index / max(recordDays, 1)]
      let date = window.today.adding(days: -(index % recordDays) - 1)
      return rawRoutines(
        in: log, days: date.adding(days: -lookBack)...date.adding(days: -1), kinds: kinds,
        confidences: false)
    }
    let daily = forecasts(for: window.today, in: log, windowDays: windowDays) {
      lookBack, date in
      let position = lookBacks.firstIndex(of: lookBack) ?? 0
      guard date < window.today else { return position == 0 ? today.short : today.long }
      return history[position * recordDays + window.today.daysSince1970 - date.daysSince1970 - 1]
    }
    let silence = LoggingSilence(
      lastLogged: log.latestDate(through: window.today), today: window.today)
    var routines = decayed(
      merged(daily: shown(daily, windowDays: windowDays), weekly: perKind.flatMap(\.weekly)),
      by: silence)
    var outliers = perKind.flatMap(\.outliers)
    routines.sort { ($0.time, $0.kind.name, $0.dayKind) < ($1.time, $1.kind.name, $1.dayKind) }
    outliers.sort { ($0.timestamp, $0.kind.name) < ($1.timestamp, $1.kind.name) }
    return RoutineAnalysis(
      window: window, routines: routines, outliers: outliers,
      durations: durations(in: log, days: learning), silence: silence)
  }

  /// `routines` with their confidences lowered by `silence` (``LoggingSilence/decay``).
  func decayed(_ routines: [Routine], by silence: LoggingSilence) -> [Routine] {
    let decay = silence.decay
    guard decay < 1, configuration.decaysWhenSilent else { return routines }
    return routines.map {
      var routine = $0
      routine.confidence *= decay
      return routine
    }
  }

  /// The routines of every kind learned from `days`, their confidences weighing in the track
  /// record of the days before (see ``TrackRecord``), with the routines of some days of the
  /// week learned from the horizon before the day after `days`.
  public func routines(in log: EventLog, days: ClosedRange<LocalDate>) -> [Routine] {
    let length = days.upperBound.daysSince1970 - days.lowerBound.daysSince1970 + 1
    let next = days.upperBound.adding(days: 1)
    var learned: [Int: [Routine]] = [:]
    let daily = forecasts(for: next, in: log, windowDays: length) { lookBack, date in
      learned[lookBack] =
        learned[lookBack]
        ?? rawRoutines(
          in: log, days: next.adding(days: -lookBack)...days.upperBound)
      guard date < next else { return learned[lookBack] }
      let kinds = Self.kindIndexes(of: learned.values.flatMap { $0 }, in: log)
      return rawRoutines(
        in: log, days: date.adding(days: -lookBack)...date.adding(days: -1), kinds: kinds,
        confidences: false)
    }
    return decayed(
      merged(
        daily: shown(daily, windowDays: length),
        weekly: weeklyRoutines(in: log, before: next, windowDays: length)),
      by: LoggingSilence(lastLogged: log.latestDate(through: days.upperBound), today: next))
  }

  /// The daily routines forecast for `day` from windows of `windowDays` days: those of the
  /// window and, for a short window, of the long look-back, each with the track record of its
  /// own look-back, and in each slot the better of the two (``chosen(short:long:)``).
  /// `raw(lookBack, date)` learns (or recalls) the routines of the `lookBack` days before
  /// `date`, with their confidences for `day` itself; `nil` when that date is not learned for.
  /// With `candidates`, both look-backs' routines are returned, none left out: the rows the
  /// confidence model is fitted on.
  func forecasts(
    for day: LocalDate, in log: EventLog, windowDays: Int, candidates: Bool = false,
    raw: (Int, LocalDate) -> [Routine]?
  ) -> [Routine] {
    let short = raw(windowDays, day) ?? []
    guard let lookBack = longLookBack(windowDays: windowDays) else {
      return calibrated(short, for: day, in: log, windowDays: windowDays) {
        raw(windowDays, $0)
      }
    }
    let (pairedShort, pairedLong) = paired(short: short, long: raw(lookBack, day) ?? [])
    let first = calibrated(pairedShort, for: day, in: log, windowDays: windowDays) {
      raw(windowDays, $0)
    }
    let second = calibrated(pairedLong, for: day, in: log, windowDays: windowDays) {
      raw(lookBack, $0)
    }
    return candidates ? first + second : chosen(short: first, long: second)
  }

  /// The long look-back that windows of `windowDays` days are paired with, `nil` when none: a
  /// window as long as the track record already reads as far (and has no record). It reads no
  /// further back than the horizon (``AnalysisConfiguration/weeklyDays``), and not at all when
  /// each kind of day learns from the window's days only (``AnalysisConfiguration/eventDays``
  /// 0): `--weekly 0` or `--event-days 0` analyse the window alone, as they say.
  func longLookBack(windowDays: Int) -> Int? {
    let days = min(configuration.longLookBackDays, configuration.weeklyDays)
    return usesTrackRecord(windowDays: windowDays) && days > windowDays
      && configuration.eventDays > 0 ? days : nil
  }

  /// Whether `a` and `b` are one slot: the same kind, days in common, times within twice the
  /// tolerance.
  private func sameSlot(_ a: Routine, _ b: Routine) -> Bool {
    a.kind.key == b.kind.key && a.dayKind.weekdayMask & b.dayKind.weekdayMask != 0
      && abs(a.time.signedDistance(to: b.time)) <= 2 * configuration.toleranceSeconds
  }

  /// The routines of both look-backs, each told whether the other has one in its slot.
  func paired(short: [Routine], long: [Routine]) -> (short: [Routine], long: [Routine]) {
    let shortByKind = Dictionary(grouping: short, by: \.kind.key)
    let longByKind = Dictionary(grouping: long, by: \.kind.key)
    func marked(_ routine: Routine, isLong: Bool, others: [String: [Routine]]) -> Routine {
      var result = routine
      result.evidence?.features.isLong = isLong
      result.evidence?.features.agrees = others[routine.kind.key, default: []].contains {
        sameSlot($0, routine)
      }
      return result
    }
    return (
      short.map { marked($0, isLong: false, others: longByKind) },
      long.map { marked($0, isLong: true, others: shortByKind) }
    )
  }

  /// One forecast per slot: a long look-back's routine is kept when it is surer than each of
  /// the window's in its slot, which then give way; otherwise the window's stand. A long one
  /// that lost is kept after all where every routine it lost to gave way to another (a
  /// weekends routine of four weeks, when the week's every-day routine yielded to four
  /// weeks' weekdays).
  func chosen(short: [Routine], long: [Routine]) -> [Routine] {
    let shortByKind = Dictionary(grouping: short.indices, by: { short[$0].kind.key })
    let rivals = long.map { routine in
      shortByKind[routine.kind.key, default: []].filter { sameSlot(short[$0], routine) }
    }
    let wins = long.indices.map { index in
      rivals[index].allSatisfy { short[$0].confidence < long[index].confidence }
    }
    var yielded = Set<Int>()
    for index in long.indices where wins[index] { yielded.formUnion(rivals[index]) }
    let keptLong = long.indices.filter { wins[$0] || rivals[$0].allSatisfy(yielded.contains) }
    return short.indices.filter { !yielded.contains($0) }.map { short[$0] }
      + keptLong.map { long[$0] }
  }

  /// The routines of `routines` an analysis shows: the claimed ones, and those the significance
  /// test refused when the confidence model, with a track record to weigh, gives them more than
  /// ``AnalysisConfiguration/threshold``. Without a record (windows as long as the
  /// record) refused slots are not shown: the model does not score them there.
  func shown(_ routines: [Routine], windowDays: Int) -> [Routine] {
    let scored = usesTrackRecord(windowDays: windowDays)
    return routines.filter {
      $0.isClaimed || (scored && $0.confidence > configuration.threshold)
    }
  }

  /// `routines`, learned for `day`, with the track record of the days before it (`history`
  /// learns, or recalls, the routines for each of them).
  func calibrated(
    _ routines: [Routine], for day: LocalDate, in log: EventLog, windowDays: Int,
    history: (LocalDate) -> [Routine]?
  ) -> [Routine] {
    guard usesTrackRecord(windowDays: windowDays), !routines.isEmpty else { return routines }
    let observed = ObservedDays(
      log, range: day.adding(days: -configuration.trackRecordDays)...day.adding(days: -1))
    return TrackRecord(configuration: configuration).calibrated(
      routines, for: day, in: log, observed: observed, history: history)
  }

  /// Whether confidences learned from windows of `windowDays` days weigh in the track record:
  /// a window as long as the record already holds its days, each held out in turn, and
  /// learning it again for every one of them would cost a whole analysis per day.
  func usesTrackRecord(windowDays: Int) -> Bool {
    configuration.trackRecordDays > 0 && windowDays < configuration.trackRecordDays
  }

  /// The indexes in `log.kinds` of the kinds of `routines`.
  static func kindIndexes(of routines: [Routine], in log: EventLog) -> [Int] {
    Set(routines.compactMap { log.index(ofKey: $0.kind.key) }).sorted()
  }

  /// The routines of every kind learned from `days`, their confidences from the window alone.
  /// Only the kinds at `kinds` (indexes into `log.kinds`) when given. Without `confidences`,
  /// the held-out re-estimation is skipped: the track record reads only times and days.
  func rawRoutines(
    in log: EventLog, days: ClosedRange<LocalDate>, kinds: [Int]? = nil, confidences: Bool = true
  ) -> [Routine] {
    var settings = configuration
    if !confidences { settings.leaveOneOutLimit = 0 }
    let learner = RoutineLearner(configuration: settings)
    let learning = learningDays(in: log, window: days)
    return (kinds ?? Array(log.kinds.indices)).flatMap { index in
      learner.routines(
        of: log.kinds[index],
        times: KindTimes(log.times[index], near: learning.range, notAfter: nil), days: learning)
    }
  }

  /// The routines of every kind kept on some days of the week only, learned from the
  /// ``AnalysisConfiguration/weeklyDays`` days before `day`; none when that horizon is no
  /// longer than a window of `windowDays` days.
  func weeklyRoutines(in log: EventLog, before day: LocalDate, windowDays: Int) -> [Routine] {
    guard let horizon = horizonDays(in: log, before: day, windowDays: windowDays) else {
      return []
    }
    let learner = RoutineLearner(configuration: configuration)
    return log.kinds.indices.flatMap { index in
      learner.weeklyRoutines(
        of: log.kinds[index],
        times: KindTimes(log.times[index], near: horizon.range, notAfter: nil), days: horizon)
    }
  }

  /// The horizon routines of some days are learned from, before `day`; `nil` when it is no
  /// longer than the window.
  private func horizonDays(in log: EventLog, before day: LocalDate, windowDays: Int)
    -> LearningDays?
  {
    guard learnsWeekly(windowDays: windowDays) else { return nil }
    let range = day.adding(days: -configuration.weeklyDays)...day.adding(days: -1)
    return LearningDays(ObservedDays(log, range: range), halfLife: configuration.weeklyHalfLifeDays)
  }

  /// Whether analyses of `windowDays`-day windows also learn routines of some days from the
  /// longer horizon.
  public func learnsWeekly(windowDays: Int) -> Bool {
    configuration.weeklyDays > windowDays
  }

  /// The routines of a day: `daily`, learned from the window, with `weekly`, the routines of
  /// some days learned from the horizon, in the same slot when within twice the tolerance.
  ///
  /// A weekday set is the choice for its slot: the window's routines of the kind there are left
  /// out (a week's window claims the Monday, Wednesday and Friday gym as an every-day or
  /// weekday routine, wrong two days in five). A routine of a standard kind of day (weekends)
  /// only fills a slot the window left empty on its days: where the window has a routine, the
  /// recent week speaks for itself.
  func merged(daily: [Routine], weekly: [Routine]) -> [Routine] {
    guard !weekly.isEmpty else { return daily }
    func sameSlot(_ a: Routine, _ b: Routine) -> Bool {
      abs(a.time.signedDistance(to: b.time)) <= 2 * configuration.toleranceSeconds
    }
    // By kind: a log of many kinds must not compare every routine with every other.
    let sets = weekly.filter(\.dayKind.isWeekdaySet)
    let setsByKind = Dictionary(grouping: sets, by: \.kind.key)
    let dailyByKind = Dictionary(grouping: daily, by: \.kind.key)
    let kept = daily.filter { routine in
      !setsByKind[routine.kind.key, default: []].contains { sameSlot($0, routine) }
    }
    let fills = weekly.filter { routine in
      !routine.dayKind.isWeekdaySet
        && !dailyByKind[routine.kind.key, default: []].contains {
          sameSlot($0, routine) && $0.dayKind.weekdayMask & routine.dayKind.weekdayMask != 0
        }
    }
    return kept + sets + fills
  }

  /// Events far off a routine of their kind.
  ///
  /// An event is an outlier when (1) it is not within the tolerance of any routine of its kind,
  /// (2) the routine nearest to it that applies to its day was *not* kept that day by another
  /// event (a second coffee is not an outlier of the first), (3) it is further from that
  /// routine's time than the routine's outlier threshold: 3.5 robust standard deviations, and
  /// never less than an hour, and (4) no other day in the window has an event of the kind within
  /// the tolerance of its time of day: a time that recurs (breakfast, in a week too irregular to
  /// claim it) is another slot of the kind, not a day off its pattern.
  func outliers(
    of kind: EventKind, times: KindTimes, routines: [Routine], days: ClosedRange<LocalDate>
  ) -> [Outlier] {
    guard !routines.isEmpty, days.lowerBound <= days.upperBound else { return [] }
    let tolerance = configuration.toleranceSeconds

    // Per routine, the routine days kept by an event within the tolerance.
    let firstDay = Int32(days.lowerBound.daysSince1970)
    let dayCount = days.upperBound.daysSince1970 - Int(firstDay) + 1
    // kept[routine * dayCount + day]
    var kept = [Bool](repeating: false, count: dayCount * routines.count)
    let firstWeekday = LocalDate(daysSince1970: Int(firstDay)).weekday
    let weekdayBits = (0..<dayCount).map { day in UInt8(1) << ((firstWeekday - 1 + day) % 7 + 1) }
    let shifts = routines.map { Int32(43_200 - $0.time.secondsSinceMidnight) }
    let movedOn = routines.map { $0.movedOn.map { $0.daysSince1970 - Int(firstDay) } }
    /// The routine day (as an index) and the signed offset from the routine's time.
    func deviation(_ index: Int, from routine: Int) -> (Int, Int)? {
      let (routineDay, position) = times.shifted(index, by: shifts[routine])
      let day = Int(routineDay - firstDay)
      guard day >= 0, day < dayCount else { return nil }
      guard routines[routine].dayKind.weekdayMask & weekdayBits[day] != 0 else { return nil }
      // A routine that moved has no outliers from before the move.
      if let moved = movedOn[routine], day < moved { return nil }
      return (day, Int(position) - 43_200)
    }
    // One pass: mark the days each routine kept, and remember the events that hit none.
    var candidates: [(occurrence: EventTime, routine: Int, day: Int, offset: Int)] = []
    for event in 0..<times.count {
      var nearest: (routine: Int, day: Int, offset: Int)?
      var isHit = false
      for index in routines.indices {
        guard let (day, offset) = deviation(event, from: index) else { continue }
        if abs(offset) <= tolerance {
          kept[index * dayCount + day] = true
          isHit = true
        }
        if nearest == nil || abs(offset) < abs(nearest!.offset) { nearest = (index, day, offset) }
      }
      if !isHit, let nearest {
        candidates.append((times.events[event], nearest.routine, nearest.day, nearest.offset))
      }
    }

    // Events per minute of the day on the window's days, with circular prefix sums, to count the
    // events near a time of day in constant time.
    var perMinute = [Int](repeating: 0, count: 1441)
    let lastDay = Int32(days.upperBound.daysSince1970)
    for event in 0..<times.count where times.days[event] >= firstDay && times.days[event] <= lastDay
    {
      perMinute[Int(times.seconds[event]) / 60 + 1] += 1
    }
    for minute in 1...1440 { perMinute[minute] += perMinute[minute - 1] }
    func eventsNear(minute: Int) -> Int {
      let reach = tolerance / 60
      let low = minute - reach
      let high = minute + reach
      func upTo(_ value: Int) -> Int {  // events at minutes < value, circularly from 0
        let wrapped = floorMod(value, 1440)
        return perMinute[wrapped] + floorDiv(value, 1440) * perMinute[1440]
      }
      return upTo(high + 1) - upTo(low)
    }

    var result: [Outlier] = []
    for candidate in candidates where !kept[candidate.routine * dayCount + candidate.day] {
      let routine = routines[candidate.routine]
      guard abs(candidate.offset) >= routine.outlierThresholdSeconds else { continue }
      // Events near this time of day on the same local date do not make it recur.
      let date = candidate.occurrence.localDate.daysSince1970
      let minute = candidate.occurrence.timeOfDay.secondsSinceMidnight / 60
      var sameDay = 0
      for event in times.indices(onDate: date) {
        let distance = abs(wrapSigned((Int(times.seconds[event]) / 60 - minute) * 60)) / 60
        if distance <= tolerance / 60 { sameDay += 1 }
      }
      guard eventsNear(minute: minute) - sameDay == 0 else { continue }
      let minutes = Int((Double(candidate.offset) / 60).rounded())
      result.append(
        Outlier(
          kind: kind, timestamp: candidate.occurrence.timestamp, expected: routine.time,
          dayKind: routine.dayKind, deviationMinutes: minutes,
          message: Wording.outlier(
            kind: kind, at: candidate.occurrence.timeOfDay, deviationMinutes: minutes,
            usual: routine.time)))
    }
    return result
  }

  /// Usual durations between paired kinds whose first event lies on `days`: for each event of
  /// the first kind, the first event of the second kind after it, within the pair's maximum and
  /// before the next event of the first kind. The median of at least ``minimumDays`` pairs.
  func durations(in log: EventLog, days: ClosedRange<LocalDate>) -> [UsualDuration] {
    let lower = Int64(days.lowerBound.daysSince1970) * 86_400
    let upper = Int64(days.upperBound.daysSince1970 + 1) * 86_400
    var result: [UsualDuration] = []
    for pair in EventPair.pairs(among: log.kinds, builtIn: configuration.pairs) {
      guard let fromIndex = log.kinds.firstIndex(where: { $0.key == pair.fromKey }),
        let toIndex = log.kinds.firstIndex(where: { $0.key == pair.toKey })
      else { continue }
      let starts = log.times[fromIndex]
      let ends = log.times[toIndex]
      var intervals: [Int32] = []
      let first = starts.lowerBound(localSeconds: lower)
      let last = starts.lowerBound(localSeconds: upper)
      for index in first..<last {
        let start = starts[index].secondsSince1970
        let limit = min(
          start + Int64(pair.maximumSeconds),
          index + 1 < starts.count ? starts[index + 1].secondsSince1970 : Int64.max)
        // Local order can differ from instant order by an offset change; search with a margin.
        var candidate = ends.lowerBound(localSeconds: starts[index].localSeconds - 2 * 3600)
        var best: Int64?
        while candidate < ends.count,
          ends[candidate].localSeconds <= starts[index].localSeconds + Int64(pair.maximumSeconds)
            + 7200
        {
          let end = ends[candidate].secondsSince1970
          if end > start, end <= limit, best == nil || end < best! { best = end }
          candidate += 1
        }
        if let best { intervals.append(Int32(best - start)) }
      }
      guard intervals.count >= configuration.minimumDays else { continue }
      let minutes = Int((median(intervals) / 60).rounded())
      let from = log.kinds[fromIndex]
      let to = log.kinds[toIndex]
      result.append(
        UsualDuration(
          from: from, to: to, minutes: minutes, pairs: intervals.count,
          reasoning: Wording.duration(from: from, to: to, minutes: minutes, pairs: intervals.count))
      )
    }
    return result
  }
}
