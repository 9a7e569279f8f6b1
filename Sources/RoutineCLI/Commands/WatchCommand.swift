import Foundation
import RoutineCore
import RoutineStore

/// `routine watch [--sink ...] [--exec CMD]`
enum WatchCommand: Command {
  static let spec = CommandSpec(
    name: "watch",
    summary: "Stay running in a desktop session: deliver each reminder when it falls due.",
    discussion: """
      Sleeps until the next firing (no polling: an idle watch never wakes), delivers through the
      sink exactly as 'routine deliver' does, plans again every night at 03:00, and notices
      events, answers and edits made by other routine processes at once. Stops cleanly on
      SIGTERM and SIGINT; SIGHUP makes it look again now. docs/delivery.md has a systemd user
      service for it. Use either watch or the cron line, not both (both together still deliver
      each firing once).
      """,
    options: SinkOptions.options,
    globals: ["store", "tz"],
    jsonNote: "its stdout sink writes each notification as a line of JSON")

  static func run(_ context: Context) throws -> ExitCode {
    let sink = try SinkOptions.sink(context)
    let store = try context.openOrCreateStore()
    let waiter = try Waiter(storePath: store.path)
    let clock = context.environment.clock
    let watcher = Watcher(
      store: store, context: context, sink: sink,
      now: { Int64(clock().timeIntervalSince1970.rounded(.down)) },
      wait: { waiter.wait(until: $0) })
    return try watcher.run()
  }
}

/// The loop of `routine watch`, apart from how it sleeps and tells the time, so that tests can
/// drive it with a clock of their own.
struct Watcher {
  let store: EventStore
  let context: Context
  let sink: NotificationSink
  /// The time, seconds since 1970.
  let now: () -> Int64
  /// Sleeps until the instant, or until something else wakes it.
  let wait: (Int64) -> Wake
  /// Called with each instant it decided to sleep until (tests check there is no polling).
  var onSleep: (Int64) -> Void = { _ in }
  /// Reads the desktop (tests give their own); `nil`: the desktop of the environment.
  var readPresence: ((HoldRules) -> (presence: Presence, problems: [String]))? = nil

  /// How long to wait before trying again when another process holds the store.
  static let busyRetrySeconds: Int64 = 5

  func run() throws -> ExitCode {
    var zone = try context.userTimeZone(try store.settings())
    var nextPlan = WatchSchedule.nextPlan(after: now(), in: zone)
    var seen = try store.dataVersion()
    var mustDeliver = true
    // When the held firings need another look (the last delivery run said).
    var heldLook: Int64?
    while true {
      let time = now()
      var wakeAt: Int64
      do {
        zone = try context.userTimeZone(try store.settings())
        if time >= nextPlan {
          try replan(at: time, zone: zone)
          nextPlan = WatchSchedule.nextPlan(after: time, in: zone)
        }
        if mustDeliver {
          var deliverer = Deliverer.reading(store: store, context: context)
          if let readPresence { deliverer.readPresence = readPresence }
          let report = try deliverer.run(sink: sink, now: time)
          try DeliverCommand.show(report, sink: sink, store: store, context: context)
          heldLook = report.nextLook
        }
        wakeAt = try nextWake(after: time, nextPlan: nextPlan, zone: zone)
        if let heldLook { wakeAt = min(wakeAt, max(heldLook, time + 1)) }
      } catch let error as StoreError where error.isBusy {
        // A long import holds the store: try again shortly rather than stop watching.
        context.warn("\(error); trying again in \(Watcher.busyRetrySeconds) seconds")
        context.errors.flush()
        wakeAt = time + Watcher.busyRetrySeconds
      }
      onSleep(wakeAt)
      switch wait(wakeAt) {
      case .stop:
        return .ok
      case .time, .clockChanged, .reload:
        mustDeliver = true
      case .storeChanged:
        // Its own writes do not change data_version: only another process's edits (a logged
        // event, an answer, a new reminder) make it look again.
        let version = try store.dataVersion()
        mustDeliver = version != seen
        seen = version
      }
    }
  }

  private func nextWake(after time: Int64, nextPlan: Int64, zone: Zone) throws -> Int64 {
    try store.read {
      let clock = context.clockStyle(try store.settings())
      let requests = try store.pendingRequests(clock: clock)
      let alarms = try store.unansweredAlarms(since: time - 86_400).map {
        (occurrence: $0.due.firstRing, rings: $0.attempt + 1)
      }
      return WatchSchedule.nextWake(
        requests: requests, unansweredAlarms: alarms, now: time, nextPlan: nextPlan, in: zone)
    }
  }

  private func replan(at time: Int64, zone: Zone) throws {
    let change = try store.write {
      try PlanCommand.plan(
        store, settings: try store.settings(), zone: zone,
        now: Date(timeIntervalSince1970: Double(time)), dryRun: false, context: context
      ).change
    }
    guard sink.kind.reportsDeliveries else { return }
    context.output.line(
      "planned: \(change.added.count) added, \(change.replaced.count) replaced, "
        + "\(change.removed.count) removed, \(change.kept.count) kept")
    context.output.flush()
  }
}
