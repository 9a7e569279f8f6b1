import Foundation
import Testing

@testable import RoutineCore

/// Forecasts that follow a changing life and say only what their evidence supports
/// (docs/analytics.md: "Confidence within its own evidence", "A moved routine", "When logging
/// stops").
@Suite struct ChangingLifeTests {
  let start = date(2026, 3, 2)

  /// The analysis at 05:00 on `day` days after `start`, a week's window.
  func analysis(
    _ log: EventLog, day: Int, configuration: AnalysisConfiguration = AnalysisConfiguration()
  ) -> RoutineAnalysis {
    let today = start.adding(days: day)
    let midnight = WallClock.instant(
      on: today, at: TimeOfDay(secondsSinceMidnight: 5 * 3600), in: zone("Europe/Berlin"))
    return RoutineAnalyzer(configuration: configuration).analyze(
      log,
      window: AnalysisWindow(
        now: Date(timeIntervalSince1970: Double(midnight)), days: 7, zone: zone("Europe/Berlin")))
  }

  // MARK: Confidence within its own evidence

  @Test func fourDaysInTwentyFiveSupportAboutAThirdAtMost() {
    let upper = EvidenceBound.interval(hits: 4, of: 25).upperBound
    #expect((0.34...0.35).contains(upper))
    #expect(EvidenceBound.bounded(0.65, hits: 4, of: 25) == upper)
    // Below the bound the evidence beyond the slot's days may still lower or raise it.
    #expect(EvidenceBound.bounded(0.2, hits: 4, of: 25) == 0.2)
    // The slot's track record, which the reasoning states too, bounds it as well.
    let record = EvidenceBound.interval(hits: 1, of: 20).upperBound
    #expect(record < upper)
    #expect(EvidenceBound.bounded(0.65, hits: 4, of: 25, recordHits: 1, recordDays: 20) == record)
    // Every day a hit: the bound is 1 only in the limit, and no days bound nothing.
    #expect(EvidenceBound.interval(hits: 20, of: 20).upperBound == 1)
    #expect(EvidenceBound.interval(hits: 20, of: 20).lowerBound > 0.8)
    #expect(EvidenceBound.interval(hits: 0, of: 0) == 0...1)
  }

  @Test func aThingDoneAtRandomAmongRegularHabitsReadsNoMoreThanItsCount() throws {
    // Twelve habits kept every day, and one thing done near 14:10 on 4 of every 25 days: the
    // person's good record must not lift it above what its own 4 in 25 support.
    var builder = LogBuilder()
    for day in 0..<56 {
      let date = start.adding(days: day)
      for habit in 0..<12 {
        builder.add("Habit \(habit)", date, minutes: 6 * 60 + habit * 70 + (day * 7 + habit) % 9)
      }
      if [3, 9, 15, 21].contains(day % 25) {
        builder.add("Random Thing", date, minutes: 14 * 60 + 10 + (day % 5) * 8 - 16)
      } else if day % 4 == 1 {
        builder.add("Random Thing", date, minutes: (day * 97) % 1440)
      }
    }
    var everything = AnalysisConfiguration()
    everything.threshold = -1
    let result = analysis(builder.log, day: 56, configuration: everything)
    #expect(result.routines.count >= 12)
    for routine in result.routines {
      // The number and the reason agree: no more than the counts the reason states support.
      let bound = EvidenceBound.interval(hits: routine.daysMatched, of: routine.daysObserved)
      #expect(routine.confidence <= bound.upperBound + 1e-9, "\(routine)")
    }
    let random = result.routines.filter { $0.kind.name == "Random Thing" }
    #expect(random.allSatisfy { $0.confidence <= 0.5 }, "\(random)")
    // At the default threshold it is not planned.
    let shown = analysis(builder.log, day: 56)
    #expect(!shown.routines.contains { $0.kind.name == "Random Thing" && $0.confidence > 0.6 })
  }

  // MARK: A moved routine

  /// Leaving home at 07:30 for six weeks, at 09:00 from day 42 on (`weekdaysOnly`: on
  /// weekdays only, the move on a Monday).
  func movedLog(weekdaysOnly: Bool) -> EventLog {
    var builder = LogBuilder()
    for day in 0..<60 {
      let date = start.adding(days: day)
      if weekdaysOnly && date.isWeekend { continue }
      let usual = day >= 42 ? 9 * 60 : 7 * 60 + 30
      builder.add("Leaving Home", date, minutes: usual + (day * 7) % 11 - 5)
      builder.add("Wake Up", date, minutes: 6 * 60 + 30 + (day * 5) % 9 - 4)
    }
    return builder.log
  }

