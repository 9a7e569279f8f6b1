/// A reminder a person defines (docs/reminders.md): an activity reminder that stays quiet when
/// the activity was done, a reminder with their own text, or one tied to a habit or a task. Its
/// notification requests are derived from it (``ReminderPlanner``), so an edit takes effect at
/// once and a removed reminder leaves nothing behind.
public struct Reminder: Hashable, Sendable {
  /// What a reminder is about.
  public enum Kind: String, Sendable, CaseIterable {
    /// An activity (an event kind): skipped when the activity was logged in the look-back.
    case activity
    /// The person's own text.
    case general
    /// A habit: fires on the habit's days, skipped when the habit was logged that day.
    case habit
    /// A task: fires a while before its due date.
    case task
  }

  /// How a reminder reaches the person.
  public enum Style: String, Sendable, CaseIterable {
    /// A notification, once.
    case notification
    /// An alarm: urgent, with a sound hint, and delivered again every few minutes until answered
    /// (``Reminder/alarmInterval``, at most ``Reminder/alarmRepeats`` times).
    case alarm
  }

  /// Minutes between deliveries of an unanswered alarm.
  public static let alarmInterval = 5
  /// How many times an unanswered alarm is delivered again (so it rings for half an hour).
  public static let alarmRepeats = 6

  /// `reminder-7`: stable, never reused.
  public var id: String
  /// What it is about.
  public var kind: Kind
  /// Whether it fires.
  public var isEnabled: Bool
  /// A title instead of the default one.
  public var title: String?
  /// A message instead of the default one (for a general reminder, its text).
  public var message: String?
  /// Notification or alarm.
  public var style: Style
  /// The event kind that counts as doing it (activity reminders); habits and tasks count events
  /// named like them.
  public var activity: EventKind?
  /// A built-in activity (mindfulness, workout, NoAlc) with its own words and actions.
  public var preset: ActivityPreset?
  /// Hours before a firing in which the activity counts as done (activity reminders).
  public var lookBackHours: Int?
  /// When it fires; `nil` for a habit reminder that follows its habit's days, and for a task
  /// reminder (it follows the task's due date).
  public var schedule: ReminderSchedule?
  /// The habit or task it belongs to (`habit-2`, `task-5`).
  public var link: String?
  /// When a habit reminder fires on the habit's days.
  public var habitTiming: HabitTiming?
  /// Minutes before a task's due date a task reminder fires.
  public var minutesBefore: Int?
  /// When it was last added, edited or turned on (seconds since 1970): firings at or before it
  /// are not delivered, so a reminder added at 09:05 for 09:00 starts tomorrow.
  public var changedAt: Int64?
  /// Whether it adapts to how it is answered (docs/reminders.md#reminders-that-listen): by
  /// default it only backs off when ignored; `on` lets its time move and it fade; `off` keeps it
  /// exactly as defined.
  public var adapt: AdaptationMode = .auto
  /// Whether its firings may be held while you are away, busy or in quiet hours
  /// (docs/delivery.md "Held while you are away"): `nil` for the default (yes, but alarms and
  /// task reminders ring), `true` or `false` when you said so (`--hold on|off`).
  public var hold: Bool?

  /// A reminder; fields that do not apply to `kind` stay `nil`.
  public init(
    id: String, kind: Kind, isEnabled: Bool = true, title: String? = nil, message: String? = nil,
    style: Style = .notification, activity: EventKind? = nil, preset: ActivityPreset? = nil,
    lookBackHours: Int? = nil, schedule: ReminderSchedule? = nil, link: String? = nil,
    habitTiming: HabitTiming? = nil, minutesBefore: Int? = nil, changedAt: Int64? = nil,
    adapt: AdaptationMode = .auto, hold: Bool? = nil
  ) {
    self.id = id
    self.kind = kind
    self.isEnabled = isEnabled
    self.title = title
    self.message = message
    self.style = style
    self.activity = activity
    self.preset = preset
    self.lookBackHours = lookBackHours
    self.schedule = schedule
    self.link = link
    self.habitTiming = habitTiming
    self.minutesBefore = minutesBefore
    self.changedAt = changedAt
    self.adapt = adapt
    self.hold = hold
  }

