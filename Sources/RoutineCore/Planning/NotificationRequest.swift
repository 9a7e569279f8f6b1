import Foundation

/// When a notification fires.
public enum Trigger: Hashable, Sendable {
  /// A wall-clock time in the user's zone: every day, on some weekdays, or on a day of the month.
  case calendar(CalendarTrigger)
  /// One instant (seconds since 1970 UTC): snooze and outlier alerts, task reminders.
  case date(Int64)
  /// One wall-clock time on one local date, in the user's zone (a one-time reminder): it follows
  /// the user's zone as calendar triggers do.
  case local(LocalDate, TimeOfDay)
}

/// A wall-clock time that repeats, like `UNCalendarNotificationTrigger`: an hour and minute, on
/// every day, on a set of weekdays (1 = Sunday ... 7 = Saturday), or on a day of the month.
public struct CalendarTrigger: Hashable, Sendable {
  /// The days of the week it fires on; empty for every day.
  public var weekdays: WeekdaySet
  /// The day of the month it fires on (1...31), or `nil`. In a shorter month, a day past its end
  /// is the month's last day: "monthly on the 31st" fires on 30 April and 28 February.
  public var dayOfMonth: Int?
  /// 0...23.
  public var hour: Int
  /// 0...59.
  public var minute: Int
  /// Whether it fires again after firing (a non-repeating one fires at its first match only).
  public var repeats: Bool

  /// A calendar trigger on every day, or on one weekday (1 = Sunday ... 7 = Saturday).
  public init(weekday: Int? = nil, hour: Int, minute: Int, repeats: Bool = true) {
    self.init(
      weekdays: weekday.map { WeekdaySet([$0]) } ?? .none, hour: hour, minute: minute,
      repeats: repeats)
  }

  /// A calendar trigger on `weekdays` (empty: every day) and, when given, on `dayOfMonth`.
  public init(
    weekdays: WeekdaySet, dayOfMonth: Int? = nil, hour: Int, minute: Int, repeats: Bool = true
  ) {
    self.weekdays = weekdays
    self.dayOfMonth = dayOfMonth
    self.hour = hour
    self.minute = minute
    self.repeats = repeats
  }

  /// The one weekday it fires on, when it fires on exactly one.
  public var weekday: Int? { weekdays.single }

  /// The wall-clock time.
  public var time: TimeOfDay { TimeOfDay(secondsSinceMidnight: hour * 3600 + minute * 60) }

  /// Whether it fires on the local `date`.
  public func matches(_ date: LocalDate) -> Bool {
    if !weekdays.isEmpty, !weekdays.contains(date.weekday) { return false }
    if let dayOfMonth {
      let (year, month, day) = date.components
      return day == min(dayOfMonth, LocalDate.daysIn(month: month, year: year))
    }
    return true
  }
}

/// Who made a request: `routine plan` owns the learned ones and leaves the others alone.
public enum RequestOrigin: String, Sendable, CaseIterable {
  /// Made by `routine plan` from a routine.
  case learned
  /// A "remind me in 5 min" alert.
  case snooze
  /// An alert about an event far off its pattern.
  case outlier
  /// Made from a reminder the user defined (derived from its definition, never stored).
  case reminder
}

/// What a request is about, read back when its notification is answered.
public struct RequestMetadata: Hashable, Sendable {
  /// The event kind's display name: what "I'm on it" or "Done" logs, and what counts as doing it.
  public var eventKind: String
  /// The routine's usual time (not the time the reminder fires).
  public var suggestedTime: TimeOfDay?
  /// The routine's confidence.
  public var confidence: Double?
  /// The reminder the request comes from, for reminders people define.
  public var reminderID: String?
  /// The window before a firing in which an event of ``eventKind`` means the reminder is not
  /// needed (activity and habit reminders); `nil` when it always fires.
  public var lookBack: LookBack?
  /// Whether it is an alarm: delivered urgently and again until answered.
  public var isAlarm: Bool
  /// The habit or task it belongs to: its id (`task-3`) and name.
  public var link: Link?
  /// Firings at or before this instant are not due: the reminder was defined (or changed, or
  /// turned on) after them.
  public var activeSince: Int64?
  /// The wall-clock time until which an act counts as answering a firing (a learned routine's
  /// slot ends there: ``ActWindow``); `nil` for the day's end.
  public var actUntil: TimeOfDay?
  /// How adaptation changed this request, in words ("moved 10 min later: you snoozed 4 of the
  /// last 5"); `nil` when it did not.
  public var adaptation: String?
  /// Whether its firings may be held while the person is away, busy or in quiet hours: `nil`
  /// for the default (yes, but not alarms and task reminders; ``HoldRules/mayHold(_:)``).
  public var hold: Bool?

