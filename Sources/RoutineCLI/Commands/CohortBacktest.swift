import RoutineCore
import RoutineStore

/// `routine backtest --cohort PATH`: each person's walk forward as `backtest --log FILE` walks
/// their file alone, on every core and printed in person order, then the figures pooled over
/// everyone (docs/cohort.md).
enum CohortBacktest {
  /// Backtests each person of the cohort at `path`, then prints the pooled figures.
  static func run(_ context: Context, path: String, walk: BacktestCommand.Walk) throws -> ExitCode {
    let format = try context.arguments.value(AnalyzeCommand.format)
    let zone = try context.assumedZone()
    let skipsInvalid = context.arguments.flag(AnalyzeCommand.skipInvalid)
    let isJSON = context.isJSON
    let cohort = try CohortAnalysis.open(context, path: path)
    defer { cohort.close() }
    let methods = walk.choice?.methods ?? [nil]
    var pools = methods.map { _ in Pool() }
    var failed = 0
    let status = cohort.run(context, skipsInvalid: skipsInvalid, separated: !isJSON) {
      member -> CohortOutcome<[BacktestCommand.Figures]> in
      var outcome = CohortOutcome<[BacktestCommand.Figures]>()
      do {
        let (log, _, warnings) = try cohort.load(
          member, days: BacktestCommand.Walk.allDays, format: format, zone: zone,
          skipsInvalid: skipsInvalid)
        outcome.warnings = warnings
        let runs = walk.run(log) { outcome.warnings.append("\(Cohort.label(member)): \($0)") }
        let output = Output()
        BacktestCommand.report(
          runs, walk: walk, isJSON: isJSON, to: output,
          naming: [("person", .string(member.name))],
          heading: CohortAnalysis.heading(member.name))
        outcome.output = output.text
        // Only the counts are pooled: the curves stay behind.
        outcome.value = runs.map {
          var figures = $0.figures
          figures.curve = nil
          return figures
        }
      } catch {
        outcome.failure = cohort.describe(error, of: member)
      }
      return outcome
    } deliver: { _, outcome in
      guard let figures = outcome.value else {
        failed += 1
        return
      }
      for index in pools.indices { pools[index].add(figures[index]) }
    }
    let people = pools[0].people
    let runs = zip(methods, pools).map { ($0, $1.figures(windowDays: walk.days)) }
    var heading = "All \(counted(people, "person", "people"))"
    if failed > 0 { heading += " (\(counted(failed, "person", "people")) failed, left out)" }
    if !isJSON, people + failed > 0 { context.output.line() }
    BacktestCommand.report(
      runs, walk: walk, isJSON: isJSON, to: context.output,
      naming: [("person", .null), ("people", .integer(people))], heading: heading + ":")
    return status
  }

  /// The figures of several walks pooled: counts summed, ratios of the sums (never a mean of
  /// ratios), each reliability bin rebuilt from its count, summed confidence and hits.
  struct Pool {
    private(set) var people = 0
    private var days = 0
    private var daysSkipped = 0
    private var reminders = 0
    private var hits = 0
    private var predictions = 0
    private var eventDays = 0
    private var eventDaysHit = 0
    /// Brier score times predictions, summed: the squared errors.
    private var squaredError = 0.0
    /// Per tenth of confidence: predictions, their confidences summed, and their hits.
    private var bins = [(count: Int, confidence: Double, hits: Double)](
      repeating: (0, 0, 0), count: 10)

    /// Adds one person's figures.
    mutating func add(_ figures: BacktestCommand.Figures) {
      people += 1
      days += figures.days
      daysSkipped += figures.daysSkipped
      reminders += figures.reminders
      hits += figures.hits
      predictions += figures.predictions
      eventDays += figures.eventDays
      eventDaysHit += figures.eventDaysHit
      squaredError += (figures.brier ?? 0) * Double(figures.predictions)
      for bin in figures.reliability {
        let index = min(max(Int((bin.lowerBound * 10).rounded()), 0), 9)
        bins[index].count += bin.count
        bins[index].confidence += bin.meanConfidence * Double(bin.count)
        // A hit rate times its count is a whole number of hits, up to rounding.
        bins[index].hits += (bin.hitRate * Double(bin.count)).rounded()
      }
    }

    /// The pooled figures.
    func figures(windowDays: Int) -> BacktestCommand.Figures {
      let reliability = bins.indices.filter { bins[$0].count > 0 }.map { index in
        let bin = bins[index]
        return BacktestCommand.Figures.Bin(
          lowerBound: Double(index) / 10, count: bin.count,
          meanConfidence: bin.confidence / Double(bin.count),
          hitRate: bin.hits / Double(bin.count))
      }
      let gaps = bins.reduce(0.0) { $0 + abs($1.confidence - $1.hits) }
      return BacktestCommand.Figures(
        windowDays: windowDays, days: days, daysSkipped: daysSkipped, reminders: reminders,
        hits: hits, predictions: predictions, eventDays: eventDays, eventDaysHit: eventDaysHit,
        precision: reminders > 0 ? Double(hits) / Double(reminders) : nil,
        recall: eventDays > 0 ? Double(eventDaysHit) / Double(eventDays) : nil,
        brier: predictions > 0 ? squaredError / Double(predictions) : nil,
        calibrationError: predictions > 0 ? gaps / Double(predictions) : nil,
        reliability: reliability)
    }
  }
}
