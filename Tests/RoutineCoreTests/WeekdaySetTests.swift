import Foundation
import Testing

@testable import RoutineCore

/// Routines on some days of the week only, learned from the six-week horizon.
struct WeekdaySetTests {
  /// Six weeks, Monday 2026-03-16 to Sunday 2026-04-26; Berlin's clocks go forward on 29 March,
  /// inside the horizon. The analysis runs the next Monday morning with a 7-day window.
  let start = date(2026, 3, 16)
  let now = "2026-04-27T05:00:00+02:00"
  let messages = ReminderMessages(clock: .twentyFourHour)

  /// A daily wake-up (so every day is a logged day) and `habit` at about `minutes` past
  /// midnight on `weekdays`, a few minutes either way, skipped on the days in `skipped` (day
  /// indexes from `start`).
  func log(
    _ habit: String, at minutes: Int, on weekdays: WeekdaySet, skipped: Set<Int> = [],
    weeks: Int = 6
  ) -> EventLog {
    var builder = LogBuilder()
    for day in 0..<(7 * weeks) {
      let date = start.adding(days: 7 * (6 - weeks) + day)
      builder.add("Wake Up", date, minutes: 420 + (day * 7) % 11)
      if weekdays.contains(date.weekday), !skipped.contains(day) {
        builder.add(habit, date, minutes: minutes + (day * 5) % 9 - 4)
      }
    }
    return builder.log
  }

  func requests(_ analysis: RoutineAnalysis, for kind: String) -> [NotificationRequest] {
    Planner(settings: PlannerSettings(), messages: messages).requests(for: analysis)
      .filter { $0.metadata?.eventKind == kind }
  }

  func weekday(_ request: NotificationRequest) -> Int? {
    guard case .calendar(let trigger) = request.trigger else { return nil }
    return trigger.weekday
  }

