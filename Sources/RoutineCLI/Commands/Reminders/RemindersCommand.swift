import Foundation
import RoutineCore
import RoutineStore

/// Shared wording of the reminder commands.
enum ReminderFormatting {
  /// `daily 18:00`, `weekly mon,wed 18:00 (12 h look-back)`, `before due 1h`.
  static func schedule(_ reminder: Reminder, habit: Habit?, task: TodoTask?) -> String {
    switch reminder.kind {
    case .task:
      let minutes = reminder.minutesBefore ?? 60
      return "\(ReminderPlanner.leadText(minutes)) before due"
    case .habit:
      // Its own days, or the habit's; the time is the window's unless given.
      let days = reminder.schedule?.days ?? "the habit's days"
      switch reminder.habitTiming ?? .windowStart {
      case .at(let time): return "\(days) at \(time)"
      case .windowStart: return "\(days), at the window's start"
      case .beforeWindow(let minutes): return "\(days), \(minutes) min before the window"
      }
    case .activity:
      guard let schedule = reminder.schedule else { return "?" }
      let hours = reminder.lookBackHours ?? reminder.preset?.lookBackHours ?? 12
      var days =
        schedule.weekdays.isEmpty
        ? "no days, \(schedule.time)" : "\(schedule.weekdays) \(schedule.time)"
      if let end = schedule.windowEnd { days += "-\(end)" }
      return days + " (look-back \(hours) h)"
    case .general:
      return reminder.schedule?.summary ?? "?"
    }
  }

  /// What it is about: `workout`, `workout "Lunch walk"` (with a title of its own),
  /// `"Call mum"`, `habit Stretch`, `task Taxes`.
  static func subject(_ reminder: Reminder, habit: Habit?, task: TodoTask?) -> String {
    what(reminder, habit: habit, task: task) + (reminder.style == .alarm ? " (alarm)" : "")
  }

  private static func what(_ reminder: Reminder, habit: Habit?, task: TodoTask?) -> String {
    switch reminder.kind {
    case .activity:
      return (reminder.preset?.rawValue ?? reminder.activity?.name ?? "?")
        + (reminder.title.map { " \"\($0)\"" } ?? "")
    case .general: return "\"\(reminder.message ?? "")\""
    case .habit: return "habit \(habit?.name.name ?? reminder.link ?? "?")"
    case .task: return "task \(task?.name.name ?? reminder.link ?? "?")"
    }
  }

  /// Whether it comes round again.
  static func isRepeating(_ reminder: Reminder) -> Bool {
    switch reminder.kind {
    case .task: false
    case .activity, .habit: true
    case .general: reminder.schedule?.repetition != .once
    }
  }

  /// The reminder as documented for `reminders --json` and the export.
  static func json(_ reminder: Reminder) -> JSON {
    var members: [(String, JSON)] = [
      ("id", .string(reminder.id)), ("type", .string(reminder.kind.rawValue)),
      ("enabled", .bool(reminder.isEnabled)),
    ]
    if let activity = reminder.activity { members.append(("activity", .string(activity.name))) }
    if let preset = reminder.preset { members.append(("preset", .string(preset.rawValue))) }
    if let title = reminder.title { members.append(("title", .string(title))) }
    if let message = reminder.message { members.append(("message", .string(message))) }
    members.append(("style", .string(reminder.style.rawValue)))
    if let schedule = reminder.schedule {
      var fields: [(String, JSON)] = [
        ("repeat", .string(schedule.repetition.rawValue)),
        ("at", .string(schedule.time.description)),
      ]
      if let end = schedule.windowEnd { fields.append(("windowEnd", .string(end.description))) }
      if schedule.repetition == .weekly {
        fields.append(("days", .string(schedule.weekdays.description)))
      }
      if let day = schedule.dayOfMonth { fields.append(("day", .integer(day))) }
      if let date = schedule.date { fields.append(("date", .string(date.description))) }
      members.append(("schedule", .object(fields)))
    }
    if let hours = reminder.lookBackHours { members.append(("lookbackHours", .integer(hours))) }
    if let link = reminder.link { members.append(("link", .string(link))) }
    switch reminder.habitTiming {
    case .at(let time): members.append(("habitTiming", .string("at \(time)")))
    case .windowStart: members.append(("habitTiming", .string("windowStart")))
    case .beforeWindow(let minutes):
      members.append(("habitTiming", .string("beforeWindow \(minutes)")))
    case nil: break
    }
    if let minutes = reminder.minutesBefore { members.append(("minutesBefore", .integer(minutes))) }
    return .object(members)
  }
}

extension ReminderPlanner {
  /// "1h", "1d", "90m".
  static func leadText(_ minutes: Int) -> String {
    if minutes > 0, minutes % 1440 == 0 { return "\(minutes / 1440)d" }
    if minutes > 0, minutes % 60 == 0 { return "\(minutes / 60)h" }
    return "\(minutes)m"
  }
}

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

