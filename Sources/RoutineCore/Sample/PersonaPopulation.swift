import Foundation

/// A population of generated people who differ in how regular they are, to measure whether the
/// confidence of learned routines holds for people unlike the bundled persona.
///
/// Persona `n` has the regularity `Regularity.allCases[n % 7]` and habits drawn from the seed
/// and `n`: the same seed and index always give the same person, on every platform.
/// docs/analytics.md describes each kind of person and what the population measured.
public struct PersonaPopulation: Sendable {
  /// How regular a person is.
  public enum Regularity: String, Sendable, CaseIterable {
    /// A few habits kept within minutes, almost every day.
    case tight
    /// Habits kept roughly (spread of half an hour or more) and often skipped.
    case loose
    /// Times that wander from day to day and jump every few weeks (a new job, a new season).
    case drifting
    /// Rotating early, late and night shifts, a week each: every habit moves with the shift.
    case shiftWork
    /// Kinds logged at several times a day (meals, medication, a dog walked three times).
    case severalSlots
    /// Habits on some days of the week only (a class on Tuesdays, the gym on Monday, Wednesday
    /// and Friday) next to a daily wake-up.
    case weeklyOnly
    /// Regular habits, but logged in bursts: weeks without any entry, and half-logged days.
    case longGaps

    /// The irregular half of the population, whose calibration issue 10 measures separately.
    public var isIrregular: Bool {
      switch self {
      case .loose, .drifting, .shiftWork, .longGaps: true
      case .tight, .severalSlots, .weeklyOnly: false
      }
    }
  }

  /// One habit: a kind, its times of day (minutes after midnight; several slots for some), how
  /// much they vary and how often it is kept, on which days.
  struct Habit {
    var name: String
    var minutes: [Double]
    var spread: Double
    var adherence: Double
    var weekdays: WeekdaySet = .everyDay
    /// Minutes added on weekends (a later wake-up), if any.
    var weekendShift: Double = 0
    /// Whether the times move with the shift of a shift worker.
    var followsShift = false
  }

  /// One generated person.
  public struct Persona: Sendable {
    /// The index in the population.
    public let index: Int
    /// How regular the person is.
    public let regularity: Regularity
    let habits: [Habit]
    let seed: UInt64
  }

  /// The seed every persona's habits and days derive from.
  public let seed: UInt64

  /// A population drawn from `seed`.
  public init(seed: UInt64) {
    self.seed = seed
  }

  /// Person `index` of the population.
  public func persona(_ index: Int) -> Persona {
    let regularity = Regularity.allCases[index % Regularity.allCases.count]
    let personSeed = seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(index) &* 0xBF58_476D_1CE4_E5B9
    var random = SplitMix64(seed: personSeed)
    var habits: [Habit] = []
    let wake = 330 + random.unit() * 150
    func daily(
      _ name: String, _ offset: Double, spread: ClosedRange<Double>, keep: ClosedRange<Double>
    )
      -> Habit
    {
      Habit(
        name: name, minutes: [wake + offset], spread: draw(spread, &random),
        adherence: draw(keep, &random))
    }
    switch regularity {
    case .tight:
      habits = [
        daily("Wake Up", 0, spread: 4...10, keep: 0.93...0.99),
        daily("Leaving Home", 60 + random.unit() * 30, spread: 3...8, keep: 0.85...0.95),
        daily("Meditation", 14 * 60 + random.unit() * 120, spread: 5...12, keep: 0.8...0.95),
        daily("Bed Time", 15 * 60 + 60 + random.unit() * 60, spread: 8...15, keep: 0.9...0.98),
      ]
      habits[0].weekdays = .everyDay
      habits[1].weekdays = .weekdays
    case .loose:
      habits = [
        daily("Wake Up", 0, spread: 25...45, keep: 0.75...0.9),
        daily("Coffee", 30 + random.unit() * 60, spread: 30...50, keep: 0.5...0.75),
        daily("Workout", 10 * 60 + random.unit() * 300, spread: 35...60, keep: 0.4...0.65),
        daily("Bed Time", 16 * 60 + random.unit() * 60, spread: 30...50, keep: 0.7...0.9),
      ]
      habits[0].weekendShift = 30 + random.unit() * 90
    case .drifting:
      habits = [
        daily("Wake Up", 0, spread: 8...15, keep: 0.85...0.95),
        daily("Walk", 9 * 60 + random.unit() * 200, spread: 10...20, keep: 0.65...0.85),
        daily("Bed Time", 16 * 60 + random.unit() * 40, spread: 12...20, keep: 0.8...0.95),
      ]
    case .shiftWork:
      habits = [
        daily("Wake Up", 0, spread: 8...20, keep: 0.85...0.95),
        daily("Leaving Home", 50 + random.unit() * 20, spread: 5...12, keep: 0.75...0.9),
        daily("Meal", 6 * 60 + random.unit() * 60, spread: 15...30, keep: 0.7...0.85),
        daily("Bed Time", 16 * 60 + random.unit() * 30, spread: 15...30, keep: 0.8...0.95),
      ]
      for index in habits.indices { habits[index].followsShift = true }
      habits[1].weekdays = .weekdays
    case .severalSlots:
      habits = [
        daily("Wake Up", 0, spread: 6...14, keep: 0.9...0.97),
        Habit(
          name: "Meal", minutes: [wake + 30, 12.5 * 60, 19 * 60 + random.unit() * 60],
          spread: draw(10...20, &random), adherence: draw(0.75...0.9, &random)),
        Habit(
          name: "Medication", minutes: [wake + 15, 21 * 60 + random.unit() * 60],
          spread: draw(5...15, &random), adherence: draw(0.8...0.95, &random)),
        Habit(
          name: "Dog Walk",
          minutes: [wake + 45, 13 * 60 + random.unit() * 60, 18 * 60 + random.unit() * 90],
          spread: draw(12...25, &random), adherence: draw(0.7...0.9, &random)),
      ]
    case .weeklyOnly:
      var gym = Habit(
        name: "Gym", minutes: [17 * 60 + random.unit() * 120], spread: draw(8...15, &random),
        adherence: draw(0.8...0.92, &random))
      gym.weekdays = WeekdaySet([2, 4, 6])
      var lesson = Habit(
        name: "Class", minutes: [18 * 60 + random.unit() * 120], spread: draw(3...8, &random),
        adherence: draw(0.85...0.95, &random))
      lesson.weekdays = WeekdaySet([3])
      var run = Habit(
        name: "Long Run", minutes: [8 * 60 + random.unit() * 120], spread: draw(10...20, &random),
        adherence: draw(0.7...0.9, &random))
      run.weekdays = WeekdaySet([1])
      habits = [daily("Wake Up", 0, spread: 8...15, keep: 0.9...0.97), gym, lesson, run]
    case .longGaps:
      habits = [
        daily("Wake Up", 0, spread: 8...20, keep: 0.8...0.95),
        daily("Coffee", 20 + random.unit() * 40, spread: 8...20, keep: 0.7...0.9),
        daily("Bed Time", 16 * 60 + random.unit() * 40, spread: 12...25, keep: 0.8...0.95),
      ]
    }
    return Persona(index: index, regularity: regularity, habits: habits, seed: random.next())
  }
}

