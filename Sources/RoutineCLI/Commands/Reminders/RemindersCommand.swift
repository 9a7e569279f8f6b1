import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders`: the reminders people define.
enum RemindersCommand: Command {
  static let subcommands: [any Command.Type] = [
    RemindersListCommand.self, RemindersAddCommand.self, RemindersShowCommand.self,
    RemindersEditCommand.self, RemindersRemoveCommand.self, RemindersEnableCommand.self,
    RemindersDisableCommand.self, RemindersRestoreCommand.self, RemindersExportCommand.self,
    RemindersImportCommand.self,
  ]
  static let spec = CommandSpec(
    name: "reminders",
    summary: "List the reminders you defined: activity, your own text, habits and tasks.",
    discussion: """
      Each reminder with what it is about, when it fires, whether it repeats, and its next
      firing (and whether that one is skipped). docs/reminders.md explains every kind.
      """,
    subcommands: subcommands.map { $0.spec })

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    return try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let rows = try listing(store: store, now: now, zone: zone, clock: clock)
      if context.isJSON {
        var list = JSONListWriter(context.output, key: "reminders")
        for row in rows {
          guard case .object(var members) = ReminderFormatting.json(row.0) else { continue }
          members += [
            ("summary", .string(row.2)), ("repeating", .bool(row.3 == "repeating")),
            ("nextFire", .optional(row.4.map { TimeArgument.stamp($0, zone).iso8601 })),
            ("nextSkipped", .optional(row.5)), ("cancelled", .integer(row.6)),
          ]
          list.append(.object(members))
        }
        list.finish()
        return .ok
      }
      guard !rows.isEmpty else {
        context.output.line("No reminders yet: 'routine reminders add' defines one.")
        return .ok
      }
      let idWidth = rows.map(\.0.id.count).max() ?? 0
      let subjectWidth = min(rows.map { TerminalText.escaped($0.1).count }.max() ?? 0, 28)
      let scheduleWidth = rows.map(\.2.count).max() ?? 0
      for row in rows {
        var line =
          "  " + HelpFormatter.padded(row.0.id, to: idWidth + 2)
          + HelpFormatter.padded(TerminalText.escaped(row.1), to: subjectWidth + 2)
          + HelpFormatter.padded(row.2, to: scheduleWidth + 2)
          + HelpFormatter.padded(row.3, to: 11)
        if !row.0.isEnabled {
          line += "disabled"
        } else if let next = row.4 {
          line += "next \(EventFormatting.localDateTime(TimeArgument.stamp(next, zone)))"
          if let reason = row.5 { line += " (skipped: \(TerminalText.escaped(reason)))" }
        } else {
          line += "no further firing"
        }
        if row.6 > 0 { line += ", \(counted(row.6, "firing")) cancelled" }
        context.output.line(line.trimmingTrailingSpaces)
      }
      return .ok
    }
  }

  /// One line of the listing: the reminder, its subject, its schedule, "repeating" or
  /// "one-time", its next firing, why that one is skipped, and its firings cancelled ahead.
  typealias Row = (Reminder, String, String, String, Int64?, String?, Int)

  /// The rows of the listing at `now` (also the report's list of reminders).
  static func listing(store: EventStore?, now: Int64, zone: Zone, clock: ClockStyle) throws
    -> [Row]
  {
    let reminders = try store?.reminders() ?? []
    let habits = try store?.habits() ?? []
    let tasks = try store?.tasks() ?? []
    let planner = ReminderPlanner(clock: clock)
    let requests = planner.requests(for: reminders, habits: habits, tasks: tasks)
    let skips = try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock)
    // Looked up by key: a scan per reminder made 100,000 reminders take minutes.
    let habitsByID = Dictionary(
      habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let tasksByID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var requestsByReminder: [String: [NotificationRequest]] = [:]
    for request in requests {
      guard let id = request.metadata?.reminderID else { continue }
      requestsByReminder[id, default: []].append(request)
    }
    var cancelledByReminder: [String: Int] = [:]
    for stored in try store?.cancellations(from: now) ?? [] where stored.restoredAt == nil {
      cancelledByReminder[stored.cancellation.reminderID, default: 0] += 1
    }
    var rows: [Row] = []
    rows.reserveCapacity(reminders.count)
    for reminder in reminders {
      let habit = reminder.link.flatMap { habitsByID[$0] }
      let task = reminder.link.flatMap { tasksByID[$0] }
      let next = (requestsByReminder[reminder.id] ?? []).compactMap { request in
        request.trigger.nextFiring(after: now, in: zone).map { (request, $0) }
      }.min { $0.1.at < $1.1.at }
      let skipped = next.flatMap { skips.reason($0.0, at: $0.1) }
      let cancelled = cancelledByReminder[reminder.id] ?? 0
      rows.append(
        (
          reminder, ReminderFormatting.subject(reminder, habit: habit, task: task),
          ReminderFormatting.schedule(reminder, habit: habit, task: task),
          ReminderFormatting.isRepeating(reminder) ? "repeating" : "one-time", next?.1.at,
          skipped,
          cancelled
        ))
    }
    return rows
  }
}
