import Foundation
import RoutineCore
import RoutineStore

/// `routine tasks list`: the same as `routine tasks`.
enum TasksListCommand: Command {
  static let spec = CommandSpec(
    name: "tasks list", summary: "The same as 'routine tasks': list your tasks.")

  static func run(_ context: Context) throws -> ExitCode { try TasksCommand.run(context) }
}
