import Foundation
import RoutineCore
import RoutineStore

/// Which upcoming firings will be skipped, and why, by the decision delivery makes
/// (``DeliveryPolicy/skip(_:facts:in:clock:)``): a slot already handled (before a change of
/// zone), a cancellation recorded when the activity was logged, or (for a firing whose look-back
/// window has begun) an event already in the window. `agenda` and `pending` say so.
struct Skips {
  private let reader: FiringFactsReader?
  private var handled: [String: [FiringSlot: Int64]] = [:]
  private var recent: [String: [Timestamp]] = [:]
  private let now: Int64
  private let zone: Zone
  private let clock: ClockStyle
  /// The hold rules of the settings, for the quiet hours.
  private var holding: HoldRules?

  /// What `store` knows at `now` (no store: nothing is skipped), for `requests`: the pending
  /// ones whose firings are asked about, and every other pending one that decides about them (a
  /// reminder you defined that a learned one gives way to).
  init(
    store: EventStore?, requests: [NotificationRequest], now: Int64, zone: Zone,
    clock: ClockStyle
  )
    throws
  {
    self.now = now
    self.zone = zone
    self.clock = clock
    guard let store else {
      reader = nil
      return
    }
    let settings = try store.settings()
    holding = HoldRules(settings)
    reader = try FiringFactsReader(
      store: store, settings: settings, requests: requests, zone: zone,
      cancellationsFrom: now - 86_400)
    handled = try store.handledSlots(since: WallClock.localDate(at: now, in: zone).adding(days: -1))
    // Look-backs reach at most 48 hours back.
    let longest = LookBack.longestSeconds
    var kinds: [String: EventKind] = [:]
    for request in requests where request.metadata?.lookBack != nil {
      guard let name = request.metadata?.eventKind, let kind = EventKind(name) else { continue }
      kinds[kind.key] = kinds[kind.key] ?? kind
    }
    if kinds.count <= 64 {
      for kind in kinds.values {
        recent[kind.key] = try store.eventTimes(countingAs: kind, from: now - longest, to: now)
      }
    } else {
      // Thousands of watched kinds: one read of the two days, not a query per kind; a kind
      // then gathers the times of every kind that counts as it (Mindfulness for mindfulness).
      let byKey = try store.eventTimesByKind(from: now - longest, to: now)
      for kind in kinds.values {
        let keys = ActivityPreset.kinds(countingAs: kind).map(\.key)
        recent[kind.key] =
          keys.count == 1 ? byKey[kind.key] ?? [] : keys.flatMap { byKey[$0] ?? [] }.sorted()
      }
    }
  }

  /// Why the firing of `request` at `firing` will be skipped, or `nil` when it fires.
  func reason(_ request: NotificationRequest, at firing: Firing) -> String? {
    guard let reader else { return nil }
    let due = DueOccurrence(request: request, firing: firing)
    // The window of a firing further ahead has not begun: nothing logged can count yet.
    var facts = reader.facts(for: due) { kind, window in
      window.lowerBound <= now ? recent[kind.key] ?? [] : []
    }
    if let metadata = request.metadata, let lookBack = metadata.lookBack,
      lookBack.window(before: firing.at, in: zone).lowerBound > now
    {
      facts.events = .notChecked
    }
    if let slot = firing.slot { facts.handledAt = handled[request.id]?[slot] }
    switch DeliveryPolicy.skip(due, facts: facts, in: zone, clock: clock).skip {
    case nil:
      // Quiet hours that end past the hold limit make it missed; within it, it fires late.
      guard due.attempt == 0, HoldRules.mayHold(request),
        let hold = holding?.quietHold(at: firing.at, in: zone), hold.missed,
        let hours = holding?.quietHours
      else { return nil }
      return
        "quiet hours \(hours): held until \(clock.format(TimeArgument.stamp(hold.end, zone).timeOfDay)), past the \((holding?.atMostSeconds ?? 0) / 60)-minute limit of a hold"
    case .cancelled(let reason), .suppressed(let reason): return reason
    case .rule(let rule, let reason):
      return rule == .backingOff || rule == .paused ? reason : "\(rule.words): \(reason)"
    case .alreadyHandled(let at):
      // The slot came in another zone: say when that was on today's clock.
      let came = TimeArgument.stamp(at, zone)
      let slot = clock.format(firing.slot?.time ?? came.timeOfDay)
      return
        "this day's \(slot) came already, at \(clock.format(came.timeOfDay)) (\(came.offsetText)), before the time zone changed"
    }
  }
}

extension SkipRule {
  /// The rule in words, before its reason: "superseded", "daily cap".
  var words: String {
    switch self {
    case .alreadyDone: "already done"
    case .cancelled: "cancelled"
    case .superseded: "superseded"
    case .backingOff: "backing off"
    case .paused: "paused"
    case .dailyCap: "daily cap"
    }
  }
}
