import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders disable ID`
enum RemindersDisableCommand: Command {
  static let spec = CommandSpec(
    name: "reminders disable", summary: "Turn a reminder off (its definition stays).",
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try RemindersEnableCommand.toggle(context, on: false)
  }
}
