import Foundation
import RoutineCore
import RoutineStore

/// The files `routine import` reads: event files, an Apple Health export (docs/apple-health.md),
/// or another app's export (docs/formats.md#other-apps); `routine sample` writes the first three.
/// Another app's format is a case here and in ``AppFormat`` (which detects it).
enum ImportFormat: String, CaseIterable {
  /// Events as CSV.
  case csv
  /// Events as JSON Lines.
  case jsonl
  /// An Apple Health export.xml (or its export.zip).
  case appleHealth = "apple-health"
  /// Sleep as Android's sleep-export.csv.
  case sleepAsAndroid = "sleep-as-android"
  /// Fitbit's sleep CSV or JSON.
  case fitbit
  /// Garmin Connect's Activities.csv.
  case garmin
  /// Health Auto Export's workouts, CSV or JSON.
  case healthAutoExport = "health-auto-export"
  /// Daylio's export.
  case daylio
  /// Loop Habit Tracker's Checkmarks.csv (days done) or Habits.csv (docs/formats.md).
  case loop

  /// The event file format, or `nil` for an Apple Health export or another app's.
  var eventFormat: EventFileFormat? {
    switch self {
    case .csv: .csv
    case .jsonl: .jsonl
    default: nil
    }
  }

  /// Another app's format, or `nil` for routine's own files and Apple Health.
  var appFormat: AppFormat? { AppFormat(rawValue: rawValue) }
}

/// `routine import FILE... [--format csv|jsonl|apple-health|loop] [--skip-invalid]
/// [--assume-zone ZONE] [--columns MAP] [--date-format PATTERN] [--thousands SEP]
/// [--skip-lines N] [--from DATE]`
enum ImportCommand: Command {
  static let spec = CommandSpec(
    name: "import",
    summary:
      "Import events from CSV or JSON Lines files, an Apple Health export or another app's, into the store.",
    discussion: """
      Each file is imported in one transaction: all of it or, at the first invalid line, none of
      it (exit 65). With --skip-invalid, invalid lines are reported and skipped. Events the store
      already holds are not added again, so importing a file twice adds nothing the second time.
      Files after a failed one are still imported; the exit status is that of the first failure.
      An empty file is a warning, not a failure. FILE - reads standard input.

      An Apple Health export (export.xml, or the export.zip the Health app writes) gives
      workouts, mindful sessions, drinks and nights (Bed Time and Wake Up); everything else is
      skipped and counted. docs/apple-health.md has the rules.

      Exports of Sleep as Android, Fitbit, Garmin Connect, Health Auto Export and Daylio are
      recognised from their first line (or --format names them): nights become Bed Time and
      Wake Up, workouts a Workout with their minutes, Daylio's activities an event each. Their
      local times are read in the zone the file names, else --assume-zone, else the user's
      zone (the settings', else --tz, $TZ, the system's). A workout or a night the store already holds
      from another source is not added again. docs/formats.md#other-apps has the rules.

      Loop Habit Tracker's Habits.csv creates the habits (a habit of the same name is left as it
      is) and its Checkmarks.csv gives their days done: days without a time, which count for
      habits' strength and streaks and teach no routine a time (docs/formats.md).
      """,
    arguments: [
      ArgumentSpec(
        "FILE",
        "A .csv, .jsonl, .json, export.xml or export.zip file, another app's export (Loop's Habits.csv or Checkmarks.csv too), or - for standard input.",
        repeatable: true, completes: .file)
    ],
    options: [
      format.spec, skipInvalid, assumeZone.spec, columns.spec, dateOrder.spec, dateFormat.spec,
      thousands.spec, skipLines.spec, HealthImport.from.spec,
    ],
    globals: ["store", "tz", "json"],
    globalHelp: [
      "tz":
        "Also read timestamps without a UTC offset in ZONE (as --assume-zone); other apps' exports default to the user's zone: the settings', else $TZ."
    ])