/// `routine reminders list`: the same as `routine reminders`.
enum RemindersListCommand: Command {
  static let spec = CommandSpec(
    name: "reminders list", summary: "The same as 'routine reminders': list your reminders.")

  static func run(_ context: Context) throws -> ExitCode { try RemindersCommand.run(context) }
}

/// `routine reminders add ...`
enum RemindersAddCommand: Command {
  static let spec = CommandSpec(
    name: "reminders add",
    summary: "Define a reminder: --activity KIND, --text TEXT, --habit HABIT or --task TASK.",
    discussion: """
      Activity reminders (--activity mindfulness, workout, noalc, or any event kind) fire on
      their --days at --at (or a --window's start), one request per day, unless the activity was
      logged in the --lookback before. Reminders with --text fire once (--at '2026-05-01 09:00'),
      daily (--at 09:00), weekly (--days) or monthly (--day). Habit reminders follow the habit's
      days; task reminders fire --before the task's due date. --style alarm rings again every 5
      minutes until answered. With --json, prints {"id": ...}.
      """,
    options: ReminderOptions.options)

  static func run(_ context: Context) throws -> ExitCode {
    guard let (kind, _) = try ReminderOptions.subject(context) else {
      throw UsageError(
        "say what it reminds of: --activity, --text, --habit or --task", command: spec.name)
    }
    let now = try context.requireNow()
    var warning: String?
    var undelivered = false
    let added = try context.writing { store, settings, zone -> Reminder in
      // The counterpart of the original's warning when notifications are not allowed; with the
      // first reminder only.
      undelivered = try store.state(Deliverer.watermark) == nil && store.reminders().isEmpty
      var reminder = try ReminderOptions.apply(
        context, to: Reminder(id: "", kind: kind), store: store, zone: zone, now: now)
      if reminder.kind == .activity, reminder.lookBackHours == nil {
        reminder.lookBackHours = reminder.preset?.lookBackHours ?? 12
      }
      if reminder.kind == .habit, reminder.habitTiming == nil, reminder.schedule == nil {
        reminder.habitTiming = .windowStart
      }
      if reminder.kind == .task, reminder.minutesBefore == nil { reminder.minutesBefore = 60 }
      let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
      try check(
        &reminder, store: store, clock: context.clockStyle(settings), warning: &warning,
        now: seconds, zone: zone)
      let stored = try store.addReminder(reminder, now: seconds)
      if context.isJSON {
        context.output.line(JSON.object([("id", .string(stored.id))]).serialized())
      } else {
        context.output.line(
          "Added \(stored.id): \(TerminalText.escaped(ReminderFormatting.subject(stored, habit: try store.habit(id: stored.link ?? ""), task: try store.task(id: stored.link ?? "")))), "
            + "\(ReminderFormatting.schedule(stored, habit: nil, task: nil))"
            + (stored.isEnabled ? "." : " (disabled).")
        )
      }
      try context.output.deliver()
      return stored
    }
    _ = added
    if let warning { context.warn(warning) }
    if undelivered {
      context.errors.line(
        "note: nothing has delivered reminders from this store yet; add the cron line or run 'routine watch' (docs/delivery.md)"
      )
    }
    return .ok
  }

  /// Checks that `reminder` can fire: a habit reminder before or at a window needs a habit with
  /// a window (refused); all days off means disabled (a warning).
  /// With `now`, one whose time has passed (a one-time reminder, a task's) is a warning too.
  /// A disabled habit reminder whose habit has no window is kept (it makes no request).
  static func check(
    _ reminder: inout Reminder, store: EventStore, clock: ClockStyle, warning: inout String?,
    now: Int64? = nil, zone: Zone? = nil, importing: Bool = false
  ) throws {
    let habit = try reminder.link.flatMap { try store.habit(id: $0) }
    let task = try reminder.link.flatMap { try store.task(id: $0) }
    do {
      let requests = try ReminderPlanner(clock: clock).requests(
        for: reminder, habit: habit, task: task)
      if let now, let zone, reminder.isEnabled, !requests.isEmpty,
        requests.allSatisfy({ $0.trigger.nextFire(after: now, in: zone) == nil })
      {
        warning =
          "its time has passed, so it will not fire ('routine reminders edit' gives it another)"
      }
    } catch .noDays {
      reminder.isEnabled = false
      warning = "no day of the week is on, so the reminder is disabled; turn days on with --days"
    } catch .habitWithoutWindow where !reminder.isEnabled {
      // A disabled reminder makes no request: it is kept as it is (`habits edit` disables one
      // whose habit lost its window, and an export of it imports back).
    } catch {
      let verb = importing ? "import" : reminder.id.isEmpty ? "add" : "change"
      throw CommandError(.dataError, "cannot \(verb) the reminder: \(error)")
    }
  }
}

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

