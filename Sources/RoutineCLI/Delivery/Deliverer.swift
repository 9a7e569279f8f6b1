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
    let (claimed, zone) = try claim(sink: sink, now: now, report: &report)
    for record in claimed {
      let notification = DeliveredNotification(
        id: record.occurrence.requestID,
        occurrence: TimeArgument.stamp(record.occurrence.at, zone), attempt: record.attempt,
        category: record.request.category, title: record.request.title, body: record.request.body,
        actions: NotificationCategory.category(record.request.category).actions,
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

  /// Claims every due firing, in one transaction; returns the ones to deliver.
  private func claim(sink: NotificationSink, now: Int64, report: inout Report) throws -> (
    [DeliveryRecord], Zone
  ) {
    try store.write {
      let settings = try store.settings()
      let zone = try context.userTimeZone(settings)
      let clock = context.clockStyle(settings)
      let policy = DeliveryPolicy(graceMinutes: settings.graceMinutes)
      let requests = try store.pendingRequests(clock: clock)
      let checked = try store.state(Deliverer.watermark).flatMap { Int64($0) }
      let from = policy.start(checkedUntil: checked, now: now)
      var due = policy.due(requests, after: from, through: now, in: zone)
      // Unanswered alarms ring again.
      for alarm in try store.unansweredAlarms(since: now - 86_400) {
        guard
          let next = DeliveryPolicy.realert(
            after: alarm.occurrence.at, attempts: alarm.attempt + 1),
          next <= now
        else { continue }
        let request = requests.first { $0.id == alarm.occurrence.requestID } ?? alarm.request
        due.append(
          DueOccurrence(
            request: request, occurrence: alarm.occurrence, attempt: alarm.attempt + 1,
            dueAt: next))
      }
      var cancellations: [Occurrence: StoredCancellation] = [:]
      for stored in try store.cancellations(from: from - 86_400) {
        cancellations[stored.cancellation.occurrence] = stored
      }
      var claimed: [DeliveryRecord] = []
      for item in due {
        var cancelled: String?
        var suppressed: String?
        var note: String?
        let stored = item.attempt == 0 ? cancellations[item.occurrence] : nil
        // A restored cancellation means: fire, whatever the log says.
        let restored = stored?.restoredAt != nil
        if let stored, !restored {
          cancelled = ForwardCheck.reason(
            kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt, clock: clock)
        }
        if item.attempt == 0, !restored, cancelled == nil,
          let metadata = item.request.metadata, let lookBack = metadata.lookBack,
          let kind = EventKind(metadata.eventKind)
        {
          let window = lookBack.window(before: item.occurrence.at, in: zone)
          do {
            let times = try store.eventTimes(
              of: kind, from: window.lowerBound, to: window.upperBound)
            if let evidence = ForwardCheck.evidence(
              for: item.request, at: item.occurrence.at, events: times, in: zone)
            {
              suppressed = ForwardCheck.reason(kind: kind.name, at: evidence, clock: clock)
            }
          } catch {
            // Fail-safe: a reminder that cannot be checked fires, and the reason is kept.
            note = "the log could not be read (\(ErrorReport.describe(error).1)); delivered anyway"
          }
        }
        let outcome = policy.outcome(
          for: item, now: now, cancelledBecause: cancelled, suppressedBecause: suppressed)
        let record: DeliveryRecord?
        switch outcome {
        case .deliver(let late):
          record = try store.claim(
            item, outcome: .sending, late: late, reason: note, sink: sink.name, at: now)
          if let record { claimed.append(record) }
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
        }
        if let record, record.outcome != .sending { report.skipped.append(record) }
        // A one-time request (a snooze or outlier alert) is done once its firing is claimed.
        if record != nil, item.attempt == 0, item.request.origin != .learned,
          item.request.origin != .reminder, !item.request.trigger.repeats
        {
          try store.cancelRequest(id: item.request.id)
        }
      }
      try store.setState(Deliverer.watermark, "\(now)")
      try store.removeExpiredCancellations(before: now - 86_400)
      return (claimed, zone)
    }
  }

  /// The state key of how far delivery has looked.
  static let watermark = "deliver.checkedUntil"
}

extension Trigger {
  /// Whether it fires more than once.
  var repeats: Bool {
    switch self {
    case .calendar(let calendar): calendar.repeats
    case .date, .local: false
    }
  }
}
