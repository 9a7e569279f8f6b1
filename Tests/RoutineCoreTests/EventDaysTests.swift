import Foundation
import Testing

@testable import RoutineCore

/// Each kind of day learned from its last days with the event, and the split of the week
/// decided on the six-week horizon (issue 20).
struct EventDaysTests {
  /// Six weeks, Monday 2026-03-16 to Sunday 2026-04-26 (Berlin moves its clocks on 29 March);
  /// the analysis runs the next Monday morning with a 7-day window.
  let start = date(2026, 3, 16)
  let now = "2026-04-27T05:00:00+02:00"

  /// Day `day` (from `start`) is a Saturday or a Sunday.
  func isWeekend(_ day: Int) -> Bool { day % 7 >= 5 }

  func analyze(_ log: EventLog, eventDays: Int = AnalysisConfiguration().eventDays)
    -> [Routine]
  {
    var configuration = AnalysisConfiguration()
    configuration.eventDays = eventDays
    return RoutineAnalyzer(configuration: configuration).analyze(
      log, window: window(now: now, days: 7)
    ).routines
  }

  /// A workout on about three days in seven at 18:00, on no fixed weekdays, twice in the last
  /// week: a week's window cannot claim it, its last 20 workout days can.
  @Test func aWorkoutWithRestDaysLearnsFromItsLastWorkoutDays() {
    let workouts: Set<Int> = [
      0, 2, 5, 6, 9, 11, 14, 15, 17, 20, 23, 24, 27, 29, 31, 32, 34, 37, 40,
    ]
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      builder.add("Wake Up", date, minutes: 420 + (day * 7) % 11)
      if workouts.contains(day) { builder.add("Workout", date, minutes: 1080 + (day * 5) % 9 - 4) }
    }
    let learned = analyze(builder.log).filter { $0.kind.name == "Workout" }
    #expect(learned.count == 1)
    let workout = learned.first
    #expect(workout?.dayKind == .all)
    #expect(abs((workout?.time.secondsSinceMidnight ?? 0) - 18 * 3600) <= 5 * 60)
    // Every observed day of the span counts: about three in seven, not the workout days alone.
    #expect((workout?.daysObserved ?? 0) >= 20)
    #expect((0.3...0.6).contains(workout?.confidence ?? 0))
    // The window's two workouts alone claim nothing.
    #expect(analyze(builder.log, eventDays: 0).filter { $0.kind.name == "Workout" }.isEmpty)
  }

  /// A wake-up at 07:00 every day but the last weekend's, at 09:00: one week in six does not
  /// make weekends differ.
  @Test func oneOddWeekendDoesNotSplitTheWeek() {
    var builder = LogBuilder()
    for day in 0..<42 {
      let late = day >= 35 && isWeekend(day)
      builder.add("Wake Up", start.adding(days: day), minutes: (late ? 540 : 420) + day % 5)
    }
    let wakeUps = analyze(builder.log).filter { $0.kind.name == "Wake Up" }
    // Every day keeps its 07:00 wake-up (the horizon may still learn weekends apart, at the
    // same time, as they missed it twice in twelve); none is left empty or moved to 09:00.
    #expect(wakeUps.allSatisfy { abs($0.time.secondsSinceMidnight - 7 * 3600) <= 10 * 60 })
    for day in 35..<42 {
      #expect(wakeUps.contains { $0.dayKind.contains(start.adding(days: day)) })
    }
  }

  /// Weekdays at 07:00 and weekends at 09:00 for six weeks; the last weekend was not logged at
  /// all (a logging gap). The week's five weekdays alone look like every day.
  @Test func weekendsThatAlwaysDifferSplitWhenTheLastWeekendIsMissing() {
    var builder = LogBuilder()
    for day in 0..<42 where !(day >= 40) {
      let date = start.adding(days: day)
      builder.add("Wake Up", date, minutes: (isWeekend(day) ? 540 : 420) + day % 5)
      builder.add("Coffee", date, minutes: 600 + day % 7)
    }
    let wakeUps = analyze(builder.log).filter { $0.kind.name == "Wake Up" }
    #expect(!wakeUps.contains { $0.dayKind == .all })
    #expect(
      wakeUps.contains { $0.dayKind == .weekdays && $0.time.secondsSinceMidnight < 7 * 3600 + 600 })
    let saturday = start.adding(days: 40)
    #expect(
      !wakeUps.contains {
        $0.dayKind.contains(saturday) && abs($0.time.secondsSinceMidnight - 7 * 3600) <= 1800
      })
  }

  /// Weekdays at 07:00 and weekends at 09:30, except the last weekend, at 07:00 by chance: the
  /// week's window sees every day alike, the horizon does not, and no reminder fires at 07:00
  /// on a Saturday.
  @Test func anAllDaysWakeUpDoesNotFireOnWeekendsTheHorizonShowsToDiffer() {
    var builder = LogBuilder()
    for day in 0..<42 {
      let late = isWeekend(day) && day < 35
      builder.add("Wake Up", start.adding(days: day), minutes: (late ? 570 : 420) + day % 5)
    }
    let wakeUps = analyze(builder.log).filter { $0.kind.name == "Wake Up" }
    let saturday = date(2026, 5, 2)
    #expect(saturday.weekday == 7)
    #expect(
      !wakeUps.contains {
        $0.dayKind.contains(saturday) && abs($0.time.secondsSinceMidnight - 7 * 3600) <= 1800
      })
    #expect(wakeUps.contains { $0.dayKind == .weekdays })
  }
}
