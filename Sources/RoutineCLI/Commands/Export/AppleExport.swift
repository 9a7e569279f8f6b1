import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format apple-json`: the pending requests and the categories as the JSON an
/// iOS or macOS app turns into `UNNotificationRequest`s and `UNNotificationCategory`s, one to one
/// (docs/apple.md).
enum AppleExport {
  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    // What is pending now, as an app schedules it: a range means nothing here.
    for option in [RangeOptions.from, RangeOptions.to] where context.arguments.isGiven(option) {
      throw UsageError(
        "--\(option.name): apple-json writes the requests pending now; --from and --to select events (csv, jsonl) or a calendar's range (ics)",
        command: context.command)
    }
    let kind = try EventSelectionOptions.kind(context)
    let (document, count) = try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      var requests = try store?.pendingRequests(clock: clock) ?? []
      if let kind {
        requests = requests.filter { EventKind($0.metadata?.eventKind ?? "")?.key == kind.key }
      }
      let mapped = AppleNotifications.requests(from: requests, now: now, in: zone)
      return (
        json(mapped, now: now, zone: zone, snoozeMinutes: settings.snoozeMinutes), mapped.count
      )
    }
    try ExportCommand.write(
      document.serialized() + "\n",
      summary:
        "\(counted(count, "notification request")) and \(NotificationCategory.all.count) categories",
      context: context)
    return .ok
  }

  /// The whole document: the categories first (an app registers them before it schedules).
  static func json(
    _ requests: [AppleNotificationRequest], now: Int64, zone: Zone, snoozeMinutes: Int
  ) -> JSON {
    .object([
      ("format", .string("routine-apple-notifications")), ("version", .integer(1)),
      ("generated", .string(RequestFormatting.stamp(now, zone).iso8601)),
      ("timeZone", .string(zone.identifier)),
      (
        "categories",
        .array(
          NotificationCategory.all.map { category in
            .object([
              ("identifier", .string(category.id.rawValue)),
              (
                "actions",
                .array(
                  category.actions(snoozeMinutes: snoozeMinutes).map { action in
                    .object([
                      ("identifier", .string(action.id)), ("title", .string(action.title)),
                      ("options", .array(options(action.kind).map(JSON.string))),
                    ])
                  })
              ),
            ])
          })
      ),
      ("requests", .array(requests.map { json($0, zone: zone) })),
    ])
  }

  /// `UNNotificationActionOptions`: a foreground action opens the app, a destructive one is
  /// shown as such; a background action has none.
  static func options(_ kind: NotificationCategory.ActionKind) -> [String] {
    switch kind {
    case .foreground: ["foreground"]
    case .destructive: ["destructive"]
    case .background: []
    }
  }

  static func json(_ item: AppleNotificationRequest, zone: Zone) -> JSON {
    let request = item.request
    let metadata = request.metadata
    var userInfo: [(String, JSON)] = [
      ("routineID", .string(request.id)), ("origin", .string(request.origin.rawValue)),
      ("eventKind", .optional(metadata?.eventKind)),
      ("suggestedTime", .optional(metadata?.suggestedTime?.description)),
    ]
    if let confidence = metadata?.confidence {
      userInfo.append(("confidence", .rounded(confidence, places: 3)))
    }
    if let reminder = metadata?.reminderID { userInfo.append(("reminderID", .string(reminder))) }
    if let link = metadata?.link {
      userInfo.append(("link", .object([("id", .string(link.id)), ("name", .string(link.name))])))
    }
    let parts = item.components
    var components: [(String, JSON)] = []
    if let year = parts.year { components.append(("year", .integer(year))) }
    if let month = parts.month { components.append(("month", .integer(month))) }
    if let day = parts.day { components.append(("day", .integer(day))) }
    if let weekday = parts.weekday { components.append(("weekday", .integer(weekday))) }
    components += [("hour", .integer(parts.hour)), ("minute", .integer(parts.minute))]
    if let second = parts.second { components.append(("second", .integer(second))) }
    if let timeZone = item.timeZone { components.append(("timeZone", .string(timeZone))) }
    return .object([
      ("identifier", .string(item.identifier)),
      (
        "content",
        .object([
          ("title", .string(request.title)), ("body", .string(request.body)),
          ("categoryIdentifier", .string(request.category.rawValue)),
          ("threadIdentifier", .string(metadata?.eventKind ?? request.origin.rawValue)),
          ("interruptionLevel", .string(metadata?.isAlarm == true ? "timeSensitive" : "active")),
          ("userInfo", .object(userInfo)),
        ])
      ),
      (
        "trigger",
        .object([
          ("type", .string("calendar")), ("dateComponents", .object(components)),
          ("repeats", .bool(item.repeats)),
        ])
      ),
      ("nextFire", .string(RequestFormatting.stamp(item.nextFire, zone).iso8601)),
    ])
  }
}
