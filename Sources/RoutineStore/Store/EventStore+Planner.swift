import Foundation
import RoutineCore

extension EventStore {
  // MARK: Settings

  /// The planner settings (defaults for any not set).
  public func settings() throws -> PlannerSettings {
    try read {
      var settings = PlannerSettings()
      let statement = try connection.prepare("SELECT key, value FROM settings")
      while try statement.step() {
        guard let key = statement.text(at: 0), let value = statement.text(at: 1) else { continue }
        // A number outside what `routine settings` allows was not written by routine.
        func number(_ current: Int) throws -> Int {
          guard let parsed = Int(value) else { return current }
          guard PlannerSettings.ranges[key]?.contains(parsed) ?? true else {
            throw StoreError.damaged(
              path: path,
              detail: "the setting \(key) is \(parsed), outside \(PlannerSettings.ranges[key]!)")
          }
          return parsed
        }
        switch key {
        case "enabled": settings.isEnabled = value == "true"
        case "threshold": settings.threshold = Double(value) ?? settings.threshold
        case "leadMinutes": settings.leadMinutes = try number(settings.leadMinutes)
        case "bufferMinutes": settings.bufferMinutes = try number(settings.bufferMinutes)
        case "windowDays": settings.windowDays = try number(settings.windowDays)
        case "weeklyDays": settings.weeklyDays = try number(settings.weeklyDays)
        case "timeZone": settings.timeZone = value
        case "locale": settings.locale = value
        case "graceMinutes": settings.graceMinutes = try number(settings.graceMinutes)
        case "snoozeMinutes": settings.snoozeMinutes = try number(settings.snoozeMinutes)
        case "adapts": settings.adapts = value != "false"
        case "dailyCap": settings.dailyCap = try number(settings.dailyCap)
        case "holdWhileIdleMinutes":
          settings.holdWhileIdleMinutes = try number(settings.holdWhileIdleMinutes)
        case "holdWhileDoNotDisturb": settings.holdWhileDoNotDisturb = value != "false"
        case "holdAtMostMinutes":
          settings.holdAtMostMinutes = try number(settings.holdAtMostMinutes)
        case "settleSeconds": settings.settleSeconds = try number(settings.settleSeconds)
        case "quietHours":
          guard let hours = QuietHours(parsing: value) else {
            throw StoreError.damaged(
              path: path, detail: "the quiet hours \(value.debugDescription) are not HH:MM-HH:MM")
          }
          settings.quietHours = hours
        case "alarmSound": settings.alarmSound = value == "off" ? nil : value
        default: break
        }
      }
      return settings
    }
  }

  /// What ``updateSettings(_:)`` did.
  public struct SettingsUpdate: Sendable {
    /// The settings before.
    public var before: PlannerSettings
    /// The settings after.
    public var after: PlannerSettings
    /// Learned requests removed because smart reminders were turned off.
    public var removedRequests: Int
  }

  /// Reads the settings, lets `change` modify them and stores the result, all in one write
  /// transaction, so that concurrent changes never lose one another. Turning smart reminders off
  /// removes the learned requests in the same transaction.
  public func updateSettings(_ change: (inout PlannerSettings) throws -> Void) throws
    -> SettingsUpdate
  {
    try write {
      let before = try settings()
      var after = before
      try change(&after)
      var removed = 0
      if after != before {
        if before.isEnabled && !after.isEnabled { removed = try deleteRequests(origin: .learned) }
        try save(after)
      }
      return SettingsUpdate(before: before, after: after, removedRequests: removed)
    }
  }

  /// Stores `settings` (in the caller's transaction, or its own). Prefer
  /// ``updateSettings(_:)``, which also removes the learned requests when reminders are turned
  /// off.
  public func save(_ settings: PlannerSettings) throws {
    try write {
      let upsert = try connection.prepare(
        "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"
      )
      let values: [(String, String?)] = [
        ("enabled", settings.isEnabled ? "true" : "false"),
        ("threshold", "\(settings.threshold)"),
        ("leadMinutes", "\(settings.leadMinutes)"),
        ("bufferMinutes", "\(settings.bufferMinutes)"),
        ("windowDays", "\(settings.windowDays)"),
        ("weeklyDays", "\(settings.weeklyDays)"),
        ("timeZone", settings.timeZone),
        ("locale", settings.locale),
        ("graceMinutes", "\(settings.graceMinutes)"),
        ("snoozeMinutes", "\(settings.snoozeMinutes)"),
        ("adapts", settings.adapts ? "true" : "false"),
        ("dailyCap", "\(settings.dailyCap)"),
        ("holdWhileIdleMinutes", "\(settings.holdWhileIdleMinutes)"),
        ("holdWhileDoNotDisturb", settings.holdWhileDoNotDisturb ? "true" : "false"),
        ("holdAtMostMinutes", "\(settings.holdAtMostMinutes)"),
        ("settleSeconds", "\(settings.settleSeconds)"),
        ("quietHours", settings.quietHours?.description),
        ("alarmSound", settings.alarmSound ?? "off"),
      ]
      for (key, value) in values {
        guard let value else {
          let delete = try connection.prepare("DELETE FROM settings WHERE key = ?")
          try delete.bind(key, at: 1)
          try delete.step()
          continue
        }
        upsert.reset()
        try upsert.bind(key, at: 1)
        try upsert.bind(value, at: 2)
        try upsert.step()
      }
    }
  }

