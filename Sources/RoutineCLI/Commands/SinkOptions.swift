import Foundation
import RoutineCore
import RoutineStore

/// The `--sink` and `--exec` options, shared by `deliver` and `watch`.
enum SinkOptions {
  static let options: [OptionSpec] = [
    .value(
      "sink", "stdout|exec|notify-send",
      "Where notifications go: JSON lines on stdout (default), a command, or the desktop."),
    .value(
      "exec", "CMD",
      "With --sink exec: the command to run for each notification (sh -c CMD; the notification in ROUTINE_* variables and as JSON on stdin)."
    ),
  ]

  /// The sink the options name.
  static func sink(_ context: Context) throws -> NotificationSink {
    let name = context.arguments.value("sink") ?? SinkKind.stdout.rawValue
    guard let kind = SinkKind(rawValue: name) else {
      let names = SinkKind.allCases.map(\.rawValue)
      throw UsageError(
        "--sink: expected \(names.dropLast().joined(separator: ", ")) or \(names.last!), found '\(name)'"
          + Suggestion.clause(for: name, among: names),
        command: context.command)
    }
    let command = context.arguments.value("exec")
    if command != nil, kind != .exec {
      throw UsageError("--exec goes with --sink exec", command: context.command)
    }
    switch kind {
    case .stdout:
      return StandardOutputSink(output: context.output)
    case .exec:
      guard let command, !command.isEmpty else {
        throw UsageError("--sink exec needs --exec CMD", command: context.command)
      }
      return ExecSink(
        command: command, environment: context.environment.variables, errors: context.errors)
    case .notifySend:
      return try NotifySendSink.make(
        environment: context.environment.variables, storePath: try context.storePath())
    }
  }
}
