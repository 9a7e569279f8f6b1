import Foundation
import Testing

@testable import RoutineCore

struct BacktestTests {
  @Test func aPoolSumsCountsAndTakesRatiosOfTheSums() throws {
    // Two people: one regular, one whose wake-up moves every other day.
    var regular = LogBuilder()
    var irregular = LogBuilder()
    let start = date(2026, 3, 2)
    for day in 0..<42 {
      regular.add("Wake Up", start.adding(days: day), minutes: 420 + day % 7)
      irregular.add("Wake Up", start.adding(days: day), minutes: day % 2 == 0 ? 420 : 600)
    }
    let results = [regular.log, irregular.log].map { Backtest().run($0, windowDays: 7) }
    var pool = BacktestPool()
    for result in results { pool.add(result) }
    let pooled = pool.result(windowDays: 7)
    #expect(pool.count == 2)
    #expect(pooled.reminders == results.map(\.reminders).reduce(0, +))
    #expect(pooled.hits == results.map(\.hits).reduce(0, +))
    #expect(pooled.predictions == results.map(\.predictions).reduce(0, +))
    #expect(pooled.eventDaysHit == results.map(\.eventDaysHit).reduce(0, +))
    let precision = try #require(pooled.precision)
    #expect(abs(precision - Double(pooled.hits) / Double(pooled.reminders)) < 1e-12)
    #expect(pooled.reliability.map(\.count).reduce(0, +) == pooled.predictions)
    // One result pooled alone is itself (its curve aside).
    var alone = BacktestPool()
    alone.add(results[0])
    let again = alone.result(windowDays: 7)
    #expect(again.precision == results[0].precision && again.recall == results[0].recall)
    #expect(abs((again.calibrationError ?? -1) - (results[0].calibrationError ?? -2)) < 1e-9)
  }

  @Test func aPerfectlyRegularLogIsAnticipatedEveryDay() throws {
    var builder = LogBuilder()
    for day in 0..<21 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    let result = Backtest().run(builder.log, windowDays: 7)
    #expect(result.days == 14)
    #expect(result.reminders == 14)
    #expect(result.hits == 14)
    #expect(try #require(result.precision) == 1)
    #expect(try #require(result.recall) == 1)
    #expect(result.eventDays == 14)
    #expect(try #require(result.brier) < 0.05)
  }

  @Test func aReminderCountsAHitOnlyWithinThirtyMinutes() throws {
    var builder = LogBuilder()
    for day in 0..<7 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    // After the seven days of warm-up: one day 31 minutes late, then one 25 minutes late.
    builder.add("Wake Up", date(2026, 3, 9), "07:31")
    builder.add("Wake Up", date(2026, 3, 10), "07:25")
    let result = Backtest().run(builder.log, windowDays: 7)
    #expect(result.days == 2)
    #expect(result.reminders == 2)
    #expect(result.hits == 1)
    #expect(result.eventDaysHit == 1)
    #expect(result.eventDays == 2)
  }

  @Test func twoEventsNearOneReminderCountOneHitAndOneDay() {
    var builder = LogBuilder()
    for day in 0..<7 { builder.add("Coffee", date(2026, 3, 2).adding(days: day), "10:00") }
    builder.add("Coffee", date(2026, 3, 9), "09:50")
    builder.add("Coffee", date(2026, 3, 9), "10:10")
    let result = Backtest().run(builder.log, windowDays: 7)
    #expect(result.reminders == 1)
    #expect(result.hits == 1)
    #expect(result.eventDays == 1)
    #expect(result.eventDaysHit == 1)
  }

  @Test func daysInALoggingGapAreSkipped() {
    var builder = LogBuilder()
    for day in 0..<7 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    for day in 12..<15 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    let result = Backtest().run(builder.log, windowDays: 7)
    // Days 7...11 are a gap (five days with nothing logged).
    #expect(result.daysSkipped == 5)
    #expect(result.days == 3)
  }

