import Foundation
import RoutineCore
import RoutineStore

/// `routine analyze [--log FILE]... [--days N] [--weekly N] [--event-days N]`
enum AnalyzeCommand: Command {
  static let spec = CommandSpec(
    name: "analyze",
    summary: "Find your routines, how sure they are, and which events were off.",
    discussion: """
      Learns from the N whole days before today (your local date at --now), weighting recent days
      more; today's events are checked for outliers. Routines on some days of the week only (the
      gym on Monday, Wednesday and Friday; a weekend brunch) are learned from the longer --weekly
      horizon; one no longer than --days (0, say) learns none. Whether weekends differ is decided
      over that horizon too, and each kind of day learns its time from the window and, going back
      within the horizon, its last --event-days days with the event (20 by default); its
      confidence still counts every logged day of that span. A short window is paired with a
      28-day look-back, and each slot keeps the surer of the two; a routine whose last days
      agree on a new time is followed there at once. A confidence never claims more than the
      counts its reason states, and days with nothing logged lower it (after three, learned
      reminders pause: a warning says so). With --log, the files are analysed directly and no
      store is opened (batch mode). docs/analytics.md explains the method.

      --cohort analyses many people, each on their own and on every core: a directory with one
      log per person, or one log with a person column. With --json it prints JSON Lines, one
      object per person, sorted by person; a bad file or line fails that person only (exit 65
      at the end). docs/cohort.md has the details.
      """,
    options: [
      log.spec, CohortOptions.cohort.spec, CohortOptions.personColumn.spec, days.spec,
      weekly.spec, eventDays.spec, format.spec, skipInvalid, assumeZone.spec,
    ],
    aliases: ["analyse"])

  /// `--log FILE`, repeatable.
  static let log = Option(
    "log", .path(),
    "Analyse this CSV or JSON Lines file instead of the store (repeatable; - is standard input).",
    repeatable: true)
  /// `--days N`.
  static let days = Option("days", .integer(in: 1...100_000), "Days to learn from (default 7).")
  /// `--weekly N` (`backtest` too): 0 learns no routine of some weekdays.
  static let weekly = Option(
    "weekly", .integer(in: 0...3660),
    "Days to learn routines of some weekdays from (default \(AnalysisConfiguration().weeklyDays)).")
  /// `--event-days N` (`backtest` too): 0 learns from the window's days only.
  static let eventDays = Option(
    "event-days", .integer(in: 0...3660),
    "Days with the event each kind of day learns its time from, within --weekly (default \(AnalysisConfiguration().eventDays); 0: the window's days only)."
  )
  /// `--format csv|jsonl` of `--log` files (`backtest` too).
  static let format = CommonOptions.eventFormat.describing(
    "The format of --log and --cohort files (default: from the extension).")
  /// `--skip-invalid` (`backtest` too).
  static let skipInvalid = OptionSpec.flag(
    "skip-invalid", "Skip invalid lines of --log and --cohort files (each is reported).")
  /// `--assume-zone ZONE` (`backtest` too).
  static let assumeZone = CommonOptions.assumeZone.describing(
    "Read timestamps without a UTC offset in --log and --cohort files as local times in ZONE (or --tz)."
  )

