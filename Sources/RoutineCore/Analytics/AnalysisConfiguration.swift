/// The knobs of routine analytics. The defaults are the documented behaviour (docs/analytics.md);
/// they are parameters so tests can exercise the rules and the backtest can compare settings.
public struct AnalysisConfiguration: Sendable, Hashable {
  /// How far from the suggested time an event still counts as "on time", in seconds (30 min).
  public var toleranceSeconds: Int = 30 * 60
  /// The fewest days on which the event happened near the suggested time before a routine is
  /// claimed.
  public var minimumDays: Int = 3
  /// A routine is claimed only when its hit days would be this unlikely (one-sided binomial
  /// test) if the kind's events fell at random times of a waking day: a kind logged many times a
  /// day (water) lands in any given hour by chance.
  public var significanceLevel: Double = 0.05
  /// The length of the waking day over which chance events are spread, in seconds (16 h).
  public var wakingDaySeconds: Int = 16 * 3600
  /// The prior of the confidence estimator, as pseudo-counts of hit and missed days (Laplace's
  /// rule of succession: one of each).
  public var priorHits: Double = 1
  /// See ``priorHits``.
  public var priorMisses: Double = 1
  /// Evidence fades with age: a day `age` days before the newest observed learning day weighs
  /// 2^(-age / half-life). Routines drift (holidays, a new job); the most recent week says most
  /// about tomorrow. `nil` weighs every day the same.
  public var recencyHalfLifeDays: Double? = 7
  /// Radius of each of the three box blurs that smooth the time-of-day histogram, in minutes
  /// (three passes of radius r approximate a Gaussian with sigma = sqrt(r * (r + 1))).
  public var smoothingRadiusMinutes: Int = 20
  /// Two density peaks merge into one cluster when the valley between them is higher than this
  /// fraction of the lower peak.
  public var peakMergeRatio: Double = 0.5
  /// Above this many days with events, leave-one-day-out re-estimation is skipped: with that
  /// much evidence the in-sample hit rate differs from it by less than one day in this many.
  public var leaveOneOutLimit: Int = 400
  /// The modified z-score (deviation / (1.4826 * MAD)) beyond which an event is an outlier.
  public var outlierScore: Double = 3.5
  /// The smallest deviation that is ever called an outlier, in seconds (60 min): a tight pattern
  /// must not turn every slightly late morning into an alert.
  public var outlierFloorSeconds: Int = 60 * 60
  /// How many days back the track record looks (see ``TrackRecord``): how the routines learned
  /// for each of those days fared on it. 0 leaves the model without a record or a pooled one.
  public var trackRecordDays: Int = 28
  /// The weight of the window's own estimate against the track record, in days, in the blended
  /// feature of ``ConfidenceModel``: with no track record (a new routine) the window decides;
  /// after a few weeks the record does. The shipped weights were fitted with 4.
  public var trackRecordWindowWeight: Double = 4
  /// How many days back routines kept on some days of the week only are learned from (the gym
  /// on Monday, Wednesday and Friday; a brunch at weekends): a weekday comes round once a week,
  /// so such a routine needs weeks of evidence where an every-day routine needs days. No more
  /// than the window (0, say) learns none.
  public var weeklyDays: Int = 42
  /// How much better, in nats of held-out log-likelihood, a weekday set must predict the
  /// horizon's days than the best standard split of the week: ln 63, a likelihood ratio of 63,
  /// one for each of the 63 ways to split a week in two that the search could have hit on.
  public var weeklyMargin: Double = 4.143
  /// The half-life of the evidence for routines of some days, in days (see
  /// ``recencyHalfLifeDays``). Each weekday comes round once a week, so a week-long half-life
  /// would leave a Sunday routine with one Sunday's evidence; three weeks keep the last one
  /// weighing most.
  public var weeklyHalfLifeDays: Double? = 21
  /// How many days with the event each kind of day learns its time from: the window's days,
  /// and before them (back to the ``weeklyDays`` horizon) as many more as it takes to reach
  /// this many days of the kind of day with the event. Rest days and logging gaps then do not
  /// starve a routine (a workout three days a week shows three times in a week's window). The
  /// confidence still counts every observed day of the kind in the span those days cover. 0
  /// learns from the window's days only.
  public var eventDays: Int = 20
  /// The long look-back, in days: a window shorter than the track record also learns routines
  /// from this many days before, and each slot keeps the better forecast of the two
  /// (docs/analytics.md, "Several look-backs"). A week shows what changed lately, four weeks
  /// what holds. No longer than the window (0, say) learns none.
  public var longLookBackDays: Int = 28
  /// Event kinds whose time between them is a usual duration (the commute).
  public var pairs: [EventPair] = EventPair.builtIn
  /// The planner's threshold (`settings --threshold`, `backtest --threshold`): a routine with
  /// a confidence above it becomes a reminder, and a slot the significance test refuses (its
  /// hits no more than events at random times would give) is shown at all only above it.
  public var threshold: Double = 0.6
  /// Whether a confidence is kept within what its own counts support (``EvidenceBound``).
  /// Off only to measure what the bound changes.
  public var boundsByEvidence = true
  /// Whether a routine whose last days agree on a new time is followed there at once
  /// (``ChangePoint``; docs/analytics.md, "A moved routine"). Off only to measure it.
  public var followsMoves = true
  /// Whether days without any event lower every confidence (``LoggingSilence``). Off only to
  /// measure it.
  public var decaysWhenSilent = true
  /// The model that turns a routine's evidence into its confidence (see ``ConfidenceModel``).
  public var confidenceModel: ConfidenceModel = .shipped