  @Test func tooShortALogHasNothingToEvaluate() {
    var builder = LogBuilder()
    for day in 0..<5 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    let result = Backtest().run(builder.log, windowDays: 7)
    #expect(result.days == 0)
    #expect(result.precision == nil && result.recall == nil && result.brier == nil)
  }

  @Test func fourWeeksOfTheGeneratedPersonaAreAnticipated() throws {
    // Three weeks of days backtested (two seconds in a debug build). The long form, 120 days
    // with 7- and 28-day windows, is `routine-bench --quality` (docs/analytics.md).
    let generator = SampleGenerator(
      options: .init(
        seed: 3, start: date(2025, 1, 6), days: 28, kinds: 12, timeZone: zone("Europe/Berlin")))
    var events: [(EventKind, Timestamp)] = []
    generator.generate { events.append(($0.kind, $0.timestamp)) }
    let result = Backtest().run(EventLog(events), windowDays: 7)
    // Bars below what the method reaches here (0.78, 0.59, 0.20), so that a regression in the
    // estimator fails.
    #expect(result.days + result.daysSkipped == 21)
    #expect(try #require(result.precision) > 0.65)
    #expect(try #require(result.recall) > 0.35)
    #expect(try #require(result.brier) < 0.23)
  }
}

struct TimeOfDayClustersTests {
  func histogram(_ peaks: [(minute: Int, count: Double)], spread: Int = 10) -> [Double] {
    var values = [Double](repeating: 0, count: 1440)
    for peak in peaks {
      for offset in -spread...spread { values[floorMod(peak.minute + offset, 1440)] += peak.count }
    }
    return values
  }

