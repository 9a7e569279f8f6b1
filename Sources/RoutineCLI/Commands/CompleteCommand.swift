import RoutineCore
import RoutineStore

/// `routine __complete SOURCE`: the values the completion scripts offer from the store and the
/// zone database, one a line. Runs on every Tab, so it reads only what it prints, never creates
/// the store, and says nothing at all when it cannot answer (a missing or damaged store).
enum CompleteCommand: Command {
  static let spec = CommandSpec(
    name: "__complete",
    summary: "Print the values a completion script offers (reminders, kinds...).",
    arguments: [ArgumentSpec("reminders|kinds|habits|tasks|zones", "What to list.")],
    globals: ["store"], isHidden: true)

  static func run(_ context: Context) throws -> ExitCode {
    let name = context.arguments.arguments[0]
    guard let source = CompletionSource(rawValue: name), source != .file, source != .command else {
      throw UsageError(
        "expected reminders, kinds, habits, tasks or zones, found '\(name)'", command: spec.name)
    }
    // A value on two lines would complete as two; a shell could not insert it anyway.
    for value in (try? values(of: source, context)) ?? [] where !value.contains(where: \.isNewline)
    {
      context.output.line(value)
    }
    return .ok
  }

  private static func values(of source: CompletionSource, _ context: Context) throws -> [String] {
    if source == .zone {
      let names = context.zoneDatabase.names
      return names.contains("UTC") ? names : names + ["UTC"]
    }
    guard let store = try context.openExistingStore() else { return [] }
    return try store.read {
      switch source {
      case .reminder: return try store.reminders().map(\.id)
      case .kind: return try store.kinds().values.map(\.name).sorted()
      case .habit: return try store.habits().map(\.name.name)
      case .task: return try store.tasks().map(\.name.name)
      case .zone, .file, .command: return []
      }
    }
  }
}
