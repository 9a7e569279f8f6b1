import Foundation
import Testing

@testable import RoutineCore

struct BaselineTests {
  /// Monday 2 March 2026 to Sunday 8 March: five weekdays and two weekend days.
  let week = date(2026, 3, 2)...date(2026, 3, 8)

  func time(_ text: String) -> TimeOfDay { TimeOfDay(parsing: text)! }

  @Test func theMeanIsTheArithmeticMeanWithTheShareOfEventsWithinThirtyMinutes() throws {
    var builder = LogBuilder()
    builder.add("Wake Up", date(2026, 3, 2), "07:00")
    builder.add("Wake Up", date(2026, 3, 3), "07:20")
    builder.add("Wake Up", date(2026, 3, 4), "08:00")
    let routines = Baseline.mean.routines(in: builder.log, days: week)
    let routine = try #require(routines.first)
    #expect(routines.count == 1)
    // (420 + 440 + 480) / 3 minutes = 07:26:40; 08:00 is 33 minutes away.
    #expect(routine.time.secondsSinceMidnight == 7 * 3600 + 26 * 60 + 40)
    #expect(routine.confidence == 2.0 / 3)
    #expect(routine.dayKind == .all)
    #expect(routine.occurrences == 3)
  }

  @Test func theMeanIsNaiveAboutMidnightWithoutCrashing() throws {
    var builder = LogBuilder()
    builder.add("Bed Time", date(2026, 3, 2), "23:50")
    builder.add("Bed Time", date(2026, 3, 4), "00:10")
    let routine = try #require(Baseline.mean.routines(in: builder.log, days: week).first)
    #expect(routine.time == time("12:00"))
    #expect(routine.confidence == 0)
  }

  @Test func theCircularMeanWeighsItsResultantLengthByTheDaysCovered() throws {
    var builder = LogBuilder()
    builder.add("Bed Time", date(2026, 3, 2), "23:50")
    builder.add("Bed Time", date(2026, 3, 4), "00:10")
    let routine = try #require(Baseline.circular.routines(in: builder.log, days: week).first)
    #expect(routine.time == time("00:00"))
    // Resultant length cos(10 minutes), events on 2 of 7 dates.
    let length = cos(2 * Double.pi * 600 / 86_400)
    #expect(abs(routine.confidence - length * 2 / 7) < 1e-12)
  }

  @Test func theSplitMethodsLearnWeekdaysAndWeekendsApart() throws {
    var builder = LogBuilder("America/New_York")
    for day in 0..<5 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    builder.add("Wake Up", date(2026, 3, 7), "09:00")
    builder.add("Wake Up", date(2026, 3, 8), "09:10")
    let split = Baseline.circularSplit.routines(in: builder.log, days: week)
    let weekdays = try #require(split.first { $0.dayKind == .weekdays })
    let weekends = try #require(split.first { $0.dayKind == .weekends })
    #expect(weekdays.time == time("07:00") && weekdays.confidence == 1)
    #expect(weekends.time == time("09:05"))
    #expect(abs(weekends.confidence - cos(2 * Double.pi * 300 / 86_400)) < 1e-12)
    // Clusters need three events: the weekend's two make none.
    let clusters = Baseline.clustersSplit.routines(in: builder.log, days: week)
    #expect(clusters.count == 1)
    #expect(clusters.first?.dayKind == .weekdays && clusters.first?.confidence == 1)
  }

  @Test func aClusterAcrossMidnightStaysWholeAndSmallOnesAreDropped() throws {
    var builder = LogBuilder("Australia/Lord_Howe")
    builder.add("Bed Time", date(2026, 3, 2), "23:50")
    builder.add("Bed Time", date(2026, 3, 4), "00:00")
    builder.add("Bed Time", date(2026, 3, 6), "00:10")
    builder.add("Bed Time", date(2026, 3, 5), "12:00")
    builder.add("Bed Time", date(2026, 3, 6), "12:10")
    builder.add("Bed Time", date(2026, 3, 7), "06:00")
    let routines = Baseline.clusters.routines(in: builder.log, days: week)
    let routine = try #require(routines.first)
    #expect(routines.count == 1)
    #expect(routine.time == time("00:00"))
    // 23:50 on the 2nd belongs to the suggestion of the 3rd: 3 of 7 days.
    #expect(routine.confidence == 3.0 / 7)
    #expect(routine.occurrences == 3)
    #expect(routine.earliest == time("23:50") && routine.latest == time("00:10"))
  }

  @Test func clustersSplitAtGapsOverNinetyMinutesOnly() {
    #expect(
      BaselineClusters.split([0, 5400, 10_800, 20_000], gap: 5400) == [[0, 1, 2], [3]])
    #expect(BaselineClusters.split([86_000, 100, 50_000], gap: 5400) == [[2], [0, 1]])
    #expect(BaselineClusters.split([3600, 3600], gap: 5400) == [[0, 1]])
    #expect(BaselineClusters.split([], gap: 5400) == [])
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York", "Asia/Tokyo"])
  func aDaylightSavingChangeKeepsTheLocalTime(zoneName: String) throws {
    // 29 March 2026 is Berlin's change, 8 March New York's; Tokyo has none.
    var builder = LogBuilder(zoneName)
    let days = date(2026, 3, 5)...date(2026, 3, 31)
    for day in 0...26 { builder.add("Wake Up", days.lowerBound.adding(days: day), "07:00") }
    for baseline in Baseline.allCases {
      let routines = baseline.routines(in: builder.log, days: days)
      #expect(!routines.isEmpty)
      for routine in routines {
        #expect(routine.time == time("07:00"), "\(baseline)")
        #expect(routine.confidence == 1, "\(baseline)")
      }
    }
  }

