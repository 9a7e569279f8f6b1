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
    if reminder.adapt != .auto { members.append(("adapt", .string(reminder.adapt.rawValue))) }
    if let hold = reminder.hold { members.append(("hold", .string(hold ? "on" : "off"))) }
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