  /// `--format csv|jsonl|apple-health|sleep-as-android|...` (`sample` writes the first three).
  static let format = Option(
    "format", .oneOf(ImportFormat.allCases),
    "The format (default: from the extension, then the content).")
  /// `--skip-invalid`.
  static let skipInvalid = OptionSpec.flag(
    "skip-invalid", "Skip invalid lines (each is reported) instead of rejecting the file.")
  /// `--assume-zone ZONE`.
  static let assumeZone = CommonOptions.assumeZone.describing(
    "Read timestamps without a UTC offset as local times in ZONE (daylight-saving rules of docs/time.md)."
  )
  /// `--columns MAP`: read by the command, whose errors say what is wrong with the map in more
  /// words than "expected ..., found ..." can.
  static let columns = Option(
    "columns",
    ValueType(
      placeholder: "MAP", expected: "field=Header pairs separated by commas",
      isContextFree: false
    ) { try? ColumnMapping(parsing: $0) },
    "Read another app's CSV: which columns hold which field, e.g. \"timestamp=Date+Time,event=Activity,value=Amount,note=Comment\" (docs/formats.md)."
  )
  /// `--date-format PATTERN`: read by the command, whose errors say what is wrong with it.
  static let dateFormat = Option(
    "date-format",
    ValueType(
      placeholder: "PATTERN", expected: "a date pattern such as 'dd.MM.yyyy HH:mm'",
      isContextFree: false
    ) { try? DatePattern($0) },
    "Read timestamps by PATTERN, e.g. 'dd.MM.yyyy HH:mm' or 'M/d/yyyy h:mm a' (docs/formats.md)."
  )
  /// `--thousands SEP`.
  static let thousands = Option(
    "thousands",
    ValueType(
      placeholder: "SEP", expected: "the thousands separator: , . ' or a space"
    ) { text -> Character? in
      text.count == 1 && ReadingOptions.thousandsSeparators.contains(text.first!) ? text.first : nil
    },
    "Numbers have SEP between thousands (1,250); with ., a comma is the decimal point (1.250,5).")
  /// `--skip-lines N`.
  static let skipLines = Option(
    "skip-lines", .integer(in: 1...1000),
    "Skip N lines before the CSV header (a title or an export's preamble).")
  /// `--date-order dmy|mdy`.
  static let dateOrder = Option(
    "date-order", dateOrderType,
    "Read numeric dates such as 04/05/2026 day first (dmy) or month first (mdy); without it, only dates that cannot be read both ways are read."
  )
  private static let dateOrderType: ValueType<DateOrder> = {
    var type = ValueType<DateOrder>.oneOf()
    type.expected = "dmy (day first) or mdy (month first)"
    return type
  }()

  static func run(_ context: Context) throws -> ExitCode {
    let chosen = try context.arguments.value(Self.format)
    let health = chosen == .appleHealth
    let firstDate = try context.arguments.value(HealthImport.from)
    let skips = context.arguments.flag(skipInvalid)
    let zone = try context.assumedZone()
    let columns = try columnMapping(context)
    let dateOrder = try context.arguments.value(Self.dateOrder)
    let options = try readingOptions(context)
    // On a fresh install, a store is made only if a file could be imported.
    let (status, _) = try context.withWritableStore(
      keep: { $0.0 == .ok || $0.1 > 0 }, checkingZone: false
    ) {
      store -> (ExitCode, Int) in
      // Only the checks after importing need the user's zone (docs/time.md): without a valid
      // one the import goes ahead, and says what it could not check. A --tz that reads the
      // files' local times is not ignored, whatever the settings say.
      let settings = try store.settings()
      let userZone: Zone?
      do throws(UsageError) {
        userZone = try context.userTimeZone(
          settings, warning: context.arguments.isGiven(assumeZone))
      } catch {
        context.warn(
          "\(error.message); imported events cancel no reminder and raise no outlier alert until it is fixed"
        )
        userZone = nil
      }
      // The Health app writes every date with the phone's offset at the time of the export
      // (docs/apple-health.md): records without their own zone are read in --assume-zone, else
      // in the zone the settings name, else at the offset written.
      let healthZone = zone ?? (settings.timeZone == nil ? nil : userZone)
      // Other apps write local times without an offset (docs/formats.md#zones-of-other-apps):
      // a zone named for this import, else the user's zone as every command finds it (the
      // settings, --tz, $TZ, the system's: a cron job's TZ=UTC does not shift a file when the
      // settings name a zone). Resolved only when such a file is imported.
      let appZone = {
        () throws -> Zone in
        if let zone { return zone }
        return try context.userTimeZone(settings, warning: false)
      }
      return try store.write {
        try importFiles(
          into: store, format: chosen, health: health, firstDate: firstDate,
          skippingInvalid: skips, assumedZone: zone, healthZone: healthZone,
          appZone: appZone, columns: columns, dateOrder: dateOrder, options: options,
          userZone: userZone, context: context)
      }
    }
    return status
  }

