import Foundation
import RoutineCore
import RoutineStore

/// `routine tasks edit TASK [--name NAME] [--due TIME]`
enum TasksEditCommand: Command {
  static let spec = CommandSpec(
    name: "tasks edit", summary: "Change a task; its reminders follow the due date.",
    arguments: [ArgumentSpec("TASK", "The task's name or id.", completes: .task)],
    options: [name.spec, TasksCommand.due.spec, undone], globals: ["store", "now", "tz", "json"])

  /// `--name NAME`.
  static let name = Option("name", .text("NAME"), "A new name.")
  /// `--undone`.
  static let undone = OptionSpec.flag("undone", "Mark it not done again.")

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    try context.writing { store, _, zone in
      guard var task = try store.task(id: id) else {
        throw CommandError(.dataError, "there is no task '\(id)'; 'routine tasks' lists them")
      }
      if let text = context.arguments.text(name) {
        guard let name = EventKind(text) else {
          throw UsageError("--name: the name is empty", command: spec.name)
        }
        task.name = name
      }
      if let due = try TasksCommand.due(context, zone: zone) {
        task.due = due
        if task.doneAt == nil { try TasksCommand.warnIfPast(due, zone: zone, context) }
      }
      if context.arguments.flag(undone) { task.doneAt = nil }
      try store.updateTask(task)
      context.output.line(
        context.isJSON
          ? Definitions.taskJSON(task, zone: zone).serialized()
          : "Changed \(task.id): \(TerminalText.escaped(task.name.name)), due \(TasksCommand.text(task.due))."
      )
      try context.output.deliver()
    }
    return .ok
  }
}
