import Foundation
import RoutineCore
import RoutineStore

/// `routine status`: one line for a status bar.
enum StatusCommand: Command {
  static let spec = CommandSpec(
    name: "status",
    summary: "One line for a status bar: the next reminder and how many are left today.",
    discussion: """
      Prints '18:00 Workout · 2 of 3 left today' (a reminder on another day shows its day,
      firings that will be skipped are not counted), or 'no reminders'. Made for waybar,
      polybar, i3status or tmux: it only reads, answers quickly, and prints a line even when
      there is no store yet. With --json: {"next": {"id", "at", "title"} or null, "today",
      "leftToday", "skippedToday"}.
      """,
    globals: ["store", "now", "tz", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    let (summary, zone, clock) = try context.reading { store, settings, zone in
      let clock = context.clockStyle(settings)
      let requests = try store?.pendingRequests(clock: clock) ?? []
      let skips = try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock)
      return (
        StatusSummary(requests: requests, now: now, zone: zone) { skips.reason($0, at: $1) },
        zone, clock
      )
    }
    if context.isJSON {
      let next: JSON =
        summary.next.map { item in
          .object([
            ("id", .string(item.request.id)),
            ("at", .string(TimeArgument.stamp(item.at, zone).iso8601)),
            ("title", .string(item.request.title)),
          ])
        } ?? .null
      context.output.line(
        JSON.object([
          ("next", next), ("today", .integer(summary.today)),
          ("leftToday", .integer(summary.leftToday)),
          ("skippedToday", .integer(summary.skippedToday)),
        ]).serialized())
      return .ok
    }
    guard let next = summary.next else {
      context.output.line("no reminders")
      return .ok
    }
    let stamp = TimeArgument.stamp(next.at, zone)
    let today = WallClock.localDate(at: now, in: zone)
    let day = stamp.localDate == today ? "" : "\(stamp.localDate.weekdayName) "
    context.output.line(
      "\(day)\(clock.format(stamp.timeOfDay)) \(TerminalText.escaped(next.request.title))"
        + " · \(summary.leftToday) of \(summary.today) left today")
    return .ok
  }
}

/// What `status` counts: the next firing that is not skipped, and today's firings.
struct StatusSummary {
  var next: Agenda.Item?
  var today = 0
  var leftToday = 0
  var skippedToday = 0

  init(
    requests: [NotificationRequest], now: Int64, zone: Zone,
    skipped: (NotificationRequest, Firing) -> String?
  ) {
    let date = WallClock.localDate(at: now, in: zone)
    let midnight = WallClock.instant(on: date, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let tomorrow = WallClock.instant(
      on: date.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    for item in Agenda.items(for: requests, from: midnight, to: tomorrow, in: zone) {
      if skipped(item.request, item.firing) != nil {
        skippedToday += 1
        continue
      }
      today += 1
      if item.at > now {
        leftToday += 1
        if next == nil { next = item }
      }
    }
    guard next == nil else { return }
    // Nothing more today: the soonest firing after, not skipped, within a month.
    for request in requests {
      var after = max(now, tomorrow - 1)
      for _ in 0..<8 {
        guard let firing = request.trigger.nextFiring(after: after, in: zone),
          firing.at < now + 31 * 86_400
        else { break }
        let at = firing.at
        if skipped(request, firing) == nil {
          if next.map({ (at, request.id) < ($0.at, $0.request.id) }) ?? true {
            next = Agenda.Item(at: at, request: request, slot: firing.slot)
          }
          break
        }
        after = at
      }
    }
  }
}
