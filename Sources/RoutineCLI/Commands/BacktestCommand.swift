import RoutineCore
import RoutineStore

/// What `--baseline` names: one of the core's simple methods, or all of them beside the learner.
enum BaselineChoice: String, CaseIterable {
  case mean, circular
  case circularSplit = "circular-split"
  case clusters
  case clustersSplit = "clusters-split"
  case all

  /// The methods to run: `nil` stands for the learner.
  var methods: [Baseline?] {
    guard let baseline = Baseline(rawValue: rawValue) else { return [nil] + Baseline.allCases }
    return [baseline]
  }
}

/// `routine backtest [--log FILE]... [--days N] [--weekly N] [--threshold P] [--baseline NAME]
/// [--curve]`
enum BacktestCommand: Command {
  static let spec = CommandSpec(
    name: "backtest",
    summary: "Measure how good the learned reminders would have been on a log.",
    discussion: """
      Walks forward through the log: for each day D after N days of warm-up, learns from the N
      days before D only, turns routines with confidence above the threshold into reminders for D,
      and counts a hit when an event of the kind comes within 30 minutes of the suggested time
      (each event matches one reminder). Days inside logging gaps (two or more days with no event
      at all) are skipped. Without --log, the whole store is used. Every routine's forecast
      (any confidence) is binned by tenths of confidence: the reliability table shows how often
      each bin was right, and the expected calibration error the count-weighted mean gap.
      Routines of some weekdays are learned from the --weekly days before D; a horizon no longer
      than --days (0, say) learns none. Each kind of day learns its time from its last
      --event-days days with the event within that horizon, as 'analyze' does.

      --baseline runs a simple method on the same walk instead of the learner: mean (arithmetic
      mean, share of events within 30 minutes), circular (circular mean, resultant length times
      the share of days with an event), clusters (each cluster of at least 3 times split at gaps
      over 90 minutes, share of days within 30 minutes of its mean), and circular-split and
      clusters-split for weekdays and weekends apart; all prints one row per method beside the
      learner's. --curve adds the interpolated precision at recall 0.05, 0.10, ... and its mean
      over recall 0.1 to 0.5 (docs/analytics.md).

      --cohort backtests many people, each on their own and on every core (as 'analyze
      --cohort' reads them), then pools their figures: hits, reminders and (event, day) pairs
      summed, so precision and recall are ratios of the sums; the pooled figures have no curve.
      docs/cohort.md has the details.
      """,
    options: [
      log.spec, CohortOptions.cohort.spec, CohortOptions.personColumn.spec, days.spec,
      AnalyzeCommand.weekly.spec, AnalyzeCommand.eventDays.spec,
      threshold.spec, baseline.spec, curve,
      AnalyzeCommand.format.spec, AnalyzeCommand.skipInvalid, AnalyzeCommand.assumeZone.spec,
    ],
    globals: ["store", "tz", "json"])

  /// `--log FILE`, repeatable.
  static let log = AnalyzeCommand.log.describing(
    "The CSV or JSON Lines log (repeatable; - is standard input; default: the store).")
  /// `--days N`: at most ten years, each a window walked forward.
  static let days = Option(
    "days", .integer(in: 1...3660), "Days to learn from before each day (default 7).")
  /// `--threshold P`: from 0 up to, not including, 1.
  static let threshold = Option(
    "threshold",
    ValueType(placeholder: "P", expected: "a number from 0 up to 1") { text in
      Double(text).flatMap { $0 >= 0 && $0 < 1 ? $0 : nil }
    }, "Confidence above which a routine becomes a reminder (default 0.6).")

  /// `--baseline NAME`.
  static let baseline = Option(
    "baseline", ValueType<BaselineChoice>.oneOf(placeholder: "NAME"),
    "A simple method to backtest instead of the learner, or all of them beside it.")
  /// `--curve`.
  static let curve = OptionSpec.flag(
    "curve", "Add the precision at each level of recall and its mean over 0.1 to 0.5.")

