import RoutineCore
import RoutineStore

/// `routine import FILE... [--format csv|jsonl] [--skip-invalid] [--assume-zone ZONE]`
enum ImportCommand: Command {
  static let spec = CommandSpec(
    name: "import",
    summary: "Import events from CSV or JSON Lines files into the store.",
    discussion: """
      Each file is imported in one transaction: all of it or, at the first invalid line, none of
      it (exit 65). With --skip-invalid, invalid lines are reported and skipped. Events the store
      already holds are not added again, so importing a file twice adds nothing the second time.
      Files after a failed one are still imported; the exit status is that of the first failure.
      An empty file is a warning, not a failure. FILE - reads standard input.
      """,
    arguments: [
      ArgumentSpec("FILE", "A .csv or .jsonl file, or - for standard input.", repeatable: true)
    ],
    options: [
      .value("format", "csv|jsonl", "The format (default: from the extension, then the content)."),
      .flag("skip-invalid", "Skip invalid lines (each is reported) instead of rejecting the file."),
      .value(
        "assume-zone", "ZONE",
        "Read timestamps without a UTC offset as local times in ZONE (daylight-saving rules of docs/time.md)."
      ),
    ],
    globals: ["store", "tz", "json"],
    globalHelp: ["tz": "Also read timestamps without a UTC offset in ZONE (as --assume-zone)."])

  static func run(_ context: Context) throws -> ExitCode {
    let format = try context.fileFormat()
    let skips = context.arguments.flag("skip-invalid")
    let zone = try context.assumedZone()
    let store = try context.openStore()
    var status = ExitCode.ok
    var reports: [JSON] = []
    var notes: [String] = []
    for path in context.arguments.arguments {
      let reader = EventFileReader(
        path: path, format: format, skipsInvalid: skips, assumedZone: zone)
      let name = TerminalText.escaped(displayName(path))
      do {
        let summary = try store.importEvents(from: reader)
        for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
        if summary.read == 0, summary.skipped.isEmpty {
          context.warn("\(displayName(path)) holds no events; nothing to import")
        }
        if summary.added > 0 { notes += try checkRecent(store, context: context) }
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
            ("error", .null),
          ]))
        if !context.isJSON {
          var line =
            "\(name): \(counted(summary.read, "event")) read, \(summary.added) added, "
            + "\(summary.alreadyPresent) already present"
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
            ("alreadyPresent", .integer(0)), ("skipped", .array([])), ("error", .string(message)),
          ]))
      }
    }
    if context.isJSON {
      context.output.line(JSON.object([("files", .array(reports))]).serialized())
    } else {
      for note in notes { context.output.line(TerminalText.escaped(note)) }
    }
    return status
  }

  /// The checks after logging for the events of the last two days (the longest look-back): a
  /// day's export cancels the reminders it makes unnecessary and alerts on outliers; history
  /// older than that changes nothing.
  private static func checkRecent(_ store: EventStore, context: Context) throws -> [String] {
    let now = try context.nowSeconds()
    return try store.write {
      let settings = try store.settings()
      // No zone needed for the import itself: an invalid $TZ only skips these checks.
      guard let zone = try? context.userTimeZone(settings) else { return [] }
      let clock = context.clockStyle(settings)
      let recent = try store.storedEvents(EventSelection(from: now - 48 * 3600, to: now + 61))
      let effects = try store.afterLogging(
        recent.map(\.event), now: now, in: zone, clock: clock)
      return Responder.notes(effects, zone: zone, clock: clock)
    }
  }
}
