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
    let path = try outPath(context)
    let document = try context.reading { store, settings, zone throws -> ICalendarWriter in
      let from = try RangeOptions.bound(context, "from", now: date, zone: zone) ?? now
      let to = try RangeOptions.bound(context, "to", now: date, zone: zone)
      if let to, to <= from {
        throw UsageError(
          context.arguments.value("from") == nil
            ? "--to must come after the start, now (--from not given)"
            : "--to must come after --from",
          command: context.command)
      }
      let clock = context.clockStyle(settings)
      var requests = try store?.pendingRequests(clock: clock) ?? []
      if let name = context.arguments.value("event") {
        guard let kind = EventKind(name) else {
          throw UsageError("--event: the name is empty", command: context.command)
        }
        requests = requests.filter { EventKind($0.metadata?.eventKind ?? "")?.key == kind.key }
      }
      let excluded = try skipped(
        requests, store: store, now: now, from: from, to: to, zone: zone, clock: clock)
      return ICalendarExport(
        zone: zone, now: now, from: from, to: to, excluded: excluded,
        product: "routine \(RoutineCLI.version)"
      ).document(for: requests)
    }
    if let path {
      // The store's reminders, as private as the store (0600); an existing file keeps its mode.
      let writer = try FileWriter(path: path, newFileMode: 0o600)
      try writer.write(document.text)
      try writer.finish()
    } else {
      context.output.writeVerbatim(document.text)
    }
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

  /// The file `--out` names, or `nil` for standard output (no option, or `-`), refused like
  /// ``Context/outputPath(command:)`` refuses `--output`: empty, or the store or a file SQLite
  /// keeps beside it. (To go once `outputPath` takes the option's name.)
  private static func outPath(_ context: Context) throws -> String? {
    guard let path = context.arguments.value("out"), path != "-" else { return nil }
    let command = context.command ?? "export"
    guard !path.isEmpty else {
      throw UsageError("--out: expected a file path, found an empty value", command: command)
    }
    if let target = FileSystem.identity(of: path), let store = try? context.storePath() {
      let files = ["", "-wal", "-shm", "-journal"].compactMap {
        FileSystem.identity(of: store + $0)
      }
      if files.contains(target) {
        throw UsageError(
          "--out: '\(context.displayPath(path))' is the store, or a file SQLite keeps beside it; writing there would replace every event: give another file",
          command: command)
      }
    }
    return path
  }
}