  /// Imports each file in turn, inside the caller's transaction (each file a savepoint of it),
  /// prints what happened, and delivers the output before the caller commits; returns the exit
  /// status and how many events were added.
  private static func importFiles(
    into store: EventStore, format chosen: ImportFormat?, health: Bool, firstDate: LocalDate?,
    skippingInvalid skips: Bool, assumedZone zone: Zone?, healthZone: Zone?,
    appZone: () throws -> Zone, columns: ColumnMapping?, dateOrder: DateOrder?,
    options: ReadingOptions, userZone: Zone?,
    context: Context
  ) throws -> (ExitCode, Int) {
    let format = chosen?.eventFormat
    var status = ExitCode.ok
    var added = 0
    var reports: [JSON] = []
    var notes: [String] = []
    for path in context.arguments.arguments {
      let reader = EventFileReader(
        path: path, format: format, skipsInvalid: skips, assumedZone: zone, columns: columns,
        dateOrder: dateOrder, options: options)
      let name = TerminalText.escaped(displayName(path))
      do {
        // A file read through --columns is another app's, whatever its values look like: a
        // column of dates and small counts is not Loop's unless --format says so.
        let readAsCSV = columns != nil || dateOrder != nil || options != ReadingOptions()
        if chosen == .loop || (chosen == nil && !readAsCSV && LoopHabitsFile.detect(path) != nil) {
          guard columns == nil, dateOrder == nil, options == ReadingOptions() else {
            throw UsageError(
              "--columns, --date-order, --date-format, --thousands and --skip-lines read other apps' CSV; \(name) is Loop Habit Tracker's: import it without them",
              command: spec.name)
          }
          // A savepoint: a file that fails half-way leaves nothing of itself.
          let outcome = try store.write {
            try LoopImport.run(
              path, kind: nil, store: store, firstDate: firstDate, skippingInvalid: skips,
              context: context)
          }
          added += outcome.added
          reports.append(outcome.report)
          if !context.isJSON { for line in outcome.lines { context.output.line(line) } }
          continue
        }
        if health || (format == nil && HealthImport.looksLikeExport(path)) {
          guard columns == nil, dateOrder == nil, options == ReadingOptions() else {
            throw UsageError(
              "--columns, --date-order, --date-format, --thousands and --skip-lines read CSV; \(name) is an Apple Health export: import it without them",
              command: spec.name)
          }
          let summary = try store.importHealthExport(
            from: HealthImport.reader(
              path, skippingInvalid: skips, defaultZone: healthZone, context: context),
            from: firstDate)
          added += summary.added
          for invalid in summary.reading.invalid { context.warn("\(invalid) (skipped)") }
          if summary.added > 0, let userZone {
            notes += try checkRecent(store, zone: userZone, context: context)
          }
          reports.append(HealthImport.report(summary, path: path))
          if !context.isJSON {
            context.output.line(HealthImport.line(summary, name: name, firstDate: firstDate))
          }
          continue
        }
        // Another app's export: named, or recognised unless the command asks for routine's own
        // CSV (--format, --columns, --date-order).
        let app =
          chosen?.appFormat
          ?? (chosen == nil && columns == nil && dateOrder == nil && options == ReadingOptions()
            ? AppImport.detect(path) : nil)
        if let app {
          guard columns == nil, dateOrder == nil, options == ReadingOptions() else {
            throw UsageError(
              "--columns, --date-order, --date-format, --thousands and --skip-lines read routine's CSV; \(name) is read as a \(app.appName) export: import it without them",
              command: spec.name)
          }
          if path == "-" { try AppImport.makeStandardInputRereadable(for: app) }
          let summary = try store.importAppExport(
            from: AppImport.reader(
              path, format: app, skippingInvalid: skips, zone: try appZone(), context: context),
            from: firstDate)
          added += summary.added
          for invalid in summary.reading.invalid { context.warn("\(invalid) (skipped)") }
          if summary.reading.records == 0, summary.reading.invalid.isEmpty {
            context.warn("\(displayName(path)) holds no records; nothing to import")
          }
          if summary.added > 0, let userZone {
            notes += try checkRecent(store, zone: userZone, context: context)
          }
          reports.append(AppImport.report(summary, path: path, format: app))
          if !context.isJSON {
            context.output.line(
              AppImport.line(summary, name: name, format: app, firstDate: firstDate))
          }
          continue
        }
        let summary = try store.importEvents(from: reader, firstDate: firstDate)
        added += summary.added
        for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
        if summary.read == 0, summary.skipped.isEmpty {
          context.warn("\(displayName(path)) holds no events; nothing to import")
        }
        if summary.added > 0, let userZone {
          notes += try checkRecent(store, zone: userZone, context: context)
        }
        reports.append(
          .object([
            ("file", .string(path)), ("read", .integer(summary.read)),
            ("added", .integer(summary.added)),
            ("alreadyPresent", .integer(summary.alreadyPresent)),
            (
              "skipped",
              .array(
                summary.skipped.map {
                  .object([("line", .integer($0.line)), ("message", .string($0.message))])
                })
            ),
            ("beforeFrom", .integer(summary.beforeFirstDate)), ("error", .null),
          ]))
        if !context.isJSON {
          var line =
            "\(name): \(counted(summary.read, "event")) read, \(summary.added) added, "
            + "\(summary.alreadyPresent) already present"
          if let firstDate {
            line += ", \(summary.beforeFirstDate) before \(firstDate) left out"
          }
          if !summary.skipped.isEmpty {
            line += ", \(counted(summary.skipped.count, "invalid line")) skipped"
          }
          context.output.line(line + ".")
        }
      } catch {
        let (code, message) = ErrorReport.describe(error)
        context.errors.line("error: \(TerminalText.escaped(message))")
        if status == .ok { status = code }
        reports.append(
          .object([
            ("file", .string(path)), ("read", .integer(0)), ("added", .integer(0)),
            ("alreadyPresent", .integer(0)), ("skipped", .array([])),
            ("error", .string(message)),
          ]))
      }
    }
    if context.isJSON {
      context.output.line(JSON.object([("files", .array(reports))]).serialized())
    } else {
      for note in notes { context.output.line(TerminalText.escaped(note)) }
    }
    // Before the commit: output that cannot be written imports nothing. Each file's import is
    // a savepoint in this transaction, so a failed file still leaves the others.
    try context.output.deliver()
    return (status, added)
  }

