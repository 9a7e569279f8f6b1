import Foundation
import RoutineCore
import RoutineStore

/// `routine reminders`: the reminders people define.
enum RemindersCommand: Command {
  static let subcommands: [any Command.Type] = [
    RemindersListCommand.self, RemindersAddCommand.self, RemindersShowCommand.self,
    RemindersEditCommand.self, RemindersRemoveCommand.self, RemindersEnableCommand.self,
    RemindersDisableCommand.self, RemindersRestoreCommand.self, RemindersResumeCommand.self,
    RemindersAdaptCommand.self, RemindersExportCommand.self, RemindersImportCommand.self,
  ]
  static let spec = CommandSpec(
    name: "reminders",
    summary: "List the reminders you defined: activity, your own text, habits and tasks.",
    discussion: """
      Each reminder with what it is about, when it fires, whether it repeats, and its next
      firing (and whether that one is skipped). One-time reminders that are over (fired, or a
      task's after its due time) are left out unless --all asks. docs/reminders.md explains
      every kind.
      """,
    options: [all] + ListingOptions.specs,
    subcommands: subcommands.map { $0.spec })

  /// `--all`.
  static let all = OptionSpec.flag(
    "all", "List the used-up one-time reminders too (fired, or a task's past its due time).")

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    try ListingOptions.apply(context)
    let paint = context.output.paint
    return try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      var rows = try listing(store: store, now: now, zone: zone, clock: clock)
      let over = try usedUp(rows, store: store, now: now, zone: zone, clock: clock)
      let hidden = context.arguments.flag(all) ? 0 : over.count
      if hidden > 0 { rows.removeAll { over.contains($0.0.id) } }
      let records = settings.adapts ? try store?.adaptations() ?? [:] : [:]
      let learned = try store?.requests().filter { $0.origin == .learned } ?? []
      if context.isJSON {
        var list = JSONListWriter(context.output, key: "reminders")
        for row in rows {
          guard case .object(var members) = ReminderFormatting.json(row.0) else { continue }
          members += [
            ("summary", .string(row.2)), ("repeating", .bool(row.3 == "repeating")),
            ("nextFire", .optional(row.4.map { TimeArgument.stamp($0, zone).iso8601 })),
            ("nextSkipped", .optional(row.5)), ("cancelled", .integer(row.6)),
            ("adaptation", records[row.0.id].map(WhyCommand.json) ?? .null),
            ("usedUp", .bool(over.contains(row.0.id))),
          ]
          list.append(.object(members))
        }
        list.finish(
          then: [
            (
              "learned",
              .array(
                learnedRows(learned, zone: zone).map { row in
                  .object([
                    ("id", .string(row.key)), ("event", .string(row.kind)),
                    ("fires", .string(row.fires)),
                    ("adaptation", records[row.key].map(WhyCommand.json) ?? .null),
                  ])
                })
            )
          ])
        return .ok
      }
      defer {
        if hidden > 0 { context.output.line(UsedUp.footnote(hidden, command: "reminders")) }
        showLearned(learned, records: records, zone: zone, context: context)
      }
      guard !rows.isEmpty else {
        if hidden == 0 {
          context.output.line("No reminders yet: 'routine reminders add' defines one.")
        }
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
          line += paint("disabled", .dim)
        } else if let next = row.4 {
          line += "next \(EventFormatting.localDateTime(TimeArgument.stamp(next, zone)))"
          if let reason = row.5 {
            line += paint(" (skipped: \(TerminalText.escaped(reason)))", .yellow)
          }
        } else if over.contains(row.0.id) {
          line += paint("used up", .dim)
        } else {
          line += "no further firing"
        }
        if row.6 > 0 { line += ", \(counted(row.6, "firing")) cancelled" }
        if row.0.isEnabled, let record = records[row.0.id] {
          line += " · " + WhyCommand.standing(record)
        }
        context.output.line(line.trimmingTrailingSpaces)
      }
      return .ok
    }
  }

  /// The ids of the rows' one-time reminders that are over (``UsedUp``).
  static func usedUp(
    _ rows: [Row], store: EventStore?, now: Int64, zone: Zone, clock: ClockStyle
  ) throws -> Set<String> {
    // Only enabled one-time reminders without a next firing can be: their requests are made
    // again here, a few, rather than kept for every row of a long listing.
    let candidates = rows.filter { $0.0.isEnabled && $0.4 == nil && $0.3 == "one-time" }.map(\.0)
    guard !candidates.isEmpty else { return [] }
    let requests = ReminderPlanner(clock: clock).requests(
      for: candidates, habits: try store?.habits() ?? [], tasks: try store?.tasks() ?? [])
    let byReminder = Dictionary(grouping: requests) { $0.metadata?.reminderID ?? "" }
    return Set(
      try candidates.filter {
        try UsedUp.isOver(byReminder[$0.id] ?? [], store: store, now: now, zone: zone)
      }.map(\.id))
  }

  /// One learned reminder: its key, its kind and when its requests fire.
  typealias LearnedRow = (key: String, kind: String, fires: String)

  /// The learned reminders, one per key, in order of key.
  static func learnedRows(_ learned: [NotificationRequest], zone: Zone) -> [LearnedRow] {
    Dictionary(grouping: learned) { $0.adaptationKey ?? $0.id }.sorted { $0.key < $1.key }.map {
      key, requests in
      let fires = Set(requests.map { RequestFormatting.time(of: $0.trigger) }).sorted()
      let days =
        requests.count == 1
        ? RequestFormatting.trigger(requests[0].trigger, in: zone)
        : "\(counted(requests.count, "day")) a week, \(fires.joined(separator: ", "))"
      return (key, requests.first?.metadata?.eventKind ?? key, days)
    }
  }

  /// "Learned from your log:" and each learned reminder with its state, strength and streak.
  static func showLearned(
    _ learned: [NotificationRequest], records: [String: AdaptationRecord], zone: Zone,
    context: Context
  ) {
    let rows = learnedRows(learned, zone: zone)
    guard !rows.isEmpty else { return }
    context.output.line("Learned from your log (routine pending lists their requests):")
    let keyWidth = rows.map(\.key.count).max() ?? 0
    let kindWidth = min(rows.map { TerminalText.escaped($0.kind).count }.max() ?? 0, 20)
    let firesWidth = rows.map(\.fires.count).max() ?? 0
    for row in rows {
      let state = records[row.key].map(WhyCommand.standing) ?? "active"
      context.output.line(
        ("  " + HelpFormatter.padded(row.key, to: keyWidth + 2)
          + HelpFormatter.padded(TerminalText.escaped(row.kind), to: kindWidth + 2)
          + HelpFormatter.padded(row.fires, to: firesWidth + 2) + state).trimmingTrailingSpaces)
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
