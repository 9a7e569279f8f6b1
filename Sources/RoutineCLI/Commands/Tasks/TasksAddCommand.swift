import Foundation
import RoutineCore
import RoutineStore

/// `routine tasks add NAME --due TIME`
enum TasksAddCommand: Command {
  static let spec = CommandSpec(
    name: "tasks add", summary: "Define a task with a due date.",
    arguments: [ArgumentSpec("NAME", "The task (\"Taxes\").", repeatable: true)],
    options: [due.spec])

  /// `--due TIME`.
  static let due = TasksCommand.due.describing(
    "When it is due: '2026-05-01 17:00', 'tomorrow 9am', 'fri 5pm', ... (see 'routine help dates')."
  )

  static func run(_ context: Context) throws -> ExitCode {
    guard let name = EventKind(context.arguments.arguments.joined(separator: " ")) else {
      throw UsageError("NAME is empty", command: spec.name)
    }
    guard context.arguments.isGiven(due) else {
      throw UsageError("a task needs --due TIME", command: spec.name)
    }
    try context.writing { store, _, zone in
      let due = try TasksCommand.due(context, zone: zone)!
      try TasksCommand.warnIfPast(due, zone: zone, context)
      let added = try store.addTask(TodoTask(id: "", name: name, due: due))
      if context.isJSON {
        context.output.line(JSON.object([("id", .string(added.id))]).serialized())
      } else {
        context.output.line(
          "Added \(added.id): \(TerminalText.escaped(name.name)), due \(TasksCommand.text(due))."
        )
      }
      try context.output.deliver()
    }
    return .ok
  }
}