  /// The look-backs an activity reminder offers, in hours (the original design's choices).
  public static let lookBackChoices = [1, 3, 6, 12, 24, 48]
}

/// How often a reminder's time comes round.
public enum Repetition: String, Sendable, CaseIterable {
  /// On one date.
  case once
  /// Every day.
  case daily
  /// On chosen days of the week.
  case weekly
  /// On a day of the month.
  case monthly
}

/// When a reminder fires, in wall-clock terms (docs/time.md's rules make instants of them).
public struct ReminderSchedule: Hashable, Sendable {
  /// How often.
  public var repetition: Repetition
  /// The time of day; for a trigger window, its start (the reminder fires at the start).
  public var time: TimeOfDay
  /// The end of a trigger window (`--window 08:00-08:30`), shown with the reminder.
  public var windowEnd: TimeOfDay?
  /// The days of the week (weekly; daily is every day).
  public var weekdays: WeekdaySet
  /// The day of the month (monthly): in a shorter month, a day past its end is its last day.
  public var dayOfMonth: Int?
  /// The date (once).
  public var date: LocalDate?

  /// A schedule.
  public init(
    repetition: Repetition, time: TimeOfDay, windowEnd: TimeOfDay? = nil,
    weekdays: WeekdaySet = .everyDay, dayOfMonth: Int? = nil, date: LocalDate? = nil
  ) {
    self.repetition = repetition
    self.time = time
    self.windowEnd = windowEnd
    self.weekdays = weekdays
    self.dayOfMonth = dayOfMonth
    self.date = date
  }

  /// `daily 18:00`, `weekly mon,wed 18:00`, `monthly on the 31st 09:00`, `once 2026-05-01 09:00`.
  public var summary: String {
    "\(days) \(time)" + (windowEnd.map { "-\($0)" } ?? "")
  }

  /// The days alone: `daily`, `mon,wed`, `monthly on the 31st`, `once 2026-05-01`.
  public var days: String {
    switch repetition {
    case .once: "once \(date?.description ?? "?")"
    case .daily: "daily"
    case .weekly: weekdays.description
    case .monthly: "monthly on the \(ordinal(dayOfMonth ?? 1))"
    }
  }
}

/// "1st", "2nd", "31st".
func ordinal(_ number: Int) -> String {
  let suffix: String
  switch (number % 10, number % 100) {
  case (_, 11...13): suffix = "th"
  case (1, _): suffix = "st"
  case (2, _): suffix = "nd"
  case (3, _): suffix = "rd"
  default: suffix = "th"
  }
  return "\(number)\(suffix)"
}

/// When a habit reminder fires on the habit's days.
public enum HabitTiming: Hashable, Sendable {
  /// At a chosen time ("day of habit").
  case at(TimeOfDay)
  /// At the start of the habit's time window.
  case windowStart
  /// The given minutes before the habit's time window (15, 30, 60...).
  case beforeWindow(minutes: Int)
}

/// A habit (docs/reminders.md): something done on certain days, perhaps within a time window.
/// Logging an event named like the habit counts as doing it.
public struct Habit: Hashable, Sendable {
  /// `habit-2`.
  public var id: String
  /// The habit's name; events of this kind count as doing it.
  public var name: EventKind
  /// How often it comes round, and on which days.
  public var repetition: Repetition
  /// Its days of the week (weekly); every day for daily.
  public var weekdays: WeekdaySet
  /// Its day of the month (monthly).
  public var dayOfMonth: Int?
  /// Its time window, if it has one.
  public var window: ClosedRange<TimeOfDay>?

