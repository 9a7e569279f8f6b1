import Foundation
import RoutineCore
import RoutineStore

/// `routine habits remove NAME [--yes]`
enum HabitsRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "habits remove",
    summary: "Remove a habit and its reminders ('routine undo' right after brings them back).",
    arguments: [ArgumentSpec("HABIT", "The habit's name or id.", completes: .habit)],
    options: [CommonOptions.yes], globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try LinkedRemoval.run(
      context, noun: "habit", list: "habits",
      find: { store, id in try store.habit(id: id).map { ($0.id, $0.name.name) } },
      remove: { store, id in try store.removeHabit(id: id) })
  }
}
