/// What a person chose about a reminder's adaptation (`reminders add --adapt`, `reminders
/// adapt ID on|off`).
public enum AdaptationMode: String, Sendable, CaseIterable {
  /// The default: a learned reminder adapts fully; a reminder you defined only backs off when
  /// ignored.
  case auto
  /// Adapts fully: its time follows your answers, and it fades as the habit forms.
  case on
  /// Never adapts: it fires as defined (or learned), every time.
  case off
}

/// What may adapt for one reminder (docs/reminders.md#reminders-that-listen).
public struct AdaptationPolicy: Hashable, Sendable {
  /// Its time moves with how it is answered (at most ``Adaptation/maximumOffsetMinutes``).
  public var timing: Bool
  /// It fires on fewer days after being ignored several times in a row.
  public var dose: Bool
  /// It pauses while the act is done without it on most days.
  public var fading: Bool

  /// Nothing adapts.
  public static let none = AdaptationPolicy(timing: false, dose: false, fading: false)

  /// A policy.
  public init(timing: Bool, dose: Bool, fading: Bool) {
    self.timing = timing
    self.dose = dose
    self.fading = fading
  }

  /// Whether anything adapts.
  public var isEmpty: Bool { !timing && !dose && !fading }

  /// What may adapt for `request` (one of a reminder's), with adaptation turned on or off
  /// globally (`settings --adapt`) and the reminder's own `mode`:
  /// - alarms, task reminders, one-time requests and alerts never adapt;
  /// - a learned reminder adapts fully unless its mode is `off`;
  /// - a reminder you defined backs off when ignored (if it fires on at least two days a week),
  ///   and with mode `on` also moves and fades; with `off`, nothing;
  /// - only a reminder tied to an event kind fades (the log says whether the act was done).
  public static func of(_ request: NotificationRequest, enabled: Bool, mode: AdaptationMode)
    -> AdaptationPolicy
  {
    guard enabled, mode != .off, request.metadata?.isAlarm != true,
      request.category != .taskReminder, case .calendar(let trigger) = request.trigger,
      trigger.repeats
    else { return .none }
    let often =
      trigger.dayOfMonth == nil && (trigger.weekdays.isEmpty || trigger.weekdays.count >= 2)
    let full = request.origin == .learned || mode == .on
    let tied = request.isTiedToKind
    return AdaptationPolicy(timing: full, dose: often, fading: full && tied)
  }

  /// The union of two policies (a reminder's requests, one per weekday, share one record).
  public func union(_ other: AdaptationPolicy) -> AdaptationPolicy {
    AdaptationPolicy(
      timing: timing || other.timing, dose: dose || other.dose, fading: fading || other.fading)
  }

  /// What may adapt for a reminder made of `requests` (an activity reminder's, one per weekday,
  /// together): as ``of(_:enabled:mode:)`` for each, and backing off when together they fire on
  /// at least two days a week.
  public static func of(
    _ requests: [NotificationRequest], enabled: Bool, mode: AdaptationMode
  ) -> AdaptationPolicy {
    var policy = requests.reduce(AdaptationPolicy.none) {
      $0.union(AdaptationPolicy.of($1, enabled: enabled, mode: mode))
    }
    guard enabled, mode != .off else { return policy }
    var days: UInt8 = 0
    for request in requests {
      guard case .calendar(let trigger) = request.trigger, trigger.repeats,
        trigger.dayOfMonth == nil, request.metadata?.isAlarm != true,
        request.category != .taskReminder
      else { continue }
      days |= (trigger.weekdays.isEmpty ? WeekdaySet.everyDay : trigger.weekdays).rawValue
    }
    if WeekdaySet(rawValue: days).count >= 2 { policy.dose = true }
    return policy
  }
}

/// Where a reminder stands, as the last plan decided it (stored per reminder:
/// ``NotificationRequest/adaptationKey``).
public struct AdaptationRecord: Hashable, Sendable {
  /// Active, backing off, or paused.
  public enum State: String, Sendable, CaseIterable {
    /// Fires as planned.
    case active
    /// Ignored or dismissed several times in a row: fires every ``AdaptationRecord/spacing``
    /// days for now.
    case backingOff = "backing-off"
    /// Done on your own on most recent days: fires only as a check-in on a day the act is
    /// missed.
    case paused
  }

  /// The reminder (`reminder-3`, `routine_WakeUp`).
  public var key: String
  /// What the person chose (only `off` is kept for a learned reminder; a defined one's mode is
  /// part of its definition).
  public var mode: AdaptationMode = .auto
  /// Its state.
  public var state: State = .active
  /// Days between firings: 1 (every day it is on), 2 (every other day), 3 (about twice a week).
  public var spacing = 1
  /// The local day (days since 1970) it was last delivered: while backing off, it fires again
  /// ``spacing`` days after it.
  public var anchorDay: Int?
  /// Minutes its time moved (negative: earlier), within ±``Adaptation/maximumOffsetMinutes``.
  public var offsetMinutes = 0
  /// When the offset last changed: firings before it are no evidence for the next move.
  public var offsetSince: Int64?
  /// When the back-off began (its local day), or the pause.
  public var since: Int?
  /// When the reminder first appeared: it does not pause in its first week
  /// (``Adaptation/warmUpDays``), whatever the record says, so that it is seen and can be
  /// answered.
  public var startedAt: Int64?
  /// Days before this instant do not count towards a pause: when `reminders resume` brought it
  /// back.
  public var countsSince: Int64?
  /// The habit's strength, 0...1: an exponentially weighted share of its days done (half of it
  /// from the last 13 days it was on), as Loop Habit Tracker's score.
  public var strength: Double?
  /// Days it was on and done in a row, up to the last.
  public var streak: Int?
  /// Each adaptation in force, with its evidence ("moved 10 min later: you snoozed 4 of the
  /// last 5").
  public var explanations: [String] = []
  /// The local day (days since 1970) the plan decided this for.
  public var computedDay: Int?

  /// A record of `key`, active and unmoved.
  public init(key: String) {
    self.key = key
  }

  /// `active`, `backing off: every other day`, `paused: done on your own on 13 of the last 14
  /// days`: as `reminders`, `why` and the report show it.
  public var stateText: String {
    switch state {
    case .active: return "active"
    case .backingOff:
      return "backing off: " + (spacing >= 3 ? "about twice a week" : "every other day")
    case .paused:
      return explanations.first { $0.hasPrefix("paused") } ?? "paused"
    }
  }
}
