import Foundation

/// A firing that has come due: an occurrence, and for an alarm which delivery of it this is.
public struct DueOccurrence: Hashable, Sendable {
  /// The request.
  public var request: NotificationRequest
  /// The firing.
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

  /// A policy with the grace period `graceMinutes`.
  public init(graceMinutes: Int) {
    graceSeconds = Int64(graceMinutes) * 60
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

  /// The firings of `requests` in `(from, now]`, in order; none at or before a request's
  /// ``RequestMetadata/activeSince``.
  public func due(
    _ requests: [NotificationRequest], after from: Int64, through now: Int64, in zone: Zone
  )
    -> [DueOccurrence]
  {
    guard from < now else { return [] }
    let days = ZoneDays(zone, from: from + 1, to: now + 1)
    return requests.flatMap { request in
      let since = max(from, request.metadata?.activeSince ?? from)
      return request.trigger.occurrences(from: since + 1, to: now + 1, days: days).map { at in
        DueOccurrence(
          request: request, occurrence: Occurrence(requestID: request.id, at: at), attempt: 0,
          dueAt: at)
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
}
