import Foundation

/// An occurrence that has come due, as the request it comes from, and for an alarm which
/// delivery of it this is.
public struct DueOccurrence: Hashable, Sendable {
  /// The request.
  public var request: NotificationRequest
  /// The firing, with its slot: a slot is delivered at most once, whatever the zone did in
  /// between.
  public var occurrence: Occurrence
  /// 0 for the firing itself; 1, 2, ... for an unanswered alarm delivered again.
  public var attempt: Int
  /// When this attempt is due (the firing, or a re-delivery after it).
  public var dueAt: Int64

  /// A due firing.
  public init(request: NotificationRequest, occurrence: Occurrence, attempt: Int, dueAt: Int64) {
    self.request = request
    self.occurrence = occurrence
    self.attempt = attempt
    self.dueAt = dueAt
  }

  /// The first delivery of `request`'s `firing`.
  public init(request: NotificationRequest, firing: Firing) {
    self.init(
      request: request, occurrence: Occurrence(requestID: request.id, firing: firing), attempt: 0,
      dueAt: firing.at)
  }

  /// The local date and wall-clock time the firing belongs to.
  public var slot: FiringSlot? { occurrence.slot }

  /// When the first delivery of the firing was due to go out: the firing, or for an alarm held
  /// and released, its release (each further ring is due ``Reminder/alarmInterval`` minutes
  /// after the one before).
  public var firstRing: Int64 { dueAt - Int64(attempt * Reminder.alarmInterval * 60) }
}

/// What delivery does with a due occurrence.
public enum DeliveryOutcome: Hashable, Sendable {
  /// Deliver it; `late` when it is being delivered more than a minute after it was due.
  case deliver(late: Bool)
  /// Too late to be useful (older than the grace period): recorded, not delivered.
  case missed
  /// Not needed: the activity was done in its look-back window (the forward check).
  case suppressed(reason: String)
  /// Skipped by a cancellation recorded when the activity was logged.
  case cancelled(reason: String)
  /// Skipped by another rule: superseded by a reminder of the same act, backing off, paused,
  /// the daily cap.
  case skipped(SkipRule, reason: String)
}

/// How far delivery has looked: the instant of the last run, and the wall clock it read then in
/// the user's zone of that run.
///
/// The wall clock is what makes a trip safe: the firings a run has handled are those whose
/// local date and time had come on its clock, so after a change of zone the next run takes up
/// exactly the slots whose wall-clock time had not come yet (docs/delivery.md).
public struct DeliveryWatermark: Hashable, Sendable {
  /// Seconds since 1970 UTC.
  public var instant: Int64
  /// The wall clock at ``instant`` as naive local seconds (no zone applied).
  public var localSeconds: Int64

  /// A watermark.
  public init(instant: Int64, localSeconds: Int64) {
    self.instant = instant
    self.localSeconds = localSeconds
  }

  /// The watermark of a run at `instant` in `zone`.
  public init(instant: Int64, in zone: Zone) {
    self.init(instant: instant, localSeconds: instant + zone.offset(at: instant))
  }
}

/// The events of a request's kind in a firing's look-back window, as the shell could read them.
public enum LookBackEvents: Hashable, Sendable {
  /// The request has no look-back, or its window has not begun (nothing to know yet).
  case notChecked
  /// The times of the events of its kind around the window.
  case found([Timestamp])
  /// The log could not be read (the reason): the fail-safe fires the reminder.
  case unreadable(String)
}

/// Why a firing that comes due is not delivered.
public enum Skip: Hashable, Sendable {
  /// A cancellation recorded when the activity was logged.
  case cancelled(reason: String)
  /// The activity is in the firing's look-back window.
  case suppressed(reason: String)
  /// The firing's slot (its local date and time) was already handled at this instant: before a
  /// change of zone, or by another run.
  case alreadyHandled(at: Int64)
  /// Another rule: superseded, backing off, paused, the daily cap.
  case rule(SkipRule, reason: String)
}

