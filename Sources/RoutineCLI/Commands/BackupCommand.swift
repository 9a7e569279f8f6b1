import Foundation
import RoutineCore
import RoutineStore

/// `routine backup FILE`: a consistent copy of the whole store.
enum BackupCommand: Command {
  static let spec = CommandSpec(
    name: "backup",
    summary: "Copy the whole store to FILE, safely while others write to it.",
    discussion: """
      The copy holds everything: events, reminders, habits, tasks, settings and history. Use it
      as the store (--store FILE or ROUTINE_STORE) to restore it.
      """,
    arguments: [ArgumentSpec("FILE", "Where to write the copy.")],
    globals: ["store"])

  static func run(_ context: Context) throws -> ExitCode {
    throw UsageError("backup is not written yet", command: context.command)
  }
}