extension PersonaPopulation.Persona {
  /// Calls `body` with the person's events over `days` days from `start` in `timeZone`, in time
  /// order.
  public func generate(
    start: LocalDate, days: Int, timeZone: Zone, _ body: (Event) throws -> Void
  ) rethrows {
    var random = SplitMix64(seed: seed)
    let enabled = Set(habits.map { $0.name.lowercased() })
    // Drifting people: an offset that wanders a few minutes a day and jumps every few weeks.
    var drift = 0.0
    var nextJump = 14 + random.integer(in: 0...21)
    // Shift workers: early, late and night weeks in turn (minutes added to every habit).
    let shiftOffsets: [Double] = [0, 8 * 60, 16 * 60]
    var gapUntil = -1
    var pending = TimeOrderedEvents()
    for index in 0..<days {
      let date = start.adding(days: index)
      if regularity == .drifting {
        drift += random.normal(mean: 0, deviation: 4)
        if index == nextJump {
          drift += (random.chance(0.5) ? -1 : 1) * (45 + random.unit() * 75)
          nextJump = index + 14 + random.integer(in: 0...28)
        }
        drift = min(max(drift, -180), 180)
      }
      var isGap = false
      if regularity == .longGaps {
        if index > gapUntil, random.chance(1.0 / 30) {
          gapUntil = index + random.integer(in: 7...21)
        }
        isGap = index <= gapUntil
      }
      // A day logged only in part (the phone left at home): most entries forgotten.
      let forgets = regularity == .longGaps && random.chance(0.15) ? 0.6 : 0.04
      let shift = shiftOffsets[(index / 7) % shiftOffsets.count]
      var day = DayBuilder(date: date, random: random, zone: timeZone, enabled: enabled)
      if !isGap {
        for habit in habits where habit.weekdays.contains(date.weekday) {
          for minute in habit.minutes {
            var mean = minute + drift + (date.isWeekend ? habit.weekendShift : 0)
            if habit.followsShift { mean += shift }
            mean = mean.truncatingRemainder(dividingBy: 1440)
            guard day.random.chance(habit.adherence), !day.random.chance(forgets) else { continue }
            day.add(
              EventKind(habit.name)!,
              at: day.random.normal(mean: mean, deviation: habit.spread))
          }
        }
      }
      random = day.random
      try pending.add(day.events, generatedFor: date, in: timeZone, to: body)
    }
    try pending.finish(to: body)
  }
}

/// A uniform draw from `range`.
private func draw(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
  range.lowerBound + random.unit() * (range.upperBound - range.lowerBound)
}
