import Foundation
import RoutineCore
import RoutineStore

/// `routine habits`
enum HabitsCommand: Command {
  static let subcommands: [any Command.Type] = [
    HabitsListCommand.self, HabitsAddCommand.self, HabitsEditCommand.self, HabitsRemoveCommand.self,
  ]
  static let spec = CommandSpec(
    name: "habits",
    summary: "List your habits: their days, time windows and reminders.",
    discussion: """
      A habit is something done on certain days, perhaps within a time window. Logging an event
      named like the habit counts as doing it: its reminders stay quiet that day.
      'routine reminders add --habit NAME' reminds of it.
      """,
    globals: ["store", "json"],
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openExistingStore()
    let habits = try store?.habits() ?? []
    let reminders = try store?.reminders() ?? []
    if context.isJSON {
      context.output.line(
        JSON.object([("habits", .array(habits.map(Definitions.habitJSON)))]).serialized())
      return .ok
    }
    guard !habits.isEmpty else {
      context.output.line("No habits yet: 'routine habits add NAME' defines one.")
      return .ok
    }
    for habit in habits {
      let linked = reminders.filter { $0.link == habit.id }.map(\.id)
      context.output.line(
        "  \(habit.id)  \(TerminalText.escaped(habit.name.name))  \(pattern(habit))"
          + (linked.isEmpty ? "" : "  reminders: \(linked.joined(separator: ", "))"))
    }
    return .ok
  }

  /// `daily`, `weekly mon,wed`, `monthly on the 1st`, with the window.
  static func pattern(_ habit: Habit) -> String {
    var text: String
    switch habit.repetition {
    case .weekly: text = "weekly \(habit.weekdays)"
    case .monthly: text = "monthly on day \(habit.dayOfMonth ?? 1)"
    default: text = "daily"
    }
    if let window = habit.window { text += ", \(window.lowerBound)-\(window.upperBound)" }
    return text
  }
}
