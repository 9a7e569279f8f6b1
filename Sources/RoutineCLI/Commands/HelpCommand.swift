/// `routine help [COMMAND...]`
enum HelpCommand: Command {
  static let spec = CommandSpec(
    name: "help", summary: "Show help for routine or for one command.",
    arguments: [
      ArgumentSpec(
        "COMMAND", "The command to explain (with its subcommand: 'events delete'), or a topic.",
        required: false, repeatable: true, completes: .command)
    ],
    options: [man], globals: [])

  /// `--man`.
  static let man = OptionSpec.flag(
    "man", "Print the manual page, routine(1), in roff (what docs/routine.1 holds).")

  static func run(_ context: Context) throws -> ExitCode {
    if context.arguments.flag(man) {
      guard context.arguments.arguments.isEmpty else {
        throw UsageError(
          "--\(man.name) prints the whole manual: leave out COMMAND", command: spec.name)
      }
      context.output.write(ManPage.render(RoutineCLI.parser.commands, version: RoutineCLI.version))
      return .ok
    }
    guard !context.arguments.arguments.isEmpty else {
      context.output.write(HelpFormatter.overview(RoutineCLI.parser.commands))
      return .ok
    }
    let name = context.arguments.arguments.joined(separator: " ")
    // A topic, not a command (the grammar every time option shares).
    if let topic = HelpTopic.named(name) {
      context.output.write(topic.text)
      return .ok
    }
    guard let command = RoutineCLI.parser.command(named: name) else {
      let names =
        RoutineCLI.parser.commands.flatMap(\.allCommands).map(\.name) + HelpTopic.all.map(\.name)
      let hint = Suggestion.clause(for: name, among: names)
      throw UsageError("unknown command '\(name)'\(hint.isEmpty ? "; see 'routine help'" : hint)")
    }
    context.output.write(HelpFormatter.help(for: command))
    return .ok
  }
}
