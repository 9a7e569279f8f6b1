import Foundation
import RoutineCore
import RoutineStore

/// One delivery run (docs/delivery.md), shared by `routine deliver` and `routine watch`.
///
/// Every firing due since the last run is claimed, with its outcome, in one write transaction:
/// a unique row per firing, so overlapping runs never deliver one twice. Only then is it handed
/// to the sink. A crash between the claim and the sink loses that notification (it stays
/// `sending` in the history) rather than showing it twice: **at most once**, because a reminder
/// repeated is a worse surprise than one missing, and the history says which one it was.
struct Deliverer {
  let store: EventStore
  let context: Context
  /// Reads what the desktop says about the person (idleness, the lock, do not disturb) for the
  /// rules; only called when something that may be held is due or held.
  var readPresence: (HoldRules) -> (presence: Presence, problems: [String]) = { _ in
    (.unknown, [])
  }

  /// What a run did.
  struct Report {
    var delivered: [DeliveryRecord] = []
    var failed: [(DeliveryRecord, String)] = []
    /// The exit status of the first failure: 69 when the sink's program or service is
    /// missing, 74 otherwise.
    var failureCode: ExitCode?
    var skipped: [DeliveryRecord] = []
    var answers: [String] = []
    /// Firings this run held first (those still held from earlier runs are not repeated).
    var held: [DeliveryRecord] = []
    /// When a run should look at the held firings again (`routine watch` wakes then).
    var nextLook: Int64?

    mutating func look(at instant: Int64) { nextLook = min(nextLook ?? instant, instant) }
  }

  /// A deliverer that reads the desktop of `context`'s environment (``PresenceReader``).
  static func reading(store: EventStore, context: Context) -> Deliverer {
    var deliverer = Deliverer(store: store, context: context)
    if let presence = context.environment.presence {
      deliverer.readPresence = presence
    } else {
      let environment = context.environment.variables
      deliverer.readPresence = { rules in desktopPresence(environment, rules) }
    }
    return deliverer
  }

  /// What the desktop says, for `rules` (``PresenceReader``): idleness only when held for, do
  /// not disturb only when held for.
  static func desktopPresence(_ environment: [String: String], _ rules: HoldRules) -> (
    presence: Presence, problems: [String]
  ) {
    PresenceReader.read(
      environment: environment, idle: rules.idleSeconds > 0,
      doNotDisturb: rules.whileDoNotDisturb)
  }

  /// How often `routine watch` reads the desktop again while something is held because you are
  /// away or busy: it notices you are back within this many seconds.
  static let pollSeconds: Int64 = 5

  /// What a claim found.
  private struct Claimed {
    var records: [DeliveryRecord] = []
    var zone: Zone
    var snoozeMinutes: Int
    /// Set when something that may be held is due or held and the desktop was not read yet:
    /// nothing was written, and the claim is made again with the reading.
    var needsPresence: HoldRules?
  }

  /// Delivers what is due at `now` through `sink`.
  func run(sink: NotificationSink, now: Int64) throws -> Report {
    var report = Report()
    var result = try claim(sink: sink, now: now, presence: nil, report: &report)
    if let rules = result.needsPresence {
      // Read outside the transaction: a slow desktop must not hold the store's write lock.
      let reading = readPresence(rules)
      result = try claim(sink: sink, now: now, presence: reading, report: &report)
    }
    let zone = result.zone
    let snoozeMinutes = result.snoozeMinutes
    for record in result.records {
      let notification = DeliveredNotification(
        id: record.occurrence.requestID,
        occurrence: TimeArgument.stamp(record.occurrence.at, zone), attempt: record.attempt,
        category: record.request.category, title: record.request.title, body: record.request.body,
        actions: NotificationCategory.category(record.request.category).actions(
          snoozeMinutes: snoozeMinutes),
        isLate: record.isLate, isAlarm: record.request.metadata?.isAlarm ?? false)
      do {
        let answer = try sink.deliver(notification)
        try store.finishDelivery(id: record.id, outcome: .delivered, reason: nil, at: now)
        report.delivered.append(record)
        if let answer, !answer.isEmpty {
          let result = try Responder(store: store, context: context).answer(
            id: record.occurrence.requestID, action: answer, occurrence: record.occurrence.at,
            now: now)
          report.answers.append(result.message)
        }
      } catch {
        let (code, reason) = ErrorReport.describe(error)
        report.failureCode = report.failureCode ?? (code == .failure ? .ioError : code)
        try store.finishDelivery(id: record.id, outcome: .failed, reason: reason, at: now)
        report.failed.append((record, reason))
      }
    }
    return report
  }

