import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders remove ID [--yes]`
enum RemindersRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "reminders remove",
    summary: "Remove a reminder, with its requests and cancellations.",
    discussion: """
      Asks first on a terminal (--yes otherwise). The id goes on the deleted list: nothing brings
      the reminder back, not an import of definitions, not a plan, but 'routine undo' right
      after.
      """,
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    options: [CommonOptions.yes], globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    guard let store = try context.openExistingStore(), let reminder = try store.reminder(id: id)
    else { throw unknownReminder(id, store: try context.openExistingStore()) }
    let subject = ReminderFormatting.subject(
      reminder, habit: try store.habit(id: reminder.link ?? ""),
      task: try store.task(id: reminder.link ?? ""))
    guard try context.confirm("Remove \(id) (\(subject))?") else {
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(id)), ("removed", .bool(false))]).serialized()
          : "Nothing removed.")
      return .ok
    }
    try store.write {
      let removed = try store.removeReminder(id: id)
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(id)), ("removed", .bool(removed))]).serialized()
          : removed ? "Removed \(id)." : "\(id) was already removed.")
      try context.output.deliver()
    }
    return .ok
  }
}
