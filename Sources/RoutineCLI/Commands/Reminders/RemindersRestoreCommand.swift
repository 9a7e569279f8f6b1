import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders restore ID [--request REQUEST]`
enum RemindersRestoreCommand: Command {
  static let spec = CommandSpec(
    name: "reminders restore",
    summary: "Undo the cancellations of a reminder: its skipped firings happen after all.",
    discussion: """
      A firing cancelled because its activity was logged fires again, whatever the log says
      (the design's open question 4, answered yes). --request restores one day's only.
      """,
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    options: [request.spec], globals: ["store", "now", "tz", "json"])

  /// `--request REQUEST`.
  static let request = Option(
    "request", .text("REQUEST"), "Only this request's firing (reminder-N-weekday-D).")

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    try context.writing { store, _, _ in
      guard try store.reminder(id: id) != nil else { throw unknownReminder(id, store: store) }
      if let request = context.arguments.text(request) {
        let own = try store.pendingRequests(clock: context.clockStyle(try store.settings()))
          .filter { $0.metadata?.reminderID == id }.map(\.id)
        guard own.contains(request) else {
          throw CommandError(
            .dataError,
            "\(id) has no request '\(request)'"
              + (Suggestion.nearest(to: request, among: own).map { "; did you mean '\($0)'?" }
                ?? "; 'routine reminders show \(id)' lists its requests"))
        }
      }
      let restored = try store.restoreCancellations(
        reminderID: id, requestID: context.arguments.text(request), now: now)
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(id)), ("restored", .integer(restored))]).serialized()
          : restored == 0
            ? "\(id) has no cancelled firing ahead; nothing changed."
            : "Restored \(counted(restored, "firing")) of \(id).")
      try context.output.deliver()
    }
    return .ok
  }
}
