import Foundation
import RoutineCore

/// How requests and their triggers are shown.
enum RequestFormatting {
  /// `Mon 06:41`, `daily 19:07`, `Mon,Wed 18:00`, `day 31 09:00`, or the date of a one-time
  /// trigger in `zone`.
  static func trigger(_ trigger: Trigger, in zone: Zone) -> String {
    switch trigger {
    case .calendar(let calendar):
      var days: String
      if let dayOfMonth = calendar.dayOfMonth {
        days = "day \(dayOfMonth)"
      } else if let weekday = calendar.weekday {
        days = LocalDate(daysSince1970: 2 + weekday).weekdayName
      } else if calendar.weekdays.isEmpty || calendar.weekdays == .everyDay {
        days = "daily"
      } else {
        days = calendar.weekdays.map { LocalDate(daysSince1970: 2 + $0).weekdayName }
          .joined(separator: ",")
      }
      return "\(days) \(calendar.time)" + (calendar.repeats ? "" : " once")
    case .date(let at):
      let timestamp = stamp(at, zone)
      return "once \(timestamp.localDate) \(EventFormatting.clock(timestamp.timeOfDay))"
    case .local(let date, let time):
      return "once \(date) \(time)"
    }
  }

  /// The wall-clock time a trigger fires at (`06:42`), or `once` for an instant.
  static func time(of trigger: Trigger) -> String {
    switch trigger {
    case .calendar(let calendar): "\(calendar.time)"
    case .local(_, let time): "\(time)"
    case .date: "once"
    }
  }

  /// The instant with the zone's offset.
  static func stamp(_ instant: Int64, _ zone: Zone) -> Timestamp {
    Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
  }

  /// `12h`, `sameDay` (since the local midnight), `25m` or `since 04:00`, as `pending --json`
  /// shows a look-back.
  static func lookBackText(_ lookBack: LookBack) -> String {
    switch lookBack {
    case .hours(let hours): "\(hours)h"
    case .sameDay: "sameDay"
    case .minutes(let minutes): "\(minutes)m"
    case .since(let time): "since \(time)"
    }
  }

  /// The trigger as documented for `pending --json`.
  static func json(_ trigger: Trigger, in zone: Zone) -> JSON {
    switch trigger {
    case .calendar(let calendar):
      var members: [(String, JSON)] = [("type", .string("calendar"))]
      if let weekday = calendar.weekday { members.append(("weekday", .integer(weekday))) }
      members += [
        ("hour", .integer(calendar.hour)), ("minute", .integer(calendar.minute)),
        ("repeats", .bool(calendar.repeats)),
      ]
      if calendar.weekdays.count > 1 {
        members.append(("weekdays", .array(calendar.weekdays.map { .integer($0) })))
      }
      if let day = calendar.dayOfMonth { members.append(("dayOfMonth", .integer(day))) }
      return .object(members)
    case .date(let at):
      return .object([("type", .string("date")), ("at", .string(stamp(at, zone).iso8601))])
    case .local(let date, let time):
      return .object([
        ("type", .string("local")), ("date", .string(date.description)),
        ("time", .string(time.description)),
      ])
    }
  }

  /// A request as documented for `pending --json` (`nextFire` after `now`).
  static func json(_ request: NotificationRequest, now: Int64, in zone: Zone) -> JSON {
    let metadata: JSON =
      request.metadata.map { metadata in
        .object([
          ("event", .string(metadata.eventKind)),
          ("suggestedTime", .optional(metadata.suggestedTime?.description)),
          ("confidence", .rounded(metadata.confidence, places: 3)),
          ("reminder", .optional(metadata.reminderID)),
          ("lookBack", .optional(metadata.lookBack.map(lookBackText))),
          ("alarm", .bool(metadata.isAlarm)),
          ("link", .optional(metadata.link?.id)),
          ("actUntil", .optional(metadata.actUntil?.description)),
          ("adaptation", .optional(metadata.adaptation)),
        ])
      } ?? .null
    return .object([
      ("id", .string(request.id)),
      ("category", .string(request.category.rawValue)),
      ("title", .string(request.title)),
      ("body", .string(request.body)),
      ("trigger", json(request.trigger, in: zone)),
      (
        "nextFire",
        .optional(request.trigger.nextFire(after: now, in: zone).map { stamp($0, zone).iso8601 })
      ),
      ("metadata", metadata),
      ("origin", .string(request.origin.rawValue)),
    ])
  }
}
