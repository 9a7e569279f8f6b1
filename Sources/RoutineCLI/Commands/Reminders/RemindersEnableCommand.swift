import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders enable ID` and `disable ID`.
enum RemindersEnableCommand: Command {
  static let spec = CommandSpec(
    name: "reminders enable", summary: "Turn a reminder on.",
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode { try toggle(context, on: true) }

  static func toggle(_ context: Context, on: Bool) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    var warning: String?
    try context.writing { store, settings, _ in
      guard var reminder = try store.reminder(id: id) else {
        throw unknownReminder(id, store: store)
      }
      reminder.isEnabled = on
      if on {
        try RemindersAddCommand.check(
          &reminder, store: store, clock: context.clockStyle(settings), warning: &warning)
      }
      try store.updateReminder(reminder, now: now)
      if context.isJSON {
        context.output.line(ReminderFormatting.json(reminder).serialized())
      } else {
        context.output.line(
          reminder.isEnabled == on
            ? "\(id) is \(on ? "on" : "off")." : "\(id) stays off.")
      }
      try context.output.deliver()
    }
    if let warning { context.warn(warning) }
    return .ok
  }
}
