import Foundation

/// Every occurrence of a set of requests in a range.
public enum Agenda {
  /// One notification firing.
  public struct Item: Hashable, Sendable {
    /// When, seconds since 1970 UTC.
    public var at: Int64
    /// What.
    public var request: NotificationRequest

    /// `request` firing at `at`.
    public init(at: Int64, request: NotificationRequest) {
      self.at = at
      self.request = request
    }
  }

  /// The occurrences of `requests` in `from..<to` in `timeZone`, ordered by time, then identifier.
  public static func items(
    for requests: [NotificationRequest], from: Int64, to: Int64, in timeZone: Zone
  ) -> [Item] {
    guard from < to else { return [] }
    // The range's days are worked out once for every request.
    let days = ZoneDays(timeZone, from: from, to: to)
    return requests.flatMap { request in
      request.trigger.occurrences(from: from, to: to, days: days).map {
        Item(at: $0, request: request)
      }
    }
    .sorted { ($0.at, $0.request.id) < ($1.at, $1.request.id) }
  }
}
