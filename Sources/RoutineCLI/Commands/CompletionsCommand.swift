import RoutineCore
import RoutineStore

/// `routine completions bash|zsh|fish`
enum CompletionsCommand: Command {
  static let spec = CommandSpec(
    name: "completions", summary: "Print the shell completion script for bash, zsh or fish.",
    discussion: """
      Commands, subcommands, options and the values an option lists complete from the same
      declarations as this help; reminder ids, event kinds, habits, tasks and zone names from the
      store and the zone database, when the cursor is on one. docs/completions.md says where each
      shell looks for the script.
      """,
    arguments: [ArgumentSpec("bash|zsh|fish", "The shell.")], globals: [],
    jsonNote: "it prints a shell script")

  static func run(_ context: Context) throws -> ExitCode {
    let shell = context.arguments.arguments[0]
    guard let script = ShellCompletion.script(for: shell, commands: RoutineCLI.parser.commands)
    else {
      throw UsageError("expected bash, zsh or fish, found '\(shell)'", command: spec.name)
    }
    // Verbatim: fish reads a tab between a candidate and its description.
    context.output.writeVerbatim(script)
    return .ok
  }
}

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
    guard let source = CompletionSource(rawValue: name), source != .file else {
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
      case .zone, .file: return []
      }
    }
  }
}
