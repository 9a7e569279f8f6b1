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
    var pools = methods.map { _ in BacktestPool() }
    var failed = 0
    let status = cohort.run(context, skipsInvalid: skipsInvalid, separated: !isJSON) {
      member -> CohortOutcome<[BacktestResult]> in
      var outcome = CohortOutcome<[BacktestResult]>()
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
          var result = $0.result
          result.curve = PrecisionCurve([], eventDays: 0)
          return result
        }
      } catch {
        outcome.failure = cohort.describe(error, of: member)
      }
      return outcome
    } deliver: { _, outcome in
      guard let results = outcome.value else {
        failed += 1
        return
      }
      for index in pools.indices { pools[index].add(results[index]) }
    }
    let people = pools[0].count
    let runs = zip(methods, pools).map { ($0, $1.result(windowDays: walk.days)) }
    var heading = "All \(counted(people, "person", "people"))"
    if failed > 0 { heading += " (\(counted(failed, "person", "people")) failed, left out)" }
    if !isJSON, people + failed > 0 { context.output.line() }
    BacktestCommand.report(
      runs, walk: walk, isJSON: isJSON, to: context.output,
      naming: [("person", .null), ("people", .integer(people))], heading: heading + ":",
      isPooled: true)
    return status
  }
}
