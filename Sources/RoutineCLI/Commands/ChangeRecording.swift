import Foundation
import RoutineCore
import RoutineStore

/// Which commands record their changes for `routine undo` (docs/cli.md, "Undo").
enum ChangeRecording {
  /// The commands whose writes are a user's change. Not recorded: `plan`, `deliver`, `watch`
  /// and `clear` (the planner's requests and delivery history, rebuilt or written as
  /// notifications fire), `backup`, and `undo` itself.
  static let commands: Set<String> = [
    "log", "import", "events delete", "kinds rename", "settings", "respond", "await-answer",
    "reminders add", "reminders edit", "reminders remove", "reminders enable",
    "reminders disable", "reminders import", "reminders restore", "reminders adapt",
    "reminders resume", "habits add", "habits edit", "habits remove", "tasks add",
    "tasks edit", "tasks done", "tasks remove",
  ]

  /// Options left out of the command line `undo --list` shows: they say where and how, not
  /// what changed.
  private static let unshown: Set<String> = ["store", "now", "json", "yes", "color", "no-pager"]

  /// The command line as `undo --list` shows it: the command, its arguments, then its options.
  static func commandLine(_ arguments: ParsedArguments) -> String {
    var words = [arguments.command ?? ""] + arguments.arguments.map(shown)
    for name in arguments.options.keys.sorted() where !unshown.contains(name) {
      for value in arguments.options[name] ?? [] {
        words.append(value.isEmpty ? "--\(name)" : "--\(name) \(shown(value))")
      }
    }
    return words.joined(separator: " ")
  }

  private static func shown(_ word: String) -> String {
    guard word.isEmpty || word.contains(where: { " '\"\\$`".contains($0) }) else { return word }
    // Double quotes, so that the line reads well inside the single quotes undo puts around it.
    var quoted = "\""
    for character in word {
      if "\"\\$`".contains(character) { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "\""
  }
}

extension Context {
  /// `store`, recording its changes when this command's writes are a user's change.
  @discardableResult
  func recordingChanges(_ store: EventStore) throws -> EventStore {
    guard let command, ChangeRecording.commands.contains(command) else { return store }
    try store.recordChanges(
      as: ChangeRecording.commandLine(arguments), run: changeRun, at: try nowSeconds())
    return store
  }
}
