import Foundation
import RoutineCore
import RoutineStore

/// `routine analyze [--log FILE]... [--days N]`
enum AnalyzeCommand: Command {
  static let spec = CommandSpec(
    name: "analyze",
    summary: "Find your routines, how sure they are, and which events were off.",
    discussion: """
      Learns from the N whole days before today (your local date at --now), weighting recent days
      more; today's events are checked for outliers. With --log, the files are analysed directly
      and no store is opened (batch mode). docs/analytics.md explains the method.
      """,
    options: [
      .value(
        "log", "FILE", "Analyse this CSV or JSON Lines file instead of the store (repeatable).",
        repeatable: true),
      .value("days", "N", "Days to learn from (default 7)."),
      .value("format", "csv|jsonl", "The format of --log files (default: from the extension)."),
      .flag("skip-invalid", "Skip invalid lines of --log files (each is reported)."),
    ])

  static func run(_ context: Context) throws -> ExitCode {
    let days = try context.positiveInteger("days", default: 7, maximum: 100_000)
    let window = AnalysisWindow(
      now: try context.requireNow(), days: days, calendar: try context.calendar())
    let format = try context.fileFormat()
    let files = context.arguments.values("log")
    var log = EventLog()
    var fileDates: ClosedRange<LocalDate>?
    if files.isEmpty {
      log = try context.openStore().eventLog(days: window.firstDay...window.today)
    } else {
      let readers = files.map {
        EventFileReader(
          path: $0, format: format, skipsInvalid: context.arguments.flag("skip-invalid"))
      }
      let summary = try EventLogLoader(days: window.firstDay...window.today).load(
        readers, into: &log)
      for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
      log.sort()
      fileDates = summary.dates
    }
    let analysis = RoutineAnalyzer().analyze(log, window: window)
    if context.isJSON {
      context.output.line(json(analysis).serialized())
    } else {
      text(analysis, to: context.output)
    }
    if analysis.routines.isEmpty, let fileDates,
      !(window.firstDay...window.today).overlaps(fileDates)
    {
      context.warn(
        "the log runs from \(fileDates.lowerBound) to \(fileDates.upperBound), outside the window; "
          + "try --now \(fileDates.upperBound.adding(days: 1))T00:00:00Z --days \(max(days, 7))")
    }
    return .ok
  }

  static func json(_ analysis: RoutineAnalysis) -> JSON {
    let window = analysis.window
    return .object([
      (
        "window",
        .object([
          ("from", .string(window.start.iso8601)), ("to", .string(window.end.iso8601)),
          ("days", .integer(window.days)), ("timeZone", .string(window.timeZone.identifier)),
        ])
      ),
      (
        "routines",
        .array(
          analysis.routines.map { routine in
            .object([
              ("event", .string(routine.kind.name)),
              ("time", .string(routine.time.description)),
              ("dayKind", .string(routine.dayKind.rawValue)),
              ("confidence", .rounded(routine.confidence, places: 3)),
              ("occurrences", .integer(routine.occurrences)),
              ("reasoning", .string(routine.reasoning)),
              ("daysMatched", .integer(routine.daysMatched)),
              ("daysObserved", .integer(routine.daysObserved)),
              ("earliest", .string(routine.earliest.description)),
              ("latest", .string(routine.latest.description)),
              ("spreadMinutes", .rounded(routine.spreadMinutes, places: 1)),
              ("daysOfWeek", .array(routine.dayKind.weekdays.map { .integer($0) })),
            ])
          })
      ),
      (
        "outliers",
        .array(
          analysis.outliers.map { outlier in
            .object([
              ("event", .string(outlier.kind.name)),
              ("timestamp", .string(outlier.timestamp.iso8601)),
              ("expected", .string(outlier.expected.description)),
              ("deviationMinutes", .integer(outlier.deviationMinutes)),
              ("dayKind", .string(outlier.dayKind.rawValue)),
              ("message", .string(outlier.message)),
            ])
          })
      ),
      (
        "durations",
        .array(
          analysis.durations.map { duration in
            .object([
              ("from", .string(duration.from.name)), ("to", .string(duration.to.name)),
              ("minutes", .integer(duration.minutes)), ("pairs", .integer(duration.pairs)),
              ("reasoning", .string(duration.reasoning)),
            ])
          })
      ),
    ])
  }

  static func text(_ analysis: RoutineAnalysis, to output: Output) {
    let window = analysis.window
    let last = window.learningDays.upperBound
    output.line(
      "Routines learned from \(window.firstDay.weekdayName) \(window.firstDay) to \(last.weekdayName) \(last) "
        + "(\(window.days) days, \(window.timeZone.identifier)):")
    if analysis.routines.isEmpty {
      output.line("  none yet: a routine needs an event near the same time on at least 3 days.")
    }
    let nameWidth = min(analysis.routines.map(\.kind.name.count).max() ?? 0, 24)
    for routine in analysis.routines {
      let percent = Int((routine.confidence * 100).rounded())
      output.line(
        "  \(routine.time)  \(HelpFormatter.padded(routine.kind.name, to: nameWidth))  "
          + "\(HelpFormatter.padded(routine.dayKind.label, to: 8))  "
          + "\(HelpFormatter.padded("\(percent)%", to: 4))  \(routine.reasoning)")
    }
    if !analysis.durations.isEmpty {
      output.line()
      output.line("Usual durations:")
      for duration in analysis.durations {
        output.line(
          "  \(duration.from.name) -> \(duration.to.name): \(duration.minutes) min (\(duration.pairs) pairs)"
        )
      }
    }
    if !analysis.outliers.isEmpty {
      output.line()
      output.line("Outliers:")
      for outlier in analysis.outliers {
        output.line(
          "  \(outlier.timestamp.localDate.weekdayName) \(outlier.timestamp.localDate)  \(outlier.kind.name): "
            + outlier.message)
      }
    }
  }
}
