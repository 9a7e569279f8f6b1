extension Backtest {
  /// One forecast of a walk-forward run: the evidence its confidence was estimated from, and
  /// whether it came true.
  public struct Prediction: Sendable, Hashable {
    /// The routine's features that day.
    public var features: ConfidenceFeatures
    /// Whether an event of the kind came within the tolerance of its time (each event
    /// matching one routine at most, the nearest first), as ``run(_:windowDays:)`` counts it.
    public var hit: Bool
  }

  /// Every routine's forecast over `log`, walked forward as ``run(_:windowDays:)`` does, with
  /// the features of its confidence: the rows ``ConfidenceModel``'s weights are fitted on. The
  /// features do not depend on the weights, so one walk serves any number of fits.
  public func predictions(_ log: EventLog, windowDays: Int) -> [Prediction] {
    guard windowDays > 0, let range = log.dateRange else { return [] }
    let firstDay = range.lowerBound.adding(days: windowDays)
    guard firstDay <= range.upperBound else { return [] }
    let logged = ObservedDays(log, range: range)
    let tolerance = Int64(analyzer.configuration.toleranceSeconds)
    var used = log.times.map { [Bool](repeating: false, count: $0.count) }
    var rawByDay: [LocalDate: [Routine]] = [:]
    var result: [Prediction] = []
    var day = firstDay
    while day <= range.upperBound {
      defer { day = day.adding(days: 1) }
      guard logged.contains(day) else { continue }
      func raw(_ date: LocalDate) -> [Routine] {
        if let known = rawByDay[date] { return known }
        let learned = analyzer.rawRoutines(
          in: log, days: date.adding(days: -windowDays)...date.adding(days: -1))
        rawByDay[date] = learned
        return learned
      }
      let daily = analyzer.calibrated(raw(day), for: day, in: log, windowDays: windowDays) {
        $0 > range.lowerBound ? raw($0) : nil
      }
      let learned = analyzer.merged(
        daily: daily,
        weekly: analyzer.weeklyRoutines(in: log, before: day, windowDays: windowDays))
      rawByDay = rawByDay.filter {
        $0.key.daysSince1970 > day.daysSince1970 - analyzer.configuration.trackRecordDays
      }
      var byKind: [Int: [Routine]] = [:]
      for routine in learned where routine.dayKind.contains(day) {
        byKind[log.index(ofKey: routine.kind.key)!, default: []].append(routine)
      }
      for kind in byKind.keys.sorted() {
        let routines = byKind[kind]!
        let list = log.times[kind]
        // The nearest unused event to each suggestion, closest pairs first.
        var pairs: [(distance: Int64, routine: Int, event: Int)] = []
        for (index, routine) in routines.enumerated() {
          let suggested = routine.suggestedLocalSeconds(on: day)
          var event = list.lowerBound(localSeconds: suggested - tolerance)
          while event < list.count, list[event].localSeconds <= suggested + tolerance {
            if !used[kind][event] {
              pairs.append((abs(list[event].localSeconds - suggested), index, event))
            }
            event += 1
          }
        }
        pairs.sort { ($0.distance, $0.routine, $0.event) < ($1.distance, $1.routine, $1.event) }
        var hit = [Bool](repeating: false, count: routines.count)
        for pair in pairs where !hit[pair.routine] && !used[kind][pair.event] {
          hit[pair.routine] = true
          used[kind][pair.event] = true
        }
        for (routine, isHit) in zip(routines, hit) {
          guard let evidence = routine.evidence else { continue }
          result.append(Prediction(features: evidence.features, hit: isHit))
        }
      }
    }
    return result
  }
}
