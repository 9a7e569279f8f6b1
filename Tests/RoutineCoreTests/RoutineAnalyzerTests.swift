import Foundation
import Testing

@testable import RoutineCore

struct RoutineAnalyzerTests {
  let analyzer = RoutineAnalyzer()
  /// Monday 2026-04-20; "now" is the next Monday morning, so the 7-day window is that week.
  let monday = date(2026, 4, 20)
  let nextMonday = "2026-04-27T05:00:00+02:00"

  @Test func aTightWeekdayPatternBecomesAConfidentWeekdayRoutine() throws {
    var builder = LogBuilder()
    for (offset, time) in ["06:58", "07:02", "07:00", "07:05", "06:55"].enumerated() {
      builder.add("Wake Up", monday.adding(days: offset), time)
    }
    builder.add("Wake Up", monday.adding(days: 5), "09:10")
    builder.add("Wake Up", monday.adding(days: 6), "09:20")
    let analysis = analyzer.analyze(builder.log, window: window(now: nextMonday, days: 7))
    let weekdays = try #require(analysis.routines.first { $0.dayKind == .weekdays })
    #expect(weekdays.kind.name == "Wake Up")
    #expect(weekdays.time.description == "07:00")
    #expect(weekdays.daysMatched == 5 && weekdays.daysObserved == 5)
    #expect(weekdays.confidence > 0.6)
    // The week before is all the record there is; docs/analytics.md's worked example counts it.
    #expect(
      weekdays.reasoning.hasPrefix(
        "You woke up between 06:55 and 07:05 on 5 of the last 5 weekdays, and when forecast the "
          + "day before, on "))
    // Two weekend days are too little evidence for a weekend routine of their own.
    #expect(!analysis.routines.contains { $0.dayKind == .weekends })
    #expect(!analysis.routines.contains { $0.dayKind == .all })
  }

  @Test func weekdaysAndWeekendsSplitWhenTheyDifferAndHaveEvidence() {
    var builder = LogBuilder()
    for day in 0..<28 {
      let date = monday.adding(days: day)
      builder.add(
        "Wake Up", date, minutes: date.isWeekend ? 540 + (day % 3) * 5 : 420 + (day % 4) * 3)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-18T05:00:00+02:00", days: 28))
    let byKind = Dictionary(uniqueKeysWithValues: analysis.routines.map { ($0.dayKind, $0) })
    #expect(Set(byKind.keys) == [.weekdays, .weekends])
    #expect(byKind[.weekdays]!.time.hour == 7)
    #expect(byKind[.weekends]!.time.hour == 9)
    #expect(byKind[.weekends]!.daysObserved == 8)
  }

  @Test func lateNightsBeforeDaysOffSplitSundayToThursdayFromFridayAndSaturday() throws {
    // Four weeks: lights out near 22:50 on nights before a working day, near 23:50 on Friday and
    // Saturday nights; the wake-up follows the calendar's weekdays and weekends.
    var builder = LogBuilder()
    for day in 0..<28 {
      let date = monday.adding(days: day)
      let beforeDayOff = date.weekday == 6 || date.weekday == 7
      builder.add("Bed Time", date, minutes: (beforeDayOff ? 1430 : 1370) + (day % 3) * 4)
      builder.add("Wake Up", date, minutes: date.isWeekend ? 510 + (day % 3) * 5 : 405 + day % 4)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-18T05:00:00+02:00", days: 28))
    let bed = analysis.routines.filter { $0.kind.name == "Bed Time" }
    #expect(bed.map(\.dayKind).sorted() == [.sundayToThursday, .fridayAndSaturday])
    let weeknights = try #require(bed.first { $0.dayKind == .sundayToThursday })
    #expect(weeknights.time.description == "22:54")
    #expect(weeknights.daysMatched == 20 && weeknights.daysObserved == 20)
    #expect(weeknights.reasoning.hasSuffix("on 20 of the last 20 days from Sunday to Thursday."))
    let late = try #require(bed.first { $0.dayKind == .fridayAndSaturday })
    #expect(late.time.hour == 23 && late.time.minute >= 50)
    #expect(late.reasoning.hasSuffix("on 8 of the last 8 Fridays and Saturdays."))
    let wake = analysis.routines.filter { $0.kind.name == "Wake Up" }
    #expect(wake.map(\.dayKind).sorted() == [.weekdays, .weekends])
  }

  @Test func timesAFewMinutesApartDoNotSplitTheWeek() throws {
    // Dinner 7 minutes earlier on Fridays and Saturdays, every day for two weeks: both splits
    // would hit and miss the same reminders, so it stays one routine.
    var builder = LogBuilder()
    for day in 0..<14 {
      let date = monday.adding(days: day)
      let minutes = date.weekday == 6 || date.weekday == 7 ? 1145 : 1152
      builder.add("Dinner", date, minutes: minutes + day % 2)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 14))
    #expect(analysis.routines.map(\.dayKind) == [.all])
  }

  @Test func aRoutineAppliesOnlyToItsDaysWhenLookingForOutliers() throws {
    // Bed at 22:30 Sunday to Thursday, 00:30 after Friday and Saturday nights: the 00:30 falls
    // on Saturday and Sunday, the calendar's weekend.
    var builder = LogBuilder()
    for day in 0..<28 {
      let date = monday.adding(days: day)
      let beforeDayOff = date.weekday == 6 || date.weekday == 7
      builder.add("Bed Time", date, minutes: (beforeDayOff ? 1470 : 1350) + day % 3)
    }
    // Another Friday night at 00:35 keeps the weekend routine. A Wednesday night at 01:45 is
    // judged against the weeknights' 22:30, the only routine for a Wednesday.
    builder.add("Bed Time", monday.adding(days: 32), minutes: 1475)
    builder.add("Bed Time", monday.adding(days: 30), minutes: 1545)
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-23T12:00:00+02:00", days: 28))
    #expect(Set(analysis.routines.map(\.dayKind)) == [.sundayToThursday, .weekends])
    let weeknights = try #require(analysis.routines.first { $0.dayKind == .sundayToThursday })
    let outlier = try #require(analysis.outliers.first)
    #expect(analysis.outliers.count == 1)
    #expect(outlier.timestamp.localDate == monday.adding(days: 31))
    #expect(outlier.expected == weeknights.time)
    #expect(
      outlier.deviationMinutes == 1545 - weeknights.time.secondsSinceMidnight / 60)
  }

  @Test func aDailyPatternStaysOneRoutineForAllDays() throws {
    var builder = LogBuilder()
    for day in 0..<14 {
      builder.add("Meditation", monday.adding(days: day), minutes: 1290 + (day % 3) * 4)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 14))
    let routine = try #require(analysis.routines.first)
    #expect(analysis.routines.count == 1)
    #expect(routine.dayKind == .all)
    #expect(routine.time.description == "21:34")
    #expect(
      routine.reasoning.hasPrefix("You meditated between 21:30 and 21:38 on 14 of the last 14 days")
    )
  }

  @Test func bedtimesAroundMidnightAverageToMidnight() throws {
    var builder = LogBuilder()
    for day in 0..<7 {
      // 23:50 and 00:10 alternate: the bed time of day N is logged on day N or just after it.
      builder.add(
        "Bed Time", monday.adding(days: day), minutes: day % 2 == 0 ? 23 * 60 + 50 : 24 * 60 + 10)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-04-27T18:00:00+02:00", days: 8))
    let routine = try #require(analysis.routines.first)
    #expect(routine.time.description == "00:00")
    #expect(routine.dayKind == .all)
    #expect(routine.reasoning.contains("between 23:50 and 00:10"))
  }

  @Test(arguments: [
    // Centred just before midnight: the events after it belong to the evening before. The
    // nights are Monday's to Sunday's.
    ("Before midnight", 0, 23 * 60 + 40, 24 * 60 + 5, 23),
    // Centred just after midnight: the events before it belong to the morning after. The
    // nights end on the mornings of Monday to Sunday.
    ("After midnight", -1, 23 * 60 + 55, 24 * 60 + 20, 0),
  ])
  func bedTimesOnBothSidesOfMidnightCountForTheirOwnDay(
    kind: String, firstNight: Int, early: Int, late: Int, hour: Int
  ) throws {
    var builder = LogBuilder()
    // Seven nights, alternating before and after midnight.
    for night in firstNight..<(firstNight + 7) {
      builder.add(kind, monday.adding(days: night), minutes: night % 2 == 0 ? early : late)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-04-27T18:00:00+02:00", days: 7))
    let routine = try #require(analysis.routines.first)
    #expect(analysis.routines.count == 1)
    #expect(routine.time.hour == hour)
    #expect(routine.dayKind == .all)
    #expect(routine.daysMatched == 7 && routine.daysObserved == 7)
    #expect(routine.reasoning.contains("on 7 of the last 7 days"), "\(routine.reasoning)")
    #expect(analysis.outliers.isEmpty)
  }

  @Test func anEventFortyMinutesOffATightRoutineIsUnderTheHourFloor() throws {
    var builder = LogBuilder()
    for day in 0..<7 {
      builder.add("Wake Up", monday.adding(days: day), minutes: 7 * 60 + (day % 3) - 1)
    }
    // Outside the 30-minute tolerance, but an hour is the least an outlier must be off.
    builder.add("Wake Up", monday.adding(days: 7), "07:40")
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-04-27T09:00:00+02:00", days: 7))
    let routine = try #require(analysis.routines.first)
    #expect(routine.spreadMinutes < 3)
    #expect(routine.outlierThresholdSeconds == 3600)
    #expect(analysis.outliers.isEmpty)
  }

  @Test(arguments: [(3.2, false), (3.8, true)])
  func theOutlierThresholdIsThreeAndAHalfSpreads(spreads: Double, isOutlier: Bool) throws {
    // Wake-ups 17 minutes either side of 07:00: a spread of about 25 minutes, so three and a
    // half spreads (88 minutes) lie beyond the one-hour floor.
    var builder = LogBuilder()
    for day in 0..<14 {
      builder.add("Wake Up", monday.adding(days: day), minutes: 7 * 60 + (day % 2 == 0 ? -17 : 17))
    }
    let learned = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 14))
    let routine = try #require(learned.routines.first)
    #expect(routine.spreadMinutes > 20 && routine.spreadMinutes < 30)
    // Either side of 3.5 spreads, clear of 3 and of 4: a threshold of 3 or 4 spreads fails.
    let minutes = Int((spreads * routine.spreadMinutes).rounded())
    builder.add(
      "Wake Up", monday.adding(days: 14),
      minutes: routine.time.secondsSinceMidnight / 60 + minutes)
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T12:00:00+02:00", days: 14))
    #expect(analysis.outliers.count == (isOutlier ? 1 : 0), "\(minutes) minutes")
  }

  @Test func aKindLoggedSeveralTimesADayHasSeveralRoutines() {
    var builder = LogBuilder()
    for day in 0..<14 {
      let date = monday.adding(days: day)
      builder.add("Meal", date, minutes: 7 * 60 + 30 + day % 5)
      builder.add("Meal", date, minutes: 12 * 60 + 30 - day % 4)
      builder.add("Meal", date, minutes: 19 * 60 + day % 6)
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 14))
    #expect(analysis.routines.map(\.time.hour) == [7, 12, 19])
    #expect(
      analysis.routines.allSatisfy {
        $0.kind.name == "Meal" && $0.dayKind == .all && $0.daysMatched == 14
      })
    #expect(analysis.outliers.isEmpty)
  }

  @Test func twoDaysAreNotEnoughToClaimARoutine() {
    var builder = LogBuilder()
    builder.add("Workout", monday, "18:00")
    builder.add("Workout", monday.adding(days: 2), "18:05")
    let analysis = analyzer.analyze(builder.log, window: window(now: nextMonday, days: 7))
    #expect(analysis.routines.isEmpty)
  }

  @Test func eventsAtRandomTimesAreNotARoutine() {
    var builder = LogBuilder()
    var random = SplitMix64(seed: 7)
    for day in 0..<28 {
      for _ in 0..<5 {
        builder.add("Water", monday.adding(days: day), minutes: random.integer(in: 480...1260))
      }
    }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-18T05:00:00+02:00", days: 28))
    #expect(analysis.routines.isEmpty)
  }

  @Test func twoHoursOffATightSevenDayPatternIsAnOutlierButFortyFiveMinutesIsNot() throws {
    var builder = LogBuilder()
    for day in 0..<7 {
      builder.add("Wake Up", monday.adding(days: day), minutes: 7 * 60 + 15 + (day % 3) - 1)
    }
    // Today: 2 hours early, and a second kind 45 minutes off: beyond the 30-minute tolerance
    // (so it is weighed as a candidate) but under the threshold.
    builder.add("Wake Up", monday.adding(days: 7), "05:15")
    for day in 0..<7 { builder.add("Leaving Home", monday.adding(days: day), "07:10") }
    builder.add("Leaving Home", monday.adding(days: 7), "07:55")
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-04-27T08:30:00+02:00", days: 7))
    let outlier = try #require(analysis.outliers.first)
    #expect(analysis.outliers.count == 1)
    #expect(outlier.kind.name == "Wake Up")
    #expect(outlier.expected.description == "07:15")
    #expect(outlier.deviationMinutes == -120)
    #expect(outlier.timestamp == stamp("2026-04-27T05:15:00+02:00"))
    #expect(outlier.message == "You woke up at 05:15, 120 minutes earlier than your usual 07:15.")
  }

  @Test func aSecondEventOnADayThatKeptItsRoutineIsNotAnOutlier() {
    var builder = LogBuilder()
    for day in 0..<7 {
      builder.add("Coffee", monday.adding(days: day), "07:30")
    }
    builder.add("Coffee", monday.adding(days: 3), "15:00")
    let analysis = analyzer.analyze(builder.log, window: window(now: nextMonday, days: 7))
    #expect(analysis.routines.count == 1)
    #expect(analysis.outliers.isEmpty)
  }

  @Test func theCommuteIsTheUsualTimeFromLeavingHomeToArrivingAtWork() throws {
    var builder = LogBuilder()
    for (day, minutes) in [33, 35, 36, 35, 40].enumerated() {
      builder.add("Leaving Home", monday.adding(days: day), "07:50")
      builder.add("Arriving at Work", monday.adding(days: day), minutes: 470 + minutes)
    }
    let analysis = analyzer.analyze(builder.log, window: window(now: nextMonday, days: 7))
    let commute = try #require(analysis.durations.first)
    #expect(commute.from.name == "Leaving Home" && commute.to.name == "Arriving at Work")
    #expect(commute.minutes == 35)
    #expect(commute.pairs == 5)
  }

  @Test func daysInALoggingGapDoNotCountAgainstARoutine() throws {
    var builder = LogBuilder()
    // Logged the first four days, then nothing at all for three days (a trip).
    for day in 0..<4 { builder.add("Wake Up", monday.adding(days: day), "07:00") }
    let analysis = analyzer.analyze(builder.log, window: window(now: nextMonday, days: 7))
    let routine = try #require(analysis.routines.first)
    #expect(routine.daysObserved == 4)
    #expect(routine.daysMatched == 4)
  }

  @Test func theConfidenceIsTheRecencyWeightedHeldOutHitRateWithLaplacesPrior() throws {
    var builder = LogBuilder()
    // Five weekdays; Wednesday is an hour late. Held out, each other day is hit; Wednesday is not.
    for (day, time) in ["07:00", "07:02", "08:05", "07:01", "06:59"].enumerated() {
      builder.add("Wake Up", monday.adding(days: day), time)
    }
    for day in 5..<7 { builder.add("Coffee", monday.adding(days: day), "10:00") }
    // The window's own estimate, without the track record of the days before it.
    var configuration = AnalysisConfiguration()
    configuration.trackRecordDays = 0
    let analysis = RoutineAnalyzer(configuration: configuration).analyze(
      builder.log, window: window(now: nextMonday, days: 7))
    let routine = try #require(analysis.routines.first { $0.kind.name == "Wake Up" })
    // Weights 2^(-age/7) counted from Sunday, the newest observed day.
    let weight = { (age: Int) in pow(2, -Double(age) / 7) }
    let hits = [6, 5, 3, 2].map(weight).reduce(0, +)
    let days = [6, 5, 4, 3, 2].map(weight).reduce(0, +)
    // Without a track record at all, the estimate stands: the model is fitted where there is one.
    #expect(abs(routine.confidence - (hits + 1) / (days + 2)) < 1e-9)
    #expect(routine.daysMatched == 4)
  }

  @Test func todayIsTheUsersLocalDateAndIsNotLearnedFrom() {
    var builder = LogBuilder("America/New_York")
    for day in 0..<7 { builder.add("Wake Up", monday.adding(days: day), "06:30") }
    // 23:30 UTC on Sunday is still Sunday in New York: Sunday is today, not learned from.
    let now = "2026-04-26T23:30:00Z"
    let inNewYork = analyzer.analyze(
      builder.log, window: window(now: now, days: 6, zone: "America/New_York"))
    #expect(inNewYork.window.today == date(2026, 4, 26))
    #expect(inNewYork.routines.first?.daysObserved == 6)
    let inBerlin = analyzer.analyze(
      builder.log, window: window(now: now, days: 6, zone: "Europe/Berlin"))
    #expect(inBerlin.window.today == date(2026, 4, 27))
  }

  @Test func theSameWallClockTimeAcrossADaylightSavingChangeIsOneRoutine() throws {
    var builder = LogBuilder()
    // Berlin springs forward on Sunday 2026-03-29; the wake-ups keep their wall-clock time.
    for day in 0..<14 { builder.add("Wake Up", date(2026, 3, 23).adding(days: day), "07:00") }
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-04-06T05:00:00+02:00", days: 14))
    let routine = try #require(analysis.routines.first)
    #expect(routine.time.description == "07:00")
    #expect(routine.daysMatched == 14)
  }

  @Test func aTimeOfDayThatRecursIsNotAnOutlierButAOneOffIs() throws {
    var builder = LogBuilder()
    // Lunch on twelve of fourteen days; breakfast on two days only (too few to claim), one of
    // them a day without lunch; and, on the other day without lunch, a meal at 04:00, once.
    for day in 0..<14 where day != 8 && day != 11 {
      builder.add("Meal", monday.adding(days: day), "12:30")
    }
    builder.add("Meal", monday.adding(days: 8), "07:05")
    builder.add("Meal", monday.adding(days: 10), "07:15")
    builder.add("Meal", monday.adding(days: 11), "04:00")
    let analysis = analyzer.analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 14))
    #expect(analysis.routines.map(\.time.description) == ["12:30"])
    let outlier = try #require(analysis.outliers.first)
    #expect(analysis.outliers.count == 1)
    #expect(outlier.timestamp.timeOfDay.description == "04:00")
  }
}