  static func run(_ context: Context) throws -> ExitCode {
    let walk = Walk(
      days: try context.arguments.value(Self.days) ?? 7,
      weekly: try context.arguments.value(AnalyzeCommand.weekly)
        ?? AnalysisConfiguration().weeklyDays,
      eventDays: try context.arguments.value(AnalyzeCommand.eventDays)
        ?? AnalysisConfiguration().eventDays,
      threshold: try context.arguments.value(Self.threshold) ?? 0.6,
      choice: try context.arguments.value(Self.baseline),
      showsCurve: context.arguments.flag(Self.curve))
    let files = try context.arguments.values(Self.log)
    if let cohort = try CohortAnalysis.path(context, logs: files) {
      return try CohortBacktest.run(context, path: cohort, walk: walk)
    }
    var log = EventLog()
    if files.isEmpty {
      log =
        try context.openExistingStore()?.eventLog(days: Walk.allDays) ?? EventLog()
    } else {
      let format = try context.arguments.value(AnalyzeCommand.format)
      let zone = try context.assumedZone()
      let readers = files.map {
        EventFileReader(
          path: $0, format: format,
          skipsInvalid: context.arguments.flag(AnalyzeCommand.skipInvalid),
          assumedZone: zone)
      }
      let summary = try EventLogLoader(days: Walk.allDays).load(readers, into: &log)
      for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
      for path in summary.emptyFiles { context.warn("\(displayName(path)) holds no events") }
      log.sort()
    }
    let runs = walk.run(log, warn: context.warn)
    report(runs, walk: walk, isJSON: context.isJSON, to: context.output)
    return .ok
  }

  /// The walk forward the options ask for: its windows, threshold and methods.
  struct Walk: Sendable {
    /// Every day a log may hold.
    static let allDays = LocalDate(daysSince1970: -1_000_000)...LocalDate(daysSince1970: 1_000_000)

    var days: Int
    var weekly: Int
    var eventDays: Int
    var threshold: Double
    var choice: BaselineChoice?
    var showsCurve: Bool

    /// Walks `log` with each method; warns (through `warn`) when it is too short to walk.
    func run(_ log: EventLog, warn: (String) -> Void) -> [(
      method: Baseline?, result: BacktestResult
    )] {
      let analyzer = RoutineAnalyzer(weeklyDays: weekly, eventDays: eventDays)
      let runs = (choice?.methods ?? [nil]).map { method in
        (
          method: method,
          result: Backtest(analyzer: analyzer, threshold: threshold, baseline: method).run(
            log, windowDays: days)
        )
      }
      let result = runs[0].result
      if result.days == 0, result.daysSkipped == 0, let range = log.dateRange {
        let span = range.upperBound.daysSince1970 - range.lowerBound.daysSince1970 + 1
        warn(
          "the log spans \(counted(span, "day")); a backtest learns from the first \(counted(days, "day")) "
            + "and needs days after them: try a smaller --days")
      }
      return runs
    }

    /// The horizon of routines of some weekdays `method` learns from, 0 for none (baselines
    /// learn none).
    func weeklyDays(_ method: Baseline?) -> Int { method == nil && weekly > days ? weekly : 0 }
  }

