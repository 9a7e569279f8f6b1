import Foundation
import RoutineCore
import RoutineStore

/// `habits remove` and `tasks remove`: asks (naming how many reminders go too), then removes
/// the definition and its reminders in one transaction.
enum LinkedRemoval {
  static func run(
    _ context: Context, noun: String, list: String,
    find: (EventStore, String) throws -> (id: String, name: String)?,
    remove: (EventStore, String) throws -> [String]?
  ) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    guard let store = try context.openExistingStore(), let found = try find(store, id) else {
      throw CommandError(.dataError, "there is no \(noun) '\(id)'; 'routine \(list)' lists them")
    }
    let linked = try store.reminders().filter { $0.link == found.id }.count
    let reminders = linked > 0 ? " and its \(counted(linked, "reminder"))" : ""
    let name = TerminalText.escaped(found.name)
    guard try context.confirm("Remove the \(noun) \(name) (\(found.id))\(reminders)?") else {
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(found.id)), ("removed", .array([]))]).serialized()
          : "Nothing removed.")
      return .ok
    }
    try store.write {
      let removed = try remove(store, found.id) ?? []
      context.output.line(
        context.isJSON
          ? JSON.object([
            ("id", .string(found.id)),
            ("removed", .array(([found.id] + removed).map(JSON.string))),
          ]).serialized()
          : "Removed \(found.id)"
            + (removed.isEmpty ? "." : " and \(removed.joined(separator: ", ")).")
      )
      try context.output.deliver()
    }
    return .ok
  }
}
