import Testing

@testable import RoutineCore

/// The counts behind `routine analyze`'s glance on a terminal.
struct TimeOfDayHistogramTests {
  @Test func eachTimeCountsForTheNearestRoutineOfItsKindOnItsLastObservedDays() {
    let zone = Zone(identifier: "UTC", fixedOffset: 0)
    var events: [(EventKind, Timestamp)] = []
    let coffee = EventKind("Coffee")!
    for day in 1...10 {
      let date = LocalDate(year: 2026, month: 4, day: day)!
      for time in [TimeOfDay(hour: 7, minute: 0)!, TimeOfDay(hour: 15, minute: 10)!] {
        events.append(
          (
            coffee,
            Timestamp(
              secondsSince1970: WallClock.instant(on: date, at: time, in: zone),
              utcOffsetSeconds: 0)
          ))
      }
    }
    let log = EventLog(events)
    let routine = { (hour: Int) in
      Routine(
        kind: coffee, time: TimeOfDay(hour: hour, minute: 0)!, dayKind: .all, confidence: 1,
        occurrences: 10, daysMatched: 10, daysObserved: 10,
        earliest: TimeOfDay(hour: hour, minute: 0)!,
        latest: TimeOfDay(hour: hour, minute: 0)!, spreadMinutes: 0, outlierThresholdSeconds: 3600,
        reasoning: "")
    }
    let (morning, afternoon) = (routine(7), routine(15))
    let last = LocalDate(year: 2026, month: 4, day: 10)!
    let counts = TimeOfDayHistogram(morning, among: [morning, afternoon], log: log, lastDay: last)
      .counts
    #expect(counts[14] == 10)
    #expect(counts.reduce(0, +) == 10)
    let alone = TimeOfDayHistogram(morning, among: [morning], log: log, lastDay: last)
    #expect(alone.counts[14] == 10 && alone.counts[30] == 10)
    #expect(alone.heights(levels: 8)[30] == 8)
    // Only the last daysObserved days: 3 of them.
    var recent = morning
    recent.daysObserved = 3
    #expect(TimeOfDayHistogram(recent, among: [recent], log: log, lastDay: last).counts[14] == 3)
  }
}
