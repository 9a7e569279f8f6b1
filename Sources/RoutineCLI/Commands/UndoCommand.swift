import Foundation
import RoutineCore
import RoutineStore

/// `routine undo [--yes]`
enum UndoCommand: Command {
  static let spec = CommandSpec(
    name: "undo",
    summary: "Remove the event logged last (by 'routine log' or an answer), after showing it.",
    discussion: """
      Shows the event and asks before removing it; --yes removes it without asking (needed when
      standard input is not a terminal). Each undo removes one event, the latest logged first.
      Imported events are not undone one by one: 'routine events delete' removes a selection.
      """,
    options: [CommonOptions.yes],
    globals: ["store", "now", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    guard let store = try context.openExistingStore(), let last = try store.lastLogged() else {
      if context.isJSON {
        context.output.line(
          JSON.object([("removed", .bool(false)), ("event", .null)]).serialized())
      } else {
        context.output.line("Nothing to undo: no event was logged with 'routine log'.")
      }
      return .ok
    }
    let description = EventFormatting.summary(last.event)
    guard try context.confirm("Remove \(description)?") else {
      context.output.line("Nothing removed.")
      return .ok
    }
    try store.write {
      let removed = try store.delete([last], at: try context.nowSeconds()) == 1
      if context.isJSON {
        context.output.line(
          JSON.object([("removed", .bool(removed)), ("event", EventFormatting.json(last.event))])
            .serialized())
      } else if removed {
        context.output.line("Removed \(description).")
      } else {
        context.output.line("\(description) was already removed; nothing changed.")
      }
      try context.output.deliver()
    }
    return .ok
  }
}
