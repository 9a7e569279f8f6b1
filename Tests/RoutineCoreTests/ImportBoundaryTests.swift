import Foundation
import Testing

@testable import RoutineCore

/// Issue 30, boundaries of docs/apple-health.md's rules, on either side of each line.
struct ImportBoundaryTests {
  let health = HealthMappingTests()

  func nights(_ samples: [(String, String)]) -> HealthMapping.Result {
    health.map(samples.map { health.sleep(.asleep, $0.0, $0.1) })
  }

  @Test func aGapOfExactlyNinetyMinutesKeepsOneNightAndASecondMoreMakesTwo() {
    let joined = nights([
      ("2026-03-02T23:00:00+01:00", "2026-03-03T02:00:00+01:00"),
      ("2026-03-03T03:30:00+01:00", "2026-03-03T06:30:00+01:00"),
    ])
    #expect(joined.nights == 1)
    let split = nights([
      ("2026-03-02T23:00:00+01:00", "2026-03-03T02:00:00+01:00"),
      ("2026-03-03T03:30:01+01:00", "2026-03-03T06:30:00+01:00"),
    ])
    #expect(split.nights == 2)
  }

  @Test func aShortSleepStartingAt1859IsANapAndOneStartingAt1900IsANight() {
    let nap = nights([("2026-03-07T18:59:00+01:00", "2026-03-07T19:40:00+01:00")])
    #expect(nap.naps == 1 && nap.nights == 0)
    let night = nights([("2026-03-07T19:00:00+01:00", "2026-03-07T19:40:00+01:00")])
    #expect(night.naps == 0 && night.nights == 1)
  }

  @Test func whereANapEndsDoesNotMatterOnlyWhereItStarts() {
    // Ending at 18:59 or at 19:00: both started in the afternoon, both naps.
    for end in ["2026-03-07T18:59:00+01:00", "2026-03-07T19:00:00+01:00"] {
      let result = nights([("2026-03-07T16:30:00+01:00", end)])
      #expect(result.naps == 1 && result.nights == 0, "\(end)")
    }
    // 09:00 starts the day; 08:59 is still the night's.
    #expect(nights([("2026-03-07T08:59:00+01:00", "2026-03-07T09:30:00+01:00")]).nights == 1)
    #expect(nights([("2026-03-07T09:00:00+01:00", "2026-03-07T09:30:00+01:00")]).naps == 1)
  }

  @Test func aDaySleepOfExactlyThreeHoursIsANight() {
    #expect(nights([("2026-03-07T13:00:00+01:00", "2026-03-07T16:00:00+01:00")]).nights == 1)
    #expect(nights([("2026-03-07T13:00:00+01:00", "2026-03-07T15:59:59+01:00")]).naps == 1)
  }

  @Test func twoWorkoutsOverlappingByExactlyHalfAreOneAndBySecondLessAreTwo() {
    // 18:00-19:00 and 18:30-19:30: 30 minutes shared, half of the shorter (60).
    let half = health.map([
      health.workout("2026-03-02T18:00:00+01:00", "2026-03-02T19:00:00+01:00"),
      health.workout("2026-03-02T18:30:00+01:00", "2026-03-02T19:30:00+01:00", source: "Strava"),
    ])
    #expect(half.workouts == 1 && half.duplicates == 1)
    let less = health.map([
      health.workout("2026-03-02T18:00:00+01:00", "2026-03-02T19:00:00+01:00"),
      health.workout("2026-03-02T18:30:01+01:00", "2026-03-02T19:30:01+01:00", source: "Strava"),
    ])
    #expect(less.workouts == 2 && less.duplicates == 0)
  }
}
