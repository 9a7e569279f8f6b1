import Foundation
import RoutineCore
import RoutineStore

/// The `--sink` and `--exec` options, shared by `deliver` and `watch`.
enum SinkOptions {
  /// `--sink stdout|exec|notify-send`.
  static let sink = Option<SinkKind>(
    "sink", .oneOf(),
    "Where notifications go: JSON lines on stdout (default), a command, or the desktop.")
  /// `--exec CMD`.
  static let exec = Option(
    "exec", .text("CMD"),
    "With --sink exec: the command to run for each notification (sh -c CMD; the notification in ROUTINE_* variables and as JSON on stdin)."
  )
  /// Both, as `deliver` and `watch` declare them.
  static let options = [sink.spec, exec.spec]

  /// The sink the options name.
  static func sink(_ context: Context) throws -> NotificationSink {
    let kind = try context.arguments.value(sink) ?? .stdout
    let command = context.arguments.text(exec)
    if command != nil, kind != .exec {
      throw UsageError("--\(exec.name) goes with --\(sink.name) exec", command: context.command)
    }
    switch kind {
    case .stdout:
      return StandardOutputSink(output: context.output)
    case .exec:
      guard let command, !command.isEmpty else {
        throw UsageError(
          "--\(sink.name) exec needs --\(exec.name) CMD", command: context.command)
      }
      return ExecSink(
        command: command, environment: context.environment.variables, errors: context.errors)
    case .notifySend:
      return try NotifySendSink.make(
        environment: context.environment.variables, storePath: try context.storePath())
    }
  }
}