  @Test func hostileInputGivesNoRoutinesRatherThanACrash() {
    var builder = LogBuilder()
    // Opposite times have no circular mean; one event per cluster is too few.
    builder.add("Nap", date(2026, 3, 2), "06:00")
    builder.add("Nap", date(2026, 3, 3), "18:00")
    for baseline in Baseline.allCases where baseline != .mean {
      #expect(baseline.routines(in: builder.log, days: week).isEmpty, "\(baseline)")
    }
    for baseline in Baseline.allCases {
      #expect(baseline.routines(in: EventLog(), days: week).isEmpty)
      // A window with no event of the kind.
      #expect(
        baseline.routines(in: builder.log, days: date(2027, 1, 1)...date(2027, 1, 7)).isEmpty)
    }
    // Thousands of events at one second.
    var crowd = LogBuilder()
    for second in 0..<5000 { crowd.add("Tap", date(2026, 3, 3), seconds: 43_200 + second % 2) }
    for baseline in Baseline.allCases {
      #expect(baseline.routines(in: crowd.log, days: week).allSatisfy { $0.confidence <= 1 })
    }
  }

  @Test func eachBaselineRunsOnTheSameWalkAsTheLearner() throws {
    var builder = LogBuilder()
    for day in 0..<35 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    // Two weeks, so that a window's weekend days hold the three events a cluster needs.
    let learner = Backtest().run(builder.log, windowDays: 14)
    for baseline in Baseline.allCases {
      let result = Backtest(baseline: baseline).run(builder.log, windowDays: 14)
      #expect(result.days == learner.days)
      #expect(result.eventDays == learner.eventDays)
      #expect(try #require(result.precision) == 1, "\(baseline)")
      #expect(try #require(result.recall) == 1, "\(baseline)")
    }
  }
}

struct PrecisionCurveTests {
  @Test func theCurveIsTheBestPrecisionOfAnyThresholdReachingEachRecall() throws {
    let predictions = [
      CurvePrediction(confidence: 0.9, isHit: true, eventDay: 1),
      CurvePrediction(confidence: 0.8, isHit: false),
      CurvePrediction(confidence: 0.7, isHit: true, eventDay: 2),
      // A second hit on the same (kind, day) adds precision but no recall.
      CurvePrediction(confidence: 0.6, isHit: true, eventDay: 2),
      CurvePrediction(confidence: 0.5, isHit: false),
      CurvePrediction(confidence: 0.4, isHit: true, eventDay: 3),
      CurvePrediction(confidence: 0.3, isHit: false),
    ].shuffled()
    let curve = PrecisionCurve(predictions, eventDays: 4)
    #expect(curve.points.map(\.recall) == (1...15).map { Double($0) / 20 })
    for point in curve.points {
      let (precision, threshold, reminders): (Double, Double, Int) =
        point.recall <= 0.25
        ? (1, 0.9, 1) : point.recall <= 0.5 ? (0.75, 0.6, 4) : (4.0 / 6, 0.4, 6)
      #expect(point.precision == precision, "\(point.recall)")
      #expect(point.minConfidence == threshold, "\(point.recall)")
      #expect(point.reminders == reminders, "\(point.recall)")
    }
    // (1 + 1 + 0.75 + 0.75 + 0.75) / 5.
    #expect(abs(try #require(curve.meanPrecision) - 0.85) < 1e-12)
  }

  @Test func levelsNeverReachedCountZeroInTheMean() throws {
    let curve = PrecisionCurve(
      [CurvePrediction(confidence: 0.9, isHit: true, eventDay: 7)], eventDays: 4)
    #expect(curve.points.count == 5)
    #expect(try #require(curve.meanPrecision) == 0.4)
  }

  @Test func equalConfidencesAreOneThreshold() {
    let curve = PrecisionCurve(
      [
        CurvePrediction(confidence: 0.8, isHit: true, eventDay: 1),
        CurvePrediction(confidence: 0.8, isHit: false),
      ], eventDays: 1)
    #expect(curve.points.count == 20)
    #expect(curve.points.allSatisfy { $0.precision == 0.5 && $0.reminders == 2 })
  }

  @Test func nothingAnticipatedIsAnEmptyCurve() {
    #expect(PrecisionCurve([], eventDays: 3).points.isEmpty)
    #expect(PrecisionCurve([], eventDays: 3).meanPrecision == nil)
    #expect(
      PrecisionCurve([CurvePrediction(confidence: 1, isHit: false)], eventDays: 0).points.isEmpty)
  }

  @Test func theBacktestCurveUsesRecallsEventDays() throws {
    var builder = LogBuilder()
    for day in 0..<21 { builder.add("Wake Up", date(2026, 3, 2).adding(days: day), "07:00") }
    let result = Backtest().run(builder.log, windowDays: 7)
    let last = try #require(result.curve.points.last)
    #expect(last.recall == 1 && last.precision == 1)
    #expect(result.curve.meanPrecision == 1)
  }
}