  /// Prints `runs` (one per method) as `backtest` does, as JSON or text. For `--cohort`, `naming`
  /// holds the fields that come first (`"person"`), and the JSON is then one line; `heading` is
  /// a line before the text (`Person 'p1':`). Pooled results (`isPooled`) have no curve.
  static func report(
    _ runs: [(method: Baseline?, result: BacktestResult)], walk: Walk, isJSON: Bool,
    to output: Output, naming: [(String, JSON)]? = nil, heading: String? = nil,
    isPooled: Bool = false
  ) {
    let choice = walk.choice
    let showsCurve = walk.showsCurve && !isPooled
    if isJSON {
      let objects = runs.map { run in
        json(
          run.result, threshold: walk.threshold, weeklyDays: walk.weeklyDays(run.method),
          method: choice == nil ? nil : run.method?.rawValue ?? "learner", curve: showsCurve)
      }
      let object = choice == .all ? JSON.array(objects) : objects[0]
      if let naming {
        output.line(CohortAnalysis.naming(naming, object).compact())
      } else {
        output.line(object.serialized())
      }
      return
    }
    if let heading { output.line(heading) }
    if choice == .all {
      table(runs, walk: walk, showsCurve: showsCurve, to: output)
      return
    }
    let result = runs[0].result
    let method = runs[0].method.map { " of the \($0.rawValue) baseline" } ?? ""
    output.line(
      "Backtest\(method) with \(walk.days)-day windows\(walk.weeklyDays(runs[0].method) > 0 ? " (\(walk.weekly) days for some weekdays)" : "") over \(counted(result.days, "day")) (\(counted(result.daysSkipped, "day")) in logging gaps skipped):"
    )
    output.line(
      "  \(counted(result.reminders, "reminder")), \(counted(result.hits, "hit")): precision \(number(result.precision))"
    )
    output.line(
      "  \(result.eventDaysHit) of \(result.eventDays) (event, day) pairs anticipated: recall \(number(result.recall))"
    )
    output.line(
      "  Brier score of \(counted(result.predictions, "confidence")): \(number(result.brier)) (0 is perfect; always saying 50% scores 0.25)"
    )
    output.line(
      "  Expected calibration error: \(number(result.calibrationError)) (0 is perfect: each confidence is the hit rate it predicts)"
    )
    if !result.reliability.isEmpty {
      output.line("")
      output.line("  confidence  predictions  mean confidence  hit rate")
      for bin in result.reliability {
        let range =
          "\(decimal(bin.lowerBound, places: 1))-\(decimal(bin.lowerBound + 0.1, places: 1))"
        output.line(
          "  \(HelpFormatter.padded(range, to: 10))  "
            + "\(rightAligned(String(bin.count), to: 11))  "
            + "\(rightAligned(decimal(bin.meanConfidence, places: 3), to: 15))  "
            + "\(rightAligned(decimal(bin.hitRate, places: 3), to: 8))")
      }
    }
    if showsCurve { curveTable(result.curve, to: output) }
  }

  /// A number with three decimals, or "n/a".
  private static func number(_ value: Double?) -> String {
    guard let value else { return "n/a" }
    return decimal(value, places: 3)
  }

  /// `--baseline all`: one row per method, the learner's first; with `--curve`, each method's
  /// curve after the table.
  private static func table(
    _ runs: [(method: Baseline?, result: BacktestResult)], walk: Walk, showsCurve curve: Bool,
    to output: Output
  ) {
    let first = runs[0].result
    output.line(
      "Backtest with \(walk.days)-day windows\(walk.weekly > walk.days ? " (\(walk.weekly) days for some weekdays, learner only)" : "") over \(counted(first.days, "day")) (\(counted(first.daysSkipped, "day")) in logging gaps skipped):"
    )
    output.line("")
    output.line(
      "  method          reminders  precision  recall  Brier    ECE" + (curve ? "  mean P@R" : ""))
    for run in runs {
      let result = run.result
      let cells = [
        rightAligned(String(result.reminders), to: 9),
        rightAligned(number(result.precision), to: 9),
        rightAligned(number(result.recall), to: 6), rightAligned(number(result.brier), to: 5),
        rightAligned(number(result.calibrationError), to: 5),
      ]
      output.line(
        "  \(HelpFormatter.padded(run.method?.rawValue ?? "learner", to: 14))  "
          + cells.joined(separator: "  ")
          + (curve ? "  " + rightAligned(number(result.curve.meanPrecision), to: 8) : ""))
    }
    guard curve else { return }
    for run in runs {
      output.line("")
      output.line("\(run.method?.rawValue ?? "learner"):")
      curveTable(run.result.curve, to: output)
    }
  }

