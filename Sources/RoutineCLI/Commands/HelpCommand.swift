/// `routine help [COMMAND...]`
enum HelpCommand: Command {
  static let spec = CommandSpec(
    name: "help", summary: "Show help for routine or for one command.",
    arguments: [
      ArgumentSpec(
        "COMMAND", "The command to explain (with its subcommand: 'events delete').",
        required: false, repeatable: true)
    ],
    options: [
      .flag("man", "Print the manual page, routine(1), in roff (what docs/routine.1 holds).")
    ], globals: [])

  static func run(_ context: Context) throws -> ExitCode {
    if context.arguments.flag("man") {
      guard context.arguments.arguments.isEmpty else {
        throw UsageError("--man prints the whole manual: leave out COMMAND", command: spec.name)
      }
      context.output.write(ManPage.render(RoutineCLI.parser.commands, version: RoutineCLI.version))
      return .ok
    }
    guard !context.arguments.arguments.isEmpty else {
      context.output.write(HelpFormatter.overview(RoutineCLI.parser.commands))
      return .ok
    }
    let name = context.arguments.arguments.joined(separator: " ")
    // A topic, not a command: the grammar every time option shares.
    if name.lowercased() == "dates" {
      context.output.write(TimeArgument.helpText)
      return .ok
    }
    guard let command = RoutineCLI.parser.command(named: name) else {
      let names = RoutineCLI.parser.commands.flatMap(\.allCommands).map(\.name)
      let hint = Suggestion.clause(for: name, among: names)
      throw UsageError("unknown command '\(name)'\(hint.isEmpty ? "; see 'routine help'" : hint)")
    }
    context.output.write(HelpFormatter.help(for: command))
    return .ok
  }
}
