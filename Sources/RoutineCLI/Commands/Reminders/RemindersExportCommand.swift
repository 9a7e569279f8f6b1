import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders export [--output FILE]`
enum RemindersExportCommand: Command {
  static let spec = CommandSpec(
    name: "reminders export",
    summary: "Write every reminder, habit and task definition as JSON.",
    discussion: "The format is in docs/formats.md; 'routine reminders import' reads it back.",
    options: [output.spec],
    globals: ["store", "tz"], jsonNote: "its output is JSON already (docs/formats.md)")

  /// `--output FILE`.
  static let output = CommonOptions.output.describing(
    "Write to FILE instead of stdout (replaced atomically; a new file is readable by you only).")

  static func run(_ context: Context) throws -> ExitCode {
    let store = try context.openExistingStore()
    let zone =
      (try? context.userTimeZone(try store?.settings() ?? PlannerSettings()))
      ?? Zone.utc
    let document =
      JSON.object([
        ("format", .string("routine-definitions")), ("version", .integer(1)),
        ("habits", .array(try (store?.habits() ?? []).map(Definitions.habitJSON))),
        ("tasks", .array(try (store?.tasks() ?? []).map { Definitions.taskJSON($0, zone: zone) })),
        ("reminders", .array(try (store?.reminders() ?? []).map(ReminderFormatting.json))),
      ]).serialized() + "\n"
    if let path = try context.outputPath(command: spec.name, option: output) {
      // The store's data, as private as the store (0600); an existing file keeps its mode.
      let writer = try FileWriter(path: path, newFileMode: 0o600)
      try writer.write(document)
      try writer.finish()
    } else {
      context.output.writeVerbatim(document)
    }
    return .ok
  }
}