struct CalibrationTests {
  let monday = date(2026, 4, 20)

  @Test func theLearnedTimeLiesInsideTheRangeItsReasoningStates() throws {
    var builder = LogBuilder()
    // 06:59:50 and 07:00:50 in turn: the peak minute is 06:59, but no event is before 06:59:50.
    for day in 0..<7 {
      builder.add(
        "Wake Up", monday.adding(days: day), seconds: day % 2 == 0 ? 25_190 : 25_250)
    }
    let analysis = RoutineAnalyzer().analyze(
      builder.log, window: window(now: "2026-04-27T05:00:00+02:00", days: 7))
    let routine = try #require(analysis.routines.first)
    #expect(routine.earliest <= routine.time && routine.time <= routine.latest)
    #expect(routine.reasoning.contains("between \(routine.earliest) and \(routine.latest)"))
    let shown = routine.time.description
    #expect(shown >= routine.earliest.description && shown <= routine.latest.description)
  }

  /// Four weeks of a 07:00 wake-up, then a week at `lastWeek`, analysed the Monday after.
  func confidence(lastWeek: String, trackRecordDays: Int) throws -> Double {
    var builder = LogBuilder()
    let start = monday.adding(days: -28)
    for day in 0..<35 {
      builder.add("Wake Up", start.adding(days: day), day < 28 ? "07:00" : lastWeek)
    }
    var configuration = AnalysisConfiguration()
    configuration.trackRecordDays = trackRecordDays
    // About the record alone: with the last days with events, "alone" would already learn from
    // the four weeks the record holds.
    configuration.eventDays = 0
    let analysis = RoutineAnalyzer(configuration: configuration).analyze(
      builder.log, window: window(now: "2026-04-27T05:00:00+02:00", days: 7))
    return try #require(analysis.routines.first { $0.kind.name == "Wake Up" }).confidence
  }

