import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders show ID`
enum RemindersShowCommand: Command {
  static let spec = CommandSpec(
    name: "reminders show",
    summary: "Show a reminder: its definition, requests, next firings and cancellations.",
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    return try context.reading { store, settings, zone in
      guard let store, let reminder = try store.reminder(id: id) else {
        throw unknownReminder(id, store: store)
      }
      let clock = context.clockStyle(settings)
      let habit = try reminder.link.flatMap { try store.habit(id: $0) }
      let task = try reminder.link.flatMap { try store.task(id: $0) }
      let requests = try? ReminderPlanner(clock: clock).requests(
        for: reminder, habit: habit, task: task)
      let skips = try Skips(
        store: store, requests: requests ?? [], now: now, zone: zone, clock: clock)
      let upcoming = Agenda.items(
        for: reminder.isEnabled ? requests ?? [] : [], from: now, to: now + 8 * 86_400, in: zone
      )
      .prefix(7)
      let cancellations = try store.cancellations(from: now - 86_400).filter {
        $0.cancellation.reminderID == id
      }
      if context.isJSON {
        guard case .object(var members) = ReminderFormatting.json(reminder) else { return .ok }
        members += [
          (
            "requests",
            .array((requests ?? []).map { RequestFormatting.json($0, now: now, in: zone) })
          ),
          (
            "upcoming",
            .array(
              upcoming.map { item in
                .object([
                  ("at", .string(TimeArgument.stamp(item.at, zone).iso8601)),
                  ("id", .string(item.request.id)),
                  ("skipped", .optional(skips.reason(item.request, at: item.firing))),
                ])
              })
          ),
          (
            "cancellations",
            .array(
              cancellations.map { stored in
                .object([
                  ("id", .string(stored.cancellation.occurrence.requestID)),
                  (
                    "at",
                    .string(TimeArgument.stamp(stored.cancellation.occurrence.at, zone).iso8601)
                  ),
                  (
                    "reason",
                    .string(
                      ForwardCheck.reason(
                        kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt,
                        clock: clock))
                  ),
                  ("restored", .bool(stored.restoredAt != nil)),
                ])
              })
          ),
        ]
        context.output.line(JSON.object(members).serialized())
        return .ok
      }
      let output = context.output
      output.line(
        "\(reminder.id): \(TerminalText.escaped(ReminderFormatting.subject(reminder, habit: habit, task: task)))"
      )
      output.line(
        "  kind        \(reminder.kind.rawValue)\(reminder.preset.map { " (\($0.rawValue))" } ?? "")"
      )
      output.line(
        "  schedule    \(ReminderFormatting.schedule(reminder, habit: habit, task: task))")
      output.line("  repeats     \(ReminderFormatting.isRepeating(reminder) ? "yes" : "no, once")")
      output.line("  style       \(reminder.style.rawValue)")
      output.line("  enabled     \(reminder.isEnabled ? "yes" : "no")")
      if let first = requests?.first {
        output.line("  title       \(TerminalText.escaped(first.title))")
        output.line("  message     \(TerminalText.escaped(first.body))")
        output.line(
          "  actions     \(NotificationCategory.category(first.category).actionIDs.joined(separator: ", "))"
        )
      }
      if let link = habit?.name.name ?? task?.name.name {
        output.line("  linked to   \(TerminalText.escaped(link)) (\(reminder.link ?? ""))")
      }
      let ids = (requests ?? []).map(\.id)
      output.line("  requests    \(ids.isEmpty ? "none" : ids.joined(separator: ", "))")
      if upcoming.isEmpty {
        output.line("  next        \(reminder.isEnabled ? "no further firing" : "none: disabled")")
      }
      for item in upcoming {
        var line =
          "  next        \(EventFormatting.localDateTime(TimeArgument.stamp(item.at, zone)))"
        if let reason = skips.reason(item.request, at: item.firing) {
          line += " skipped: \(TerminalText.escaped(reason))"
        }
        output.line(line)
      }
      for stored in cancellations {
        output.line(
          "  cancelled   \(EventFormatting.localDateTime(TimeArgument.stamp(stored.cancellation.occurrence.at, zone))): "
            + TerminalText.escaped(
              ForwardCheck.reason(
                kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt, clock: clock))
            + (stored.restoredAt != nil ? " (restored)" : ""))
      }
      return .ok
    }
  }
}
