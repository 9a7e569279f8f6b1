/// What logging events makes happen (docs/delivery.md#after-every-logged-event), decided in one
/// place for `log`, `import`, `respond` and a desktop answer: the store reads the facts, this
/// decides, the store applies the effects in the same transaction.
///
/// - Firings in the next 24 hours of reminders you defined whose look-back window holds one of
///   the events are cancelled (reverse smart reminders).
/// - Snoozed copies whose act is one of the events, logged after the firing they copy, are
///   removed: they would remind of what is done.
/// - An event of the last 24 hours far off its saved routine schedules an outlier alert, once.
///
/// Events older than the longest look-back (``LookBack/longestSeconds``) do none of this: a bulk
/// import of history cancels nothing and raises no alert.
public enum AfterLogging {
  /// What the store knows, gathered for the events logged.
  public struct Facts: Sendable {
    /// The events logged, recent ones (``recent(_:now:)``).
    public var events: [Event]
    /// The requests of the reminders you defined that watch the events' kinds (their look-back
    /// window is what is cancelled).
    public var watching: [NotificationRequest]
    /// The snoozed copies pending.
    public var snoozes: [NotificationRequest]
    /// The routines the last plan saved, by kind key, for the outlier check.
    public var routines: [String: [LearnedRoutine]]
    /// The times of other events of each kind around the events (8 days before to a day after
    /// each), by kind key, for the outlier check.
    public var times: [String: [Timestamp]]
    /// Outlier alerts pending or delivered already: the same outlier never alerts twice.
    public var knownAlerts: Set<String>

    /// Facts.
    public init(
      events: [Event], watching: [NotificationRequest] = [], snoozes: [NotificationRequest] = [],
      routines: [String: [LearnedRoutine]] = [:], times: [String: [Timestamp]] = [:],
      knownAlerts: Set<String> = []
    ) {
      self.events = events
      self.watching = watching
      self.snoozes = snoozes
      self.routines = routines
      self.times = times
      self.knownAlerts = knownAlerts
    }
  }

  /// One thing logging makes happen.
  public enum Effect: Hashable, Sendable {
    /// Record this cancellation.
    case cancel(Cancellation)
    /// Remove this snoozed copy: `event` did its act.
    case unschedule(NotificationRequest, because: Event)
    /// Schedule this outlier alert.
    case alert(NotificationRequest)
  }

  /// The events recent enough to cancel, close or alert anything.
  public static func recent(_ events: [Event], now: Int64) -> [Event] {
    events.filter { $0.timestamp.secondsSince1970 >= now - LookBack.longestSeconds }
  }

  /// How far around an event the outlier check reads its kind's other events: 8 days before.
  public static let outlierContextBefore: Int64 = 8 * 86_400

  /// What logging `facts.events` at `now` makes happen.
  public static func decide(_ facts: Facts, now: Int64, in zone: Zone, clock: ClockStyle)
    -> [Effect]
  {
    let events = recent(facts.events, now: now)
    guard !events.isEmpty else { return [] }
    var effects: [Effect] = []
    // Cancellations: each watching request's own kinds decide (a "Mindfulness" logged for the
    // mindfulness reminder, which watches "Meditation").
    for cancellation in Cancellation.cancellations(
      for: events, requests: facts.watching, now: now, in: zone)
    {
      effects.append(.cancel(cancellation))
    }
    for snooze in facts.snoozes {
      guard let kind = snooze.actKind, case .date(let fire) = snooze.trigger,
        let lookBack = snooze.metadata?.lookBack
      else { continue }
      let counting = Set(ActivityPreset.kinds(countingAs: kind).map(\.key))
      // From the firing it copies on: a copy still pending is not needed once its act is logged,
      // even after the copy came due (a late delivery would still bring it).
      let since = lookBack.window(before: fire, in: zone).lowerBound
      if let done = events.first(where: {
        counting.contains($0.kind.key) && $0.timestamp.secondsSince1970 >= since
      }) {
        effects.append(.unschedule(snooze, because: done))
      }
    }
    var alerted = facts.knownAlerts
    for event in events
    where event.timestamp.secondsSince1970 >= now - 86_400
      && event.timestamp.secondsSince1970 <= now + 60
    {
      guard let routines = facts.routines[event.kind.key], !routines.isEmpty else { continue }
      let around = event.timestamp.secondsSince1970
      let others = (facts.times[event.kind.key] ?? []).filter {
        $0.secondsSince1970 >= around - outlierContextBefore
          && $0.secondsSince1970 <= around + 86_400
      }
      guard
        let outlier = OutlierCheck.outlier(event, routines: routines, others: others, clock: clock)
      else { continue }
      let alert = NotificationRequest.outlierAlert(for: outlier, firingAt: now)
      guard alerted.insert(alert.id).inserted else { continue }
      effects.append(.alert(alert))
    }
    return effects
  }
}
