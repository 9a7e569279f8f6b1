/// A routine: an event kind that usually happens at a time of day on a kind of day.
public struct Routine: Sendable, Hashable {
  /// The event kind.
  public var kind: EventKind
  /// The usual local time of day (the suggestion).
  public var time: TimeOfDay
  /// The days it applies to: the dates ``time`` falls on. A Friday- and Saturday-night bed
  /// time learned at 00:30 is a Saturday and Sunday routine, and the planner fires on those
  /// dates.
  public var dayKind: DayKind
  /// The estimated probability that on a day of ``dayKind`` the event happens within the
  /// tolerance (30 min) of ``time``. See docs/analytics.md for the estimator.
  public var confidence: Double
  /// Events of this kind that belong to this routine in the window.
  public var occurrences: Int
  /// Days of ``dayKind`` in the window with an event within the tolerance of ``time``.
  public var daysMatched: Int
  /// Days of ``dayKind`` in the window.
  public var daysObserved: Int
  /// The earliest and latest local times of the matching events.
  public var earliest: TimeOfDay
  /// See ``earliest``.
  public var latest: TimeOfDay
  /// The robust spread of the routine: 1.4826 times the median absolute deviation from
  /// ``time`` of each day's nearest event, in minutes.
  public var spreadMinutes: Double
  /// How far from ``time`` an event must be to be an outlier, in seconds.
  public var outlierThresholdSeconds: Int
  /// Why we believe it, in words.
  public var reasoning: String
  /// What the confidence was estimated from, for learned routines (the track record estimates
  /// it again).
  var evidence: RoutineEvidence? = nil
  /// The day a routine that moved was first done at its new time (``ChangePoint``): it is
  /// learned from then on, and events before are none of its outliers.
  var movedOn: LocalDate? = nil

  /// Whether the significance test claimed it (routines made by hand, and routines of some
  /// days of the week, count as claimed).
  var isClaimed: Bool { evidence?.features.unclaimed != true }

  /// The local calendar date a routine day's suggestion falls on is the routine day itself;
  /// this is the naive local time of the suggestion on `date`.
  public func suggestedLocalSeconds(on date: LocalDate) -> Int64 {
    WallClock.localSeconds(on: date, at: time)
  }

  /// The routine day an event at naive local seconds `local` belongs to: the date of the
  /// suggestion nearest to it (events within 12 hours either side of a day's suggestion). The
  /// analysis counts ``daysMatched`` on these days, the outlier checks place events on them,
  /// and the planner fires on them, so a report's rows show what the counts say.
  public func routineDay(ofLocalSeconds local: Int64) -> LocalDate {
    let shifted = Int(local) - time.secondsSinceMidnight + 43_200
    return LocalDate(daysSince1970: floorDiv(shifted, 86_400))
  }
}

/// An event far from the routine it should have matched.
public struct Outlier: Sendable, Hashable {
  /// The event kind.
  public var kind: EventKind
  /// When the event happened.
  public var timestamp: Timestamp
  /// The routine's usual time.
  public var expected: TimeOfDay
  /// The routine's kind of day.
  public var dayKind: DayKind
  /// Signed minutes from the usual time: negative when early, positive when late.
  public var deviationMinutes: Int
  /// The sentence for the user.
  public var message: String
}

/// How long usually passes between two kinds of event: the commute between "Leaving Home" and
/// "Arriving at Work".
public struct UsualDuration: Sendable, Hashable {
  /// The kind that starts the interval.
  public var from: EventKind
  /// The kind that ends it.
  public var to: EventKind
  /// The median interval, in minutes.
  public var minutes: Int
  /// How many pairs were seen.
  public var pairs: Int
  /// Why we believe it, in words.
  public var reasoning: String
}

/// What analytics found in a window.
public struct RoutineAnalysis: Sendable {
  /// The window analysed.
  public var window: AnalysisWindow
  /// Routines, ordered by time of day.
  public var routines: [Routine]
  /// Events far from their routine, in time order.
  public var outliers: [Outlier]
  /// Usual durations between paired kinds.
  public var durations: [UsualDuration]
  /// How long nothing was logged before the window's today: every confidence above has
  /// decayed by it, and past ``LoggingSilence/pauseDays`` the planner plans none.
  public var silence: LoggingSilence

  /// An analysis.
  public init(
    window: AnalysisWindow, routines: [Routine], outliers: [Outlier], durations: [UsualDuration],
    silence: LoggingSilence? = nil
  ) {
    self.window = window
    self.routines = routines
    self.outliers = outliers
    self.durations = durations
    self.silence = silence ?? LoggingSilence(lastLogged: nil, today: window.today)
  }
}
