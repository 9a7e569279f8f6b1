/// When a notification fires.
public enum Trigger: Hashable, Sendable {
  /// A wall-clock time in the user's zone: every day, or every week on one weekday.
  case calendar(CalendarTrigger)
  /// One instant (seconds since 1970 UTC): snooze and outlier alerts.
  case date(Int64)
}

/// A wall-clock time that repeats, like `UNCalendarNotificationTrigger`: an hour and minute, on
/// every day or on one weekday (1 = Sunday ... 7 = Saturday).
public struct CalendarTrigger: Hashable, Sendable {
  /// 1 = Sunday ... 7 = Saturday, or `nil` for every day.
  public var weekday: Int?
  /// 0...23.
  public var hour: Int
  /// 0...59.
  public var minute: Int
  /// Whether it fires again after firing (a non-repeating one fires at its first match only).
  public var repeats: Bool

  /// A calendar trigger.
  public init(weekday: Int? = nil, hour: Int, minute: Int, repeats: Bool = true) {
    self.weekday = weekday
    self.hour = hour
    self.minute = minute
    self.repeats = repeats
  }

  /// The wall-clock time.
  public var time: TimeOfDay { TimeOfDay(secondsSinceMidnight: hour * 3600 + minute * 60) }
}

/// Who made a request: `routine plan` owns the learned ones and leaves the others alone.
public enum RequestOrigin: String, Sendable, CaseIterable {
  /// Made by `routine plan` from a routine.
  case learned
  /// A "remind me in 5 min" alert.
  case snooze
  /// An alert about an event far off its pattern.
  case outlier
}

/// What a request is about, read back when its notification is answered.
public struct RequestMetadata: Hashable, Sendable {
  /// The event kind's display name.
  public var eventKind: String
  /// The routine's usual time (not the time the reminder fires).
  public var suggestedTime: TimeOfDay?
  /// The routine's confidence.
  public var confidence: Double?

  /// Metadata for `eventKind`.
  public init(eventKind: String, suggestedTime: TimeOfDay? = nil, confidence: Double? = nil) {
    self.eventKind = eventKind
    self.suggestedTime = suggestedTime
    self.confidence = confidence
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
