import Foundation
import RoutineCore
import RoutineStore

/// `routine backup FILE [--force]`: a consistent copy of the whole store.
enum BackupCommand: Command {
  static let spec = CommandSpec(
    name: "backup",
    summary: "Copy the whole store to FILE, safely while others write to it.",
    discussion: """
      The copy holds everything: events, reminders, habits, tasks, settings and history, as of
      one instant; other routine processes go on writing meanwhile. It is checked (SQLite's
      integrity check) and put in place only when complete, readable by you only. An existing
      FILE is kept unless --force is given. Use the copy as the store (--store FILE or
      ROUTINE_STORE) to restore it, or copy it over the store while no routine runs.
      """,
    arguments: [ArgumentSpec("FILE", "Where to write the copy.", completes: .file)],
    options: [force],
    globals: ["store"])

  /// `--force`.
  static let force = OptionSpec.flag("force", "Replace FILE if it exists.")

  static func run(_ context: Context) throws -> ExitCode {
    guard context.arguments.arguments.count == 1, let path = context.arguments.arguments.first
    else {
      throw UsageError(
        "expected one FILE to write the copy to, found \(context.arguments.arguments.count)",
        command: spec.name)
    }
    guard !path.isEmpty, path != "-" else {
      throw UsageError(
        "FILE: expected the path of a new file, found '\(path)' (a backup is a database file, not a stream)",
        command: spec.name)
    }
    try context.refuseStoreFile(path, option: "FILE", command: spec.name)
    let storePath = try context.storePath()
    guard let store = try context.openExistingStore() else {
      throw CommandError(
        .noInput, "there is no store at '\(context.displayPath(storePath))' to back up")
    }
    try store.backup(to: path, replacing: context.arguments.flag(force))
    context.output.line(
      "Backed up '\(context.displayPath(storePath))' to '\(context.displayPath(path))'.")
    return .ok
  }
}
