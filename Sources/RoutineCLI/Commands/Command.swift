/// A command: its declaration and what it does.
protocol Command: Sendable {
  /// The declaration parsing and help come from.
  static var spec: CommandSpec { get }
  /// Runs the command. Throws for failures; returns a non-zero status for partial failures
  /// that were already reported.
  static func run(_ context: Context) throws -> ExitCode
}
