import Foundation
import RoutineCore
import RoutineStore

/// `routine habits edit NAME [--name NEW] [options]`
enum HabitsEditCommand: Command {
  static let spec = CommandSpec(
    name: "habits edit", summary: "Change a habit; its reminders follow.",
    arguments: [ArgumentSpec("HABIT", "The habit's name or id.", completes: .habit)],
    options: [name.spec] + HabitOptions.options, globals: ["store", "json"])

  /// `--name NAME`.
  static let name = Option("name", .text("NAME"), "A new name.")

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    try context.writing { store, _, _ in
      guard var habit = try store.habit(id: id) else {
        throw CommandError(.dataError, "there is no habit '\(id)'; 'routine habits' lists them")
      }
      if let text = context.arguments.text(name) {
        guard let name = EventKind(text) else {
          throw UsageError("--name: the name is empty", command: spec.name)
        }
        habit.name = name
      }
      try HabitOptions.apply(context, to: &habit)
      try store.updateHabit(habit)
      context.output.line(
        context.isJSON
          ? Definitions.habitJSON(habit).serialized()
          : "Changed \(habit.id): \(TerminalText.escaped(habit.name.name)), \(HabitsCommand.pattern(habit))."
      )
      // A reminder the change leaves unable to fire (its window gone) is disabled, as one
      // without days is: what is enabled can fire, so an export of it imports back as it is.
      let planner = ReminderPlanner(clock: context.clockStyle(try store.settings()))
      for reminder in try store.reminders() where reminder.link == habit.id && reminder.isEnabled {
        do {
          _ = try planner.requests(for: reminder, habit: habit, task: nil)
        } catch {
          var disabled = reminder
          disabled.isEnabled = false
          _ = try store.updateReminder(disabled, now: try context.nowSeconds())
          context.warn(
            "\(reminder.id) is disabled: \(error); 'routine reminders enable \(reminder.id)' once the habit allows it"
          )
        }
      }
      try context.output.deliver()
    }
    return .ok
  }
}