  /// The interpolated precision at each level of recall, and its mean over 0.1 to 0.5.
  private static func curveTable(_ curve: PrecisionCurve, to output: Output) {
    output.line("")
    output.line(
      "  Precision at recall (the best of any threshold reaching it); mean over recall 0.1-0.5: "
        + number(curve.meanPrecision))
    guard !curve.points.isEmpty else { return }
    output.line("  recall  precision  min confidence  reminders")
    for point in curve.points {
      output.line(
        "  \(rightAligned(decimal(point.recall, places: 2), to: 6))  "
          + "\(rightAligned(decimal(point.precision, places: 3), to: 9))  "
          + "\(rightAligned(decimal(point.minConfidence, places: 3), to: 14))  "
          + "\(rightAligned(String(point.reminders), to: 9))")
    }
  }

  /// `value` with exactly `places` decimals (0.700, not 0.7): columns of numbers line up.
  static func decimal(_ value: Double, places: Int) -> String {
    var scale = 1
    for _ in 0..<places { scale *= 10 }
    let units = Int((value * Double(scale)).rounded())
    let fraction = String(abs(units) % scale)
    let padding = String(repeating: "0", count: places - fraction.count)
    return "\(units < 0 ? "-" : "")\(abs(units) / scale).\(padding)\(fraction)"
  }

  private static func rightAligned(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(width - text.count, 0)) + text
  }

  /// `weeklyDays` is the horizon of routines of some weekdays, 0 when none were learned.
  /// `method` names the method (with `--baseline`); `curve` adds the curve and its mean.
  static func json(
    _ result: BacktestResult, threshold: Double, weeklyDays: Int, method: String? = nil,
    curve: Bool = false
  ) -> JSON {
    var fields: [(String, JSON)] = method.map { [("method", .string($0))] } ?? []
    fields += [
      ("precision", .rounded(result.precision, places: 4)),
      ("recall", .rounded(result.recall, places: 4)),
      ("brier", .rounded(result.brier, places: 4)),
      ("reminders", .integer(result.reminders)),
      ("days", .integer(result.days)),
      ("hits", .integer(result.hits)),
      ("predictions", .integer(result.predictions)),
      ("eventDays", .integer(result.eventDays)),
      ("eventDaysHit", .integer(result.eventDaysHit)),
      ("daysSkipped", .integer(result.daysSkipped)),
      ("windowDays", .integer(result.windowDays)),
      ("weeklyDays", .integer(weeklyDays)),
      ("threshold", .number(threshold)),
      ("calibrationError", .rounded(result.calibrationError, places: 4)),
      (
        "reliability",
        .array(
          result.reliability.map { bin in
            .object([
              ("from", .rounded(bin.lowerBound, places: 1)),
              ("to", .rounded(bin.lowerBound + 0.1, places: 1)),
              ("count", .integer(bin.count)),
              ("meanConfidence", .rounded(bin.meanConfidence, places: 4)),
              ("hitRate", .rounded(bin.hitRate, places: 4)),
            ])
          })
      ),
    ]
    if curve {
      let precisionCurve = result.curve
      fields += [
        ("meanPrecision", .rounded(precisionCurve.meanPrecision, places: 4)),
        (
          "curve",
          .array(
            precisionCurve.points.map { point in
              .object([
                ("recall", .rounded(point.recall, places: 2)),
                ("precision", .rounded(point.precision, places: 4)),
                ("minConfidence", .rounded(point.minConfidence, places: 4)),
                ("reminders", .integer(point.reminders)),
                ("hits", .integer(point.hits)),
                ("reachedRecall", .rounded(point.reachedRecall, places: 4)),
              ])
            })
        ),
      ]
    }
    return .object(fields)
  }
}
