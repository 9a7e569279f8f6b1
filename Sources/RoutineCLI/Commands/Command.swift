/// A command: its declaration and what it does.
protocol Command: Sendable {
  /// The declaration parsing and help come from.
  static var spec: CommandSpec { get }
  /// The commands under this one (`events delete` under `events`), each listed only here: the
  /// spec's `subcommands` and the flat list dispatch searches are both derived from it.
  static var subcommands: [any Command.Type] { get }
  /// Runs the command. Throws for failures; returns a non-zero status for partial failures
  /// that were already reported.
  static func run(_ context: Context) throws -> ExitCode
}

extension Command {
  /// Most commands have none.
  static var subcommands: [any Command.Type] { [] }
}
