import Foundation
import RoutineCore

/// What the checks after logging did.
public struct LoggingEffects: Sendable {
  /// Firings cancelled because their activity is done.
  public var cancellations: [Cancellation] = []
  /// Outlier alerts scheduled (they fire at once; the next delivery delivers them).
  public var alerts: [NotificationRequest] = []
  /// Snoozed copies removed, each with the event that did its act.
  public var closed: [(snooze: NotificationRequest, event: Event)] = []

  /// Nothing done.
  public init() {}
}

extension EventStore {
  /// Every pending request: the stored ones (learned, snooze and outlier alerts) and those of
  /// the reminders people defined (derived from their definitions), ordered by identifier.
  /// With `zone`, texts that count time say the real time left (``ReminderPlanner/zone``).
  public func pendingRequests(clock: ClockStyle, zone: Zone? = nil, adapted: Bool = true) throws
    -> [NotificationRequest]
  {
    try read {
      let derived = ReminderPlanner(clock: clock, zone: zone).requests(
        for: try reminders(), habits: try habits(), tasks: try tasks(),
        adaptations: adapted ? try adaptationsInForce() : [:])
      return (try requests() + derived).sorted { $0.id < $1.id }
    }
  }

  /// The records adaptation acts on: none when it is turned off (`settings --adapt false`).
  func adaptationsInForce() throws -> [String: AdaptationRecord] {
    try settings().adapts ? try adaptations() : [:]
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
        var records: [String: AdaptationRecord] = [:]
        if reminder.adapt == .on, try settings().adapts {
          records[reminder.id] = try adaptation(key: reminder.id)
        }
        let derived = ReminderPlanner(clock: clock).requests(
          for: [reminder], habits: linked ? try habits() : [], tasks: linked ? try tasks() : [],
          adaptations: records)
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

  /// The checks after `events` were logged, in the caller's transaction: the facts are read
  /// here, ``AfterLogging`` decides, and its effects are applied (docs/delivery.md): firings of
  /// your reminders made unnecessary are cancelled, snoozed copies of what was done are removed,
  /// and an event far off its routine schedules an outlier alert, once.
  public func afterLogging(
    _ events: [Event], now: Int64, in zone: Zone, clock: ClockStyle
  ) throws -> LoggingEffects {
    var effects = LoggingEffects()
    let recent = AfterLogging.recent(events, now: now)
    guard !recent.isEmpty else { return effects }
    try write {
      var facts = AfterLogging.Facts(events: recent)
      // The reminders watching a kind that counts the logged one (a "Mindfulness" logged for
      // the mindfulness reminder, which watches "Meditation").
      var seen = Set<String>()
      let kinds = recent.flatMap { ActivityPreset.kinds(countingAs: $0.kind) }.filter {
        seen.insert($0.key).inserted
      }
      var watching: [Reminder] = []
      var watchingIDs = Set<String>()
      for kind in kinds {
        for reminder in try reminders(watching: kind) where watchingIDs.insert(reminder.id).inserted
        {
          watching.append(reminder)
        }
      }
      if !watching.isEmpty {
        facts.watching = ReminderPlanner(clock: clock).requests(
          for: watching, habits: try habits(), tasks: try tasks(),
          adaptations: try adaptationsInForce())
      }
      let stored = try readRequests()
      facts.snoozes = stored.filter { $0.origin == .snooze }
      var eventKinds: [String: EventKind] = [:]
      for event in recent where event.timestamp.secondsSince1970 >= now - 86_400 {
        eventKinds[event.kind.key] = event.kind
      }
      for kind in eventKinds.values {
        let routines = try learnedRoutines(of: kind)
        guard !routines.isEmpty else { continue }
        facts.routines[kind.key] = routines
        let times = recent.filter { $0.kind.key == kind.key }.map(\.timestamp.secondsSince1970)
        facts.times[kind.key] = try eventTimes(
          of: kind, from: times.min()! - AfterLogging.outlierContextBefore,
          to: times.max()! + 86_400)
      }
      facts.knownAlerts = Set(stored.filter { $0.origin == .outlier }.map(\.id))
      for effect in AfterLogging.decide(facts, now: now, in: zone, clock: clock) {
        switch effect {
        case .cancel(let cancellation):
          if try addCancellations([cancellation], at: now) > 0 {
            effects.cancellations.append(cancellation)
          }
        case .unschedule(let snooze, let event):
          if try cancelRequest(id: snooze.id) { effects.closed.append((snooze, event)) }
        case .alert(let alert):
          // Delivered before (and gone from the pending ones): the same outlier never alerts
          // twice.
          guard try latestDelivery(requestID: alert.id) == nil else { continue }
          try insertRequest(alert)
          effects.alerts.append(alert)
        }
      }
    }
    return effects
  }
}
