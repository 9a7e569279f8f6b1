import Foundation

/// Whether an occurrence should fire, given the log: the forward check of docs/reminders.md.
///
/// An occurrence of a request with a look-back (an activity or habit reminder) is not needed
/// when an event of its kind happened in its look-back window, up to the firing itself. Delivery
/// asks at fire time, so an activity imported late still keeps its reminder quiet.
public enum ForwardCheck {
  /// The event that makes the firing of `request` at `occurrence` unnecessary: the latest of
  /// `events` (times of events of the request's kind) inside its look-back window, which reaches
  /// to `checkedAt` when a late delivery checks after the firing (what was done meanwhile is
  /// done); `nil` when it should fire (or has no look-back).
  public static func evidence(
    for request: NotificationRequest, at occurrence: Int64, events: [Timestamp], in zone: Zone,
    checkedAt: Int64? = nil
  ) -> Timestamp? {
    guard let lookBack = request.metadata?.lookBack else { return nil }
    let window = lookBack.window(before: occurrence, in: zone)
    let end = max(window.upperBound, checkedAt ?? window.upperBound)
    return events.filter { (window.lowerBound...end).contains($0.secondsSince1970) }.max()
  }

  /// "Workout logged at 10:00": why a firing was skipped, in the event's own local time.
  public static func reason(kind: String, at time: Timestamp, clock: ClockStyle) -> String {
    "\(kind) logged at \(clock.formatClock(time.timeOfDay))"
  }
}

/// One occurrence of a reminder skipped because its activity was already done: the reverse
/// smart reminders of docs/reminders.md. Only that occurrence: next week's stays.
public struct Cancellation: Hashable, Sendable {
  /// The skipped firing.
  public var occurrence: Occurrence
  /// The reminder it belongs to.
  public var reminderID: String
  /// The activity's display name.
  public var eventKind: String
  /// When the activity happened.
  public var eventAt: Timestamp

  /// A cancellation. The occurrence's slot (its local date and time) keeps the firing skipped
  /// when a change of zone moves it to another instant.
  public init(occurrence: Occurrence, reminderID: String, eventKind: String, eventAt: Timestamp) {
    self.occurrence = occurrence
    self.reminderID = reminderID
    self.eventKind = eventKind
    self.eventAt = eventAt
  }

  /// The local date and time of the skipped firing.
  public var slot: FiringSlot? { occurrence.slot }

  /// How far ahead a logged event cancels firings.
  public static let horizon: Int64 = 24 * 3600

  /// The firings that `events` make unnecessary: for each request with a look-back whose kind
  /// matches an event, each of its firings in the next 24 hours after `now` whose look-back
  /// window contains the event's time (the design's `cancelMatchingReminders`).
  public static func cancellations(
    for events: [Event], requests: [NotificationRequest], now: Int64, in zone: Zone
  ) -> [Cancellation] {
    let keys = Set(events.map(\.kind.key))
    // An event counts for a request when its kind is one the request's kind counts (a logged
    // "Mindfulness" for the mindfulness reminder's "Meditation").
    func counted(_ request: NotificationRequest) -> Set<String> {
      guard let kind = request.metadata.flatMap({ EventKind($0.eventKind) }) else { return [] }
      return Set(ActivityPreset.kinds(countingAs: kind).map(\.key))
    }
    let watching = requests.filter { request in
      request.metadata?.lookBack != nil && !counted(request).isDisjoint(with: keys)
    }
    guard !watching.isEmpty else { return [] }
    let days = ZoneDays(zone, from: now, to: now + horizon)
    var result: [Cancellation] = []
    for request in watching {
      guard let lookBack = request.metadata?.lookBack else { continue }
      let counting = counted(request)
      for firing in request.trigger.firings(from: now + 1, to: now + horizon + 1, days: days) {
        let at = firing.at
        let window = lookBack.window(before: at, in: zone)
        guard
          let event = events.filter({
            counting.contains($0.kind.key) && window.contains($0.timestamp.secondsSince1970)
          }).max(by: { $0.timestamp < $1.timestamp })
        else { continue }
        result.append(
          Cancellation(
            occurrence: Occurrence(requestID: request.id, firing: firing),
            reminderID: request.metadata?.reminderID ?? request.id, eventKind: event.kind.name,
            eventAt: event.timestamp))
      }
    }
    return result
  }
}

/// A cancellation as stored: when it was made, and whether it was undone.
public struct StoredCancellation: Hashable, Sendable {
  /// The cancellation.
  public var cancellation: Cancellation
  /// When it was recorded.
  public var createdAt: Int64
  /// When `routine reminders restore` undid it, if it did.
  public var restoredAt: Int64?

  /// A stored cancellation.
  public init(cancellation: Cancellation, createdAt: Int64, restoredAt: Int64?) {
    self.cancellation = cancellation
    self.createdAt = createdAt
    self.restoredAt = restoredAt
  }
}
