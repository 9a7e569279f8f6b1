import Foundation

/// Generates realistic, seeded event logs: the bundled sample data and the benchmark files.
///
/// The persona lives in the given zone and has: a wake-up that differs on weekdays and weekends,
/// a commute (Leaving Home, then Arriving at Work about 35 minutes later), meals three times a day,
/// coffee and water with values, workouts on some days, meditation most evenings, a bedtime that
/// crosses midnight on Friday and Saturday nights, drinks on weekend evenings, occasional notes
/// with commas and quotes, forgotten entries, holiday weeks that shift the routine, logging gaps
/// of a few days, and one outlier day (an early flight). Kinds beyond the persona's are synthetic
/// "Habit NNN" routines, for benchmarks at scale.
///
/// The same options always give the same events, on every platform.
public struct SampleGenerator: Sendable {
  /// What to generate.
  public struct Options: Sendable, Hashable {
    /// The random seed.
    public var seed: UInt64
    /// The first local date.
    public var start: LocalDate
    /// How many days.
    public var days: Int
    /// How many kinds: the persona's first (up to 12), then synthetic ones.
    public var kinds: Int
    /// The zone the persona lives in (wall-clock times resolve through the time rules).
    public var timeZone: Zone

    /// Options with the given values.
    public init(seed: UInt64, start: LocalDate, days: Int, kinds: Int, timeZone: Zone) {
      self.seed = seed
      self.start = start
      self.days = days
      self.kinds = kinds
      self.timeZone = timeZone
    }
  }

  /// The persona's kinds, in the order `kinds` takes them.
  public static let personaKinds = [
    "Wake Up", "Leaving Home", "Arriving at Work", "Bed Time", "Meal", "Coffee", "Workout",
    "Meditation", "Leaving Work", "Arriving Home", "Water", "Alcohol",
  ]

  /// The options.
  public let options: Options

  /// A generator for `options`.
  public init(options: Options) {
    self.options = options
  }

  private enum DayType {
    case workday, weekend, holiday
  }

  /// A synthetic routine for kinds beyond the persona's.
  private struct Synthetic {
    var name: String
    var minute: Double
    var spread: Double
    var adherence: Double
    var weekendShift: Double?
    var secondMinute: Double?
  }

  /// Calls `body` with every event, in time order.
  public func generate(_ body: (Event) throws -> Void) rethrows {
    var random = SplitMix64(seed: options.seed)
    let kinds = SampleGenerator.personaKinds.prefix(max(0, options.kinds)).compactMap(
      EventKind.init)
    let enabled = Set(kinds.map(\.key))
    var synthetic: [Synthetic] = []
    if options.kinds > SampleGenerator.personaKinds.count {
      for index in 1...(options.kinds - SampleGenerator.personaKinds.count) {
        var kind = Synthetic(
          name: "Habit \(pad(index, 3))",
          minute: Double(random.integer(in: 360...1320)),
          spread: 5 + random.unit() * 35,
          adherence: 0.75 + random.unit() * 0.25)
        if random.chance(0.5) { kind.weekendShift = random.normal(mean: 60, deviation: 30) }
        if random.chance(0.15) {
          kind.secondMinute = kind.minute + Double(random.integer(in: 180...420))
        }
        synthetic.append(kind)
      }
    }
    let syntheticKinds = synthetic.map { EventKind($0.name)! }

    // Fixed features, so that every sample of a few weeks shows them: a gap of three days a
    // third of the way in and an outlier day two thirds of the way in.
    let gapStart = options.days >= 21 ? options.days / 3 : -100
    var outlierDay = options.days * 2 / 3
    while options.days >= 14, options.start.adding(days: outlierDay).isWeekend { outlierDay += 1 }

    var pending = TimeOrderedEvents()
    var holidayWeek = false
    var randomGapUntil = -1
    for index in 0..<options.days {
      let date = options.start.adding(days: index)
      if date.weekday == 2 { holidayWeek = !holidayWeek && random.chance(0.08) }
      if index > randomGapUntil, random.chance(0.004) {
        randomGapUntil = index + random.integer(in: 1...4)
      }
      let isGap = (gapStart...(gapStart + 2)).contains(index) || index <= randomGapUntil
      let type: DayType = date.isWeekend ? .weekend : (holidayWeek ? .holiday : .workday)

      var day = DayBuilder(date: date, random: random, zone: options.timeZone, enabled: enabled)
      if !isGap {
        persona(&day, type: type, isOutlier: index == outlierDay)
        for (kind, routine) in zip(syntheticKinds, synthetic) {
          var minute = routine.minute
          if date.isWeekend, let shift = routine.weekendShift { minute += shift }
          if day.random.chance(routine.adherence) {
            day.add(kind, at: day.random.normal(mean: minute, deviation: routine.spread))
          }
          if let second = routine.secondMinute, day.random.chance(routine.adherence) {
            day.add(kind, at: day.random.normal(mean: second, deviation: routine.spread))
          }
        }
      }
      random = day.random
      try pending.add(day.events, generatedFor: date, in: options.timeZone, to: body)
    }
    try pending.finish(to: body)
  }

