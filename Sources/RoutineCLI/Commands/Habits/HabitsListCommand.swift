import Foundation
import RoutineCore
import RoutineStore

/// `routine habits list`: the same as `routine habits`.
enum HabitsListCommand: Command {
  static let spec = CommandSpec(
    name: "habits list", summary: "The same as 'routine habits': list your habits.",
    globals: ["store", "json"])

  static func run(_ context: Context) throws -> ExitCode { try HabitsCommand.run(context) }
}
