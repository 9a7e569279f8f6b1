import Foundation
import RoutineCore
import RoutineStore

/// `routine tasks done TASK`
enum TasksDoneCommand: Command {
  static let spec = CommandSpec(
    name: "tasks done", summary: "Mark a task done: its reminders stop.",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.requireNow()
    try context.writing { store, _, zone in
      guard var task = try store.task(id: id) else {
        throw CommandError(.dataError, "there is no task '\(id)'; 'routine tasks' lists them")
      }
      if task.doneAt == nil { task.doneAt = Timestamp(now, in: zone) }
      try store.updateTask(task)
      context.output.line(
        context.isJSON
          ? Definitions.taskJSON(task, zone: zone).serialized()
          : "\(task.id) (\(TerminalText.escaped(task.name.name))) is done.")
      try context.output.deliver()
    }
    return .ok
  }
}