/// "there is no reminder 'x'" with the nearest id.
func unknownReminder(_ id: String, store: EventStore?) -> Error {
  let known = (try? store?.reminders().map(\.id)) ?? []
  let deleted = (try? store?.isDeleted(id)) ?? false
  return CommandError(
    .dataError,
    deleted
      ? "the reminder '\(id)' was removed"
      : "there is no reminder '\(id)'"
        + (Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" }
          ?? "; 'routine reminders' lists them"))
}

/// `routine reminders edit ID [options]`
enum RemindersEditCommand: Command {
  static let spec = CommandSpec(
    name: "reminders edit",
    summary: "Change a reminder: any option of 'reminders add'.",
    discussion: """
      Changes only what is given. Its cancellations are dropped (its times may have changed); the
      next logged activity cancels anew.
      """,
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    options: ReminderOptions.options)

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.requireNow()
    var warning: String?
    try context.writing { store, settings, zone in
      guard let existing = try store.reminder(id: id) else {
        throw unknownReminder(id, store: store)
      }
      var reminder = try ReminderOptions.apply(
        context, to: existing, store: store, zone: zone, now: now)
      let wasEnabled = reminder.isEnabled
      try RemindersAddCommand.check(
        &reminder, store: store, clock: context.clockStyle(settings), warning: &warning,
        now: Int64(now.timeIntervalSince1970.rounded(.down)), zone: zone)
      if !reminder.isEnabled, wasEnabled, warning == nil { reminder.isEnabled = true }
      try store.updateReminder(reminder, now: Int64(now.timeIntervalSince1970))
      if context.isJSON {
        context.output.line(ReminderFormatting.json(reminder).serialized())
      } else {
        context.output.line(
          "Changed \(id): \(ReminderFormatting.schedule(reminder, habit: nil, task: nil))"
            + (reminder.isEnabled ? "." : " (disabled)."))
      }
      try context.output.deliver()
    }
    if let warning { context.warn(warning) }
    return .ok
  }
}

/// `routine reminders remove ID [--yes]`
enum RemindersRemoveCommand: Command {
  static let spec = CommandSpec(
    name: "reminders remove",
    summary: "Remove a reminder for good, with its requests and cancellations.",
    discussion: """
      Asks first on a terminal (--yes otherwise). The id goes on the deleted list: nothing brings
      the reminder back, not an import of definitions, not a plan.
      """,
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    options: [.flag("yes", "Remove without asking.")], globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    guard let store = try context.openExistingStore(), let reminder = try store.reminder(id: id)
    else { throw unknownReminder(id, store: try context.openExistingStore()) }
    let subject = ReminderFormatting.subject(
      reminder, habit: try store.habit(id: reminder.link ?? ""),
      task: try store.task(id: reminder.link ?? ""))
    guard try context.confirm("Remove \(id) (\(subject))?") else {
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(id)), ("removed", .bool(false))]).serialized()
          : "Nothing removed.")
      return .ok
    }
    try store.write {
      let removed = try store.removeReminder(id: id)
      context.output.line(
        context.isJSON
          ? JSON.object([("id", .string(id)), ("removed", .bool(removed))]).serialized()
          : removed ? "Removed \(id)." : "\(id) was already removed.")
      try context.output.deliver()
    }
    return .ok
  }
}

/// `routine reminders enable ID` and `disable ID`.
enum RemindersEnableCommand: Command {
  static let spec = CommandSpec(
    name: "reminders enable", summary: "Turn a reminder on.",
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode { try toggle(context, on: true) }

  static func toggle(_ context: Context, on: Bool) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    var warning: String?
    try context.writing { store, settings, _ in
      guard var reminder = try store.reminder(id: id) else {
        throw unknownReminder(id, store: store)
      }
      reminder.isEnabled = on
      if on {
        try RemindersAddCommand.check(
          &reminder, store: store, clock: context.clockStyle(settings), warning: &warning)
      }
      try store.updateReminder(reminder, now: now)
      if context.isJSON {
        context.output.line(ReminderFormatting.json(reminder).serialized())
      } else {
        context.output.line(
          reminder.isEnabled == on
            ? "\(id) is \(on ? "on" : "off")." : "\(id) stays off.")
      }
      try context.output.deliver()
    }
    if let warning { context.warn(warning) }
    return .ok
  }
}

/// `routine reminders disable ID`
enum RemindersDisableCommand: Command {
  static let spec = CommandSpec(
    name: "reminders disable", summary: "Turn a reminder off (its definition stays).",
    arguments: [ArgumentSpec("ID", "The reminder (reminder-N).", completes: .reminder)],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    try RemindersEnableCommand.toggle(context, on: false)
  }
}

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
    options: [.value("request", "REQUEST", "Only this request's firing (reminder-N-weekday-D).")],
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let id = context.arguments.arguments[0]
    let now = try context.nowSeconds()
    try context.writing { store, _, _ in
      guard try store.reminder(id: id) != nil else { throw unknownReminder(id, store: store) }
      if let request = context.arguments.value("request") {
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
        reminderID: id, requestID: context.arguments.value("request"), now: now)
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
