import Foundation

/// What `routine plan` changes among the pending requests.
public struct PlanChange: Sendable {
  /// Learned requests to add.
  public var added: [NotificationRequest] = []
  /// Learned requests whose content changed: the pending one and its replacement.
  public var replaced: [(old: NotificationRequest, new: NotificationRequest)] = []
  /// Learned requests no longer wanted.
  public var removed: [NotificationRequest] = []
  /// Learned requests already pending as they should be.
  public var kept: [NotificationRequest] = []
  /// Wanted learned requests that do not fit under the pending limit (they fire latest).
  public var leftOut: [NotificationRequest] = []

  /// Whether nothing would change.
  public var isEmpty: Bool { added.isEmpty && replaced.isEmpty && removed.isEmpty }
}

/// Reconciles the wanted learned requests with those pending.
///
/// Only learned requests are ever added, replaced or removed: snooze and outlier alerts (and any
/// other origin) stay as they are and count towards the limit first. The learned requests that
/// fire soonest after `now` fill the remaining places; the rest are left out. Reconciling twice
/// with the same wishes changes nothing the second time.
public enum Reconciler {
  /// The change that makes the pending requests match `wanted`.
  public static func change(
    pending: [NotificationRequest], wanted: [NotificationRequest], now: Int64, timeZone: Zone,
    limit: Int = PlannerSettings.pendingLimit
  ) -> PlanChange {
    let others = pending.filter { $0.origin != .learned }
    let capacity = max(0, limit - others.count)
    let ordered = wanted.map { ($0, $0.trigger.nextFire(after: now, in: timeZone) ?? Int64.max) }
      .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
      .map(\.0)
    var change = PlanChange()
    change.leftOut = Array(ordered.dropFirst(capacity))
    let chosen = ordered.prefix(capacity)
    let current = Dictionary(
      pending.filter { $0.origin == .learned }.map { ($0.id, $0) },
      uniquingKeysWith: { first, _ in first })
    for request in chosen.sorted(by: { $0.id < $1.id }) {
      switch current[request.id] {
      case request?: change.kept.append(request)
      case let old?: change.replaced.append((old, request))
      case nil: change.added.append(request)
      }
    }
    let chosenIDs = Set(chosen.map(\.id))
    change.removed = current.values.filter { !chosenIDs.contains($0.id) }.sorted { $0.id < $1.id }
    return change
  }
}
