import Foundation
import RoutineCore
import RoutineStore

/// `routine events [--from TIME] [--to TIME] [--event EVENT] [--last N]`
enum EventsCommand: Command {
  static let subcommands: [any Command.Type] = [
    EventsDeleteCommand.self
  ]
  static let spec = CommandSpec(
    name: "events",
    summary: "List stored events in time order.",
    discussion: """
      --from is inclusive, --to exclusive; a bare date means local midnight in your zone, and a
      bare time that time today.
      """,
    options: EventSelectionOptions.options,
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let output = context.output
    return try context.reading { store, _, zone throws -> ExitCode in
      let selection = try EventSelectionOptions.selection(context, zone: zone)
      if context.isJSON {
        // Streamed, so that a large store is not held in memory twice.
        var list = JSONListWriter(output, key: "events")
        try store?.forEachStoredEvent(selection) { stored in
          list.append(EventFormatting.json(stored.event))
        }
        list.finish()
        return .ok
      }
      var count = 0
      if let store {
        try store.forEachStoredEvent(selection) { stored in
          output.line(EventFormatting.line(stored.event))
          count += 1
        }
      }
      if count == 0 {
        if store == nil {
          let path = context.displayPath(try context.storePath())
          output.line("No events: the store '\(path)' does not exist yet.")
        } else {
          output.line(selection.isEverything ? "No events yet." : "No events match.")
        }
      }
      return .ok
    }
  }
}
