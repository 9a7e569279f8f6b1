import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders edit ID [options]`
enum RemindersEditCommand: Command {
  static let spec = CommandSpec(
    name: "reminders edit",
    summary: "Change a reminder: any option of 'reminders add'.",
    discussion: """
      Changes only what is given. Its cancellations are dropped (its times may have changed); the
      next logged activity cancels anew.
      """,
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    options: ReminderOptions.options)

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.requireNow()
    var warning: String?
    try context.writing { store, settings, zone in
      guard let existing = try store.reminder(id: id) else {
        throw unknownReminder(id, store: store)
      }
      var reminder = try ReminderOptions.apply(
        context, to: existing, store: store, zone: zone, now: now)
      let wasEnabled = reminder.isEnabled
      try RemindersAddCommand.check(
        &reminder, store: store, clock: context.clockStyle(settings), warning: &warning,
        now: Int64(now.timeIntervalSince1970.rounded(.down)), zone: zone)
      if !reminder.isEnabled, wasEnabled, warning == nil { reminder.isEnabled = true }
      try store.updateReminder(reminder, now: Int64(now.timeIntervalSince1970))
      if context.isJSON {
        context.output.line(ReminderFormatting.json(reminder).serialized())
      } else {
        context.output.line(
          "Changed \(id): \(ReminderFormatting.schedule(reminder, habit: nil, task: nil))"
            + (reminder.isEnabled ? "." : " (disabled)."))
      }
      try context.output.deliver()
    }
    if let warning { context.warn(warning) }
    return .ok
  }
}