  // MARK: Requests

  /// Every pending request, ordered by identifier.
  public func requests() throws -> [NotificationRequest] {
    try read { try readRequests() }
  }

  /// Adds `request`, replacing a pending one with the same identifier; returns whether one was
  /// replaced.
  @discardableResult
  public func schedule(_ request: NotificationRequest) throws -> Bool {
    try write {
      let existed = try requestExists(request.id)
      try insertRequest(request)
      return existed
    }
  }

  /// Removes the pending request `id`; returns whether there was one.
  @discardableResult
  public func cancelRequest(id: String) throws -> Bool {
    try write {
      let delete = try connection.prepare("DELETE FROM requests WHERE id = ?")
      try delete.bind(id, at: 1)
      try delete.step()
      return connection.changes > 0
    }
  }

  /// Brings the learned requests in line with `wanted` (see ``Reconciler``) in one transaction:
  /// the pending requests are read and written under the same write lock, so two plans running
  /// at once cannot interleave. With `dryRun`, nothing is written.
  public func reconcile(
    wanted: [NotificationRequest], now: Int64, timeZone: Zone, dryRun: Bool = false
  ) throws -> PlanChange {
    try write {
      let change = Reconciler.change(
        pending: try readRequests(), wanted: wanted, now: now, timeZone: timeZone)
      if dryRun { return change }
      let delete = try connection.prepare("DELETE FROM requests WHERE id = ?")
      for request in change.removed + change.replaced.map(\.old) {
        delete.reset()
        try delete.bind(request.id, at: 1)
        try delete.step()
      }
      for request in change.added + change.replaced.map(\.new) { try insertRequest(request) }
      return change
    }
  }

  /// Removes every pending request of `origin` (all origins when `nil`); returns how many.
  @discardableResult
  public func clearRequests(origin: RequestOrigin? = nil) throws -> Int {
    try write { try deleteRequests(origin: origin) }
  }

  private func deleteRequests(origin: RequestOrigin?) throws -> Int {
    if let origin {
      let delete = try connection.prepare("DELETE FROM requests WHERE origin = ?")
      try delete.bind(origin.rawValue, at: 1)
      try delete.step()
    } else {
      try connection.execute("DELETE FROM requests")
    }
    return connection.changes
  }

  private func requestExists(_ id: String) throws -> Bool {
    let select = try connection.prepare("SELECT 1 FROM requests WHERE id = ?")
    try select.bind(id, at: 1)
    return try select.step()
  }

  func insertRequest(_ request: NotificationRequest) throws {
    let insert = try connection.prepare(
      """
      INSERT OR REPLACE INTO requests (id, origin, category, title, body, trigger_type, weekdays,
        day_of_month, hour, minute, repeats, fire_at, local_day, event_kind, suggested_time,
        confidence, reminder_id, look_back, is_alarm, link_id, link_name, act_until, adaptation)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
        ?19, ?20, ?21, ?22, ?23)
      """)
    try insert.bind(request.id, at: 1)
    try insert.bind(request.origin.rawValue, at: 2)
    try insert.bind(request.category.rawValue, at: 3)
    try insert.bind(request.title, at: 4)
    try insert.bind(request.body, at: 5)
    switch request.trigger {
    case .calendar(let calendar):
      try insert.bind("calendar", at: 6)
      try insert.bind(Int64(calendar.weekdays.rawValue), at: 7)
      if let day = calendar.dayOfMonth { try insert.bind(Int64(day), at: 8) }
      try insert.bind(Int64(calendar.hour), at: 9)
      try insert.bind(Int64(calendar.minute), at: 10)
      try insert.bind(calendar.repeats ? 1 : 0, at: 11)
    case .date(let at):
      try insert.bind("date", at: 6)
      try insert.bind(0, at: 7)
      try insert.bind(at, at: 12)
    case .local(let date, let time):
      try insert.bind("local", at: 6)
      try insert.bind(0, at: 7)
      try insert.bind(Int64(time.hour), at: 9)
      try insert.bind(Int64(time.minute), at: 10)
      try insert.bind(Int64(date.daysSince1970), at: 13)
    }
    if let metadata = request.metadata {
      try insert.bind(metadata.eventKind, at: 14)
      if let time = metadata.suggestedTime {
        try insert.bind(Int64(time.secondsSinceMidnight), at: 15)
      }
      try insert.bind(metadata.confidence, at: 16)
      try insert.bind(metadata.reminderID, at: 17)
      if let lookBack = metadata.lookBack { try insert.bind(LookBack.code(lookBack), at: 18) }
      try insert.bind(metadata.isAlarm ? 1 : 0, at: 19)
      try insert.bind(metadata.link?.id, at: 20)
      try insert.bind(metadata.link?.name, at: 21)
      try insert.bind(metadata.actUntil.map { Int64($0.secondsSinceMidnight) }, at: 22)
      try insert.bind(metadata.adaptation, at: 23)
    } else {
      try insert.bind(0, at: 19)
    }
    try insert.step()
  }

