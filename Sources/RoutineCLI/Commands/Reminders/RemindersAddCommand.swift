import Foundation
import RoutineCore
import RoutineStore

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
