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

  /// What a run did.
  struct Report {
    var delivered: [DeliveryRecord] = []
    var failed: [(DeliveryRecord, String)] = []
    /// The exit status of the first failure: 69 when the sink's program or service is
    /// missing, 74 otherwise.
    var failureCode: ExitCode?
    var skipped: [DeliveryRecord] = []
    var answers: [String] = []
  }

  /// Delivers what is due at `now` through `sink`.
  func run(sink: NotificationSink, now: Int64) throws -> Report {
    var report = Report()
    let (claimed, zone, snoozeMinutes) = try claim(sink: sink, now: now, report: &report)
    for record in claimed {
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
  private func claim(sink: NotificationSink, now: Int64, report: inout Report) throws -> (
    [DeliveryRecord], Zone, snoozeMinutes: Int
  ) {
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
      guard !due.isEmpty else {
        try Deliverer.setWatermark(store, DeliveryWatermark(instant: now, in: zone))
        try store.removeExpiredCancellations(before: now - 86_400)
        return ([], zone, settings.snoozeMinutes)
      }
      let reader = try FiringFactsReader(
        store: store, settings: settings, requests: requests, zone: zone,
        cancellationsFrom: policy.start(checkedUntil: checked?.instant, now: now) - 86_400)
      var cap = try Deliverer.dailyCap(
        store, settings: settings, requests: requests, now: now, zone: zone)
      var claimed: [DeliveryRecord] = []
      for item in due {
        let facts = reader.facts(for: item, cap: cap, checkedAt: now) { kind, window in
          try store.eventTimes(countingAs: kind, from: window.lowerBound, to: window.upperBound)
        }
        guard
          let (outcome, note) = policy.decide(item, facts: facts, now: now, in: zone, clock: clock)
        else { continue }
        let record: DeliveryRecord?
        switch outcome {
        case .deliver(let late):
          record = try store.claim(
            item, outcome: .sending, late: late, reason: note, sink: sink.kind.rawValue, at: now)
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
        if let record, record.outcome != .sending { report.skipped.append(record) }
        if record != nil, DeliveryPolicy.usesUp(item) {
          try store.cancelRequest(id: item.request.id)
        }
      }
      try Deliverer.setWatermark(store, DeliveryWatermark(instant: now, in: zone))
      try store.removeExpiredCancellations(before: now - 86_400)
      return (claimed, zone, settings.snoozeMinutes)
    }
  }

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
