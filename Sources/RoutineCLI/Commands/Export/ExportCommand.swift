import Foundation
import RoutineCore
import RoutineStore

/// What `routine export` writes.
enum ExportFormat: String, CaseIterable {
  /// Events as CSV that `routine import` reads back.
  case csv
  /// Events as JSON Lines that `routine import` reads back.
  case jsonl
  /// Every learned request and defined reminder as an RFC 5545 calendar.
  case ics
  /// The pending requests and categories for an iOS or macOS app.
  case appleJSON = "apple-json"
}

/// `routine export --format csv|jsonl|ics|apple-json [--from] [--to] [--event] [--out FILE]`
enum ExportCommand: Command {
  static let spec = CommandSpec(
    name: "export",
    summary: "Write events, a calendar or an app's notification requests.",
    discussion: """
      csv and jsonl write events that 'routine import' reads back to the same store (values,
      notes, sources and UTC offsets kept); --from, --to and --event select them. ics writes
      every learned request and every reminder you defined as an RFC 5545 calendar
      (docs/calendar.md). apple-json writes the pending requests and their categories as the
      JSON an iOS or macOS app turns into notification requests (docs/apple.md).
      """,
    options: [format.spec]
      + EventSelectionOptions.options.filter { $0.name != EventSelectionOptions.last.name } + [
        out.spec
      ],
    globals: ["store", "now", "tz"], jsonNote: "--format chooses what it writes")

  /// `--format`.
  static let format = Option(
    "format", .oneOf(ExportFormat.allCases, placeholder: "FORMAT"),
    "What to write (default: from --out's extension, else csv).")
  /// `--out FILE`.
  static let out = CommonOptions.out.describing(
    "Write to FILE instead of stdout (replaced atomically when complete; a new file is readable by you only)."
  )

  static func run(_ context: Context) throws -> ExitCode {
    switch try format(context) {
    case .csv: return try EventsExport.run(context, format: .csv)
    case .jsonl: return try EventsExport.run(context, format: .jsonl)
    case .ics: return try CalendarExport.run(context)
    case .appleJSON: return try AppleExport.run(context)
    }
  }

  /// `--format`, else the one `--out`'s extension names, else CSV.
  static func format(_ context: Context) throws(UsageError) -> ExportFormat {
    if let format = try context.arguments.value(format) { return format }
    let out = (context.arguments.text(out) ?? "").lowercased()
    if out.hasSuffix(".jsonl") || out.hasSuffix(".ndjson") { return .jsonl }
    if out.hasSuffix(".ics") { return .ics }
    return .csv
  }

  /// Writes a whole document to `--out` (replaced atomically; a new file readable by its owner
  /// only, as the store is), then says on standard error what it holds (`summary`), as the
  /// events export does; or writes it to standard output.
  static func write(
    _ document: String, summary: String, context: Context, command: String = spec.name
  ) throws {
    guard let path = try context.outputPath(command: command, option: out) else {
      context.output.writeVerbatim(document)
      return
    }
    let writer = try FileWriter(path: path, newFileMode: 0o600)
    try writer.write(document)
    try writer.finish()
    context.errors.line("Wrote \(summary) to '\(context.displayPath(path))'.")
  }
}
