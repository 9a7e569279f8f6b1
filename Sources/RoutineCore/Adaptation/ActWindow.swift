/// Where in a day an act counts for a reminder: the window a logged event makes a firing
/// unnecessary (before it) or answers it (after it). One reminder per act (docs/reminders.md).
///
/// A day, for this, starts at 04:00 (``dayStart``), not at midnight: a bedtime at 23:50 is the
/// night's, and keeps the 00:26 "Time for Bed Time" quiet, while leaving home at 20:00 is not the
/// next morning's leaving. A routine's window reaches from the later of the day's start and 12
/// hours before its usual time to the earlier of the next day's start and 12 hours after it; when
/// the kind has other routines near it (breakfast, lunch and dinner; two coffees), the window
/// stops half-way to each: its slot.
public enum ActWindow {
  /// When a day begins for "already done today": 04:00 local time.
  public static let dayStart = TimeOfDay(hour: 4, minute: 0)!
  /// The furthest a window reaches from a routine's usual time, either way: 12 hours.
  public static let reach = 12 * 3600
  /// Routines of one kind closer than this on one day are one act: 3 hours.
  public static let sameActSeconds = 3 * 3600

  /// The window of a routine at `time` on a day when the kind's other routines lie at
  /// `others`, in seconds from that day's midnight (negative for the day before, past 86,400 for
  /// the day after): its start and end as wall-clock times.
  public static func slot(at time: TimeOfDay, others: [Int]) -> (start: TimeOfDay, end: TimeOfDay) {
    let t = time.secondsSinceMidnight
    let day = 86_400
    // The distance back to the day's start (a full day when the routine is at 04:00 itself).
    let sinceStart = floorMod(t - dayStart.secondsSinceMidnight - 1, day) + 1
    let untilStart = floorMod(dayStart.secondsSinceMidnight - t - 1, day) + 1
    var back = min(reach, sinceStart)
    var forward = min(reach, untilStart)
    for other in others where other != t {
      if other < t {
        back = min(back, (t - other) / 2)
      } else {
        forward = min(forward, (other - t) / 2)
      }
    }
    return (time.adding(seconds: -back), time.adding(seconds: forward))
  }

  /// The first instant at or after `instant` whose wall clock reads `time` (within two days):
  /// the end of an act window that starts at a firing.
  public static func next(_ time: TimeOfDay, atOrAfter instant: Int64, in zone: Zone) -> Int64 {
    var date = WallClock.localDate(at: instant, in: zone)
    for _ in 0..<3 {
      let candidate = WallClock.instant(on: date, at: time, in: zone)
      if candidate >= instant { return candidate }
      date = date.adding(days: 1)
    }
    return instant
  }

  /// The last instant at or before `instant` whose wall clock reads `time`.
  public static func previous(_ time: TimeOfDay, atOrBefore instant: Int64, in zone: Zone) -> Int64
  {
    var date = WallClock.localDate(at: instant, in: zone)
    for _ in 0..<3 {
      let candidate = WallClock.instant(on: date, at: time, in: zone)
      if candidate <= instant { return candidate }
      date = date.adding(days: -1)
    }
    return instant
  }

  /// The instants in which an act counts for the firing of `request` at `firing`: from the
  /// start of its look-back window (the firing itself without one) to the end of its act window
  /// (``RequestMetadata/actUntil``; else the next day's start, at most 12 hours on).
  public static func window(for request: NotificationRequest, at firing: Int64, in zone: Zone)
    -> ClosedRange<Int64>
  {
    let start = request.metadata?.lookBack?.window(before: firing, in: zone).lowerBound ?? firing
    let end: Int64
    if let until = request.metadata?.actUntil {
      end = min(next(until, atOrAfter: firing, in: zone), firing + Int64(2 * reach))
    } else {
      end = min(next(dayStart, atOrAfter: firing + 1, in: zone), firing + Int64(reach))
    }
    return min(start, firing)...max(end, firing)
  }
}

extension NotificationRequest {
  /// The kind whose logging means the act this request asks for is done: learned routines,
  /// activity and habit reminders, and their snoozed copies. `nil` for reminders with your own
  /// text (their "kind" is their text), task reminders (a task is done with `tasks done`) and
  /// outlier alerts.
  public var actKind: EventKind? {
    guard isTiedToKind, let name = metadata?.eventKind else { return nil }
    return EventKind(name)
  }

  /// Whether it has an ``actKind`` (without making the kind, which normalises its name).
  public var isTiedToKind: Bool {
    guard origin != .outlier, metadata?.eventKind != nil else { return false }
    switch category {
    case .reminder, .taskReminder, .outlierAlert: return false
    default: return true
    }
  }

  /// The key its adaptation and record are kept under: a reminder's id (`reminder-3`), or a
  /// learned request's id without its weekday (`routine_WakeUp` for
  /// `routine_WakeUp-weekday-2`); `nil` for one-time alerts.
  public var adaptationKey: String? {
    switch origin {
    case .reminder: return metadata?.reminderID ?? id
    case .learned: return NotificationRequest.key(ofLearned: id)
    case .snooze, .outlier: return nil
    }
  }

  /// A learned request's id without its `-weekday-N`.
  public static func key(ofLearned id: String) -> String {
    guard let range = id.range(of: "-weekday-", options: .backwards) else { return id }
    return String(id[..<range.lowerBound])
  }
}
