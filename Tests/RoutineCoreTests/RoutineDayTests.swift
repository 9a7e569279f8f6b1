import Foundation
import Testing

@testable import RoutineCore

/// A routine near midnight: the days the learner counts, the routine days events belong to (the
/// report's rows), the outlier checks and the dates the planner fires on must be the same days.
struct RoutineDayTests {
  /// Bed times on the evenings of four weeks and a day, Monday 2026-03-16 to Sunday 2026-04-12
  /// (Berlin's clocks go forward on 29 March, Lord Howe's back on 5 April); the analysis runs
  /// on Monday 13 April with a 28-day window.
  struct Nights: CustomTestStringConvertible, Sendable {
    var name: String
    /// Minutes after the evening's midnight (negative: before it) on Friday and Saturday
    /// evenings, cycled.
    var late: [Int]
    /// The same on the other evenings, by the day's index.
    var other: [Int]
    var testDescription: String { name }

    /// The evening's bed time, minutes after the evening's midnight, about which the routine
    /// must fire.
    func centre(ofEvening date: LocalDate) -> Int {
      let minutes = date.weekday >= 6 ? late : other
      return minutes.reduce(0, +) / minutes.count
    }
  }

  static let scenarios = [
    // The routine at about 23:50: Friday and Saturday nights just before midnight.
    Nights(name: "23:50", late: [-20, -10, -15, -5, 0, -12, -8, -2], other: [-90, -88, -92]),
    // At about 00:10: just after.
    Nights(name: "00:10", late: [0, 10, 20, 5, 15, 8, 12, 18], other: [-90, -88, -92]),
    // Straddling: every night in one cluster, 23:20 to 23:50 before a working day and 00:15 to
    // 00:45 before a day off (the walk's "Bed Time" at 00:32 on Fridays and Saturdays).
    Nights(name: "straddle", late: [35, 15, 45, 25, 40, 20, 30, 32], other: [-40, -25, -10, -30]),
    // Alternating around midnight, 23:40 to 00:40, other nights 22:30.
    Nights(name: "alternating", late: [-20, 40, -10, 30, 0, 20, -5, 35], other: [-90, -88, -92]),
  ]
  static let zones = ["Europe/Berlin", "Australia/Lord_Howe", "Asia/Tokyo"]
  static let start = date(2026, 3, 16)
  static let now = "2026-04-13T10:00:00Z"

  static func log(_ nights: Nights, zone: String) -> EventLog {
    var builder = LogBuilder(zone)
    var late = 0
    for day in 0..<28 {
      let evening = start.adding(days: day)
      builder.add("Wake Up", evening, minutes: 420 + day % 7)
      let minutes: Int
      if evening.weekday >= 6 {
        minutes = nights.late[late % nights.late.count]
        late += 1
      } else {
        minutes = nights.other[day % nights.other.count]
      }
      builder.add("Bed Time", evening, minutes: 1440 + minutes)
    }
    return builder.log
  }

  static func analysis(_ nights: Nights, zone zoneName: String) -> (EventLog, RoutineAnalysis) {
    let log = log(nights, zone: zoneName)
    return (log, RoutineAnalyzer().analyze(log, window: window(now: now, days: 28, zone: zoneName)))
  }

  /// The days of `routine`'s kind in `days` with an event of its routine day within the
  /// tolerance of its time: what a reader counts on the report's rows.
  static func matchingDays(
    _ routine: Routine, in log: EventLog, days: ClosedRange<LocalDate>
  ) -> Int {
    let tolerance = RoutineAnalyzer().configuration.toleranceSeconds
    let times = log.times[log.index(ofKey: routine.kind.key)!]
    var matched = Set<LocalDate>()
    for time in times {
      let day = routine.routineDay(ofLocalSeconds: time.localSeconds)
      guard days.contains(day), routine.dayKind.contains(day),
        abs(Int(time.localSeconds) - Int(routine.suggestedLocalSeconds(on: day))) <= tolerance
      else { continue }
      matched.insert(day)
    }
    return matched.count
  }

  @Test(arguments: scenarios, zones)
  func theCountsAreWhatTheRoutineDaysShow(_ nights: Nights, zone: String) {
    let (log, analysis) = Self.analysis(nights, zone: zone)
    let beds = analysis.routines.filter { $0.kind.name == "Bed Time" }
    #expect(!beds.isEmpty)
    for routine in beds {
      #expect(
        Self.matchingDays(routine, in: log, days: analysis.window.learningDays)
          == routine.daysMatched, "\(routine.time) \(routine.dayKind): \(routine.reasoning)")
      #expect(routine.reasoning.contains("\(routine.daysMatched) of the last"))
    }
    // Every night kept its routine: none is an outlier.
    #expect(analysis.outliers.filter { $0.kind.name == "Bed Time" }.isEmpty)
  }

  @Test(arguments: scenarios, zones)
  func thePlannerFiresOnTheNightsTheEventsHappened(_ nights: Nights, zone zoneName: String) {
    let (_, analysis) = Self.analysis(nights, zone: zoneName)
    let settings = PlannerSettings()
    let requests = Planner(settings: settings, messages: ReminderMessages(clock: .twentyFourHour))
      .requests(for: analysis).filter { $0.metadata?.eventKind == "Bed Time" }
    let timeZone = zone(zoneName)
    let from = analysis.window.now
    let to = Agenda.end(after: from, days: 14, in: timeZone)
    let items = Agenda.items(for: requests, from: from, to: to, in: timeZone)
    // Each firing, with its lead, belongs to the evening whose bed time it is nearest, and
    // lies within the tolerance of it; every evening has one.
    var evenings = Set<LocalDate>()
    for item in items {
      let local =
        Int(item.at + WallClock.offset(at: item.at, in: timeZone)) + settings.leadMinutes * 60
      let date = LocalDate(daysSince1970: floorDiv(local, 86_400))
      let (evening, distance) = [date, date.adding(days: -1)].map { evening in
        (
          evening,
          abs(local - (evening.daysSince1970 + 1) * 86_400 - 60 * nights.centre(ofEvening: evening))
        )
      }.min { $0.1 < $1.1 }!
      #expect(
        distance <= 1800,
        "\(item.request.id) fires \(distance / 60) minutes from the bed time of \(evening)")
      evenings.insert(evening)
    }
    let today = analysis.window.today
    #expect(evenings == Set((0..<14).map { today.adding(days: $0) }))
  }

  @Test func aKindOfDayMovesByWholeDaysRoundTheWeek() {
    #expect(RoutineLearner.dayKind(.fridayAndSaturday, movedBy: 1) == .weekends)
    #expect(RoutineLearner.dayKind(.sundayToThursday, movedBy: 1) == .weekdays)
    #expect(RoutineLearner.dayKind(.weekends, movedBy: -1) == .fridayAndSaturday)
    #expect(RoutineLearner.dayKind(.all, movedBy: -1) == .all)
    #expect(RoutineLearner.dayKind(.weekdays, movedBy: 1) == DayKind(WeekdaySet(3...7)))
  }
}
