/// How good the reminders learned from a log would have been, walking forward through it.
public struct BacktestResult: Sendable, Hashable {
  /// Days of learning before each evaluated day.
  public var windowDays: Int
  /// Days evaluated.
  public var days: Int
  /// Days after the warm-up skipped because they lie in a logging gap (see ``ObservedDays``).
  public var daysSkipped: Int = 0
  /// Routines above the threshold, one reminder per routine per evaluated day it applies to.
  public var reminders: Int
  /// Reminders that an event of their kind followed within the tolerance.
  public var hits: Int
  /// Every routine's prediction (any confidence), the basis of the Brier score.
  public var predictions: Int
  /// (kind, day) pairs on evaluated days that had at least one event.
  public var eventDays: Int
  /// (kind, day) pairs among ``eventDays`` with a hit.
  public var eventDaysHit: Int
  /// hits / reminders, or `nil` without reminders.
  public var precision: Double?
  /// eventDaysHit / eventDays, or `nil` without events.
  public var recall: Double?
  /// Mean squared difference between each prediction's confidence and whether it was hit, or
  /// `nil` without predictions.
  public var brier: Double?
  /// Every prediction binned by confidence, 0.1 wide (the last bin holds 1.0): how often a
  /// routine given 70% was right. Empty bins are left out.
  public var reliability: [ReliabilityBin] = []
  /// The expected calibration error: the mean, weighted by count, of each bin's distance
  /// between mean confidence and hit rate; `nil` without predictions. 0 is calibrated.
  public var calibrationError: Double?
  /// Interpolated precision at each level of recall, over every prediction (see
  /// ``PrecisionCurve``).
  public var curve = PrecisionCurve([], eventDays: 0)
}

/// The predictions whose confidence fell in one tenth of the scale.
public struct ReliabilityBin: Sendable, Hashable {
  /// The lower edge of the bin (0.0, 0.1, ... 0.9).
  public var lowerBound: Double
  /// Predictions in the bin.
  public var count: Int
  /// Their mean confidence.
  public var meanConfidence: Double
  /// The fraction of them that were hit.
  public var hitRate: Double

  /// Bins `predictions` (confidence, whether it was hit) by tenths of confidence, and the
  /// expected calibration error over them.
  public static func bins(_ predictions: [(confidence: Double, hit: Bool)]) -> (
    bins: [ReliabilityBin], calibrationError: Double?
  ) {
    var count = [Int](repeating: 0, count: 10)
    var confidence = [Double](repeating: 0, count: 10)
    var hits = [Int](repeating: 0, count: 10)
    for prediction in predictions {
      let bin = min(max(Int(prediction.confidence * 10), 0), 9)
      count[bin] += 1
      confidence[bin] += prediction.confidence
      if prediction.hit { hits[bin] += 1 }
    }
    let bins = (0..<10).filter { count[$0] > 0 }.map { bin in
      ReliabilityBin(
        lowerBound: Double(bin) / 10, count: count[bin],
        meanConfidence: confidence[bin] / Double(count[bin]),
        hitRate: Double(hits[bin]) / Double(count[bin]))
    }
    guard !predictions.isEmpty else { return (bins, nil) }
    let error = bins.reduce(0.0) { total, bin in
      total + Double(bin.count) * abs(bin.meanConfidence - bin.hitRate)
    }
    return (bins, error / Double(predictions.count))
  }
}

/// Walk-forward evaluation: for each day D after a warm-up of `windowDays` days from the first
/// event, learn from the `windowDays` days before D only, turn routines with confidence above
/// the threshold into reminders for D, and count a hit when an event of the kind happens within
/// the tolerance of the suggested time on D, each event matching at most one reminder.
public struct Backtest: Sendable {
  /// The analyzer under test.
  public var analyzer: RoutineAnalyzer
  /// Routines with confidence above this become reminders (0.6 in the original design).
  public var threshold: Double
  /// A simple method that forecasts instead of the analyzer, on the same walk; `nil` for the
  /// analyzer. The analyzer's tolerance still decides what is a hit.
  public var baseline: Baseline?

  /// A backtest of `analyzer` (or `baseline`, when given) at `threshold`.
  public init(
    analyzer: RoutineAnalyzer = RoutineAnalyzer(), threshold: Double = 0.6,
    baseline: Baseline? = nil
  ) {
    self.analyzer = analyzer
    // One threshold: the reminders', and the one refused slots must pass to be shown.
    self.analyzer.configuration.threshold = threshold
    self.threshold = threshold
    self.baseline = baseline
  }