  private func persona(_ day: inout DayBuilder, type: DayType, isOutlier: Bool) {
    let date = day.date
    let wake: Double
    switch type {
    case .workday: wake = isOutlier ? 290 : day.random.normal(mean: 405, deviation: 8)
    case .weekend, .holiday: wake = day.random.normal(mean: 510, deviation: 30)
    }
    day.add("Wake Up", at: wake)
    day.add("Meal", at: wake + day.random.normal(mean: 25, deviation: 5), probability: 0.85)
    day.add(
      "Coffee", at: wake + day.random.normal(mean: 35, deviation: 4), value: 1, probability: 0.9)

    if type == .workday {
      let leave = wake + (isOutlier ? 45 : day.random.normal(mean: 62, deviation: 6))
      day.add("Leaving Home", at: leave, note: isOutlier ? "early flight to Lisbon" : nil)
      if !isOutlier {
        day.add(
          "Arriving at Work", at: leave + day.random.normal(mean: 34, deviation: 4),
          note: day.random.chance(0.05) ? "late train, again" : nil)
        day.add(
          "Coffee", at: day.random.normal(mean: 630, deviation: 20), value: 1, probability: 0.5)
        day.add("Meal", at: day.random.normal(mean: 750, deviation: 12), probability: 0.9)
        let leaveWork = day.random.normal(mean: 1040, deviation: 15)
        day.add("Leaving Work", at: leaveWork, probability: 0.95)
        day.add(
          "Arriving Home", at: leaveWork + day.random.normal(mean: 38, deviation: 6),
          probability: 0.95)
      }
    } else {
      if day.random.chance(0.4) {
        day.add("Leaving Home", at: Double(day.random.integer(in: 600...960)))
      }
      day.add("Meal", at: day.random.normal(mean: 795, deviation: 30), probability: 0.7)
    }
    day.add("Coffee", at: day.random.normal(mean: 900, deviation: 30), value: 2, probability: 0.4)
    let waterCount = day.random.integer(in: 2...5)
    for _ in 0..<waterCount {
      day.add(
        "Water", at: Double(day.random.integer(in: 480...1260)),
        value: [250, 330, 500][day.random.integer(in: 0...2)])
    }
    day.add(
      "Meal", at: day.random.normal(mean: 1150, deviation: 20), probability: 0.9,
      note: day.random.chance(0.04) ? "pasta, with \"too much\" parmesan" : nil)

    let weekday = date.weekday
    if type == .workday, [2, 4, 6].contains(weekday) {
      day.add(
        "Workout", at: day.random.normal(mean: 1110, deviation: 12),
        value: day.random.normal(mean: 45, deviation: 8).rounded(), probability: 0.75)
    } else if weekday == 7 {
      day.add(
        "Workout", at: day.random.normal(mean: 600, deviation: 25),
        value: day.random.normal(mean: 60, deviation: 10).rounded(), probability: 0.5)
    }
    day.add(
      "Meditation", at: day.random.normal(mean: 1290, deviation: 10),
      value: [10, 15, 20][day.random.integer(in: 0...2)], probability: 0.75)
    if weekday == 6 || weekday == 7 {
      day.add(
        "Alcohol", at: Double(day.random.integer(in: 1170...1380)),
        value: Double(day.random.integer(in: 1...3)), probability: 0.4)
    }
    // Friday and Saturday nights run past midnight; the others do not.
    let lateNight = weekday == 6 || weekday == 7 || (type == .holiday && weekday != 1)
    let bed =
      lateNight
      ? day.random.normal(mean: 1475, deviation: 30) : day.random.normal(mean: 1390, deviation: 15)
    day.add("Bed Time", at: bed)
  }
}

/// Hands generated events on in time order, a day at a time. A day's events may run past its
/// midnight (a late bed time), but every later day's events come after it: what precedes it is
/// final.
struct TimeOrderedEvents {
  private var pending: [Event] = []

  /// Adds the `events` generated for `date` in `zone`, and hands `body` every event held that
  /// comes before the next day's midnight.
  mutating func add(
    _ events: [Event], generatedFor date: LocalDate, in zone: Zone,
    to body: (Event) throws -> Void
  ) rethrows {
    pending += events
    let nextMidnight = WallClock.instant(
      on: date.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    pending.sort { ($0.timestamp, $0.kind.name) < ($1.timestamp, $1.kind.name) }
    let ready = pending.prefix { $0.timestamp.secondsSince1970 < nextMidnight }
    for event in ready { try body(event) }
    pending.removeFirst(ready.count)
  }

  /// Hands `body` the events still held.
  mutating func finish(to body: (Event) throws -> Void) rethrows {
    for event in pending { try body(event) }
    pending = []
  }
}

/// Collects one day's events, resolving wall-clock minutes through the time rules.
struct DayBuilder {
  let date: LocalDate
  var random: SplitMix64
  let zone: Zone
  let enabled: Set<String>
  var events: [Event] = []

  init(date: LocalDate, random: SplitMix64, zone: Zone, enabled: Set<String>) {
    self.date = date
    self.random = random
    self.zone = zone
    self.enabled = enabled
  }

  /// Adds a persona event at `minute` after local midnight (may exceed a day), unless its kind
  /// is not enabled, the dice say it did not happen, or it was forgotten (4% of entries).
  mutating func add(
    _ name: String, at minute: Double, value: Double? = nil, probability: Double = 1,
    note: String? = nil
  ) {
    guard random.chance(probability), !random.chance(0.04), enabled.contains(name.lowercased())
    else { return }
    add(EventKind(name)!, at: minute, value: value, note: note)
  }

  /// Adds an event of `kind` at `minute` after local midnight.
  mutating func add(_ kind: EventKind, at minute: Double, value: Double? = nil, note: String? = nil)
  {
    let clamped = min(max(minute, 0), 2 * 1440 - 1)
    let seconds = Int64(clamped * 60) + Int64(random.integer(in: 0...59))
    let local = Int64(date.daysSince1970) * 86_400 + seconds
    let instant = WallClock.resolve(localSeconds: local, in: zone).instant
    let offset = Int32(WallClock.offset(at: instant, in: zone))
    events.append(
      Event(
        kind: kind, timestamp: Timestamp(secondsSince1970: instant, utcOffsetSeconds: offset),
        value: value, note: note, source: .import))
  }
}
