import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format ics`: an RFC 5545 calendar of every learned request and every
/// reminder defined (docs/calendar.md). The calendar itself is made by the core
/// (``ICalendarExport``); here the store is read and the file written.
enum CalendarExport {
  static func run(_ context: Context) throws -> ExitCode {
    let now = try context.nowSeconds()
    let date = try context.requireNow()
    let document = try context.reading { store, settings, zone throws -> ICalendarWriter in
      let from =
        try RangeOptions.bound(
          context, RangeOptions.from, now: date, zone: zone, meaning: .upcoming) ?? now
      let to = try RangeOptions.bound(
        context, RangeOptions.to, now: date, zone: zone, meaning: .upcoming)
      if let to, to <= from {
        throw UsageError(
          !context.arguments.isGiven(RangeOptions.from)
            ? "--to must come after the start, now (--from not given)"
            : "--to must come after --from",
          command: context.command)
      }
      let clock = context.clockStyle(settings)
      var requests = try store?.pendingRequests(clock: clock) ?? []
      if let kind = try EventSelectionOptions.kind(context) {
        requests = requests.filter { EventKind($0.metadata?.eventKind ?? "")?.key == kind.key }
      }
      let excluded = try skipped(
        requests, store: store, now: now, from: from, to: to, zone: zone, clock: clock)
      return ICalendarExport(
        zone: zone, now: now, from: from, to: to, excluded: excluded,
        product: "routine \(RoutineCLI.version)"
      ).document(for: requests)
    }
    let text = document.text
    let events = text.components(separatedBy: "BEGIN:VEVENT\r\n").count - 1
    try ExportCommand.write(
      text, summary: "a calendar of \(counted(events, "event"))", context: context)
    return .ok
  }

  /// The firings already known to be skipped, as `agenda` marks them (``Skips``): cancellations
  /// recorded when an activity was logged, slots handled before a change of zone, and firings
  /// whose look-back window has begun and holds the activity. Only those can be known now; they
  /// all lie within two days of `now` or at a cancellation recorded ahead.
  private static func skipped(
    _ requests: [NotificationRequest], store: EventStore?, now: Int64, from: Int64, to: Int64?,
    zone: Zone, clock: ClockStyle
  ) throws -> [String: [Firing]] {
    guard let store else { return [:] }
    let skips = try Skips(store: store, requests: requests, now: now, zone: zone, clock: clock)
    // Look-backs reach 48 hours; cancellations are recorded for the next 24 hours.
    let latestCancelled = try store.cancellations(from: now - 86_400).map(
      \.cancellation.occurrence.at
    )
    .max()
    let until = min(to ?? Int64.max, max(now + 49 * 3600, (latestCancelled ?? now) + 1))
    guard from < until else { return [:] }
    let days = ZoneDays(zone, from: from, to: until)
    var result: [String: [Firing]] = [:]
    for request in requests {
      var firings = request.trigger.firingSequence(from: from, to: until, days: days)
      while let firing = firings.next() {
        if skips.reason(request, at: firing) != nil {
          result[request.id, default: []].append(firing)
        }
      }
    }
    return result
  }
}
