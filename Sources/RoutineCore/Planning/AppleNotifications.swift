/// The pending requests as an iOS or macOS app schedules them: each one becomes exactly one
/// `UNNotificationRequest` with a `UNCalendarNotificationTrigger` (docs/apple.md).
///
/// A calendar trigger there names one set of date components, so what routine says in one
/// request may take several: a weekday set is one request per weekday, and "monthly on the
/// 31st", which routine fires on the last day of shorter months, is the repeating day-31 request
/// plus a one-time request for the last day of each shorter month ahead. One-time requests carry
/// the full date; an instant (a snooze, a task pinned to an instant) carries its date and time
/// in UTC with the zone `UTC`, so it does not move with the device's zone.
public struct AppleNotificationRequest: Hashable, Sendable {
  /// The `UNNotificationRequest` identifier: routine's request id, with `#…` appended when one
  /// request of routine takes several (`#weekday-2`, `#2027-02-28`).
  public var identifier: String
  /// The request routine knows: what `routine respond` takes.
  public var request: NotificationRequest
  /// The trigger's date components.
  public var components: Components
  /// Whether the trigger repeats.
  public var repeats: Bool
  /// `UTC` when the components are an instant's in UTC; `nil` for wall-clock times in whatever
  /// zone the device is in (as routine's calendar and local triggers are).
  public var timeZone: String?
  /// The first time it fires after `now`, for ordering (an app may schedule only 64).
  public var nextFire: Int64

  /// `DateComponents` fields; `nil` ones are left out.
  public struct Components: Hashable, Sendable {
    /// The year.
    public var year: Int?
    /// 1...12.
    public var month: Int?
    /// 1...31.
    public var day: Int?
    /// 1 = Sunday ... 7 = Saturday, as `Calendar` counts.
    public var weekday: Int?
    /// 0...23.
    public var hour: Int
    /// 0...59.
    public var minute: Int
    /// 0...59; only for instants.
    public var second: Int?

    /// Components; those left `nil` match any value.
    public init(
      year: Int? = nil, month: Int? = nil, day: Int? = nil, weekday: Int? = nil, hour: Int,
      minute: Int, second: Int? = nil
    ) {
      self.year = year
      self.month = month
      self.day = day
      self.weekday = weekday
      self.hour = hour
      self.minute = minute
      self.second = second
    }
  }
}

/// Turns pending requests into ``AppleNotificationRequest``s.
public enum AppleNotifications {
  /// How many months ahead the one-time stand-ins for "the last day of a shorter month" are
  /// written: an app re-reads the export more often than that.
  public static let shortMonthsAhead = 12

  /// The requests that still fire after `now`, ordered by when they next fire (then by
  /// identifier); requests that will not fire again are left out.
  public static func requests(
    from requests: [NotificationRequest], now: Int64, in zone: Zone
  ) -> [AppleNotificationRequest] {
    var result: [AppleNotificationRequest] = []
    for request in requests {
      result += map(request, now: now, in: zone)
    }
    return result.sorted { ($0.nextFire, $0.identifier) < ($1.nextFire, $1.identifier) }
  }

  private static func map(_ request: NotificationRequest, now: Int64, in zone: Zone)
    -> [AppleNotificationRequest]
  {
    func make(
      _ suffix: String?, _ components: AppleNotificationRequest.Components, repeats: Bool,
      timeZone: String? = nil, next: Int64
    ) -> AppleNotificationRequest {
      AppleNotificationRequest(
        identifier: suffix.map { "\(request.id)#\($0)" } ?? request.id, request: request,
        components: components, repeats: repeats, timeZone: timeZone, nextFire: next)
    }
    func dated(_ date: LocalDate, _ time: TimeOfDay) -> AppleNotificationRequest.Components {
      let (year, month, day) = date.components
      return .init(
        year: year, month: month, day: day, hour: time.hour, minute: time.minute)
    }
    guard let first = request.trigger.nextFiring(after: now, in: zone) else { return [] }
    switch request.trigger {
    case .date(let at):
      let utc = Timestamp(secondsSince1970: at, utcOffsetSeconds: 0)
      let (year, month, day) = utc.localDate.components
      let seconds = utc.timeOfDay.secondsSinceMidnight
      return [
        make(
          nil,
          .init(
            year: year, month: month, day: day, hour: seconds / 3600, minute: seconds / 60 % 60,
            second: seconds % 60), repeats: false, timeZone: "UTC", next: at)
      ]
    case .local(let date, let time):
      return [make(nil, dated(date, time), repeats: false, next: first.at)]
    case .calendar(let calendar):
      // A trigger that fires once fires at its first match: that date, in full.
      guard calendar.repeats else {
        guard let slot = first.slot else { return [] }
        return [make(nil, dated(slot.date, slot.time), repeats: false, next: first.at)]
      }
      let time = calendar.time
      let everyDay = calendar.weekdays.isEmpty || calendar.weekdays == .everyDay
      if let dayOfMonth = calendar.dayOfMonth {
        guard everyDay else {
          // Both a weekday and a day of the month: no repeating components say that; the
          // matching dates ahead, each once.
          return upcoming(calendar, after: now, in: zone, months: shortMonthsAhead).map {
            make($0.slot.date.description, dated($0.slot.date, time), repeats: false, next: $0.at)
          }
        }
        var result = [
          make(
            nil, .init(day: dayOfMonth, hour: time.hour, minute: time.minute), repeats: true,
            next: upcoming(calendar, after: now, in: zone, months: 24)
              .first { $0.slot.date.components.day == dayOfMonth }?.at ?? first.at)
        ]
        // The months too short for the day, where routine fires on their last day instead.
        for firing in upcoming(calendar, after: now, in: zone, months: shortMonthsAhead)
        where firing.slot.date.components.day != dayOfMonth {
          result.append(
            make(
              firing.slot.date.description, dated(firing.slot.date, time), repeats: false,
              next: firing.at))
        }
        return result
      }
      guard !everyDay else {
        return [
          make(nil, .init(hour: time.hour, minute: time.minute), repeats: true, next: first.at)
        ]
      }
      let single = calendar.weekdays.count == 1
      return calendar.weekdays.map { weekday in
        var only = calendar
        only.weekdays = WeekdaySet([weekday])
        let next = only.nextFiring(after: now, in: zone)?.at ?? first.at
        return make(
          single ? nil : "weekday-\(weekday)",
          .init(weekday: weekday, hour: time.hour, minute: time.minute), repeats: true, next: next)
      }
    }
  }

  /// The firings of `calendar` in the next `months` months after `now`, with their slots.
  private static func upcoming(
    _ calendar: CalendarTrigger, after now: Int64, in zone: Zone, months: Int
  ) -> [(at: Int64, slot: FiringSlot)] {
    let end = now + Int64(months) * 31 * 86_400
    return Trigger.calendar(calendar).firings(from: now + 1, to: end, in: zone).compactMap {
      firing in firing.slot.map { (firing.at, $0) }
    }
  }
}