  /// A habit.
  public init(
    id: String, name: EventKind, repetition: Repetition = .daily,
    weekdays: WeekdaySet = .everyDay, dayOfMonth: Int? = nil, window: ClosedRange<TimeOfDay>? = nil
  ) {
    self.id = id
    self.name = name
    self.repetition = repetition
    self.weekdays = weekdays
    self.dayOfMonth = dayOfMonth
    self.window = window
  }
}

/// A task with a due date (docs/reminders.md). Not `Task`, which Swift's concurrency owns.
public struct TodoTask: Hashable, Sendable {
  /// `task-5`.
  public var id: String
  /// The task's name; events of this kind count as doing it.
  public var name: EventKind
  /// When it is due.
  public var due: DueTime
  /// When it was marked done, if it was.
  public var doneAt: Timestamp?

  /// A task.
  public init(id: String, name: EventKind, due: DueTime, doneAt: Timestamp? = nil) {
    self.id = id
    self.name = name
    self.due = due
    self.doneAt = doneAt
  }
}

/// When a task is due: a wall-clock time in the user's zone, like every reminder, or an instant
/// when it was given with an offset (docs/reminders.md, "Tasks").
///
/// "Due Friday 12:00" stays 12:00 when the user's zone changes, like a reminder at 12:00; a due
/// time typed with an offset (`2026-03-27T12:00+00:00`, a call at a time set in another zone)
/// is that instant, shown with its offset wherever the user is.
public struct DueTime: Hashable, Sendable {
  /// The local date (for an instant, in its own offset).
  public var date: LocalDate
  /// The wall-clock time (for an instant, in its own offset).
  public var time: TimeOfDay
  /// The offset an instant was given with; `nil` for a wall-clock time.
  public var pinnedOffset: Int32?

  /// A wall-clock due time.
  public init(date: LocalDate, time: TimeOfDay) {
    self.date = date
    self.time = time
    self.pinnedOffset = nil
  }

  /// A due time pinned to the instant `timestamp`, shown with its offset.
  public init(pinnedTo timestamp: Timestamp) {
    self.date = timestamp.localDate
    self.time = timestamp.timeOfDay
    self.pinnedOffset = timestamp.utcOffsetSeconds
  }

  /// The time of day a due date without a time means: 09:00, as an all-day reminder in Apple's
  /// Reminders, so that "1 hour before" fires in the morning, not at 23:00 the evening before.
  public static let defaultTime = TimeOfDay(hour: 9, minute: 0)!

  /// Whether it is an instant rather than a wall-clock time.
  public var isPinned: Bool { pinnedOffset != nil }

  /// The instant it is due in `zone` (a wall-clock time by the rules of docs/time.md).
  public func instant(in zone: Zone) -> Int64 {
    timestamp(in: zone).secondsSince1970
  }

  /// The due time as a timestamp: a wall-clock time resolved in `zone`, with `zone`'s offset;
  /// an instant with the offset it was given with.
  public func timestamp(in zone: Zone) -> Timestamp {
    if let pinnedOffset {
      return Timestamp(
        secondsSince1970: WallClock.localSeconds(on: date, at: time) - Int64(pinnedOffset),
        utcOffsetSeconds: pinnedOffset)
    }
    let instant = WallClock.instant(on: date, at: time, in: zone)
    return Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }

  /// The trigger of a reminder `minutes` before it. Before a wall-clock time, the wall clock is
  /// counted back (a day before 09:00 Monday is 09:00 Sunday, whatever daylight saving does
  /// between), and the firing is a wall-clock time; before an instant, the instant is.
  public func trigger(minutesBefore minutes: Int) -> Trigger {
    let local = WallClock.localSeconds(on: date, at: time) - Int64(minutes) * 60
    if let pinnedOffset { return .date(local - Int64(pinnedOffset)) }
    let days = floorDiv(Int(local), 86_400)
    return .local(
      LocalDate(daysSince1970: days),
      TimeOfDay(secondsSinceMidnight: Int(local) - days * 86_400))
  }
}