  /// The stored requests, or the one with identifier `id`.
  func readRequests(id: String? = nil) throws -> [NotificationRequest] {
    let select = try connection.prepare(
      """
      SELECT id, origin, category, title, body, trigger_type, weekdays, day_of_month, hour, minute,
        repeats, fire_at, local_day, event_kind, suggested_time, confidence, reminder_id,
        look_back, is_alarm, link_id, link_name, act_until, adaptation
      FROM requests \(id == nil ? "" : "WHERE id = ?") ORDER BY id
      """)
    if let id { try select.bind(id, at: 1) }
    var result: [NotificationRequest] = []
    while try select.step() {
      let trigger: Trigger
      switch select.text(at: 5) {
      case "date":
        trigger = .date(select.int(at: 11))
      case "local":
        trigger = .local(
          LocalDate(daysSince1970: Int(select.int(at: 12))),
          TimeOfDay(hour: Int(select.int(at: 8)), minute: Int(select.int(at: 9)))
            ?? TimeOfDay(secondsSinceMidnight: 0))
      default:
        trigger = .calendar(
          CalendarTrigger(
            weekdays: WeekdaySet(rawValue: UInt8(truncatingIfNeeded: select.int(at: 6))),
            dayOfMonth: select.isNull(at: 7) ? nil : Int(select.int(at: 7)),
            hour: Int(select.int(at: 8)), minute: Int(select.int(at: 9)),
            repeats: select.int(at: 10) != 0))
      }
      var metadata: RequestMetadata?
      if let kind = select.text(at: 13) {
        metadata = RequestMetadata(
          eventKind: kind,
          suggestedTime: select.isNull(at: 14)
            ? nil : TimeOfDay(secondsSinceMidnight: Int(select.int(at: 14))),
          confidence: select.isNull(at: 15) ? nil : select.double(at: 15),
          reminderID: select.text(at: 16),
          lookBack: select.isNull(at: 17) ? nil : LookBack(code: select.int(at: 17)),
          isAlarm: select.int(at: 18) != 0,
          link: select.text(at: 19).map {
            RequestMetadata.Link(id: $0, name: select.text(at: 20) ?? $0)
          },
          actUntil: select.isNull(at: 21)
            ? nil : TimeOfDay(secondsSinceMidnight: Int(clamping: select.int(at: 21))),
          adaptation: select.text(at: 22))
      }
      result.append(
        NotificationRequest(
          id: select.text(at: 0) ?? "",
          origin: RequestOrigin(rawValue: select.text(at: 1) ?? "") ?? .learned,
          category: NotificationCategory.ID(rawValue: select.text(at: 2) ?? "") ?? .routineReminder,
          title: select.text(at: 3) ?? "", body: select.text(at: 4) ?? "", trigger: trigger,
          metadata: metadata))
    }
    return result
  }
}

extension LookBack {
  /// Codes at or below this are ``LookBack/since(_:)``: the code less the minute of the day.
  private static let sinceCodes: Int64 = -1_000_000

  /// How a look-back is stored: its hours, -1 for the same day, -2 - minutes for minutes,
  /// -1,000,000 - the minute of the day for a wall-clock start.
  static func code(_ lookBack: LookBack) -> Int64 {
    switch lookBack {
    case .hours(let hours): Int64(hours)
    case .sameDay: -1
    case .minutes(let minutes): -2 - Int64(min(max(minutes, 0), 100_000))
    case .since(let time): sinceCodes - Int64(time.secondsSinceMidnight / 60)
    }
  }

  /// The look-back stored as `code` (a code edited by hand reads as some look-back, never a
  /// crash).
  init(code: Int64) {
    switch code {
    case ...LookBack.sinceCodes:
      let minute = (LookBack.sinceCodes - code) % 1440
      self = .since(TimeOfDay(secondsSinceMidnight: Int(minute) * 60))
    case ...(-2): self = .minutes(Int(-2 - code))
    case -1: self = .sameDay
    default: self = .hours(Int(clamping: code))
    }
  }
}