  /// Runs the backtest over `log` with learning windows of `windowDays` days.
  public func run(_ log: EventLog, windowDays: Int) -> BacktestResult {
    var result = BacktestResult(
      windowDays: windowDays, days: 0, reminders: 0, hits: 0, predictions: 0, eventDays: 0,
      eventDaysHit: 0)
    guard windowDays > 0, let range = log.dateRange else { return result }
    let firstDay = range.lowerBound.adding(days: windowDays)
    guard firstDay <= range.upperBound else { return result }
    let evaluated = firstDay...range.upperBound
    // Days inside a logging gap say nothing about the reminders: they are skipped.
    let logged = ObservedDays(log, range: range)

    // For recall, an event's day is its kind's day, which starts at the kind's quietest time
    // of day over the whole log: a bed time at 00:20 belongs to the evening before.
    let boundaries = log.times.map(quietestSecond)
    func kindDay(_ occurrence: EventTime, kind: Int) -> Int {
      floorDiv(Int(occurrence.localSeconds) - boundaries[kind], 86_400)
    }
    var eventDays = Set<Int64>()
    for (kind, list) in log.times.enumerated() {
      for occurrence in list {
        let day = kindDay(occurrence, kind: kind)
        if evaluated.contains(LocalDate(daysSince1970: day)),
          logged.contains(LocalDate(daysSince1970: day))
        {
          eventDays.insert(Int64(day) << 20 | Int64(kind))
        }
      }
    }
    result.eventDays = eventDays.count

    let tolerance = Int64(analyzer.configuration.toleranceSeconds)
    var usedByReminders = log.times.map { [Bool](repeating: false, count: $0.count) }
    var usedByPredictions = usedByReminders
    var hitDays = Set<Int64>()
    var squaredError = 0.0
    var outcomes: [(confidence: Double, hit: Bool)] = []
    var curvePredictions: [CurvePrediction] = []

    let forecasts = DailyForecasts(analyzer: analyzer, log: log, windowDays: windowDays)
    var day = evaluated.lowerBound
    while day <= evaluated.upperBound {
      guard logged.contains(day) else {
        result.daysSkipped += 1
        day = day.adding(days: 1)
        continue
      }
      let learned =
        baseline.map {
          $0.routines(
            in: log, days: day.adding(days: -windowDays)...day.adding(days: -1),
            toleranceSeconds: analyzer.configuration.toleranceSeconds)
        } ?? forecasts.routines(for: day)
      var byKind: [Int: [Routine]] = [:]
      for routine in learned where routine.dayKind.contains(day) {
        byKind[log.index(ofKey: routine.kind.key)!, default: []].append(routine)
      }
      for (kind, routines) in byKind {
        let list = log.times[kind]
        let predicted = match(
          routines.map { $0.suggestedLocalSeconds(on: day) }, in: list, tolerance: tolerance,
          used: &usedByPredictions[kind])
        for (routine, event) in zip(routines, predicted) {
          let outcome = event == nil ? 0.0 : 1.0
          squaredError += (routine.confidence - outcome) * (routine.confidence - outcome)
          outcomes.append((routine.confidence, event != nil))
          let eventDay = event.map { Int64(kindDay(list[$0], kind: kind)) << 20 | Int64(kind) }
          curvePredictions.append(
            CurvePrediction(
              confidence: routine.confidence, isHit: event != nil,
              eventDay: eventDay.flatMap { eventDays.contains($0) ? $0 : nil }))
        }
        result.predictions += routines.count

        let reminders = routines.filter { $0.confidence > threshold }
        let reminded = match(
          reminders.map { $0.suggestedLocalSeconds(on: day) }, in: list, tolerance: tolerance,
          used: &usedByReminders[kind])
        result.reminders += reminders.count
        for case let event? in reminded {
          result.hits += 1
          hitDays.insert(Int64(kindDay(list[event], kind: kind)) << 20 | Int64(kind))
        }
      }
      result.days += 1
      day = day.adding(days: 1)
    }

    result.eventDaysHit = hitDays.intersection(eventDays).count
    if result.reminders > 0 { result.precision = Double(result.hits) / Double(result.reminders) }
    if result.eventDays > 0 {
      result.recall = Double(result.eventDaysHit) / Double(result.eventDays)
    }
    if result.predictions > 0 { result.brier = squaredError / Double(result.predictions) }
    (result.reliability, result.calibrationError) = ReliabilityBin.bins(outcomes)
    result.curve = PrecisionCurve(curvePredictions, eventDays: result.eventDays)
    return result
  }

