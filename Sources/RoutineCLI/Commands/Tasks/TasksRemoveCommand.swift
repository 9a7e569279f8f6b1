import Foundation
import RoutineCore
import RoutineStore

/// `routine tasks remove TASK [--yes]`
enum TasksRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "tasks remove",
    summary: "Remove a task and its reminders ('routine undo' right after brings them back).",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    options: [CommonOptions.yes], globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try LinkedRemoval.run(
      context, noun: "task", list: "tasks",
      find: { store, id in try store.task(id: id).map { ($0.id, $0.name.name) } },
      remove: { store, id in try store.removeTask(id: id) })
  }
}
