import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders resume ID`
enum RemindersResumeCommand: Command {
  static let spec = CommandSpec(
    name: "reminders resume",
    summary: "Bring a paused or backing-off reminder back to full dose now.",
    discussion: """
      A reminder pauses while you keep its habit on your own, and backs off when ignored
      (docs/reminders.md). This brings it back at once: it fires every day it is on again, and
      only the days from now on count towards its next pause. ID is a reminder you defined
      (reminder-N) or a learned one (routine_WakeUp, as 'routine reminders' lists it).
      """,
    arguments: [
      ArgumentSpec("ID", "The reminder (reminder-N or routine_Kind).", completes: .reminder)
    ],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    try context.writing { store, settings, zone in
      let key = try RemindersAdaptCommand.key(
        id, store: store, settings: settings, context: context)
      let record = try store.adaptation(key: key)
      guard let record, record.state != .active else {
        context.output.line(
          context.isJSON
            ? JSON.object([
              ("id", .string(key)), ("was", .string(AdaptationRecord.State.active.rawValue)),
              ("state", .string(AdaptationRecord.State.active.rawValue)),
            ]).serialized()
            : "\(key) is neither paused nor backing off; nothing changed."
              + (try LearnedPause.message(store).map {
                " (Learned reminders are paused for another reason: \($0); log an event to bring them back.)"
              } ?? ""))
        try context.output.deliver()
        return
      }
      try store.resumeAdaptation(key: key, at: now)
      // A learned reminder's request was planned paused (a check-in): plan again so that it
      // fires at its time from now on.
      if try store.reminder(id: key) == nil {
        _ = try PlanCommand.plan(
          store, settings: settings, zone: zone, now: Date(timeIntervalSince1970: Double(now)),
          dryRun: false, context: context)
      }
      context.output.line(
        context.isJSON
          ? JSON.object([
            ("id", .string(key)), ("was", .string(record.state.rawValue)),
            ("state", .string(AdaptationRecord.State.active.rawValue)),
          ]).serialized()
          : "Resumed \(key) (it was \(record.stateText)): it fires every day it is on again.")
      try context.output.deliver()
    }
    return .ok
  }
}