  @Test(arguments: [false, true])
  func aMovedRoutineIsFollowedWithinFourDaysAndTheOldTimeStopsWithinTwo(weekdaysOnly: Bool) {
    let log = movedLog(weekdaysOnly: weekdaysOnly)
    // Day 42 (a Monday) is the first at 09:00; count the days of the kind done at the new time.
    var followedAfter: Int?
    var oldStoppedAfter: Int?
    var doneAtNewTime = 0
    for day in 43...56 {
      if !weekdaysOnly || !start.adding(days: day - 1).isWeekend { doneAtNewTime += 1 }
      let routines = analysis(log, day: day).routines.filter {
        $0.kind.name == "Leaving Home" && $0.confidence > 0.6
      }
      let atNew = routines.contains { $0.time.distance(to: TimeOfDay(hour: 9, minute: 0)!) <= 900 }
      // Weekends not yet seen at the new time may keep the old one: a new job moves weekdays.
      let atOld = routines.contains {
        $0.time.distance(to: TimeOfDay(hour: 7, minute: 30)!) <= 900
          && $0.dayKind.weekdayMask & DayKind.weekdays.weekdayMask != 0
      }
      if atNew, followedAfter == nil { followedAfter = doneAtNewTime }
      if !atOld, oldStoppedAfter == nil { oldStoppedAfter = doneAtNewTime }
      // Once followed, it stays followed, and the old time does not come back.
      if let followed = followedAfter, followed < doneAtNewTime { #expect(atNew, "day \(day)") }
      if oldStoppedAfter != nil { #expect(!atOld, "day \(day)") }
    }
    #expect((followedAfter ?? 99) <= 4, "followed after \(String(describing: followedAfter))")
    #expect(
      (oldStoppedAfter ?? 99) <= 2, "old stopped after \(String(describing: oldStoppedAfter))")
    // The wake-up that did not move keeps its time and confidence.
    let wake = analysis(log, day: 46).routines.filter { $0.kind.name == "Wake Up" }
    #expect(wake.contains { $0.confidence > 0.8 })
  }

  @Test func aSkippedBreakfastIsNoMoveToLunch() throws {
    // Meals at 08:00 and 12:30 every day for six weeks; the last two days without breakfast.
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      if day < 40 { builder.add("Meal", date, minutes: 8 * 60 + (day * 7) % 11 - 5) }
      builder.add("Meal", date, minutes: 12 * 60 + 30 + (day * 5) % 9 - 4)
    }
    let meals = analysis(builder.log, day: 42).routines.filter { $0.kind.name == "Meal" }
    let lunches = meals.filter { $0.time.distance(to: TimeOfDay(hour: 12, minute: 30)!) <= 900 }
    // One lunch, learned from its whole span, not a breakfast moved since two days ago.
    #expect(lunches.count == 1)
    let lunch = try #require(lunches.first)
    #expect(lunch.daysObserved >= 20)
    #expect(lunch.confidence > 0.8)
  }

  @Test func aWeekendSleptInIsNoMoveOfAnEveryDayRoutine() {
    // Up at 07:00 every day for six weeks, then a Saturday and Sunday at 09:30.
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      let late = day >= 40
      builder.add("Wake Up", date, minutes: (late ? 570 : 420) + day % 5)
    }
    #expect(start.adding(days: 40).isWeekend && start.adding(days: 41).isWeekend)
    let wake = analysis(builder.log, day: 42).routines.filter { $0.kind.name == "Wake Up" }
    // Monday is still a 07:00 day.
    let monday = start.adding(days: 42)
    #expect(
      wake.contains {
        $0.dayKind.contains(monday) && $0.time.distance(to: TimeOfDay(hour: 7, minute: 0)!) <= 600
          && $0.confidence > 0.6
      }, "\(wake)")
  }

  // MARK: When logging stops

  @Test func silentDaysAfterTheFirstHalveConfidencesEveryThreeDaysAndPauseAfterThree() {
    let last = date(2026, 4, 23)
    #expect(LoggingSilence(lastLogged: last, today: last).silentDays == 0)
    #expect(LoggingSilence(lastLogged: last, today: last.adding(days: 1)).silentDays == 0)
    // One silent day is still a day of logging.
    let one = LoggingSilence(lastLogged: last, today: last.adding(days: 2))
    #expect(one.silentDays == 1 && one.decay == 1)
    let three = LoggingSilence(lastLogged: last, today: last.adding(days: 4))
    #expect(three.silentDays == 3)
    #expect(abs(three.decay - pow(2, -2.0 / 3)) < 1e-12)
    let four = LoggingSilence(lastLogged: last, today: last.adding(days: 5))
    #expect(abs(four.decay - 0.5) < 1e-12)
    #expect(three.pausesLearned)
    #expect(
      three.message
        == "nothing logged since Thu 2026-04-23: learned reminders pause until you log again")
    let two = LoggingSilence(lastLogged: last, today: last.adding(days: 3))
    #expect(!two.pausesLearned && two.message == nil)
    #expect(abs(two.decay - pow(2, -1.0 / 3)) < 1e-12)
    // Nothing ever logged: nothing to decay, nothing to pause.
    let none = LoggingSilence(lastLogged: nil, today: last)
    #expect(none.decay == 1 && !none.pausesLearned)
  }

  @Test func confidencesFadeDayByDayAndThePlannerPausesWithoutACliff() {
    // Six weeks of a steady wake-up; nothing logged after day 41.
    var builder = LogBuilder()
    for day in 0..<42 {
      builder.add("Wake Up", start.adding(days: day), minutes: 420 + (day * 7) % 11 - 5)
    }
    let planner = Planner(
      settings: PlannerSettings(), messages: ReminderMessages(clock: .twentyFourHour))
    var confidences: [Double] = []
    var planned: [Int] = []
    for day in 42...49 {
      let result = analysis(builder.log, day: day)
      confidences.append(
        result.routines.filter { $0.kind.name == "Wake Up" }.map(\.confidence).max() ?? 0)
      planned.append(planner.requests(for: result).count)
    }
    // Each silent day after the first lowers it; none drops it at once to nothing.
    for (earlier, later) in zip(confidences.dropFirst(), confidences.dropFirst(2)) {
      #expect(later < earlier || later == 0)
      #expect(later >= earlier * 0.7)
    }
    // Learned reminders the first days, none from the third silent day on.
    #expect(planned[0] > 0 && planned[1] > 0)
    #expect(planned[4...].allSatisfy { $0 == 0 })
    #expect(analysis(builder.log, day: 46).silence.pausesLearned)
    // One event brings them back.
    builder.add("Coffee", start.adding(days: 46), minutes: 4 * 60)
    #expect(planner.requests(for: analysis(builder.log, day: 46)).count > 0)
  }
}