  /// The documented defaults.
  public init() {}
}

/// Two kinds where the second usually follows the first: "Leaving Home" then "Arriving at Work".
public struct EventPair: Sendable, Hashable {
  /// The key of the kind that starts the interval.
  public var fromKey: String
  /// The key of the kind that ends it.
  public var toKey: String
  /// The longest interval that still pairs the two, in seconds.
  public var maximumSeconds: Int

  /// A pair of kind keys (see ``EventKind/key``).
  public init(fromKey: String, toKey: String, maximumSeconds: Int) {
    self.fromKey = fromKey
    self.toKey = toKey
    self.maximumSeconds = maximumSeconds
  }

  /// Commutes and sleep. Kinds named "X Start"/"X End" or "Start X"/"End X" pair as well.
  public static let builtIn: [EventPair] = [
    EventPair(fromKey: "leaving home", toKey: "arriving at work", maximumSeconds: 3 * 3600),
    EventPair(fromKey: "leaving work", toKey: "arriving home", maximumSeconds: 3 * 3600),
    EventPair(fromKey: "bed time", toKey: "wake up", maximumSeconds: 16 * 3600),
  ]

  /// The longest interval for pairs found by the "Start"/"End" naming convention.
  public static let conventionMaximumSeconds = 12 * 3600

  /// The pairs among `kinds`: the built-in ones plus the naming convention.
  public static func pairs(among kinds: [EventKind], builtIn: [EventPair]) -> [EventPair] {
    let keys = Set(kinds.map(\.key))
    var result = builtIn.filter { keys.contains($0.fromKey) && keys.contains($0.toKey) }
    for key in keys.sorted() {
      var end: String?
      if key.hasSuffix(" start") {
        end = String(key.dropLast(" start".count)) + " end"
      } else if key.hasPrefix("start ") {
        end = "end " + key.dropFirst("start ".count)
      }
      if let end, keys.contains(end),
        !result.contains(where: { $0.fromKey == key && $0.toKey == end })
      {
        result.append(EventPair(fromKey: key, toKey: end, maximumSeconds: conventionMaximumSeconds))
      }
    }
    return result
  }
}