  /// `--columns`, parsed (it applies to CSV files; JSON Lines names its keys already).
  private static func columnMapping(_ context: Context) throws(UsageError) -> ColumnMapping? {
    guard let text = context.arguments.text(columns) else { return nil }
    do {
      return try ColumnMapping(parsing: text)
    } catch {
      throw UsageError("--columns: \(error.message)", command: context.command)
    }
  }

  /// `--date-format`, `--thousands` and `--skip-lines`.
  private static func readingOptions(_ context: Context) throws(UsageError) -> ReadingOptions {
    var options = ReadingOptions()
    if let text = context.arguments.text(dateFormat) {
      do {
        options.datePattern = try DatePattern(text)
      } catch {
        throw UsageError("--date-format: \(error.message)", command: context.command)
      }
    }
    options.thousands = try context.arguments.value(thousands).flatMap(\.asciiValue)
    options.skipLines = try context.arguments.value(skipLines) ?? 0
    return options
  }

  /// The checks after logging for the events of the last two days (the longest look-back): a
  /// day's export cancels the reminders it makes unnecessary and alerts on outliers; history
  /// older than that changes nothing.
  private static func checkRecent(
    _ store: EventStore, zone: Zone, context: Context
  ) throws -> [String] {
    let now = try context.nowSeconds()
    return try store.write {
      let settings = try store.settings()
      let clock = context.clockStyle(settings)
      let recent = try store.storedEvents(
        EventSelection(from: now - LookBack.longestSeconds, to: now + 61))
      let effects = try store.afterLogging(
        recent.map(\.event), now: now, in: zone, clock: clock)
      let resumed = try LearnedPause.resume(
        store, settings: settings, zone: zone, now: now, context: context)
      return Responder.notes(effects, zone: zone, clock: clock) + (resumed.map { [$0] } ?? [])
    }
  }
}