  @Test func aWeekdaySetNamesItsDaysInWordsAndInTables() {
    let gym = DayKind(WeekdaySet([2, 4, 6]))
    #expect(gym.noun(count: 18) == "Mondays, Wednesdays and Fridays")
    #expect(gym.noun(count: 1) == "Monday, Wednesday or Friday")
    #expect(DayKind(WeekdaySet([1])).noun(count: 6) == "Sundays")
    #expect(gym.label == "Mon/Wed/Fri")
    // Five or six days are named by the ones left out.
    let notSunday = DayKind(WeekdaySet(2...7))
    #expect(notSunday.label == "not Sun")
    #expect(notSunday.noun(count: 36) == "days other than Sundays")
    #expect(
      DayKind(WeekdaySet([2, 4, 5, 6, 7])).noun(count: 1) == "day other than Tuesday or Sunday")
    #expect(DayKind(WeekdaySet([2, 4, 5, 6, 7])).label == "not Tue/Sun")
    // Monday first, as people read a week.
    #expect(DayKind(WeekdaySet([1, 2])).label == "Mon/Sun")
    #expect(gym.name == "weekly" && gym.isWeekdaySet)
    // The standard kinds keep their names, however they are made.
    #expect(
      DayKind(WeekdaySet([1, 7])) == .weekends && DayKind(WeekdaySet([7, 1])).name == "weekends")
    #expect(!DayKind.weekends.isWeekdaySet)
    #expect(gym.complement == DayKind(WeekdaySet([1, 3, 5, 7])))
    #expect(gym.weekdays == [2, 4, 6])
    #expect(
      [gym, .weekends, .all, DayKind(WeekdaySet([3]))].sorted() == [
        .all, .weekends, gym, DayKind(WeekdaySet([3])),
      ])
  }

  @Test func aMondayWednesdayFridayHabitIsRemindedOnThoseThreeDaysOnly() throws {
    let events = log("Gym", at: 18 * 60, on: WeekdaySet([2, 4, 6]), skipped: [9, 30])
    let analysis = RoutineAnalyzer().analyze(events, window: window(now: now, days: 7))
    // The 7-day window alone would claim the gym as an every-day routine (3 of 7 days); the
    // weekday set replaces it in that slot.
    let gym = analysis.routines.filter { $0.kind.name == "Gym" }
    #expect(gym.count == 1)
    let routine = try #require(gym.first)
    #expect(routine.dayKind == DayKind(WeekdaySet([2, 4, 6])))
    #expect(routine.dayKind.isWeekdaySet && routine.dayKind.name == "weekly")
    #expect(abs(routine.time.signedDistance(to: TimeOfDay(hour: 18, minute: 0)!)) <= 5 * 60)
    #expect(routine.daysMatched == 16 && routine.daysObserved == 18)
    #expect(routine.confidence > 0.6)
    #expect(
      routine.reasoning
        == "You logged Gym between \(routine.earliest) and \(routine.latest) on 16 of the last 18 "
        + "Mondays, Wednesdays and Fridays.")
    let planned = requests(analysis, for: "Gym")
    #expect(planned.compactMap(weekday).sorted() == [2, 4, 6])
    #expect(planned.count == 3)
  }

  @Test func aSundayOnlyHabitGivesOneRequest() throws {
    let events = log("Long Run", at: 8 * 60 + 30, on: WeekdaySet([1]))
    let analysis = RoutineAnalyzer().analyze(events, window: window(now: now, days: 7))
    let run = try #require(analysis.routines.first { $0.kind.name == "Long Run" })
    #expect(run.dayKind == DayKind(WeekdaySet([1])))
    #expect(run.reasoning.hasSuffix("on 6 of the last 6 Sundays."))
    #expect(analysis.routines.filter { $0.kind.name == "Long Run" }.count == 1)
    let planned = requests(analysis, for: "Long Run")
    #expect(planned.count == 1)
    #expect(planned.first.flatMap(weekday) == 1)
  }

  @Test func aWeekendOnlyHabitIsLearnedFromTheHorizon() throws {
    // Brunch on Saturdays and Sundays: a week's window holds two such days, never the three a
    // routine needs; six weeks hold twelve.
    let events = log("Brunch", at: 10 * 60 + 30, on: .weekends)
    let analysis = RoutineAnalyzer().analyze(events, window: window(now: now, days: 7))
    let brunch = try #require(analysis.routines.first { $0.kind.name == "Brunch" })
    #expect(brunch.dayKind == .weekends)
    #expect(brunch.daysObserved == 12 && brunch.daysMatched == 12)
    #expect(requests(analysis, for: "Brunch").compactMap(weekday).sorted() == [1, 7])
    var configuration = AnalysisConfiguration()
    configuration.weeklyDays = 0
    let windowOnly = RoutineAnalyzer(configuration: configuration).analyze(
      events, window: window(now: now, days: 7))
    #expect(!windowOnly.routines.contains { $0.kind.name == "Brunch" })
  }

  @Test func theWindowKeepsItsOwnRoutinesAndTheHorizonFillsTheDaysItCannotLearn() throws {
    // Up at 07:00 on weekdays, 09:30 at weekends, for six weeks.
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      builder.add("Wake Up", date, minutes: (date.isWeekend ? 570 : 420) + (day * 7) % 11 - 5)
    }
    let analysis = RoutineAnalyzer().analyze(builder.log, window: window(now: now, days: 7))
    let wake = analysis.routines.filter { $0.kind.name == "Wake Up" }
    #expect(wake.map(\.dayKind) == [.weekdays, .weekends])
    // The weekday wake-up's slot is the window's; it learns from its last 20 weekdays with the
    // event (four weeks), not from the window's five days alone.
    #expect(wake.first?.daysObserved == 20)
    // The weekend one comes from the horizon, which the window could not learn.
    #expect(wake.last?.daysObserved == 12)
    // With the window's days only, the weekday wake-up is still the window's.
    var configuration = AnalysisConfiguration()
    configuration.eventDays = 0
    let windowDays = RoutineAnalyzer(configuration: configuration).analyze(
      builder.log, window: window(now: now, days: 7)
    ).routines.filter { $0.kind.name == "Wake Up" }
    #expect(windowDays.map(\.dayKind) == [.weekdays, .weekends])
    #expect(windowDays.first?.daysObserved == 5)
  }

  @Test func everyDayRoutinesStayEveryDayAndDailyTimesDoNotMakeASet() {
    // A wake-up every day with a few days missed, and a bed time a little later on some nights
    // than on others: times that differ by weekday, the event kept on every day alike.
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      if day % 9 != 4 { builder.add("Wake Up", date, minutes: 420 + (day * 7) % 11) }
      let later = [2, 4, 6].contains(date.weekday) ? 25 : 0
      builder.add("Bed Time", date, minutes: 22 * 60 + 50 + later + (day * 3) % 7)
    }
    let analysis = RoutineAnalyzer().analyze(builder.log, window: window(now: now, days: 7))
    #expect(!analysis.routines.isEmpty)
    #expect(!analysis.routines.contains { $0.dayKind.isWeekdaySet })
  }

  @Test func withoutTheHorizonNoWeekdaySetIsLearned() {
    let events = log("Gym", at: 18 * 60, on: WeekdaySet([2, 4, 6]))
    var configuration = AnalysisConfiguration()
    configuration.weeklyDays = 7
    let analysis = RoutineAnalyzer(configuration: configuration).analyze(
      events, window: window(now: now, days: 7))
    #expect(!analysis.routines.contains { $0.dayKind.isWeekdaySet })
    // What the window alone makes of it: a routine on every weekday, wrong on two of five.
    let gym = analysis.routines.filter { $0.kind.name == "Gym" }
    #expect(gym.map(\.dayKind) == [.weekdays])
  }

  @Test func twoWeeksOfAHabitAreNotEnoughForAWeekdaySet() {
    // Tuesdays only, but just the last two weeks logged: two Tuesdays are no routine.
    let events = log("Class", at: 19 * 60, on: WeekdaySet([3]), weeks: 2)
    let analysis = RoutineAnalyzer().analyze(events, window: window(now: now, days: 7))
    #expect(!analysis.routines.contains { $0.kind.name == "Class" })
  }

  @Test func aWeekdaySetJustAfterMidnightFiresTheEveningBefore() throws {
    // Out late on Friday nights: home at 00:02 on Saturdays. The reminder five minutes before
    // fires at 23:57 on Fridays.
    var builder = LogBuilder()
    for day in 0..<42 {
      let date = start.adding(days: day)
      builder.add("Wake Up", date, minutes: 420 + (day * 7) % 11)
      if date.weekday == 7 { builder.add("Home", date, minutes: 2 + day % 2) }
    }
    let analysis = RoutineAnalyzer().analyze(builder.log, window: window(now: now, days: 7))
    let home = try #require(analysis.routines.first { $0.kind.name == "Home" })
    #expect(home.dayKind == DayKind(WeekdaySet([7])))
    let planned = requests(analysis, for: "Home")
    #expect(planned.count == 1)
    guard case .calendar(let trigger)? = planned.first?.trigger else {
      Issue.record("expected a calendar trigger")
      return
    }
    #expect(trigger.weekday == 6)
    #expect(trigger.hour == 23)
  }

  @Test func theBacktestOfWeeklyPeopleFindsTheirWeekdayHabits() {
    // A weekly-only person of the population: the gym, a class and a long run on their days.
    let population = PersonaPopulation(seed: 1)
    let person = population.persona(5)
    #expect(person.regularity == .weeklyOnly)
    var events: [Event] = []
    person.generate(start: date(2025, 1, 6), days: 120, timeZone: zone("Europe/Berlin")) {
      events.append($0)
    }
    let log = EventLog(events.map { ($0.kind, $0.timestamp) })
    var without = AnalysisConfiguration()
    without.weeklyDays = 0
    let plain = Backtest(analyzer: RoutineAnalyzer(configuration: without)).run(log, windowDays: 7)
    let weekly = Backtest().run(log, windowDays: 7)
    #expect((weekly.recall ?? 0) > (plain.recall ?? 0) + 0.15)
    #expect((weekly.precision ?? 0) >= (plain.precision ?? 1) - 0.05)
  }
}
