/// Reminders that listen (docs/reminders.md#reminders-that-listen): the rules that move a
/// reminder's time, back off its dose and let it fade, decided from its record once a night by
/// the plan. Pure: days in, a record out.
///
/// The rules, with the numbers they use:
/// - **Timing.** Over the last 5 firings delivered since its time last moved: when at least 4
///   were acted on 10 minutes or more after it or snoozed, it moves later by the median of
///   those delays (a snooze counts as 10 minutes, or its own length when longer; rounded to 5
///   minutes); when at least 4 were done 10 minutes or more before it, earlier. Never more than
///   30 minutes from the time learned or defined, nor (learned) past its routine's latest usual
///   time.
/// - **Dose.** After 3 delivered firings in a row ignored or dismissed, it fires every other
///   day it is on; after 7, about twice a week (every third day). Any other answer brings it
///   back to full dose, and so does a missed act: a day it stayed quiet and the act was not done,
///   for a habit done on at least half of its days before the back-off began.
/// - **Fading.** When the act was done on the person's own (``Day/isUnaided``: before the
///   firing, on a day it did not fire, or after it without touching its buttons) on 12 of the
///   last 14 days it was on, it pauses, once it has fired for a week: it then fires only as a
///   check-in on a day the act is missed by then. Missed 2 days in a row, it comes back. After
///   `reminders resume`, only the days from then on count.
public enum Adaptation {
  /// The furthest a reminder's time moves from the time learned or defined: 30 minutes.
  public static let maximumOffsetMinutes = 30
  /// How many recent firings decide a move: 5.
  public static let evidenceFirings = 5
  /// How many of them must agree: 4.
  public static let agreeingFirings = 4
  /// The least lateness or earliness that counts: 10 minutes.
  public static let minimumShiftMinutes = 10
  /// Unheeded firings in a row before backing off to every other day: 3.
  public static let backOffAfter = 3
  /// ... and to about twice a week: 7.
  public static let twiceAWeekAfter = 7
  /// The days a pause looks at, and how many must have been done unaided: 12 of 14.
  public static let fadeDays = 14
  /// See ``fadeDays``.
  public static let fadeDone = 12
  /// Days missed in a row that end a pause: 2.
  public static let slipDays = 2
  /// Days a new reminder fires before it may pause: 7.
  public static let warmUpDays = 7
  /// How far back the record reaches: 28 days (90 for strength and streak).
  public static let historyDays = 28
  /// How far back strength and streak look: 90 days.
  public static let strengthDays = 90

  /// One day a reminder was on (its trigger fired, or would have).
  public struct Day: Hashable, Sendable {
    /// The local date of its firing.
    public var date: LocalDate
    /// When it fired or would have; `nil` when not known.
    public var firing: Int64?
    /// What became of the day's firing (its first), when one was recorded.
    public var outcome: FiringOutcome?
    /// Whether it was snoozed.
    public var snoozed: Bool
    /// Whether it was answered with an action that does the act ("I'm on it", "Done", a
    /// quick-log level, "Start").
    public var answered: Bool
    /// The first act in its act window that day (an event of its kind, with the offset it was
    /// logged at), if done.
    public var act: Timestamp?

    /// A day.
    public init(
      date: LocalDate, firing: Int64? = nil, outcome: FiringOutcome? = nil, snoozed: Bool = false,
      answered: Bool = false, act: Timestamp? = nil
    ) {
      self.date = date
      self.firing = firing
      self.outcome = outcome
      self.snoozed = snoozed
      self.answered = answered
      self.act = act
    }

    /// Whether the act was done that day (logged, or answered as done).
    public var isDone: Bool { act != nil || outcome?.isActed == true }

    /// Whether it was done on the person's own: logged before the firing, on a day no firing
    /// was delivered, or after one that was neither answered nor snoozed (the act came, and the
    /// notification's buttons played no part in it). A reminder that fires before the habitual
    /// time always comes first; whether it was used shows in the answers, not in the order.
    public var isUnaided: Bool {
      guard let act = act?.secondsSince1970 else { return false }
      switch outcome {
      case nil, .skipped, .notDelivered, .preEmpted: return true
      case .acted, .snoozedThenActed, .dismissed, .ignored, .open:
        if let firing, act < firing { return true }
        return !answered && !snoozed
      }
    }

    /// Whether it was delivered.
    public var wasDelivered: Bool {
      switch outcome {
      case .acted, .snoozedThenActed, .dismissed, .ignored, .preEmpted, .open: true
      default: false
      }
    }
  }