  /// Claims every due firing, in one transaction; returns the ones to deliver. The core decides
  /// (``DeliveryPolicy``): what is due since the last run's wall clock, and what becomes of each
  /// firing from the facts gathered here; the claim makes each slot's decision once.
  private func claim(
    sink: NotificationSink, now: Int64, presence: (presence: Presence, problems: [String])?,
    report: inout Report
  ) throws -> Claimed {
    try store.write {
      let settings = try store.settings()
      let zone = try context.userTimeZone(settings)
      let clock = context.clockStyle(settings)
      let policy = DeliveryPolicy(graceMinutes: settings.graceMinutes)
      let requests = try store.pendingRequests(clock: clock, zone: zone)
      let checked = try Deliverer.watermark(store, in: zone)
      var due = policy.due(requests, checked: checked, now: now, in: zone)
      // Unanswered alarms ring again (unless their act was logged since: FiringFactsReader).
      let byID = Dictionary(requests.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      for alarm in try store.unansweredAlarms(since: now - 86_400)
      where alarm.outcome != .suppressed {
        if let ring = DeliveryPolicy.ringAgain(
          alarm.due, current: byID[alarm.occurrence.requestID], now: now)
        {
          due.append(ring)
        }
      }
      var rules = HoldRules(settings)
      // Do not disturb is the notification daemon's: it says nothing about a phone an --exec
      // command sends to.
      if sink.kind != .notifySend { rules.whileDoNotDisturb = false }
      // Held firings are settled whatever the settings say now (holding turned off releases them).
      let held = try store.heldDeliveries()
      let holdable = due.contains { $0.attempt == 0 && HoldRules.mayHold($0.request) }
      if presence == nil, rules.readsPresence, holdable || !held.isEmpty {
        return Claimed(zone: zone, snoozeMinutes: settings.snoozeMinutes, needsPresence: rules)
      }
      guard !due.isEmpty || !held.isEmpty else {
        try Deliverer.setWatermark(store, DeliveryWatermark(instant: now, in: zone))
        try store.removeExpiredCancellations(before: now - 86_400)
        return Claimed(zone: zone, snoozeMinutes: settings.snoozeMinutes)
      }
      let reasonNow =
        holdable || !held.isEmpty
        ? rules.reason(presence: presence?.presence, now: now, in: zone) : nil
      let backSince = try Deliverer.noteAway(
        store, reason: reasonNow, watching: holdable || !held.isEmpty, now: now)
      // A desktop that could not be read holds nothing (fail-safe), and says so.
      let presenceNote = presence.flatMap { reading in
        reading.problems.isEmpty
          ? nil
          : "whether you were away could not be read (\(reading.problems.joined(separator: "; "))); delivered anyway"
      }
      let start = policy.start(checkedUntil: checked?.instant, now: now)
      let reader = try FiringFactsReader(
        store: store, settings: settings, requests: requests, zone: zone,
        cancellationsFrom: min(start, held.first?.occurrence.at ?? start) - 86_400)
      var cap = try Deliverer.dailyCap(
        store, settings: settings, requests: requests, now: now, zone: zone)
      var claimed: [DeliveryRecord] = []
      for record in held {
        guard
          let released = try settle(
            record, current: byID[record.occurrence.requestID], rules: rules,
            reasonNow: reasonNow, backSince: backSince, reader: reader, cap: cap, sink: sink,
            now: now, zone: zone, clock: clock, report: &report)
        else { continue }
        claimed.append(released)
        if released.request.metadata?.isAlarm != true,
          released.request.category != .taskReminder
        {
          cap?.delivered += 1
        }
      }
      for item in due {
        let facts = reader.facts(for: item, cap: cap, checkedAt: now) { kind, window in
          try store.eventTimes(countingAs: kind, from: window.lowerBound, to: window.upperBound)
        }
        guard
          let (outcome, note) = policy.decide(item, facts: facts, now: now, in: zone, clock: clock)
        else { continue }
        let record: DeliveryRecord?
        switch outcome {
        case .deliver
        where item.attempt == 0 && HoldRules.mayHold(item.request)
          && rules.verdict(
            dueAt: item.dueAt, now: now, reasonNow: reasonNow, backSince: now, in: zone)
            == .missed:
          record = try store.claim(
            item, outcome: .missed, late: true,
            reason: Deliverer.heldPastItsTime(
              dueAt: item.dueAt, heldFor: reasonNow?.description ?? "", rules: rules,
              reasonNow: reasonNow, now: now, zone: zone, clock: clock),
            sink: nil, heldReason: reasonNow?.description, at: now)
        case .deliver
        where item.attempt == 0 && HoldRules.mayHold(item.request) && reasonNow != nil:
          record = try store.claim(
            item, outcome: .held, late: false, reason: nil, sink: nil,
            heldReason: reasonNow?.description, at: now)
          if let record {
            report.held.append(record)
            report.look(
              at: rules.nextLook(
                dueAt: item.occurrence.at, now: now, reasonNow: reasonNow, backSince: nil,
                in: zone, pollSeconds: Deliverer.pollSeconds))
          }
        case .deliver(let late):
          let holdNote = HoldRules.mayHold(item.request) && item.attempt == 0 ? presenceNote : nil
          record = try store.claim(
            item, outcome: .sending, late: late, reason: note ?? holdNote,
            sink: sink.kind.rawValue, at: now)
          if let record {
            claimed.append(record)
            if item.attempt == 0, item.request.metadata?.isAlarm != true,
              item.request.category != .taskReminder
            {
              cap?.delivered += 1
              if item.request.origin == .reminder, let ahead = cap?.definedAhead {
                cap?.definedAhead = max(0, ahead - 1)
              }
            }
          }
        case .missed:
          let minutes = (now - item.dueAt) / 60
          record = try store.claim(
            item, outcome: .missed, late: true,
            reason:
              "\(counted(Int(minutes), "minute")) late when delivery ran: past the \(settings.graceMinutes)-minute grace period",
            sink: nil, at: now)
        case .suppressed(let reason):
          record = try store.claim(
            item, outcome: .suppressed, late: false, reason: reason, sink: nil, at: now)
        case .cancelled(let reason):
          record = try store.claim(
            item, outcome: .cancelled, late: false, reason: reason, sink: nil, at: now)
        case .skipped(let rule, let reason):
          record = try store.claim(
            item, outcome: .skipped, late: false, reason: reason, sink: nil, rule: rule, at: now)
        }
        if let record, record.outcome != .sending, record.outcome != .held {
          report.skipped.append(record)
        }
        if record != nil, DeliveryPolicy.usesUp(item) {
          try store.cancelRequest(id: item.request.id)
        }
      }
      try Deliverer.setWatermark(store, DeliveryWatermark(instant: now, in: zone))
      try store.removeExpiredCancellations(before: now - 86_400)
      return Claimed(records: claimed, zone: zone, snoozeMinutes: settings.snoozeMinutes)
    }
  }

  /// What becomes of a held firing at `now` (``HoldRules/verdict(dueAt:now:reasonNow:backSince:)``):
  /// still held, missed past the limit, skipped because its act was logged meanwhile (or its
  /// reminder removed), or released: the record to deliver.
  private func settle(
    _ record: DeliveryRecord, current: NotificationRequest?, rules: HoldRules,
    reasonNow: HoldReason?, backSince: Int64, reader: FiringFactsReader, cap: DailyCap?,
    sink: NotificationSink, now: Int64, zone: Zone, clock: ClockStyle, report: inout Report
  ) throws -> DeliveryRecord? {
    let heldFor = record.heldReason ?? "you were away"
    switch rules.verdict(
      dueAt: record.occurrence.at, now: now, reasonNow: reasonNow, backSince: backSince,
      in: zone)
    {
    case .keep:
      report.look(
        at: rules.nextLook(
          dueAt: record.occurrence.at, now: now, reasonNow: reasonNow,
          backSince: reasonNow == nil ? backSince : nil, in: zone,
          pollSeconds: Deliverer.pollSeconds))
      return nil
    case .missed:
      try store.settleHeld(
        id: record.id, outcome: .missed,
        reason: Deliverer.heldPastItsTime(
          dueAt: record.occurrence.at, heldFor: heldFor, rules: rules, reasonNow: reasonNow,
          now: now, zone: zone, clock: clock),
        at: now)
      return nil
    case .release:
      break
    }
    // A reminder removed, turned off or replaced while its firing was held has nothing left to
    // say; a snooze or an alert is used up when claimed, and is delivered from its record.
    let origin = record.request.origin
    if current == nil, origin == .reminder || origin == .learned {
      try store.settleHeld(
        id: record.id, outcome: .cancelled,
        reason: "its reminder was removed, turned off or replanned while it was held", at: now)
      return nil
    }
    let due = DueOccurrence(
      request: current ?? record.request, occurrence: record.occurrence, attempt: 0,
      dueAt: record.occurrence.at)
    let facts = reader.facts(for: due, cap: cap, checkedAt: now) { kind, window in
      try store.eventTimes(countingAs: kind, from: window.lowerBound, to: window.upperBound)
    }
    let (skip, note) = DeliveryPolicy.skip(due, facts: facts, in: zone, clock: clock)
    switch skip {
    case .suppressed(let reason):
      try store.settleHeld(id: record.id, outcome: .suppressed, reason: reason, at: now)
      return nil
    case .cancelled(let reason):
      try store.settleHeld(id: record.id, outcome: .cancelled, reason: reason, at: now)
      return nil
    case .rule(let rule, let reason):
      try store.settleHeld(id: record.id, outcome: .skipped, reason: reason, rule: rule, at: now)
      return nil
    case .alreadyHandled, nil:
      var released = try store.releaseHeld(
        record, sink: sink.kind.rawValue, note: note, at: now)
      if current != nil { released?.request = current ?? record.request }
      return released
    }
  }

  /// Why a held firing is missed: past the limit already, or held by quiet hours that end
  /// past it (then it is missed at once, as the agenda foretold).
  static func heldPastItsTime(
    dueAt: Int64, heldFor: String, rules: HoldRules, reasonNow: HoldReason?, now: Int64,
    zone: Zone, clock: ClockStyle
  ) -> String {
    let limit = "the \(rules.atMostSeconds / 60)-minute limit of 'settings --hold-at-most'"
    if now - dueAt <= rules.atMostSeconds, case .quietHours(let hours) = reasonNow {
      let end = TimeArgument.stamp(hours.nextEnd(after: now, in: zone), zone)
      return
        "held past its time (\(heldFor)): they end at \(clock.format(end.timeOfDay)), past \(limit)"
    }
    let minutes = Int((now - dueAt) / 60)
    return "held past its time (\(heldFor)): \(counted(minutes, "minute")) late, over \(limit)"
  }

  /// Keeps when a run last saw the person back (no reason to hold), while something is held or
  /// may be: the settle delay counts from it. Cleared while a reason holds. Returns it (`now`
  /// when first seen back).
  static func noteAway(_ store: EventStore, reason: HoldReason?, watching: Bool, now: Int64)
    throws -> Int64
  {
    guard watching else { return now }
    let stored = try store.state(backSinceKey).flatMap { Int64($0) }
    if reason != nil {
      if stored != nil { try store.setState(backSinceKey, "") }
      return now
    }
    if let stored { return stored }
    try store.setState(backSinceKey, "\(now)")
    return now
  }

  /// The state key of when a run first saw the person back after a hold.
  static let backSinceKey = "deliver.backSince"

  /// The day's cap as it stands at `now` (`settings --daily-cap`), or `nil` without one: the
  /// reminders delivered since the local midnight, and the firings of reminders you defined
  /// still ahead today (alarms and task reminders aside).
  static func dailyCap(
    _ store: EventStore, settings: PlannerSettings, requests: [NotificationRequest], now: Int64,
    zone: Zone
  ) throws -> DailyCap? {
    guard settings.dailyCap > 0 else { return nil }
    let today = WallClock.localDate(at: now, in: zone)
    let midnight = WallClock.instant(on: today, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let tomorrow = WallClock.instant(
      on: today.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let ahead = requests.filter {
      $0.origin == .reminder && $0.metadata?.isAlarm != true && $0.category != .taskReminder
    }.reduce(0) { count, request in
      count
        + request.trigger.firings(from: now, to: tomorrow, in: zone).filter {
          $0.at > (request.metadata?.activeSince ?? Int64.min)
        }.count
    }
    return DailyCap(
      limit: settings.dailyCap, delivered: try store.deliveredCount(from: midnight, to: now + 1),
      definedAhead: ahead)
  }

  /// How far delivery has looked (``DeliveryWatermark``); a store from before the wall clock
  /// was kept has only the instant, read in today's zone.
  static func watermark(_ store: EventStore, in zone: Zone) throws -> DeliveryWatermark? {
    guard let instant = try store.state(Deliverer.watermark).flatMap({ Int64($0) }) else {
      return nil
    }
    guard let local = try store.state(Deliverer.watermarkLocal).flatMap({ Int64($0) }) else {
      return DeliveryWatermark(instant: instant, in: zone)
    }
    return DeliveryWatermark(instant: instant, localSeconds: local)
  }

  /// Records how far delivery has looked.
  static func setWatermark(_ store: EventStore, _ watermark: DeliveryWatermark) throws {
    try store.setState(
      (Deliverer.watermark, "\(watermark.instant)"),
      (Deliverer.watermarkLocal, "\(watermark.localSeconds)"))
  }

  /// The state key of the wall clock delivery last read (naive local seconds).
  static let watermarkLocal = "deliver.checkedLocal"

  /// The state key of how far delivery has looked.
  static let watermark = "deliver.checkedUntil"
}

/// The stored cancellations, found by a firing's slot (so that a cancellation made before a
/// change of zone still holds for the same local date and time) or, for an instant, by the
/// instant.
struct CancellationIndex {
  private var bySlot: [String: [FiringSlot: StoredCancellation]] = [:]
  private var byOccurrence: [Occurrence: StoredCancellation] = [:]

  init(_ stored: [StoredCancellation]) {
    for item in stored {
      byOccurrence[item.cancellation.occurrence] = item
      if let slot = item.cancellation.slot {
        bySlot[item.cancellation.occurrence.requestID, default: [:]][slot] = item
      }
    }
  }

  /// The cancellation of `due`'s firing, if one was recorded.
  subscript(due: DueOccurrence) -> StoredCancellation? {
    if let slot = due.slot, let found = bySlot[due.occurrence.requestID]?[slot] { return found }
    return byOccurrence[due.occurrence]
  }
}
