import Foundation
import RoutineCore
import RoutineStore

/// `routine await-answer ID --occurrence TIME -- PROGRAM ARGS...`: routine's own plumbing for
/// the notify-send sink. Runs the program (`notify-send --wait ...`), and answers the action it
/// prints. Started detached, with nobody to read its output: a failure is recorded with the
/// delivery, where 'routine history' shows it.
enum AwaitAnswerCommand: Command {
  static let spec = CommandSpec(
    name: "await-answer",
    summary:
      "Wait for a desktop notification's button and answer it (started by the notify-send sink).",
    arguments: [
      ArgumentSpec("ID", "The notification's identifier."),
      ArgumentSpec("COMMAND", "The program that waits and prints the action.", repeatable: true),
    ],
    options: [occurrence.spec],
    globals: ["store", "now", "tz"], isHidden: true)

  /// `--occurrence TIME`: the firing, as delivery stamps it (ISO 8601 with offset).
  static let occurrence = RespondCommand.occurrence.describing("The firing.")

  static func run(_ context: Context) throws -> ExitCode {
    let words = context.arguments.arguments
    let id = words[0]
    guard words.count >= 2 else { throw UsageError("missing COMMAND", command: spec.name) }
    let occurrence = context.arguments.text(Self.occurrence).flatMap(Timestamp.init(iso8601:))
    let firing = occurrence.map { Occurrence(requestID: id, at: $0.secondsSince1970) }
    let result: ChildProcess.Finished
    do {
      result = try ChildProcess.run(
        words[1], Array(words.dropFirst(2)), environment: context.environment.variables,
        input: Data(), timeout: 7 * 86_400)
    } catch {
      if let firing {
        try context.openStore().noteDelivery(
          firing, "\(words[1]) failed: \(ErrorReport.describe(error).1)", outcome: .failed)
      }
      throw error
    }
    guard result.status == 0 else {
      // The notification was never shown (no daemon, a bad argument): history says so.
      let detail = result.errors.split(separator: "\n").first.map(String.init) ?? ""
      if let firing {
        try context.openStore().noteDelivery(
          firing,
          "\((words[1] as NSString).lastPathComponent) exited with status \(result.status)"
            + (detail.isEmpty ? "" : ": \(detail)"), outcome: .failed)
      }
      return .ioError
    }
    let action = result.output.split(separator: "\n").first.map {
      $0.trimmingBlanks
    }
    guard let action, !action.isEmpty else { return .ok }
    let store = try context.openStore()
    // The person answered now, whatever --now the delivery ran with.
    let now = Int64(context.environment.clock().timeIntervalSince1970.rounded(.down))
    for attempt in 0..<5 {
      do {
        _ = try Responder(store: store, context: context).answer(
          id: id, action: action, occurrence: occurrence?.secondsSince1970, now: now)
        return .ok
      } catch let error as StoreError where attempt < 4 && error.isBusy {
        continue
      }
    }
    return .ok
  }
}