  @Test func onePeakCoversTheWholeClock() {
    let clusters = TimeOfDayClusters.find(
      histogram: histogram([(420, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(clusters.count == 1)
    #expect(clusters[0].length == 1440)
    #expect(abs(clusters[0].peak - 420) <= 1)
  }

  @Test func separatePeaksGetTheirOwnArcs() {
    let clusters = TimeOfDayClusters.find(
      histogram: histogram([(450, 1), (750, 1), (1140, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(clusters.count == 3)
    for (cluster, peak) in zip(clusters.sorted { $0.peak < $1.peak }, [450, 750, 1140]) {
      #expect(cluster.contains(minute: peak))
      #expect(!cluster.contains(minute: peak + 150))
    }
    #expect(clusters.map(\.length).reduce(0, +) == 1440)
  }

  @Test func aPeakAcrossMidnightIsOneCluster() throws {
    // A second peak at noon, so that a search that misses the midnight peak cannot fall back to
    // one cluster over the whole clock.
    let clusters = TimeOfDayClusters.find(
      histogram: histogram([(1435, 1), (5, 1), (720, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(clusters.count == 2)
    let midnight = try #require(clusters.first { $0.contains(minute: 0) })
    #expect(midnight.contains(minute: 1435) && midnight.contains(minute: 5))
    #expect(midnight.length < 1440)
    #expect(midnight.peak >= 1430 || midnight.peak <= 10)
  }

  @Test func aPeakAtExactlyMidnightIsFound() throws {
    let clusters = TimeOfDayClusters.find(
      histogram: histogram([(0, 1), (720, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(clusters.map(\.peak).sorted() == [0, 720])
  }

  @Test func nearbyPeaksWithAShallowValleyMerge() {
    let merged = TimeOfDayClusters.find(
      histogram: histogram([(420, 1), (450, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(merged.count == 1)
    let apart = TimeOfDayClusters.find(
      histogram: histogram([(420, 1), (600, 1)]), radius: 20, mergeRatio: 0.5)
    #expect(apart.count == 2)
  }

  @Test func anEmptyHistogramHasNoClusters() {
    #expect(
      TimeOfDayClusters.find(
        histogram: [Double](repeating: 0, count: 1440), radius: 20, mergeRatio: 0.5
      ).isEmpty)
  }
}

struct StatisticsTests {
  @Test func theBinomialTailMatchesDirectSums() {
    func direct(_ k: Int, _ n: Int, _ p: Double) -> Double {
      (k...n).reduce(0.0) { total, x in
        var ways = 1.0
        for i in 0..<x { ways = ways * Double(n - i) / Double(i + 1) }
        return total + ways * pow(p, Double(x)) * pow(1 - p, Double(n - x))
      }
    }
    for (k, n, p) in [(3, 5, 0.06), (13, 28, 0.27), (0, 10, 0.3), (10, 10, 0.5), (20, 40, 0.5)] {
      #expect(abs(binomialTail(atLeast: k, of: n, probability: p) - direct(k, n, p)) < 1e-9)
    }
    #expect(binomialTail(atLeast: 11, of: 10, probability: 0.5) == 0)
    // Long windows do not underflow.
    #expect(binomialTail(atLeast: 9000, of: 16000, probability: 0.06) == 0)
    #expect(binomialTail(atLeast: 500, of: 16000, probability: 0.06) > 0.999_999)
  }

  @Test func theMedianOfAMinuteHistogramIsTheMiddleMinute() {
    var histogram = [Int](repeating: 0, count: 721)
    histogram[2] = 3
    histogram[10] = 2
    #expect(medianMinute(histogram, count: 5) == 2.5)
    #expect(medianMinute(histogram, count: 0) == 0)
  }
}

struct SampleGeneratorTests {
  func generate(seed: UInt64, days: Int = 56, kinds: Int = 12) -> [Event] {
    let generator = SampleGenerator(
      options: .init(
        seed: seed, start: date(2026, 3, 2), days: days, kinds: kinds,
        timeZone: zone("Europe/Berlin")))
    var events: [Event] = []
    generator.generate { events.append($0) }
    return events
  }

  @Test func theSameSeedGivesTheSameLogAndAnotherSeedAnotherLog() {
    #expect(generate(seed: 1) == generate(seed: 1))
    #expect(generate(seed: 1) != generate(seed: 2))
  }

  @Test func eventsComeInTimeOrderAndFollowTheDaylightSavingChange() throws {
    let events = generate(seed: 1)
    #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    let offsets = Dictionary(grouping: events, by: { $0.timestamp.localDate < date(2026, 3, 29) })
      .mapValues { Set($0.map(\.timestamp.utcOffsetSeconds)) }
    #expect(offsets[true] == [3600])
    #expect(try #require(offsets[false]).contains(7200))
  }

  @Test func theSampleHasTheFeaturesTheAnalyticsMustHandle() {
    let events = generate(seed: 1)
    let kinds = Set(events.map(\.kind.name))
    #expect(kinds == Set(SampleGenerator.personaKinds))
    // Bed time crosses midnight on weekend nights.
    #expect(events.contains { $0.kind.name == "Bed Time" && $0.timestamp.timeOfDay.hour < 3 })
    // Several meals a day.
    let meals = Dictionary(
      grouping: events.filter { $0.kind.name == "Meal" }, by: \.timestamp.localDate)
    #expect(meals.values.contains { $0.count >= 3 })
    // A gap: three days with nothing logged.
    let dates = Set(events.map(\.timestamp.localDate))
    #expect(
      (0..<56).contains { day in
        (0..<3).allSatisfy { !dates.contains(date(2026, 3, 2).adding(days: day + $0)) }
      })
    // Values, notes that need quoting, and the outlier day (an early flight).
    #expect(events.contains { $0.value != nil })
    #expect(events.contains { $0.note?.contains(",") == true })
    #expect(events.contains { $0.note == "early flight to Lisbon" })
  }

  @Test func syntheticKindsFillUpToTheRequestedCount() {
    let events = generate(seed: 1, days: 10, kinds: 20)
    let synthetic = Set(events.map(\.kind.name)).filter { $0.hasPrefix("Habit ") }
    #expect(synthetic == Set((1...8).map { "Habit 00\($0)" }))
  }
}

struct BacktestCalibrationTests {
  @Test func aBedTimeReminderBeforeMidnightIsHitByABedTimeAfterIt() throws {
    var builder = LogBuilder()
    let start = date(2026, 3, 2)
    for day in 0..<7 { builder.add("Bed Time", start.adding(days: day), "23:50") }
    // The evening of the eighth day, twenty minutes late: past midnight.
    builder.add("Bed Time", start.adding(days: 8), "00:10")
    var configuration = AnalysisConfiguration()
    configuration.trackRecordDays = 0
    let result = Backtest(analyzer: RoutineAnalyzer(configuration: configuration))
      .run(builder.log, windowDays: 7)
    #expect(result.reminders == 2)
    #expect(result.hits == 1)
    #expect(result.eventDaysHit == 1)
  }

  @Test func theReliabilityTableBinsByTenthsAndWeighsTheCalibrationErrorByCount() throws {
    let predictions: [(confidence: Double, hit: Bool)] = [
      (0.65, true), (0.65, false), (0.75, true), (0.75, true), (0.75, true), (0.75, false),
      (1.0, true),
    ]
    let (bins, error) = ReliabilityBin.bins(predictions)
    #expect(bins.map(\.lowerBound) == [0.6, 0.7, 0.9])
    #expect(bins.map(\.count) == [2, 4, 1])
    #expect(bins.map(\.hitRate) == [0.5, 0.75, 1])
    // |0.65 - 0.5| * 2 + |0.75 - 0.75| * 4 + |1 - 1| * 1, over 7.
    #expect(abs(try #require(error) - 0.3 / 7) < 1e-12)
    #expect(ReliabilityBin.bins([]).calibrationError == nil)
  }

  @Test func aBacktestReportsTheReliabilityOfEveryPrediction() throws {
    var builder = LogBuilder()
    for day in 0..<21 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    let result = Backtest().run(builder.log, windowDays: 7)
    #expect(result.reliability.reduce(0) { $0 + $1.count } == result.predictions)
    #expect(result.reliability.allSatisfy { $0.hitRate == 1 })
    #expect(try #require(result.calibrationError) < 0.15)
  }
}

struct PersonaPopulationTests {
  func events(_ index: Int, days: Int = 42) -> [Event] {
    var events: [Event] = []
    PersonaPopulation(seed: 1).persona(index).generate(
      start: date(2025, 1, 6), days: days, timeZone: zone("Europe/Berlin")
    ) { events.append($0) }
    return events
  }

  @Test func eachKindOfRegularityComesInTurnAndTheSameSeedGivesTheSamePerson() {
    let population = PersonaPopulation(seed: 1)
    let kinds = (0..<14).map { population.persona($0).regularity }
    #expect(kinds == PersonaPopulation.Regularity.allCases + PersonaPopulation.Regularity.allCases)
    #expect(PersonaPopulation.Regularity.allCases.filter(\.isIrregular).count == 4)
    #expect(events(3).map(\.timestamp) == events(3).map(\.timestamp))
    #expect(events(3).map(\.timestamp) != events(10).map(\.timestamp))
  }

  @Test func aWeeklyOnlyPersonGoesToTheGymOnMondaysWednesdaysAndFridaysOnly() {
    let gym = events(5).filter { $0.kind.name == "Gym" }
    #expect(gym.count > 10)
    #expect(Set(gym.map(\.timestamp.localDate.weekday)) == [2, 4, 6])
  }

  @Test func aShiftWorkerWakesEightHoursLaterEachWeek() {
    let wakes = events(3).filter { $0.kind.name == "Wake Up" }
    func medianHour(week: Int) -> Int {
      let hours = wakes.filter {
        ($0.timestamp.localDate.daysSince1970 - date(2025, 1, 6).daysSince1970) / 7 == week
      }.map { floorMod(Int($0.timestamp.localSeconds), 86_400) / 3600 }.sorted()
      return hours[hours.count / 2]
    }
    #expect(floorMod(medianHour(week: 1) - medianHour(week: 0), 24) == 8)
    #expect(floorMod(medianHour(week: 2) - medianHour(week: 1), 24) == 8)
  }
}