  /// Matches suggested times to unused events within the tolerance, closest pairs first; each
  /// event matches at most one suggestion. Returns the matched event index per suggestion.
  func match(
    _ suggestions: [Int64], in list: [EventTime], tolerance: Int64, used: inout [Bool]
  ) -> [Int?] {
    var pairs: [(distance: Int64, suggestion: Int, event: Int)] = []
    for (index, suggested) in suggestions.enumerated() {
      var event = list.lowerBound(localSeconds: suggested - tolerance)
      while event < list.count, list[event].localSeconds <= suggested + tolerance {
        if !used[event] { pairs.append((abs(list[event].localSeconds - suggested), index, event)) }
        event += 1
      }
    }
    pairs.sort { ($0.distance, $0.suggestion, $0.event) < ($1.distance, $1.suggestion, $1.event) }
    var result = [Int?](repeating: nil, count: suggestions.count)
    for pair in pairs where result[pair.suggestion] == nil && !used[pair.event] {
      result[pair.suggestion] = pair.event
      used[pair.event] = true
    }
    return result
  }

  /// The second of the day at the centre of the kind's quietest hour.
  private func quietestSecond(_ list: [EventTime]) -> Int {
    var histogram = [Double](repeating: 0, count: TimeOfDayClusters.minutesPerDay)
    for occurrence in list { histogram[occurrence.timeOfDay.secondsSinceMidnight / 60] += 1 }
    let density = TimeOfDayClusters.smooth(histogram, radius: 20)
    let quietest = density.indices.min { density[$0] < density[$1] } ?? 0
    return quietest * 60
  }
}

/// The analyzer's forecasts for each day of a walk forward, learned as an analysis on that day
/// would learn them: from the window before it, with the track record of the days before that.
/// Each day's routines are learned once and kept while later days' track records read them.
final class DailyForecasts {
  private let analyzer: RoutineAnalyzer
  private let log: EventLog
  private let windowDays: Int
  /// The log's first day: days up to it have nothing to learn from.
  private let firstDay: LocalDate?
  /// Each look-back's routines by the day they were learned for.
  private var rawByDay: [Int: [LocalDate: [Routine]]] = [:]

  init(analyzer: RoutineAnalyzer, log: EventLog, windowDays: Int) {
    self.analyzer = analyzer
    self.log = log
    self.windowDays = windowDays
    firstDay = log.dateRange?.lowerBound
  }

  /// What the analyzer forecasts for `day`; days must come in ascending order. With `shown`,
  /// only what an analysis shows (``RoutineAnalyzer/shown(_:windowDays:)``), one per slot;
  /// without, every forecast the model scores, both look-backs' (the fit's rows).
  func routines(for day: LocalDate, shown: Bool = true) -> [Routine] {
    let first = firstDay ?? day
    // The track record reads only routines from the window, as in an analysis.
    let daily = analyzer.forecasts(
      for: day, in: log, windowDays: windowDays, candidates: !shown
    ) { lookBack, date in
      date == day || date > first ? self.raw(date, lookBack: lookBack) : nil
    }
    var learned = analyzer.merged(
      daily: shown ? analyzer.shown(daily, windowDays: windowDays) : daily,
      weekly: analyzer.weeklyRoutines(in: log, before: day, windowDays: windowDays))
    // As an analysis on that day: days before it with nothing logged lower every confidence.
    if shown {
      learned = analyzer.decayed(
        learned,
        by: LoggingSilence(
          lastLogged: log.latestDate(through: day.adding(days: -1)), today: day))
    }
    let oldest = day.daysSince1970 - analyzer.configuration.trackRecordDays
    rawByDay = rawByDay.mapValues { $0.filter { $0.key.daysSince1970 > oldest } }
    return learned
  }

  private func raw(_ date: LocalDate, lookBack: Int) -> [Routine] {
    if let known = rawByDay[lookBack]?[date] { return known }
    let learned = analyzer.rawRoutines(
      in: log, days: date.adding(days: -lookBack)...date.adding(days: -1))
    rawByDay[lookBack, default: [:]][date] = learned
    return learned
  }
}