/// A reminder you defined for the same act, firing near a learned one on the same day: the
/// learned one gives way (one reminder per act).
public struct DefinedFiring: Hashable, Sendable {
  /// The reminder.
  public var reminderID: String
  /// When it fires.
  public var at: Int64

  /// A firing of `reminderID` at `at`.
  public init(reminderID: String, at: Int64) {
    self.reminderID = reminderID
    self.at = at
  }
}

/// The day's cap on reminders (`settings --daily-cap`), as delivery counts it.
public struct DailyCap: Hashable, Sendable {
  /// At most this many reminders a day (alarms and task reminders aside).
  public var limit: Int
  /// Delivered so far today (alarms and task reminders aside).
  public var delivered: Int
  /// Reminders you defined still to fire today: a learned one gives way to them.
  public var definedAhead: Int

  /// A cap.
  public init(limit: Int, delivered: Int, definedAhead: Int) {
    self.limit = limit
    self.delivered = delivered
    self.definedAhead = definedAhead
  }
}

/// What the store knows about one firing, gathered by the shell so that the decision stays
/// pure.
public struct FiringFacts: Hashable, Sendable {
  /// The cancellation of this firing, if one was recorded.
  public var cancellation: StoredCancellation?
  /// The events in its look-back window.
  public var events: LookBackEvents
  /// When its slot was already handled (delivered, missed or skipped), if it was.
  public var handledAt: Int64?
  /// A reminder you defined for its act, firing near it that day (a learned one only).
  public var superseding: DefinedFiring?
  /// What the last plan decided for its reminder (``AdaptationRecord``), and the days of the
  /// week the reminder is on (its requests together).
  public var adaptation: (record: AdaptationRecord, onDays: WeekdaySet)?
  /// The day's cap, when one is set.
  public var cap: DailyCap?
  /// When delivery checks (`nil` for a forecast): a firing delivered late is not needed when
  /// its act was logged after it, before the check.
  public var checkedAt: Int64?

  /// Facts.
  public init(
    cancellation: StoredCancellation? = nil, events: LookBackEvents = .notChecked,
    handledAt: Int64? = nil, superseding: DefinedFiring? = nil,
    adaptation: (record: AdaptationRecord, onDays: WeekdaySet)? = nil, cap: DailyCap? = nil,
    checkedAt: Int64? = nil
  ) {
    self.cancellation = cancellation
    self.events = events
    self.handledAt = handledAt
    self.superseding = superseding
    self.adaptation = adaptation
    self.cap = cap
    self.checkedAt = checkedAt
  }

  /// Equal when every fact is.
  public static func == (lhs: FiringFacts, rhs: FiringFacts) -> Bool {
    lhs.cancellation == rhs.cancellation && lhs.events == rhs.events
      && lhs.handledAt == rhs.handledAt && lhs.superseding == rhs.superseding
      && lhs.adaptation?.record == rhs.adaptation?.record
      && lhs.adaptation?.onDays == rhs.adaptation?.onDays && lhs.cap == rhs.cap
      && lhs.checkedAt == rhs.checkedAt
  }

  /// Hashes every fact.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(cancellation)
    hasher.combine(events)
    hasher.combine(handledAt)
    hasher.combine(superseding)
    hasher.combine(adaptation?.record)
    hasher.combine(adaptation?.onDays)
    hasher.combine(cap)
    hasher.combine(checkedAt)
  }
}

/// The rules of `routine deliver` (docs/delivery.md), as pure functions of the requests, the
/// time and what the store knows.
public struct DeliveryPolicy: Sendable {
  /// Occurrences up to this late are still delivered (marked late); older ones are missed.
  public var graceSeconds: Int64
  /// Lateness that marks a delivery late (a run of cron every minute is not late).
  public static let lateAfterSeconds: Int64 = 60
  /// How far back delivery looks after downtime: occurrences older than a week are neither
  /// delivered nor recorded.
  public static let horizonSeconds: Int64 = 7 * 86_400

