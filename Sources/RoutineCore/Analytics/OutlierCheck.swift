import Foundation

/// A routine as the last plan learned it, saved so that the check after each logged event can
/// read it instead of analysing the log again (logging stays about as fast as a program start).
public struct LearnedRoutine: Hashable, Sendable {
  /// The kind.
  public var kind: EventKind
  /// Its usual time.
  public var time: TimeOfDay
  /// The days of the week it holds on.
  public var weekdays: WeekdaySet
  /// Events this far from `time` (seconds) are the routine kept.
  public var toleranceSeconds: Int
  /// Events at least this far from `time` (seconds) can be outliers.
  public var thresholdSeconds: Int

  /// A routine.
  public init(
    kind: EventKind, time: TimeOfDay, weekdays: WeekdaySet, toleranceSeconds: Int,
    thresholdSeconds: Int
  ) {
    self.kind = kind
    self.time = time
    self.weekdays = weekdays
    self.toleranceSeconds = toleranceSeconds
    self.thresholdSeconds = thresholdSeconds
  }

  /// The routine `routine` saved: its days, tolerance and outlier threshold.
  public init(_ routine: Routine, toleranceSeconds: Int) {
    self.init(
      kind: routine.kind, time: routine.time, weekdays: WeekdaySet(routine.dayKind.weekdays),
      toleranceSeconds: toleranceSeconds, thresholdSeconds: routine.outlierThresholdSeconds)
  }

  /// The routine day `timestamp` belongs to (its local date moved by a day when it lies more
  /// than twelve hours from the routine's time: a 00:10 bed time belongs to the evening before
  /// a 23:50 routine) and its signed distance from the routine's time, in seconds.
  func place(_ timestamp: Timestamp) -> (day: LocalDate, offset: Int) {
    let shift = 43_200 - time.secondsSinceMidnight
    var position = timestamp.timeOfDay.secondsSinceMidnight + shift
    var day = timestamp.localDate
    if position < 0 {
      position += 86_400
      day = day.adding(days: -1)
    } else if position >= 86_400 {
      position -= 86_400
      day = day.adding(days: 1)
    }
    return (day, position - 43_200)
  }
}

/// The check after an event is logged (`log`, `respond`, an import of the last day's events):
/// the rules of the analysis's outliers (docs/analytics.md), against the saved routines.
public enum OutlierCheck {
  /// The outlier `event` is, or `nil`: when (1) no routine of its kind that applies to its day
  /// has it within its tolerance, (2) it is at least the nearest such routine's threshold away,
  /// (3) no other event (of `others`: its kind's events of the week before) kept that routine on
  /// that day, and (4) none of `others` on another day came within the tolerance of its time of
  /// day (a time that recurs is another slot of the kind, not a day off its pattern).
  public static func outlier(
    _ event: Event, routines: [LearnedRoutine], others: [Timestamp], clock: ClockStyle
  ) -> Outlier? {
    let mine = routines.filter { $0.kind.key == event.kind.key }
    var nearest: (routine: LearnedRoutine, day: LocalDate, offset: Int)?
    for routine in mine {
      let (day, offset) = routine.place(event.timestamp)
      guard routine.weekdays.contains(day.weekday) else { continue }
      if abs(offset) <= routine.toleranceSeconds { return nil }
      if nearest == nil || abs(offset) < abs(nearest!.offset) { nearest = (routine, day, offset) }
    }
    guard let (routine, day, offset) = nearest, abs(offset) >= routine.thresholdSeconds else {
      return nil
    }
    let others = others.filter { $0 != event.timestamp }
    for other in others {
      let (otherDay, otherOffset) = routine.place(other)
      if otherDay == day, abs(otherOffset) <= routine.toleranceSeconds { return nil }
      let apart = abs(other.timeOfDay.signedDistance(to: event.timestamp.timeOfDay))
      if other.localDate != event.timestamp.localDate, apart <= routine.toleranceSeconds {
        return nil
      }
    }
    let minutes = Int((Double(offset) / 60).rounded())
    let message =
      "You usually \(presentTense(event.kind)) around \(clock.format(routine.time)), "
      + "but today you're \(abs(minutes)) minutes off pattern."
    return Outlier(
      kind: event.kind, timestamp: event.timestamp, expected: routine.time,
      dayKind: .all, deviationMinutes: minutes, message: message)
  }

  /// "wake up", "go to bed", or "log Coffee": what the person does, in the present tense.
  static func presentTense(_ kind: EventKind) -> String {
    switch kind.known {
    case .wakeUp: "wake up"
    case .bedTime: "go to bed"
    case .leavingHome: "leave home"
    case .arrivingAtWork: "arrive at work"
    case .leavingWork: "leave work"
    case .arrivingHome: "arrive home"
    case .workout: "work out"
    case .meditation: "meditate"
    case nil: "log \(kind.name)"
    }
  }
}
