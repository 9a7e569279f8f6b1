import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders list`: the same as `routine reminders`.
enum RemindersListCommand: Command {
  static let spec = CommandSpec(
    name: "reminders list", summary: "The same as 'routine reminders': list your reminders.",
    options: [RemindersCommand.all] + ListingOptions.specs)

  static func run(_ context: Context) throws -> ExitCode { try RemindersCommand.run(context) }
}
