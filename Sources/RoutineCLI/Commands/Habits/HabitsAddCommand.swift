import Foundation
import RoutineCore
import RoutineStore

/// `routine habits add NAME [--days LIST] [--window HH:MM-HH:MM] [--repeat ...] [--day N]`
enum HabitsAddCommand: Command {
  static let spec = CommandSpec(
    name: "habits add", summary: "Define a habit.",
    arguments: [
      ArgumentSpec("NAME", "The habit, as you will log it (\"Stretch\").", repeatable: true)
    ],
    options: HabitOptions.options, globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    guard let name = EventKind(context.arguments.arguments.joined(separator: " ")) else {
      throw UsageError("NAME is empty", command: spec.name)
    }
    var habit = Habit(id: "", name: name)
    try HabitOptions.apply(context, to: &habit)
    try context.writing { store, _, _ in
      if try store.habit(id: name.name) != nil {
        throw CommandError(
          .dataError, "there is a habit '\(name.name)' already; 'routine habits edit' changes it")
      }
      let added = try store.addHabit(habit)
      if context.isJSON {
        context.output.line(JSON.object([("id", .string(added.id))]).serialized())
      } else {
        context.output.line(
          "Added \(added.id): \(TerminalText.escaped(name.name)), \(HabitsCommand.pattern(added)).")
      }
      try context.output.deliver()
    }
    return .ok
  }

  /// `07:00-07:30` as a range, or the error `problem` makes of a message.
  /// What is wrong with a habit's time window, as the end of a sentence.
  struct WindowProblem: Error { var message: String }

  /// Reads `HH:MM-HH:MM`; shared by `--window` and the definitions JSON.
  static func window(_ text: String) -> Result<ClosedRange<TimeOfDay>, WindowProblem> {
    let parts = text.split(separator: "-").map(String.init)
    guard parts.count == 2, let start = TimeArgument.minuteTime(parts[0]),
      let end = TimeArgument.minuteTime(parts[1])
    else { return .failure(WindowProblem(message: "expected HH:MM-HH:MM, found '\(text)'")) }
    guard start <= end else {
      return .failure(WindowProblem(message: "expected the start before the end, found '\(text)'"))
    }
    return .success(start...end)
  }
}
