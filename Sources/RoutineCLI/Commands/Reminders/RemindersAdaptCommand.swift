import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders adapt ID auto|on|off`
enum RemindersAdaptCommand: Command {
  static let spec = CommandSpec(
    name: "reminders adapt",
    summary: "Turn a reminder's adaptation to your answers on or off.",
    discussion: """
      on: its time follows your answers (30 minutes at most), it backs off when ignored and
      pauses while you keep the habit on your own; off: it fires exactly as defined or learned;
      auto: a learned reminder adapts fully, one you defined only backs off. Alarms and task
      reminders never adapt. ID is a reminder you defined (reminder-N) or a learned one
      (routine_WakeUp). 'routine settings --adapt false' turns adaptation off for all.
      """,
    arguments: [
      ArgumentSpec("ID", "The reminder (reminder-N or routine_Kind).", completes: .reminder),
      ArgumentSpec("MODE", "auto, on or off."),
    ],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let text = context.arguments.arguments[1]
    guard let mode = AdaptationMode(rawValue: text.lowercased()) else {
      throw UsageError("MODE: expected auto, on or off, found '\(text)'", command: spec.name)
    }
    let now = try context.nowSeconds()
    try context.writing { store, settings, zone in
      let key = try key(id, store: store, settings: settings, context: context)
      if let reminder = try store.reminder(id: key) {
        // Its time and days stay as they were: no cancellation is lost by this change.
        try store.setAdaptMode(of: reminder.id, mode)
      } else {
        guard mode != .on else {
          throw CommandError(
            .dataError,
            "\(key) is learned: it adapts fully unless off ('auto' brings that back)")
        }
        try store.setAdaptationMode(key: key, mode, at: now)
        _ = try PlanCommand.plan(
          store, settings: settings, zone: zone, now: Date(timeIntervalSince1970: Double(now)),
          dryRun: false, context: context)
      }
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(key)), ("adapt", .string(mode.rawValue))]).serialized()
          : "\(key) adapts: \(mode.rawValue)"
            + (settings.adapts
              ? "." : " (adaptation is off for all: 'routine settings --adapt true').")
      )
      try context.output.deliver()
    }
    return .ok
  }

  /// The reminder `id` names: a reminder you defined, or a learned one by its key or by one of
  /// its requests (`routine_WakeUp-weekday-2` is `routine_WakeUp`).
  static func key(_ id: String, store: EventStore, settings: PlannerSettings, context: Context)
    throws -> String
  {
    if try store.reminder(id: id) != nil { return id }
    let learned = try store.requests().filter { $0.origin == .learned }
    let key = NotificationRequest.key(ofLearned: id)
    if learned.contains(where: { $0.adaptationKey == key }) { return key }
    if try store.adaptation(key: key) != nil { return key }
    let known =
      (try store.reminders().map(\.id)) + Array(Set(learned.compactMap(\.adaptationKey)))
    throw CommandError(
      .dataError,
      "there is no reminder '\(id)'"
        + (Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" }
          ?? "; 'routine reminders' lists them"))
  }
}