  /// A policy with the grace period `graceMinutes`. A grace period under a minute (0, the
  /// setting's lower bound) is a minute: a firing that a run within its minute delivers is on
  /// time (``lateAfterSeconds``), so it cannot be missed either; with 0, cron's run 20 seconds
  /// after 06:46 recorded the 06:46 reminder missed, "0 minutes late".
  public init(graceMinutes: Int) {
    graceSeconds = max(Int64(graceMinutes) * 60, DeliveryPolicy.lateAfterSeconds)
  }

  /// Where a run starts looking: the grace period back, or further, to the last run's
  /// `checkedUntil`, after downtime (so what was missed is recorded as missed); never more than
  /// ``horizonSeconds``.
  ///
  /// Always at least the grace period: a firing can move into the past after a run looked, when
  /// the time zone changes or a reminder is added or edited, and it is still delivered (late).
  /// Claims are unique per firing, so looking again delivers nothing twice.
  public func start(checkedUntil: Int64?, now: Int64) -> Int64 {
    max(min(checkedUntil ?? now, now - graceSeconds), now - DeliveryPolicy.horizonSeconds)
  }

  /// The firings of `requests` due by `now` that the last run (`checked`) had not yet taken up,
  /// in order; none at or before a request's ``RequestMetadata/activeSince``.
  ///
  /// A wall-clock firing is taken up by the run whose wall clock first reaches its slot, so a
  /// run looks at the slots after the wall clock the last run read (at least the grace period
  /// back, at most a week): after a trip west, the slots already handled are not looked at
  /// again except within the grace period (where their claims keep them from firing twice);
  /// after a trip east, the slots the jump skipped are looked at, and are delivered late or
  /// recorded missed. An instant (a snooze) is due once its instant has passed, as before.
  public func due(
    _ requests: [NotificationRequest], checked: DeliveryWatermark?, now: Int64, in zone: Zone
  ) -> [DueOccurrence] {
    let nowLocal = now + zone.offset(at: now)
    // The grace period back on the wall clock, or what the clock read that long ago when that is
    // earlier: a first run at 03:00:30 on a spring-forward night must still see the 02:30 slot
    // that fired at 03:00, though 02:45 is where 15 minutes back on the wall clock lands.
    let graceAgo = now - graceSeconds
    let lowLocal = max(
      min(
        checked?.localSeconds ?? nowLocal, nowLocal - graceSeconds,
        graceAgo + zone.offset(at: graceAgo)),
      nowLocal - DeliveryPolicy.horizonSeconds)
    return DeliveryPolicy.due(
      requests, afterSlot: lowLocal, afterInstant: start(checkedUntil: checked?.instant, now: now),
      through: now, in: zone)
  }

  /// The firings of `requests` in `(from, now]` in one zone, in order: those whose instant is
  /// after `from` (a last run at `from`, without a change of zone).
  public func due(
    _ requests: [NotificationRequest], after from: Int64, through now: Int64, in zone: Zone
  ) -> [DueOccurrence] {
    guard from < now else { return [] }
    return DeliveryPolicy.due(
      requests, afterSlot: from + zone.offset(at: from), afterInstant: from, through: now,
      in: zone
    ).filter { $0.dueAt > from }
  }

  /// The firings by `now` whose slot comes after the wall clock `lowLocal`, or, for instants,
  /// whose instant comes after `from`.
  private static func due(
    _ requests: [NotificationRequest], afterSlot lowLocal: Int64, afterInstant from: Int64,
    through now: Int64, in zone: Zone
  ) -> [DueOccurrence] {
    // Slots after `lowLocal` have instants after it, less the zone's offset (which moves by a
    // few hours at most within the range).
    let scanFrom = min(from, lowLocal - zone.offset(at: now) - 3 * 3600)
    guard scanFrom < now else { return [] }
    let days = ZoneDays(zone, from: scanFrom + 1, to: now + 1)
    return requests.flatMap { request -> [DueOccurrence] in
      let since = max(scanFrom, request.metadata?.activeSince ?? scanFrom)
      return request.trigger.firings(from: since + 1, to: now + 1, days: days).compactMap {
        firing in
        if let slot = firing.slot {
          guard slot.localSeconds > lowLocal else { return nil }
        } else {
          guard firing.at > from else { return nil }
        }
        return DueOccurrence(request: request, firing: firing)
      }
    }
    .sorted { ($0.dueAt, $0.occurrence.requestID) < ($1.dueAt, $1.occurrence.requestID) }
  }

