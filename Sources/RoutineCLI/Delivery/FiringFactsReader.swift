import Foundation
import RoutineCore
import RoutineStore

/// What the store knows about the firings a run decides about (`deliver`) or foretells
/// (`agenda`, `pending`, `status`, `why`, the report), read once per run so that
/// ``DeliveryPolicy`` decides from facts alone: cancellations, what the last plan decided for
/// each reminder (``AdaptationRecord``), and the reminders you defined that a learned one gives
/// way to.
struct FiringFactsReader {
  let zone: Zone
  let cancellations: CancellationIndex
  /// What adaptation decided, by reminder; empty when adaptation is off.
  let adaptations: [String: AdaptationRecord]
  /// The days of the week each reminder is on (its requests together), by reminder.
  let onDays: [String: WeekdaySet]
  /// The enabled reminders you defined, by the key of each kind whose logging does their act.
  let definedByKind: [String: [NotificationRequest]]

  /// A learned firing gives way to a reminder you defined for the same act this close to it on
  /// the same day: 2 hours.
  static let supersedeSeconds: Int64 = 2 * 3600

  /// The facts of `store` (none without a store) for `requests`, with cancellations of firings
  /// from `cancellationsFrom` on.
  init(
    store: EventStore?, settings: PlannerSettings, requests: [NotificationRequest], zone: Zone,
    cancellationsFrom: Int64
  ) throws {
    self.zone = zone
    cancellations = CancellationIndex(try store?.cancellations(from: cancellationsFrom) ?? [])
    adaptations = settings.adapts ? try store?.adaptations() ?? [:] : [:]
    var onDays: [String: WeekdaySet] = [:]
    var defined: [String: [NotificationRequest]] = [:]
    for request in requests {
      if let key = request.adaptationKey, case .calendar(let trigger) = request.trigger {
        let days = trigger.weekdays.isEmpty ? WeekdaySet.everyDay : trigger.weekdays
        onDays[key] = WeekdaySet(rawValue: (onDays[key]?.rawValue ?? 0) | days.rawValue)
      }
      if request.origin == .reminder, let kind = request.actKind {
        for counted in ActivityPreset.kinds(countingAs: kind) {
          defined[counted.key, default: []].append(request)
        }
      }
    }
    self.onDays = onDays
    definedByKind = defined
  }

  /// What adaptation decided for `request`'s reminder, with its days, when anything.
  func adaptation(of request: NotificationRequest) -> (
    record: AdaptationRecord, onDays: WeekdaySet
  )? {
    guard let key = request.adaptationKey, let record = adaptations[key] else { return nil }
    return (record, onDays[key] ?? .everyDay)
  }

  /// The reminder you defined that the learned `request` firing at `at` gives way to: one for
  /// the same act firing within ``supersedeSeconds`` of it on the same local date.
  func superseding(_ request: NotificationRequest, at: Int64) -> DefinedFiring? {
    guard request.origin == .learned, let kind = request.actKind,
      let candidates = definedByKind[kind.key]
    else { return nil }
    let date = WallClock.localDate(at: at, in: zone)
    var best: DefinedFiring?
    for candidate in candidates {
      for firing in candidate.trigger.firings(
        from: at - FiringFactsReader.supersedeSeconds,
        to: at + FiringFactsReader.supersedeSeconds + 1, in: zone)
      where WallClock.localDate(at: firing.at, in: zone) == date
        && firing.at > (candidate.metadata?.activeSince ?? Int64.min)
      {
        let found = DefinedFiring(
          reminderID: candidate.metadata?.reminderID ?? candidate.id, at: firing.at)
        if best.map({ abs($0.at - at) > abs(found.at - at) }) ?? true { best = found }
      }
    }
    return best
  }

  /// The facts of `due`, with the events `events` reads (of a kind, in a range of instants) for
  /// its look-back window, or since its firing for an alarm's further ring.
  func facts(
    for due: DueOccurrence, cap: DailyCap? = nil, checkedAt: Int64? = nil,
    events: (EventKind, ClosedRange<Int64>) throws -> [Timestamp]
  ) -> FiringFacts {
    var facts = FiringFacts(cancellation: cancellations[due])
    let request = due.request
    if due.attempt > 0 {
      if let kind = request.actKind {
        facts.events = read(kind, due.occurrence.at...due.dueAt, events)
      }
      return facts
    }
    if facts.cancellation == nil, let metadata = request.metadata, let lookBack = metadata.lookBack,
      let kind = EventKind(metadata.eventKind)
    {
      let window = lookBack.window(before: due.occurrence.at, in: zone)
      facts.events = read(
        kind, window.lowerBound...max(window.upperBound, checkedAt ?? window.upperBound), events)
    }
    facts.checkedAt = checkedAt
    facts.superseding = superseding(request, at: due.occurrence.at)
    facts.adaptation = adaptation(of: request)
    facts.cap = cap
    return facts
  }

  private func read(
    _ kind: EventKind, _ range: ClosedRange<Int64>,
    _ events: (EventKind, ClosedRange<Int64>) throws -> [Timestamp]
  ) -> LookBackEvents {
    do {
      return .found(try events(kind, range))
    } catch {
      return .unreadable(ErrorReport.describe(error).1)
    }
  }
}