  @Test func aRoutineThatHeldForWeeksIsMoreCertainThanOneWeekShows() throws {
    let alone = try confidence(lastWeek: "07:00", trackRecordDays: 0)
    let recorded = try confidence(lastWeek: "07:00", trackRecordDays: 28)
    // Seven days of seven: Laplace keeps one week below 0.9; four more weeks of next-day hits
    // take it above.
    #expect(alone < 0.9)
    #expect(recorded > 0.9)
  }

  @Test func aRoutineWhoseSlotKeepsMovingIsLessCertainThanOneSteadyWeekShows() throws {
    // A shift worker: each week's wake-up eight hours from the last, every day kept within
    // minutes. The last week alone looks perfectly steady; the days after earlier weeks were not.
    var builder = LogBuilder()
    let start = monday.adding(days: -28)
    let shifts = ["06:00", "14:00", "22:00", "06:00", "14:00"]
    for day in 0..<35 { builder.add("Wake Up", start.adding(days: day), shifts[day / 7]) }
    func confidence(_ trackRecordDays: Int) throws -> Double {
      var configuration = AnalysisConfiguration()
      configuration.trackRecordDays = trackRecordDays
      // About the record alone: with the last days with events, "alone" would already learn
      // from the moving weeks the record holds.
      configuration.eventDays = 0
      let analysis = RoutineAnalyzer(configuration: configuration).analyze(
        builder.log, window: window(now: "2026-04-27T05:00:00+02:00", days: 7))
      return try #require(analysis.routines.first { $0.kind.name == "Wake Up" }).confidence
    }
    let alone = try confidence(0)
    let recorded = try confidence(28)
    #expect(alone > 0.8)
    #expect(recorded < alone - 0.1)
  }

  @Test func theAnalysisReadsTheRecordDaysBeforeTheWindowAndTheWeekdaySetHorizon() {
    let week = window(now: "2026-04-27T05:00:00+02:00", days: 7)
    // Each day of the four-week record learns from its own six-week lookback (the horizon of
    // weekday sets, the split of the week and the last days with events).
    let days = RoutineAnalyzer().daysRead(for: week)
    #expect(days.lowerBound == date(2026, 4, 27).adding(days: -28 - 42))
    #expect(days.upperBound == date(2026, 4, 27))
    let withoutSets = RoutineAnalyzer(weeklyDays: 0).daysRead(for: week)
    #expect(withoutSets.lowerBound == date(2026, 4, 20).adding(days: -28))
    // A long window needs neither.
    let long = window(now: "2026-04-27T05:00:00+02:00", days: 60)
    #expect(RoutineAnalyzer().daysRead(for: long).lowerBound == date(2026, 4, 27).adding(days: -60))
  }
}