  /// The next re-delivery of an alarm delivered `attempts` times (the first at `occurrence`),
  /// unanswered: every ``Reminder/alarmInterval`` minutes, at most ``Reminder/alarmRepeats``
  /// times; `nil` when it has rung enough.
  public static func realert(after occurrence: Int64, attempts: Int) -> Int64? {
    guard attempts >= 1, attempts <= Reminder.alarmRepeats else { return nil }
    return occurrence + Int64(attempts * Reminder.alarmInterval * 60)
  }

  /// The re-delivery of an unanswered alarm last delivered as `last` (its attempt), when it has
  /// come by `now`; the request's current words when it is still pending. Rings count from the
  /// first delivery (``DueOccurrence/firstRing``): an alarm held while you were away rings
  /// again five minutes after it was released, not at once.
  public static func ringAgain(_ last: DueOccurrence, current: NotificationRequest?, now: Int64)
    -> DueOccurrence?
  {
    guard let next = realert(after: last.firstRing, attempts: last.attempt + 1), next <= now
    else { return nil }
    return DueOccurrence(
      request: current ?? last.request, occurrence: last.occurrence, attempt: last.attempt + 1,
      dueAt: next)
  }

  /// Whether a firing is skipped, and why, by the priority of docs/delivery.md: a slot already
  /// handled; then a cancellation, unless it was restored (a restored cancellation means: fire,
  /// whatever the log says); then an event in the look-back window. Each further ring of an
  /// alarm is never skipped: the firing was delivered. A log that cannot be read skips nothing
  /// (the fail-safe: a reminder that cannot be checked fires) and leaves a note.
  ///
  /// Then the rules of reminders that listen (docs/reminders.md), each named with its reason: a
  /// learned firing gives way to a reminder you defined for the same act near it that day
  /// (superseded); a paused reminder's check-in is not needed once the act is done (paused);
  /// a reminder backing off stays quiet between its days (backing off); past the daily cap, a
  /// learned reminder gives way first, then one you defined (alarms and task reminders never
  /// do). An alarm's further ring stops once its act is logged after it fired.
  public static func skip(
    _ due: DueOccurrence, facts: FiringFacts, in zone: Zone, clock: ClockStyle
  ) -> (skip: Skip?, note: String?) {
    guard due.attempt == 0 else {
      // Logging the act stops an alarm's rings, as an answer does.
      guard case .found(let events) = facts.events, let kind = due.request.actKind,
        let done = events.filter({ $0.secondsSince1970 >= due.occurrence.at }).min()
      else { return (nil, nil) }
      return (
        .suppressed(reason: ForwardCheck.reason(kind: kind.name, at: done, clock: clock)), nil
      )
    }
    if let handled = facts.handledAt, handled != due.occurrence.at {
      return (.alreadyHandled(at: handled), nil)
    }
    if let stored = facts.cancellation {
      if stored.restoredAt != nil { return (nil, nil) }
      return (
        .cancelled(
          reason: ForwardCheck.reason(
            kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt, clock: clock)),
        nil
      )
    }
    let record = facts.adaptation?.record
    // At delivery, a record the nightly plan has not renewed is not acted on; a forecast
    // (agenda) takes the plans to come as made.
    let current =
      record.map { facts.checkedAt == nil || isCurrent($0, for: due.occurrence.at, in: zone) }
      ?? false
    var note: String?
    if let metadata = due.request.metadata, metadata.lookBack != nil {
      switch facts.events {
      case .notChecked:
        break
      case .unreadable(let reason):
        note = "the log could not be read (\(reason)); delivered anyway"
      case .found(let events):
        if let evidence = ForwardCheck.evidence(
          for: due.request, at: due.occurrence.at, events: events, in: zone,
          checkedAt: facts.checkedAt)
        {
          let reason = ForwardCheck.reason(kind: metadata.eventKind, at: evidence, clock: clock)
          if current, let record, record.state == .paused {
            return (.rule(.paused, reason: "\(record.stateText); \(reason)"), nil)
          }
          return (.suppressed(reason: reason), nil)
        }
      }
    }
    if let defined = facts.superseding {
      let at = Timestamp(
        secondsSince1970: defined.at,
        utcOffsetSeconds: Int32(WallClock.offset(at: defined.at, in: zone)))
      return (
        .rule(
          .superseded,
          reason:
            "\(defined.reminderID), which you defined, reminds of it at \(clock.formatClock(at.timeOfDay))"
        ), note
      )
    }
    if current, let (record, onDays) = facts.adaptation, record.state == .backingOff {
      let date = WallClock.localDate(at: due.occurrence.at, in: zone)
      let fires = Adaptation.firesWhileBackingOff(on: date, record: record) {
        onDays.isEmpty || onDays.contains($0.weekday)
      }
      if !fires { return (.rule(.backingOff, reason: record.stateText), note) }
    }
    if let cap = facts.cap, cap.limit > 0, due.request.metadata?.isAlarm != true,
      due.request.category != .taskReminder
    {
      let reserved = due.request.origin == .learned ? cap.definedAhead : 0
      if cap.delivered + reserved >= cap.limit {
        return (
          .rule(
            .dailyCap,
            reason: "the day's cap of \(cap.limit) reminders was reached"
              + (reserved > 0 ? " (\(reserved) you defined still to come)" : "")), note
        )
      }
    }
    return (nil, note)
  }