  /// A habit or task a request belongs to.
  public struct Link: Hashable, Sendable {
    /// `habit-2`, `task-5`.
    public var id: String
    /// The habit's or task's name.
    public var name: String

    /// A link to `id` named `name`.
    public init(id: String, name: String) {
      self.id = id
      self.name = name
    }
  }

  /// Metadata for `eventKind`.
  public init(
    eventKind: String, suggestedTime: TimeOfDay? = nil, confidence: Double? = nil,
    reminderID: String? = nil, lookBack: LookBack? = nil, isAlarm: Bool = false,
    link: Link? = nil, activeSince: Int64? = nil, actUntil: TimeOfDay? = nil,
    adaptation: String? = nil, hold: Bool? = nil
  ) {
    self.eventKind = eventKind
    self.suggestedTime = suggestedTime
    self.confidence = confidence
    self.reminderID = reminderID
    self.lookBack = lookBack
    self.isAlarm = isAlarm
    self.link = link
    self.activeSince = activeSince
    self.actUntil = actUntil
    self.adaptation = adaptation
    self.hold = hold
  }
}

/// How far back an event counts as having done what a reminder asks.
public enum LookBack: Hashable, Sendable {
  /// The hours before the firing (1, 3, 6, 12, 24 or 48 for activity reminders).
  case hours(Int)
  /// Since the local midnight before the firing (a habit done today).
  case sameDay
  /// The minutes before the firing (a snoozed copy: back to the firing it copies).
  case minutes(Int)
  /// Since the last time the wall clock read this time before the firing (a learned reminder:
  /// from the start of its routine's slot that day, ``ActWindow``).
  case since(TimeOfDay)

  /// The longest any look-back reaches: 48 hours (the longest an activity reminder offers).
  /// Events older than this cancel nothing and alert nothing when they are logged.
  public static let longestSeconds: Int64 = 48 * 3600

  /// The window `[start, occurrence]` of instants for a firing at `occurrence`.
  public func window(before occurrence: Int64, in zone: Zone) -> ClosedRange<Int64> {
    switch self {
    case .hours(let hours):
      return (occurrence - Int64(hours) * 3600)...occurrence
    case .minutes(let minutes):
      return (occurrence - Int64(max(minutes, 0)) * 60)...occurrence
    case .sameDay:
      let date = WallClock.localDate(at: occurrence, in: zone)
      let midnight = WallClock.instant(on: date, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
      return min(midnight, occurrence)...occurrence
    case .since(let time):
      return ActWindow.previous(time, atOrBefore: occurrence, in: zone)...occurrence
    }
  }
}

/// A pending notification, like the system's `UNNotificationRequest`.
public struct NotificationRequest: Hashable, Sendable {
  /// Stable and unique: `routine_WakeUp-weekday-2`, `alert_WakeUp_1777262400`, `outlier_1a2b3c4d`.
  public var id: String
  /// Who made it.
  public var origin: RequestOrigin
  /// Which actions it offers.
  public var category: NotificationCategory.ID
  /// The title.
  public var title: String
  /// The body, under 100 characters.
  public var body: String
  /// When it fires.
  public var trigger: Trigger
  /// The event kind and routine behind it.
  public var metadata: RequestMetadata?

  /// A request.
  public init(
    id: String, origin: RequestOrigin, category: NotificationCategory.ID, title: String,
    body: String, trigger: Trigger, metadata: RequestMetadata?
  ) {
    self.id = id
    self.origin = origin
    self.category = category
    self.title = title
    self.body = body
    self.trigger = trigger
    self.metadata = metadata
  }
}
