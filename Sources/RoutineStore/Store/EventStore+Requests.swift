import Foundation
import RoutineCore

/// What the checks after logging did.
public struct LoggingEffects: Sendable {
  /// Firings cancelled because their activity is done.
  public var cancellations: [Cancellation] = []
  /// Outlier alerts scheduled (they fire at once; the next delivery delivers them).
  public var alerts: [NotificationRequest] = []

  /// Nothing done.
  public init() {}
}

extension EventStore {
  /// Every pending request: the stored ones (learned, snooze and outlier alerts) and those of
  /// the reminders people defined (derived from their definitions), ordered by identifier.
  public func pendingRequests(clock: ClockStyle) throws -> [NotificationRequest] {
    try read {
      let derived = ReminderPlanner(clock: clock).requests(
        for: try reminders(), habits: try habits(), tasks: try tasks())
      return (try requests() + derived).sorted { $0.id < $1.id }
    }
  }

  /// The request `id` among the pending ones, if it is pending.
  public func pendingRequest(id: String, clock: ClockStyle) throws -> NotificationRequest? {
    try read {
      if let stored = try readRequests(id: id).first { return stored }
      // A reminder's requests carry its id, alone or followed by `-weekday-N`: derive only
      // that reminder's (an answer must not cost a plan of every reminder).
      let reminderID = id.firstRange(of: "-weekday-").map { String(id[..<$0.lowerBound]) } ?? id
      if let reminder = try reminder(id: reminderID) {
        let linked = reminder.link != nil
        let derived = ReminderPlanner(clock: clock).requests(
          for: [reminder], habits: linked ? try habits() : [], tasks: linked ? try tasks() : [])
        if let found = derived.first(where: { $0.id == id }) { return found }
      }
      return try pendingRequests(clock: clock).first { $0.id == id }
    }
  }

  /// Sets two keys of the store's state in one statement (delivery's watermark: it runs every
  /// minute, and each statement prepared costs).
  public func setState(_ first: (String, String), _ second: (String, String)) throws {
    try write {
      let upsert = try connection.prepare(
        """
        INSERT INTO state (key, value) VALUES (?, ?), (?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """)
      try upsert.bind(first.0, at: 1)
      try upsert.bind(first.1, at: 2)
      try upsert.bind(second.0, at: 3)
      try upsert.bind(second.1, at: 4)
      try upsert.step()
    }
  }

  /// The checks after `events` were logged, in the caller's transaction (docs/reminders.md,
  /// docs/delivery.md): firings in the next 24 hours whose look-back window holds one of them
  /// are cancelled (reverse smart reminders); and an event of the last 24 hours far off its
  /// saved routine schedules an outlier alert, once (the same outlier never alerts twice).
  /// Events older than the longest look-back are skipped by both: a bulk import of history
  /// cancels nothing and raises no alert.
  public func afterLogging(
    _ events: [Event], now: Int64, in zone: Zone, clock: ClockStyle
  ) throws -> LoggingEffects {
    var effects = LoggingEffects()
    // 48 hours is the longest look-back an activity reminder offers.
    let recent = events.filter { $0.timestamp.secondsSince1970 >= now - 48 * 3600 }
    guard !recent.isEmpty else { return effects }
    try write {
      // The reminders watching a kind that counts the logged one (a "Mindfulness" logged for
      // the mindfulness reminder, which watches "Meditation").
      var seen = Set<String>()
      let kinds = recent.flatMap { ActivityPreset.kinds(countingAs: $0.kind) }.filter {
        seen.insert($0.key).inserted
      }
      let planner = ReminderPlanner(clock: clock)
      let habits = try habits()
      let tasks = try tasks()
      for kind in kinds {
        let watching = try reminders(watching: kind)
        guard !watching.isEmpty else { continue }
        let requests = planner.requests(for: watching, habits: habits, tasks: tasks)
        let counting = Set(ActivityPreset.kinds(countingAs: kind).map(\.key))
        let found = Cancellation.cancellations(
          for: recent.filter { counting.contains($0.kind.key) }, requests: requests, now: now,
          in: zone)
        if try addCancellations(found, at: now) > 0 { effects.cancellations += found }
      }
      for event in recent
      where event.timestamp.secondsSince1970 >= now - 86_400
        && event.timestamp.secondsSince1970 <= now + 60
      {
        let routines = try learnedRoutines(of: event.kind)
        guard !routines.isEmpty else { continue }
        let around = event.timestamp.secondsSince1970
        let others = try eventTimes(of: event.kind, from: around - 8 * 86_400, to: around + 86_400)
        guard
          let outlier = OutlierCheck.outlier(
            event, routines: routines, others: others, clock: clock)
        else { continue }
        let alert = NotificationRequest.outlierAlert(for: outlier, firingAt: now)
        let known =
          try requests().contains { $0.id == alert.id }
          || latestDelivery(requestID: alert.id) != nil
        guard !known else { continue }
        try insertRequest(alert)
        effects.alerts.append(alert)
      }
    }
    return effects
  }
}