  /// Whether `record` was decided for the day of `firing` or the day before: a record the plan
  /// has not renewed since is not acted on (fail-safe: a reminder fires at full dose when the
  /// nightly plan stopped running).
  public static func isCurrent(_ record: AdaptationRecord, for firing: Int64, in zone: Zone)
    -> Bool
  {
    guard let day = record.computedDay else { return false }
    let date = WallClock.localDate(at: firing, in: zone).daysSince1970
    return day <= date && date - day <= 1
  }

  /// What to do with `due` at `now` given what the store knows: a skip first (a skipped firing
  /// is not late or missed, it is not needed), then the grace period. The note goes with the
  /// record (why a firing was delivered without its check). `nil` when its slot was already
  /// handled: there is nothing to record again.
  public func decide(
    _ due: DueOccurrence, facts: FiringFacts, now: Int64, in zone: Zone, clock: ClockStyle
  ) -> (outcome: DeliveryOutcome, note: String?)? {
    let (skip, note) = DeliveryPolicy.skip(due, facts: facts, in: zone, clock: clock)
    switch skip {
    case .cancelled(let reason): return (.cancelled(reason: reason), nil)
    case .suppressed(let reason): return (.suppressed(reason: reason), nil)
    case .rule(let rule, let reason): return (.skipped(rule, reason: reason), note)
    case .alreadyHandled: return nil
    case nil:
      return (outcome(for: due, now: now, cancelledBecause: nil, suppressedBecause: nil), note)
    }
  }

  /// What to do with `due` at `now`: a cancellation or the forward check's evidence first (a
  /// skipped firing is not late or missed, it is not needed), then the grace period.
  public func outcome(
    for due: DueOccurrence, now: Int64, cancelledBecause cancellation: String?,
    suppressedBecause evidence: String?
  ) -> DeliveryOutcome {
    if let cancellation { return .cancelled(reason: cancellation) }
    if let evidence { return .suppressed(reason: evidence) }
    let lateness = now - due.dueAt
    if lateness > graceSeconds { return .missed }
    return .deliver(late: lateness > DeliveryPolicy.lateAfterSeconds)
  }

  /// Whether claiming `due` uses its request up: a stored one-time request (a snooze or outlier
  /// alert) is done once its firing is claimed, whatever became of it. A reminder's requests
  /// are derived from its definition and a learned one repeats: neither is used up.
  public static func usesUp(_ due: DueOccurrence) -> Bool {
    due.attempt == 0 && !due.request.trigger.repeats
      && (due.request.origin == .snooze || due.request.origin == .outlier)
  }
}
