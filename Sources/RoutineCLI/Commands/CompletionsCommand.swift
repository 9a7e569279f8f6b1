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
