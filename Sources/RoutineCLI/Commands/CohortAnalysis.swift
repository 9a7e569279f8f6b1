import Foundation
import RoutineCore
import RoutineStore

/// `routine analyze --cohort PATH`: each person analysed as `analyze --log FILE` analyses their
/// file alone, on every core, printed in person order (docs/cohort.md).
enum CohortAnalysis {
  /// The `--cohort` PATH, or `nil` without one. `--cohort` with `--log` (`logs`), and
  /// `--person-column` without `--cohort`, are usage errors.
  static func path(_ context: Context, logs: [String]) throws -> String? {
    let arguments = context.arguments
    guard let path = try arguments.value(CohortOptions.cohort) else {
      if arguments.isGiven(CohortOptions.personColumn) {
        throw UsageError(
          "--person-column names the person column of a --cohort file; give --cohort FILE",
          command: context.command)
      }
      return nil
    }
    if !logs.isEmpty {
      throw UsageError(
        "--cohort and --log do not combine: --cohort reads each person's log itself",
        command: context.command)
    }
    guard !path.isEmpty else {
      throw UsageError(
        "--cohort: expected a directory or a file, found an empty value", command: context.command)
    }
    if let column = try arguments.value(CohortOptions.personColumn),
      column.trimmingCharacters(in: .whitespaces).isEmpty
    {
      throw UsageError(
        "--person-column: expected a column name, found an empty value", command: context.command)
    }
    return path
  }

  /// Opens the cohort of `path` with the options `analyze` and `backtest` share.
  static func open(_ context: Context, path: String) throws -> Cohort {
    try Cohort.open(
      path, format: try context.arguments.value(AnalyzeCommand.format),
      personColumn: try context.arguments.value(CohortOptions.personColumn),
      command: context.command ?? "analyze",
      temporaryDirectory: temporaryDirectory(context.environment))
  }

  /// Where a cohort file's parts go: `$TMPDIR`, else `/tmp`.
  static func temporaryDirectory(_ environment: ProcessEnvironment) -> String {
    var directory = environment.variables["TMPDIR"] ?? ""
    while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
    return directory.isEmpty ? "/tmp" : directory
  }

  /// Analyses each person of the cohort at `path` with `analyzer` over `days` days.
  static func run(_ context: Context, path: String, analyzer: RoutineAnalyzer, days: Int) throws
    -> ExitCode
  {
    let window = AnalysisWindow(
      now: try context.requireNow(), days: days, zone: try context.environmentTimeZone.get())
    let format = try context.arguments.value(AnalyzeCommand.format)
    let zone = try context.assumedZone()
    let skipsInvalid = context.arguments.flag(AnalyzeCommand.skipInvalid)
    let isJSON = context.isJSON
    // The glance of a terminal, as `analyze` shows it: whether to colour it, or `nil` for none.
    let glanceColour = Glance.forTerminal(context, log: EventLog())?.isColoured
    let cohort = try open(context, path: path)
    defer { cohort.close() }
    let daysRead = analyzer.daysRead(for: window)
    return cohort.run(context, skipsInvalid: skipsInvalid, separated: !isJSON) {
      member -> CohortOutcome<Never> in
      var outcome = CohortOutcome<Never>()
      do {
        let (log, summary, warnings) = try cohort.load(
          member, days: daysRead, format: format, zone: zone, skipsInvalid: skipsInvalid)
        outcome.warnings = warnings
        let output = Output()
        try AnalyzeCommand.report(
          log, window: window, analyzer: analyzer, to: output, isJSON: isJSON,
          glance: glanceColour.map { Glance(log: log, isColoured: $0) }, person: member.name,
          warn: { outcome.warnings.append("\(Cohort.label(member)): \($0)") }
        ) {
          summary.dates.flatMap {
            AnalyzeCommand.outsideNote(window: window, dates: $0, what: "the log runs")
          }
        }
        outcome.output = output.text
      } catch {
        outcome.failure = cohort.describe(error, of: member)
      }
      return outcome
    }
  }

  /// `object` with `naming` first (`"person"`); an array (`backtest --baseline all`) goes
  /// under `"methods"`.
  static func naming(_ naming: [(String, JSON)], _ object: JSON) -> JSON {
    guard case .object(let fields) = object else {
      return .object(naming + [("methods", object)])
    }
    return .object(naming + fields)
  }

  /// The text heading of a person's block.
  static func heading(_ person: String) -> String { "Person '\(TerminalText.escaped(person))':" }
}

private typealias Glance = AnalyzeCommand.Glance