  /// The record after the days up to yesterday (`days`, oldest first, the days the reminder was
  /// on within ``historyDays``), from the one before (`previous`).
  public static func update(
    _ previous: AdaptationRecord, days: [Day], policy: AdaptationPolicy, today: LocalDate,
    now: Int64, snoozeMinutes: Int, what: String
  ) -> AdaptationRecord {
    var record = previous
    record.computedDay = today.daysSince1970
    record.explanations = []
    guard !policy.isEmpty else {
      record.state = .active
      record.spacing = 1
      record.offsetMinutes = 0
      return record
    }
    let past = days.filter { $0.date < today }
    record.anchorDay = past.last(where: \.wasDelivered)?.date.daysSince1970
    if policy.timing {
      retime(&record, past, now: now, snoozeMinutes: snoozeMinutes)
    } else {
      record.offsetMinutes = 0
    }
    if policy.fading {
      fade(&record, past, today: today, now: now, what: what)
    } else if record.state == .paused {
      record.state = .active
    }
    if record.state != .paused {
      if policy.dose {
        dose(&record, past, today: today, what: what)
      } else {
        record.state = .active
        record.spacing = 1
      }
    } else {
      record.spacing = 1
    }
    return record
  }

  /// Moves the time by the last firings' answers (``Adaptation``'s timing rule).
  static func retime(
    _ record: inout AdaptationRecord, _ days: [Day], now: Int64, snoozeMinutes: Int
  ) {
    let since = record.offsetSince ?? Int64.min
    var samples: [(minutes: Int, snoozed: Bool)] = []
    for day in days.reversed() where day.wasDelivered {
      guard let firing = day.firing, firing > since else { break }
      if case .preEmpted(let done) = day.outcome {
        samples.append((-Int((firing - done) / 60), false))
      } else if let act = day.act?.secondsSince1970, act < firing {
        samples.append((-Int((firing - act) / 60), false))
      } else if case .acted(let minutes) = day.outcome {
        samples.append((minutes, false))
      } else if case .snoozedThenActed(let minutes) = day.outcome {
        samples.append((max(minutes, snoozeMinutes, minimumShiftMinutes), true))
      } else if day.snoozed {
        // A snooze says "later", however short the snooze.
        samples.append((max(snoozeMinutes, minimumShiftMinutes), true))
      } else {
        samples.append((0, false))
      }
      if samples.count == evidenceFirings { break }
    }
    if samples.count >= agreeingFirings {
      let later = samples.filter { $0.minutes >= minimumShiftMinutes }
      let earlier = samples.filter { $0.minutes <= -minimumShiftMinutes }
      var delta = 0
      var because = ""
      if later.count >= agreeingFirings {
        delta = roundedToFive(median(later.map(\.minutes)))
        let snoozes = later.filter(\.snoozed).count
        because =
          snoozes * 2 >= later.count
          ? "you snoozed \(snoozes) of the last \(samples.count)"
          : "you did it a median \(median(later.map(\.minutes))) min after it on \(later.count) of the last \(samples.count)"
      } else if earlier.count >= agreeingFirings {
        delta = -roundedToFive(median(earlier.map { -$0.minutes }))
        because = "you did it before it on \(earlier.count) of the last \(samples.count)"
      }
      let moved = max(
        -maximumOffsetMinutes, min(maximumOffsetMinutes, record.offsetMinutes + delta))
      if moved != record.offsetMinutes {
        let change = moved - record.offsetMinutes
        record.offsetMinutes = moved
        record.offsetSince = now
        record.explanations.append(
          "moved \(abs(change)) min \(change > 0 ? "later" : "earlier"): \(because)")
        return
      }
    }
    if record.offsetMinutes != 0 {
      record.explanations.append(
        "\(abs(record.offsetMinutes)) min \(record.offsetMinutes > 0 ? "later" : "earlier") than its usual time, by your answers"
      )
    }
  }

