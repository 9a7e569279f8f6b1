import Foundation
import RoutineCore
import RoutineStore

/// Which upcoming firings will be skipped, and why: a cancellation recorded when the activity was
/// logged, or (for a firing whose look-back window has begun) an event already in the window.
/// `agenda` and `pending` say so; delivery decides at fire time by the same rules.
struct Skips {
  private var cancelled: [Occurrence: StoredCancellation] = [:]
  private var recent: [String: [Timestamp]] = [:]
  private let now: Int64
  private let zone: Zone
  private let clock: ClockStyle

  /// What `store` knows at `now` (no store: nothing is skipped).
  init(
    store: EventStore?, requests: [NotificationRequest], now: Int64, zone: Zone,
    clock: ClockStyle
  )
    throws
  {
    self.now = now
    self.zone = zone
    self.clock = clock
    guard let store else { return }
    for stored in try store.cancellations(from: now - 86_400) {
      cancelled[stored.cancellation.occurrence] = stored
    }
    // Look-backs reach at most 48 hours back.
    var kinds = Set<String>()
    for request in requests where request.metadata?.lookBack != nil {
      guard let name = request.metadata?.eventKind, let kind = EventKind(name),
        kinds.insert(kind.key).inserted
      else { continue }
      recent[kind.key] = try store.eventTimes(of: kind, from: now - 48 * 3600, to: now)
    }
  }

  /// Why the firing of `request` at `at` will be skipped, or `nil` when it fires.
  func reason(_ request: NotificationRequest, at: Int64) -> String? {
    let occurrence = Occurrence(requestID: request.id, at: at)
    if let stored = cancelled[occurrence] {
      guard stored.restoredAt == nil else { return nil }
      return ForwardCheck.reason(
        kind: stored.cancellation.eventKind, at: stored.cancellation.eventAt, clock: clock)
    }
    guard let metadata = request.metadata, let lookBack = metadata.lookBack,
      let key = EventKind(metadata.eventKind)?.key,
      lookBack.window(before: at, in: zone).lowerBound <= now,
      let evidence = ForwardCheck.evidence(
        for: request, at: at, events: recent[key] ?? [], in: zone)
    else { return nil }
    return ForwardCheck.reason(kind: metadata.eventKind, at: evidence, clock: clock)
  }
}