  static func run(_ context: Context) throws -> ExitCode {
    let days = try context.arguments.value(Self.days) ?? 7
    let analyzer = RoutineAnalyzer(
      weeklyDays: try context.arguments.value(weekly) ?? AnalysisConfiguration().weeklyDays,
      eventDays: try context.arguments.value(eventDays) ?? AnalysisConfiguration().eventDays)
    let now = try context.requireNow()
    let files = try context.arguments.values(Self.log)
    if let cohort = try CohortAnalysis.path(context, logs: files) {
      return try CohortAnalysis.run(context, path: cohort, analyzer: analyzer, days: days)
    }
    guard !files.isEmpty else {
      return try context.reading { store, settings, zone in
        var analyzer = analyzer
        // One threshold (settings --threshold) for planned and shown unclaimed routines alike.
        analyzer.configuration.threshold = settings.threshold
        let window = AnalysisWindow(now: now, days: days, zone: zone)
        let log = try store?.eventLog(days: analyzer.daysRead(for: window)) ?? EventLog()
        try report(log, window: window, analyzer: analyzer, context: context, plansReminders: true)
        {
          guard let store else {
            context.warn(
              "there is no store at '\(context.displayPath(try context.storePath()))' yet; "
                + "'routine log' or 'routine import' adds events")
            return nil
          }
          return try store.eventDates().flatMap {
            outsideNote(window: window, dates: $0, what: "the store's events run")
          }
        }
        return .ok
      }
    }
    let window = AnalysisWindow(
      now: now, days: days, zone: try context.environmentTimeZone.get())
    let format = try context.arguments.value(Self.format)
    let zone = try context.assumedZone()
    let readers = files.map {
      EventFileReader(
        path: $0, format: format, skipsInvalid: context.arguments.flag(skipInvalid),
        assumedZone: zone)
    }
    var log = EventLog()
    let summary = try EventLogLoader(days: analyzer.daysRead(for: window)).load(
      readers, into: &log)
    for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
    for path in summary.emptyFiles { context.warn("\(displayName(path)) holds no events") }
    log.sort()
    try report(log, window: window, analyzer: analyzer, context: context) {
      summary.dates.flatMap { outsideNote(window: window, dates: $0, what: "the log runs") }
    }
    return .ok
  }

  /// Analyses `log` and prints the result. When nothing was learned, `emptyNote` may say why:
  /// in place of "none yet" in the text, as a warning beside the JSON.
  private static func report(
    _ log: EventLog, window: AnalysisWindow, analyzer: RoutineAnalyzer, context: Context,
    plansReminders: Bool = false, emptyNote: () throws -> String?
  ) throws {
    try report(
      log, window: window, analyzer: analyzer, to: context.output, isJSON: context.isJSON,
      glance: Glance.forTerminal(context, log: log), plansReminders: plansReminders,
      warn: context.warn, emptyNote: emptyNote)
  }

  /// Analyses `log` and prints the result to `output`, warnings through `warn`. With `person`
  /// (`--cohort`), the JSON is one line that names the person first, and the text a heading
  /// that names them.
  static func report(
    _ log: EventLog, window: AnalysisWindow, analyzer: RoutineAnalyzer, to output: Output,
    isJSON: Bool, glance: Glance?, person: String? = nil, plansReminders: Bool = false,
    warn: (String) -> Void, emptyNote: () throws -> String?
  ) throws {
    let analysis = analyzer.analyze(log, window: window)
    let note = analysis.routines.isEmpty ? try emptyNote() : nil
    // Days with events reach back past an empty window: the heading names days that hold none
    // of what the routines were learned from.
    if !analysis.routines.isEmpty,
      let last = log.latestDate(through: window.learningDays.upperBound), last < window.firstDay
    {
      warn(
        "no events from \(window.firstDay) to \(window.learningDays.upperBound); these routines "
          + "are learned from the days with events before, the last on \(last.weekdayName) \(last)")
    }
    // Days without any event lower every confidence; past a few, the store's learned
    // reminders pause. A log analysed on its own has no reminders to pause.
    let silence = analysis.silence
    if !analysis.routines.isEmpty, silence.decay < 1, let last = silence.lastLogged {
      let lowered = "confidences lowered by \(silence.silentDays) silent days"
      if plansReminders, let message = silence.message {
        warn("\(message) (\(lowered))")
      } else {
        warn("nothing logged since \(last.weekdayName) \(last): \(lowered)")
      }
    }
    let weeklyDays =
      analyzer.learnsWeekly(windowDays: window.days) ? analyzer.configuration.weeklyDays : 0
    if isJSON {
      let object = json(analysis, weeklyDays: weeklyDays)
      if let person {
        output.line(CohortAnalysis.naming([("person", .string(person))], object).compact())
      } else {
        output.line(object.serialized())
      }
      if let note { warn(note) }
    } else {
      if let person { output.line(CohortAnalysis.heading(person)) }
      text(analysis, weeklyDays: weeklyDays, emptyNote: note, glance: glance, to: output)
    }
  }

