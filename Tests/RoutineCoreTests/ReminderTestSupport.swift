import Foundation
import RoutineCore

// Helpers shared by the tests of reminders, delivery and answers (the time helpers `zone`,
// `stamp`, `date` and `calendar` are in TestSupport.swift).

/// Seconds since 1970 of ISO 8601 text that must be valid (`2026-05-04T18:00+02:00`).
func epoch(_ text: String) -> Int64 {
  stamp(text).secondsSince1970
}

/// A wall-clock time that must be valid (`"07:15"`).
func wallTime(_ text: String) -> TimeOfDay {
  guard let time = TimeOfDay(parsing: text) else { fatalError("bad time \(text)") }
  return time
}

/// An event of the kind `name` at the ISO 8601 time `text`.
func event(_ name: String, at text: String, source: EventSource = .cli) -> Event {
  Event(kind: EventKind(name)!, timestamp: stamp(text), source: source)
}

/// An activity reminder: a preset or a kind, at `time` on `days`, with an optional look-back.
func activityReminder(
  _ id: String, preset: ActivityPreset? = nil, activity: String? = nil, at time: String,
  days: WeekdaySet = .everyDay, lookBackHours: Int? = nil, title: String? = nil,
  changedAt: Int64? = nil
) -> Reminder {
  Reminder(
    id: id, kind: .activity, title: title, activity: activity.flatMap { EventKind($0) },
    preset: preset, lookBackHours: lookBackHours,
    schedule: ReminderSchedule(
      repetition: days == .everyDay ? .daily : .weekly, time: wallTime(time), weekdays: days),
    changedAt: changedAt)
}

/// The requests the reminders make, planned with a 24-hour clock.
func planned(_ reminders: [Reminder], habits: [Habit] = [], tasks: [TodoTask] = [])
  -> [NotificationRequest]
{
  ReminderPlanner(clock: .twentyFourHour).requests(for: reminders, habits: habits, tasks: tasks)
}

/// A request firing daily (or on `weekday`) at `time`, for `kind`, with a look-back of `hours`.
func dailyRequest(
  _ id: String, kind: String, at time: String, weekday: Int? = nil, lookBackHours: Int? = nil
) -> NotificationRequest {
  let parsed = wallTime(time)
  return NotificationRequest(
    id: id, origin: .reminder, category: .activityReminder, title: "Time for \(kind)", body: "",
    trigger: .calendar(CalendarTrigger(weekday: weekday, hour: parsed.hour, minute: parsed.minute)),
    metadata: RequestMetadata(
      eventKind: kind, reminderID: id, lookBack: lookBackHours.map { .hours($0) }))
}
