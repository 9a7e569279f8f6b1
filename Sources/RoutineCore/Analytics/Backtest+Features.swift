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
    // Each look-back's forecasts are matched apart: two forecasts of one slot, from the week
    // and from four weeks, are two answers to one question, not two reminders competing for
    // one event.
    var used = [false, true].map { _ in log.times.map { [Bool](repeating: false, count: $0.count) }
    }
    let forecasts = DailyForecasts(analyzer: analyzer, log: log, windowDays: windowDays)
    var result: [Prediction] = []
    var day = firstDay
    while day <= range.upperBound {
      defer { day = day.adding(days: 1) }
      guard logged.contains(day) else { continue }
      let learned = forecasts.routines(for: day, shown: false)
      var byKind: [Int: [Routine]] = [:]
      for routine in learned where routine.dayKind.contains(day) {
        let isLong = routine.evidence?.features.isLong == true
        byKind[log.index(ofKey: routine.kind.key)! * 2 + (isLong ? 1 : 0), default: []].append(
          routine)
      }
      for key in byKind.keys.sorted() {
        let routines = byKind[key]!
        let hit = match(
          routines.map { $0.suggestedLocalSeconds(on: day) }, in: log.times[key / 2],
          tolerance: tolerance, used: &used[key % 2][key / 2]
        ).map { $0 != nil }
        for (routine, isHit) in zip(routines, hit) {
          guard let evidence = routine.evidence else { continue }
          result.append(Prediction(features: evidence.features, hit: isHit))
        }
      }
    }
    return result
  }
}