  /// When the events lie wholly outside the window, where they are and which `--now` would
  /// analyse them; `nil` when they do not.
  static func outsideNote(
    window: AnalysisWindow, dates: ClosedRange<LocalDate>, what: String,
    advice: (String) -> String = { "try --now \($0)" }
  ) -> String? {
    guard !(window.firstDay...window.today).overlaps(dates) else { return nil }
    let day = dates.upperBound.adding(days: 1)
    let midnight = WallClock.instant(
      on: day, at: TimeOfDay(secondsSinceMidnight: 0), in: window.timeZone)
    let now = TimeArgument.stamp(midnight, window.timeZone).iso8601
    // The days the header names: learning stops the day before `now`.
    return "\(what) from \(dates.lowerBound) to \(dates.upperBound), outside the window "
      + "(\(window.firstDay) to \(window.learningDays.upperBound)); "
      + advice("\(now)" + (window.days < 7 ? " --days 7" : ""))
  }

  /// `weeklyDays` is the horizon of routines of some weekdays, 0 when none were learned.
  static func json(_ analysis: RoutineAnalysis, weeklyDays: Int) -> JSON {
    let window = analysis.window
    return .object([
      (
        "window",
        .object([
          ("from", .string(window.start.iso8601)), ("to", .string(window.end.iso8601)),
          ("days", .integer(window.days)), ("weeklyDays", .integer(weeklyDays)),
          ("timeZone", .string(ZoneNames.display(window.timeZone))),
        ])
      ),
      (
        "routines",
        .array(
          analysis.routines.map { routine in
            .object([
              ("event", .string(routine.kind.name)),
              ("time", .string(routine.time.description)),
              ("dayKind", .string(routine.dayKind.name)),
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
              ("dayKind", .string(outlier.dayKind.name)),
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
      (
        "silence",
        .object([
          ("lastLogged", .optional(analysis.silence.lastLogged?.description)),
          ("silentDays", .integer(analysis.silence.silentDays)),
          ("decay", .rounded(analysis.silence.decay, places: 3)),
          ("pausesLearned", .bool(analysis.silence.pausesLearned)),
        ])
      ),
    ])
  }

  /// `weeklyDays` is the horizon of routines of some weekdays, 0 when none were learned.
  static func text(
    _ analysis: RoutineAnalysis, weeklyDays: Int, emptyNote: String? = nil, glance: Glance? = nil,
    to output: Output
  ) {
    let window = analysis.window
    let last = window.learningDays.upperBound
    output.line(
      "Routines learned from \(window.firstDay.weekdayName) \(window.firstDay) to \(last.weekdayName) \(last) "
        + "(\(counted(window.days, "day"))\(weeklyDays > 0 ? ", \(weeklyDays) for some weekdays" : ""), "
        + "\(ZoneNames.display(window.timeZone))):")
    if analysis.routines.isEmpty {
      output.line(
        "  none"
          + (emptyNote.map { ": \($0)." }
            ?? " yet: a routine needs an event near the same time on at least 3 days."))
    }
    let names = analysis.routines.map { TerminalText.escaped($0.kind.name) }
    let nameWidth = min(names.map(\.count).max() ?? 0, 24)
    // Weekday sets name their days ("Mon/Wed/Fri") and may be wider than the standard labels.
    let labelWidth = max(analysis.routines.map(\.dayKind.label.count).max() ?? 0, 8)
    for (routine, name) in zip(analysis.routines, names) {
      let percent = Int((routine.confidence * 100).rounded())
      output.line(
        "  \(routine.time)  \(HelpFormatter.padded(name, to: nameWidth))  "
          + "\(HelpFormatter.padded(routine.dayKind.label, to: labelWidth))  "
          + "\(HelpFormatter.padded("\(percent)%", to: 4))  \(TerminalText.escaped(routine.reasoning))"
      )
    }
    glance?.write(analysis, names: names, nameWidth: nameWidth, to: output)
    if !analysis.durations.isEmpty {
      output.line()
      output.line("Usual durations:")
      for duration in analysis.durations {
        output.line(
          "  \(TerminalText.escaped(duration.from.name)) -> \(TerminalText.escaped(duration.to.name)): "
            + "\(duration.minutes) min (\(counted(duration.pairs, "pair")))")
      }
    }
    if !analysis.outliers.isEmpty {
      output.line()
      output.line("Outliers:")
      for outlier in analysis.outliers {
        output.line(
          "  \(outlier.timestamp.localDate.weekdayName) \(outlier.timestamp.localDate)  "
            + "\(TerminalText.escaped(outlier.kind.name)): \(TerminalText.escaped(outlier.message))"
        )
      }
    }
  }
}
