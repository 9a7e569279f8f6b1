import Foundation
import RoutineCore
import RoutineStore

/// What became of a recorded firing (``FiringOutcome``), for `history`, `why` and the report:
/// the store's answers to it and to its snoozed copies, and the events of its kind in its act
/// window, read for that firing alone and judged by the core.
struct OutcomeReader {
  let store: EventStore
  let zone: Zone
  let now: Int64

  /// The outcome of `record`'s firing; `nil` for an alarm's further ring and for outlier alerts
  /// (nothing to act on), and when the store cannot tell (a log that cannot be read leaves the
  /// history readable, without the judgement).
  func outcome(of record: DeliveryRecord) throws -> FiringOutcome? {
    (try? judge(record)) ?? nil
  }

  private func judge(_ record: DeliveryRecord) throws -> FiringOutcome? {
    guard record.attempt == 0, record.request.origin != .outlier else { return nil }
    let firing = RecordedFiring(
      request: record.request, occurrence: record.occurrence, attempt: 0, state: record.state)
    guard firing.state == .delivered else {
      return FiringOutcome.classify(
        FiringOutcome.Facts(
          firing: record.occurrence.at, state: firing.state, isTiedToKind: false,
          window: record.occurrence.at...record.occurrence.at, now: now))
    }
    let window = ActWindow.window(for: record.request, at: record.occurrence.at, in: zone)
    var answers: [Occurrence: [PriorAnswer]] = [:]
    func gather(_ occurrence: Occurrence) throws {
      answers[occurrence] = try store.answers(to: occurrence).map {
        PriorAnswer(action: $0.action, answeredAt: $0.answeredAt, isUndone: $0.undoneAt != nil)
      }
    }
    try gather(record.occurrence)
    var copies: [RecordedFiring] = []
    if record.request.origin != .snooze {
      let kind = record.request.actKind
      let reminder = record.request.metadata?.reminderID
      for copy in try store.deliveries(from: record.occurrence.at + 1, to: window.upperBound + 1)
      where copy.attempt == 0 && copy.request.origin == .snooze
        && ((reminder != nil && copy.request.metadata?.reminderID == reminder)
          || (reminder == nil && kind != nil && copy.request.actKind == kind))
      {
        copies.append(
          RecordedFiring(
            request: copy.request, occurrence: copy.occurrence, attempt: 0, state: copy.state))
        try gather(copy.occurrence)
      }
    }
    var acts: [Timestamp] = []
    if let kind = record.request.actKind {
      acts = try store.eventTimes(countingAs: kind, from: window.lowerBound, to: window.upperBound)
    }
    let history = ReminderRecord(
      requests: [], firings: [firing], copies: copies, answers: answers, acts: acts)
    let date = WallClock.localDate(at: record.occurrence.at, in: zone)
    return history.day(of: firing, on: date, now: now, in: zone).outcome
  }

  /// The outcome in words, after what delivery recorded: "acted on 4 min after it", "ignored",
  /// "pre-empted: Wake Up logged at 06:40, before it"; `nil` when delivery's word says it all.
  static func words(_ outcome: FiringOutcome?, kind: String?, zone: Zone, clock: ClockStyle)
    -> String?
  {
    switch outcome {
    case .acted(let minutes):
      return minutes == 0 ? "acted on at once" : "acted on \(minutes) min after it"
    case .snoozedThenActed(let minutes):
      return "snoozed, then acted on \(minutes) min after it"
    case .dismissed: return "dismissed"
    case .ignored: return "ignored"
    case .preEmpted(let done):
      let at = TimeArgument.stamp(done, zone)
      return "pre-empted: \(kind ?? "it") logged at \(clock.formatClock(at.timeOfDay)), before it"
    case .open: return "no answer yet"
    case .skipped, .notDelivered, nil: return nil
    }
  }
}
