import Foundation
import RoutineCore
import RoutineStore

/// `routine events delete [--from TIME] [--to TIME] [--event EVENT] [--last N] [--yes]`
enum EventsDeleteCommand: Command {
  static let spec = CommandSpec(
    name: "events delete",
    summary: "Delete the selected events, after showing them.",
    discussion: """
      Select as 'routine events' does; at least one of --from, --to, --event and --last is
      required. The events are listed and you are asked before they go; --yes deletes without
      asking (needed when standard input is not a terminal). 'routine undo' right after brings
      them back.
      """,
    options: EventSelectionOptions.options + [yes])

  /// `--yes`.
  static let yes = CommonOptions.yes.describing("Delete without asking.")

  static func run(_ context: Context) throws -> ExitCode {
    guard EventSelectionOptions.isAnyGiven(context.arguments) else {
      throw UsageError(
        "say which events to delete with --from, --to, --event or --last", command: spec.name)
    }
    guard let store = try context.openExistingStore() else {
      // The selection is checked without a store too: a mistake is one either way.
      _ = try EventSelectionOptions.selection(
        context, zone: try context.userTimeZone(PlannerSettings()))
      return nothingMatches(context)
    }
    let chosen = try store.read {
      let zone = try context.userTimeZone(try store.settings())
      return try store.storedEvents(try EventSelectionOptions.selection(context, zone: zone))
    }
    guard !chosen.isEmpty else { return nothingMatches(context) }
    if !context.isJSON {
      for stored in chosen.prefix(10) { context.output.line(EventFormatting.line(stored.event)) }
      if chosen.count > 10 {
        context.output.line("... and \(counted(chosen.count - 10, "more event"))")
      }
      context.output.flush()
    }
    guard try context.confirm("Delete \(counted(chosen.count, "event"))?") else {
      context.output.line("Nothing deleted.")
      return .ok
    }
    try store.write {
      let deleted = try store.delete(chosen, at: try context.nowSeconds())
      if context.isJSON {
        context.output.line(JSON.object([("deleted", .integer(deleted))]).serialized())
      } else {
        let gone = chosen.count - deleted
        context.output.line(
          "Deleted \(counted(deleted, "event"))"
            + (gone > 0 ? " (\(counted(gone, "was", "were")) already gone)." : "."))
      }
      try context.output.deliver()
    }
    return .ok
  }

  private static func nothingMatches(_ context: Context) -> ExitCode {
    if context.isJSON {
      context.output.line(JSON.object([("deleted", .integer(0))]).serialized())
    } else {
      context.output.line("No events match; nothing deleted.")
    }
    return .ok
  }
}
