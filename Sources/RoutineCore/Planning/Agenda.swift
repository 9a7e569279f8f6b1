import Foundation

/// Every occurrence of a set of requests in a range.
public enum Agenda {
  /// One notification firing.
  public struct Item: Hashable, Sendable {
    /// When, seconds since 1970 UTC.
    public var at: Int64
    /// What.
    public var request: NotificationRequest
    /// The local date and time the firing belongs to, for a wall-clock trigger.
    public var slot: FiringSlot?

    /// `request` firing at `at`.
    public init(at: Int64, request: NotificationRequest, slot: FiringSlot? = nil) {
      self.at = at
      self.request = request
      self.slot = slot
    }

    /// The firing.
    public var firing: Firing { Firing(at: at, slot: slot) }
  }

  /// The occurrences of `requests` in `from..<to` in `timeZone`, ordered by time, then identifier.
  public static func items(
    for requests: [NotificationRequest], from: Int64, to: Int64, in timeZone: Zone
  ) -> [Item] {
    guard from < to else { return [] }
    // The range's days are worked out once for every request.
    let days = ZoneDays(timeZone, from: from, to: to)
    return requests.flatMap { request in
      request.trigger.firings(from: from, to: to, days: days).map {
        Item(at: $0.at, request: request, slot: $0.slot)
      }
    }
    .sorted { ($0.at, $0.request.id) < ($1.at, $1.request.id) }
  }
}
