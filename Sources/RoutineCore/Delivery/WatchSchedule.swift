import Foundation

/// When `routine watch` wakes: at the next firing, the next ring of an unanswered alarm, or the
/// nightly plan, whichever comes first; never on a timer of its own (docs/delivery.md).
public enum WatchSchedule {
  /// The local time of the nightly plan: after the day's events, before the morning's
  /// reminders.
  public static let planTime = TimeOfDay(hour: 3, minute: 0)!

  /// The first nightly plan strictly after `now` in `zone` (a 03:00 in a daylight-saving gap
  /// moves forward, as every wall-clock time does in docs/time.md).
  public static func nextPlan(after now: Int64, in zone: Zone) -> Int64 {
    let today = WallClock.localDate(at: now, in: zone)
    let tonight = WallClock.instant(on: today, at: planTime, in: zone)
    return tonight > now
      ? tonight : WallClock.instant(on: today.adding(days: 1), at: planTime, in: zone)
  }

  /// The instant to wake after `now`: the soonest of the next firing of `requests`, the next
  /// ring of each unanswered alarm (its firing and how many times it rang), and `nextPlan`.
  public static func nextWake(
    requests: [NotificationRequest], unansweredAlarms: [(occurrence: Int64, rings: Int)],
    now: Int64, nextPlan: Int64, in zone: Zone
  ) -> Int64 {
    var wake = nextPlan
    for request in requests {
      if let next = request.trigger.nextFire(after: now, in: zone), next < wake { wake = next }
    }
    for alarm in unansweredAlarms {
      if let ring = DeliveryPolicy.realert(after: alarm.occurrence, attempts: alarm.rings),
        ring > now, ring < wake
      {
        wake = ring
      }
    }
    return wake
  }
}
