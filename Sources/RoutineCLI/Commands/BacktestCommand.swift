import RoutineCore
import RoutineStore

/// `routine backtest [--log FILE]... [--days N] [--weekly N] [--threshold P]`
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
      than --days (0, say) learns none.
      """,
    options: [
      log.spec, days.spec, AnalyzeCommand.weekly.spec, AnalyzeCommand.eventDays.spec,
      threshold.spec,
      AnalyzeCommand.format.spec, AnalyzeCommand.skipInvalid, AnalyzeCommand.assumeZone.spec,
    ],
    globals: ["store", "json"])

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

  static func run(_ context: Context) throws -> ExitCode {
    let days = try context.arguments.value(Self.days) ?? 7
    let weekly =
      try context.arguments.value(AnalyzeCommand.weekly) ?? AnalysisConfiguration().weeklyDays
    let threshold = try context.arguments.value(Self.threshold) ?? 0.6
    let files = try context.arguments.values(Self.log)
    var log = EventLog()
    if files.isEmpty {
      log =
        try context.openExistingStore()?.eventLog(
          days: LocalDate(daysSince1970: -1_000_000)...LocalDate(daysSince1970: 1_000_000))
        ?? EventLog()
    } else {
      let format = try context.arguments.value(AnalyzeCommand.format)
      let zone = try context.assumedZone()
      let readers = files.map {
        EventFileReader(
          path: $0, format: format,
          skipsInvalid: context.arguments.flag(AnalyzeCommand.skipInvalid),
          assumedZone: zone)
      }
      let summary = try EventLogLoader(
        days: LocalDate(daysSince1970: -1_000_000)...LocalDate(daysSince1970: 1_000_000)
      )
      .load(readers, into: &log)
      for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
      for path in summary.emptyFiles { context.warn("\(displayName(path)) holds no events") }
      log.sort()
    }
    let eventDays =
      try context.arguments.value(AnalyzeCommand.eventDays) ?? AnalysisConfiguration().eventDays
    let analyzer = RoutineAnalyzer(weeklyDays: weekly, eventDays: eventDays)
    let result = Backtest(analyzer: analyzer, threshold: threshold).run(log, windowDays: days)
    if result.days == 0, result.daysSkipped == 0, let range = log.dateRange {
      let span = range.upperBound.daysSince1970 - range.lowerBound.daysSince1970 + 1
      context.warn(
        "the log spans \(counted(span, "day")); a backtest learns from the first \(counted(days, "day")) "
          + "and needs days after them: try a smaller --days")
    }
    if context.isJSON {
      context.output.line(
        json(result, threshold: threshold, weeklyDays: weekly > days ? weekly : 0).serialized())
    } else {
      func number(_ value: Double?) -> String {
        guard let value else { return "n/a" }
        return decimal(value, places: 3)
      }
      context.output.line(
        "Backtest with \(days)-day windows\(weekly > days ? " (\(weekly) days for some weekdays)" : "") over \(counted(result.days, "day")) (\(counted(result.daysSkipped, "day")) in logging gaps skipped):"
      )
      context.output.line(
        "  \(counted(result.reminders, "reminder")), \(counted(result.hits, "hit")): precision \(number(result.precision))"
      )
      context.output.line(
        "  \(result.eventDaysHit) of \(result.eventDays) (event, day) pairs anticipated: recall \(number(result.recall))"
      )
      context.output.line(
        "  Brier score of \(counted(result.predictions, "confidence")): \(number(result.brier)) (0 is perfect; always saying 50% scores 0.25)"
      )
      context.output.line(
        "  Expected calibration error: \(number(result.calibrationError)) (0 is perfect: each confidence is the hit rate it predicts)"
      )
      if !result.reliability.isEmpty {
        context.output.line("")
        context.output.line("  confidence  predictions  mean confidence  hit rate")
        for bin in result.reliability {
          let range =
            "\(decimal(bin.lowerBound, places: 1))-\(decimal(bin.lowerBound + 0.1, places: 1))"
          context.output.line(
            "  \(HelpFormatter.padded(range, to: 10))  "
              + "\(rightAligned(String(bin.count), to: 11))  "
              + "\(rightAligned(decimal(bin.meanConfidence, places: 3), to: 15))  "
              + "\(rightAligned(decimal(bin.hitRate, places: 3), to: 8))")
        }
      }
    }
    return .ok
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
  static func json(_ result: BacktestResult, threshold: Double, weeklyDays: Int) -> JSON {
    .object([
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
    ])
  }
}
