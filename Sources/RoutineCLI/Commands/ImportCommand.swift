import RoutineCore
import RoutineStore

/// `routine import FILE... [--format csv|jsonl] [--skip-invalid]`
enum ImportCommand: Command {
  static let spec = CommandSpec(
    name: "import",
    summary: "Import events from CSV or JSON Lines files into the store.",
    discussion: """
      Each file is imported in one transaction: all of it or, at the first invalid line, none of
      it (exit 65). With --skip-invalid, invalid lines are reported and skipped. Events the store
      already holds are not added again, so importing a file twice adds nothing the second time.
      Files after a failed one are still imported; the exit status is that of the first failure.
      """,
    arguments: [ArgumentSpec("FILE", "A .csv or .jsonl file.", repeatable: true)],
    options: [
      .value("format", "csv|jsonl", "The format (default: from the extension, then the content)."),
      .flag("skip-invalid", "Skip invalid lines (each is reported) instead of rejecting the file."),
    ],
    globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let format = try context.fileFormat()
    let skips = context.arguments.flag("skip-invalid")
    let store = try context.openStore()
    var status = ExitCode.ok
    var reports: [JSON] = []
    for path in context.arguments.arguments {
      let reader = EventFileReader(path: path, format: format, skipsInvalid: skips)
      do {
        let summary = try store.importEvents(from: reader)
        for skipped in summary.skipped { context.warn("\(skipped) (skipped)") }
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
            "'\(path)': \(summary.read) events read, \(summary.added) added, \(summary.alreadyPresent) already present"
          if !summary.skipped.isEmpty { line += ", \(summary.skipped.count) invalid lines skipped" }
          context.output.line(line + ".")
        }
      } catch {
        let (code, message) = ErrorReport.describe(error)
        context.errors.line("error: \(message)")
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
    }
    return status
  }
}