  /// Pauses, or brings back, by the days done unaided (``Adaptation``'s fading rule).
  static func fade(
    _ record: inout AdaptationRecord, _ days: [Day], today: LocalDate, now: Int64, what: String
  ) {
    let resumed = record.countsSince ?? Int64.min
    let counted = days.filter { day in
      // Days from the one `reminders resume` was given on count only after it.
      (day.firing ?? Int64.max) > resumed
    }
    if record.state == .paused {
      let since = record.since ?? Int.min
      let recent = counted.filter { $0.date.daysSince1970 >= since }.suffix(slipDays)
      if recent.count == slipDays, recent.allSatisfy({ !$0.isDone }) {
        record.state = .active
        record.since = nil
        record.explanations.append(
          "back from its pause: \(what) was missed \(slipDays) days in a row")
        return
      }
      let last = counted.suffix(fadeDays)
      let unaided = last.filter(\.isUnaided).count
      record.explanations.append(
        "paused: done on your own on \(unaided) of the last \(last.count) days; it comes back if you miss \(slipDays) days in a row"
      )
      return
    }
    let last = counted.suffix(fadeDays)
    guard last.count == fadeDays else { return }
    // A new reminder is seen for a week first; the days before it count (done without it).
    if let started = record.startedAt, now - started < Int64(warmUpDays) * 86_400 { return }
    let unaided = last.filter(\.isUnaided).count
    guard unaided >= fadeDone else { return }
    record.state = .paused
    record.since = today.daysSince1970
    record.spacing = 1
    record.explanations.append(
      "paused: done on your own on \(unaided) of the last \(fadeDays) days; it comes back if you miss \(slipDays) days in a row"
    )
  }

  /// Backs off, or comes back to full dose (``Adaptation``'s dose rule).
  static func dose(_ record: inout AdaptationRecord, _ days: [Day], today: LocalDate, what: String)
  {
    var unheeded = 0
    // After `reminders resume`, only the firings since count.
    let resumed = record.countsSince ?? Int64.min
    for day in days.reversed() where day.wasDelivered && (day.firing ?? Int64.max) > resumed {
      if day.outcome?.isUnheeded == true && !day.snoozed {
        unheeded += 1
      } else if case .preEmpted = day.outcome {
        continue
      } else if day.outcome == .open {
        continue
      } else {
        break
      }
    }
    let spacing = unheeded >= twiceAWeekAfter ? 3 : unheeded >= backOffAfter ? 2 : 1
    if record.state == .backingOff, spacing > 1, let since = record.since {
      // A missed act on a quiet day, for a habit that was done on at least half its days
      // before the back-off: the reminder was needed.
      let before = days.filter { $0.date.daysSince1970 < since }.suffix(fadeDays)
      let quietMissed = days.first { day in
        day.date.daysSince1970 >= since && day.outcome == .skipped(.backingOff) && !day.isDone
      }
      if let missed = quietMissed, before.count > 0,
        before.filter(\.isDone).count * 2 >= before.count
      {
        record.state = .active
        record.spacing = 1
        record.since = nil
        record.explanations.append(
          "back to full dose: \(what) was missed on \(missed.date.weekdayName) \(missed.date), a day it stayed quiet"
        )
        return
      }
    }
    guard spacing > 1 else {
      record.state = .active
      record.spacing = 1
      record.since = nil
      return
    }
    if record.state != .backingOff || record.spacing != spacing {
      record.since = record.state == .backingOff ? record.since : today.daysSince1970
    }
    record.state = .backingOff
    record.spacing = spacing
    record.explanations.append(
      "backing off: \(unheeded) in a row went unanswered; it fires "
        + (spacing >= 3 ? "about twice a week" : "every other day")
        + " until you answer it or miss \(what) on a quiet day")
  }

  /// Whether a reminder backing off fires on `date`: on the first day it is on at least
  /// ``AdaptationRecord/spacing`` days after the last delivery (``AdaptationRecord/anchorDay``),
  /// then every `spacing` days it is on. `isOn` says which days it is on.
  public static func firesWhileBackingOff(
    on date: LocalDate, record: AdaptationRecord, isOn: (LocalDate) -> Bool
  ) -> Bool {
    guard record.state == .backingOff, record.spacing > 1, let anchor = record.anchorDay else {
      return true
    }
    var next = anchor + record.spacing
    var day = anchor + 1
    let target = date.daysSince1970
    guard target > anchor else { return true }
    // At most a year ahead is ever asked for; a longer gap fires.
    guard target - anchor <= 400 else { return true }
    while day <= target {
      if day >= next && isOn(LocalDate(daysSince1970: day)) {
        if day == target { return true }
        next = day + record.spacing
      }
      day += 1
    }
    return false
  }

  /// The median of `values` (the lower middle one of an even count).
  static func median(_ values: [Int]) -> Int {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[(sorted.count - 1) / 2]
  }

  /// `minutes` rounded to the nearest 5, at least 5.
  static func roundedToFive(_ minutes: Int) -> Int {
    max(5, (minutes + 2) / 5 * 5)
  }
}
