import RoutineCore
import RoutineStore

/// `routine kinds`
enum KindsCommand: Command {
  static let subcommands: [any Command.Type] = [
    KindsRenameCommand.self
  ]
  static let spec = CommandSpec(
    name: "kinds",
    summary: "List the kinds of events in the store, with counts.",
    discussion: """
      A kind is an event name, matched ignoring case and spacing ("wake up" is "Wake Up"). The
      spelling shown is the one stored first; 'routine kinds rename' changes it, or merges a
      misspelled kind into the right one.
      """,
    globals: ["store", "json"],
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let summaries = try context.openExistingStore()?.kindSummaries() ?? []
    if context.isJSON {
      context.output.line(
        JSON.object([
          (
            "kinds",
            .array(
              summaries.map { summary in
                .object([
                  ("event", .string(summary.kind.name)), ("count", .integer(summary.count)),
                  ("first", .optional(summary.first?.iso8601)),
                  ("last", .optional(summary.last?.iso8601)),
                ])
              })
          )
        ]).serialized())
      return .ok
    }
    guard !summaries.isEmpty else {
      context.output.line("No kinds yet: log or import events first.")
      return .ok
    }
    let names = summaries.map { TerminalText.escaped($0.kind.name) }
    let width = min(names.map(\.count).max() ?? 0, 32)
    let countWidth = summaries.map { counted($0.count, "event").count }.max() ?? 0
    for (summary, name) in zip(summaries, names) {
      var line =
        "  " + HelpFormatter.padded(name, to: width + 2)
        + HelpFormatter.padded(counted(summary.count, "event"), to: countWidth + 2)
      if let first = summary.first, let last = summary.last {
        line += "\(first.localDate) to \(last.localDate)"
      }
      context.output.line(line.trimmingTrailingSpaces)
    }
    return .ok
  }
}
