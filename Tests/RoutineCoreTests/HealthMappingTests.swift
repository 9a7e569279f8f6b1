import Foundation
import Testing

@testable import RoutineCore

/// The rules of docs/apple-health.md, on hand-made records.
struct HealthMappingTests {
  func sleep(
    _ stage: SleepStage, _ start: String, _ end: String, source: String = "Watch",
    zone: Zone? = nil
  ) -> HealthRecord {
    HealthRecord(
      kind: .sleep(stage), start: stamp(start), end: stamp(end), source: source, timeZone: zone)
  }

  func workout(
    _ start: String, _ end: String, activity: String = "HKWorkoutActivityTypeRunning",
    minutes: Double? = nil, unit: String? = nil, source: String = "Watch"
  ) -> HealthRecord {
    HealthRecord(
      kind: .workout(activity: activity), start: stamp(start), end: stamp(end), value: minutes,
      unit: unit, source: source)
  }

  func map(_ records: [HealthRecord], from first: LocalDate? = nil) -> HealthMapping.Result {
    var mapping = HealthMapping(from: first)
    for record in records { mapping.add(record) }
    return mapping.finish()
  }

  func lines(_ result: HealthMapping.Result) -> [String] {
    result.events.map { event in
      var line = "\(event.timestamp.iso8601) \(event.kind.name)"
      if let value = event.value { line += " \(value)" }
      if let note = event.note { line += " \(note)" }
      return line
    }
  }

  @Test func aWorkoutIsAWorkoutWithItsActivityAndMinutes() {
    let result = map([
      workout(
        "2020-10-24T10:51:16+01:00", "2020-10-24T11:12:39+01:00", minutes: 21.3997, unit: "min"),
      workout(
        "2020-10-25T18:00:00+01:00", "2020-10-25T18:30:00+01:00",
        activity: "HKWorkoutActivityTypeHighIntensityIntervalTraining", minutes: 1500, unit: "s"),
      // Newer exports leave the duration out: the span counts.
      workout(
        "2020-10-26T07:00:00+01:00", "2020-10-26T07:45:30+01:00",
        activity: "HKWorkoutActivityTypeYoga"),
      // A unit routine does not know: the span counts too.
      workout(
        "2020-10-27T07:00:00+01:00", "2020-10-27T07:10:00+01:00",
        activity: "HKWorkoutActivityTypeYoga",
        minutes: 3, unit: "fortnight"),
    ])
    #expect(
      lines(result) == [
        "2020-10-24T10:51:16+01:00 Workout 21.4 Running",
        "2020-10-25T18:00:00+01:00 Workout 25.0 High Intensity Interval Training",
        "2020-10-26T07:00:00+01:00 Workout 45.5 Yoga",
        "2020-10-27T07:00:00+01:00 Workout 10.0 Yoga",
      ])
    #expect(result.workouts == 4)
  }

  @Test func aResyncedWorkoutIsImportedOnce() {
    let once = workout("2026-03-02T18:00:00+01:00", "2026-03-02T18:40:00+01:00", minutes: 40)
    let result = map([once, once])
    #expect(lines(result) == ["2026-03-02T18:00:00+01:00 Workout 40.0 Running"])
    #expect(result.duplicates == 1)
  }

  @Test func theSameWorkoutFromTwoAppsAMinuteApartIsImportedOnceTheLongestKept() {
    let result = map([
      workout("2026-03-02T18:01:00+01:00", "2026-03-02T18:40:30+01:00", source: "Strava"),
      workout("2026-03-02T18:00:00+01:00", "2026-03-02T18:40:00+01:00", minutes: 40),
      // Another activity at the same time is another workout.
      workout(
        "2026-03-02T18:00:00+01:00", "2026-03-02T18:40:00+01:00",
        activity: "HKWorkoutActivityTypeWalking"),
      // The same activity later that day is another workout.
      workout("2026-03-02T20:00:00+01:00", "2026-03-02T20:30:00+01:00"),
    ])
    // The watch's is kept: it spans 40 minutes, Strava's 39.5.
    #expect(
      lines(result) == [
        "2026-03-02T18:00:00+01:00 Workout 40.0 Running",
        "2026-03-02T18:00:00+01:00 Workout 40.0 Walking",
        "2026-03-02T20:00:00+01:00 Workout 30.0 Running",
      ])
    #expect(result.duplicates == 1)
    #expect(result.workouts == 3)
  }

  @Test func mindfulSessionsAreMindfulnessWhichAMindfulnessReminderCounts() {
    let result = map([
      HealthRecord(
        kind: .mindfulSession, start: stamp("2026-03-02T21:00:00+01:00"),
        end: stamp("2026-03-02T21:10:00+01:00"), source: "Calm & Co")
    ])
    #expect(lines(result) == ["2026-03-02T21:00:00+01:00 Mindfulness 10.0"])
    #expect(ActivityPreset.mindfulness.kinds.contains(result.events[0].kind))
  }

  @Test func drinksAreAlcoholWithTheCount() {
    let result = map([
      HealthRecord(
        kind: .alcohol, start: stamp("2026-03-07T20:00:00+01:00"),
        end: stamp("2026-03-07T20:00:00+01:00"), value: 2, source: "iPhone")
    ])
    #expect(lines(result) == ["2026-03-07T20:00:00+01:00 Alcohol 2.0"])
    #expect(result.events[0].kind == ActivityPreset.noalc.kind)
  }

  @Test func anIPhonesInBedBesideAWatchsStagesIsOneNight() {
    let result = map([
      sleep(.inBed, "2026-03-02T22:30:00+01:00", "2026-03-03T07:00:00+01:00", source: "iPhone"),
      sleep(.asleep, "2026-03-02T23:10:00+01:00", "2026-03-03T01:00:00+01:00"),
      sleep(.asleep, "2026-03-03T01:00:00+01:00", "2026-03-03T03:00:00+01:00"),
      sleep(.awake, "2026-03-03T03:00:00+01:00", "2026-03-03T03:05:00+01:00"),
      sleep(.asleep, "2026-03-03T03:05:00+01:00", "2026-03-03T06:40:00+01:00"),
    ])
    #expect(
      lines(result) == [
        "2026-03-02T22:30:00+01:00 Bed Time", "2026-03-03T07:00:00+01:00 Wake Up",
      ])
    #expect(result.nights == 1)
  }

  @Test func twoSourcesOverlappingStagesAreOneNight() {
    let result = map([
      sleep(.asleep, "2026-03-02T23:00:00+01:00", "2026-03-03T03:00:00+01:00", source: "Watch"),
      sleep(.asleep, "2026-03-02T23:20:00+01:00", "2026-03-03T02:00:00+01:00", source: "Oura"),
      sleep(.asleep, "2026-03-03T02:00:00+01:00", "2026-03-03T06:50:00+01:00", source: "Oura"),
      sleep(.asleep, "2026-03-03T03:00:00+01:00", "2026-03-03T06:30:00+01:00", source: "Watch"),
    ])
    #expect(
      lines(result) == [
        "2026-03-02T23:00:00+01:00 Bed Time", "2026-03-03T06:50:00+01:00 Wake Up",
      ])
  }

  @Test func aNightBrokenByFortyMinutesAwakeIsOneNight() {
    let result = map([
      sleep(.asleep, "2026-03-02T23:00:00+01:00", "2026-03-03T02:00:00+01:00"),
      sleep(.asleep, "2026-03-03T02:40:00+01:00", "2026-03-03T06:30:00+01:00"),
    ])
    #expect(result.nights == 1)
    #expect(lines(result).last == "2026-03-03T06:30:00+01:00 Wake Up")
  }

  @Test func nightsMoreThanNinetyMinutesApartAreTwo() {
    let result = map([
      sleep(.asleep, "2026-03-02T23:00:00+01:00", "2026-03-03T02:00:00+01:00"),
      sleep(.asleep, "2026-03-03T03:31:00+01:00", "2026-03-03T06:30:00+01:00"),
    ])
    #expect(result.nights == 2)
  }

  @Test func aNightIsNeverLongerThanFourteenHours() {
    // An in-bed sample that would chain two nights into one of 30 hours.
    let result = map([
      sleep(.inBed, "2026-03-02T22:00:00+01:00", "2026-03-03T07:00:00+01:00"),
      sleep(.inBed, "2026-03-03T08:00:00+01:00", "2026-03-03T21:30:00+01:00"),
      sleep(.inBed, "2026-03-03T22:00:00+01:00", "2026-03-04T07:00:00+01:00"),
    ])
    #expect(result.nights == 3)
    #expect(lines(result)[2] == "2026-03-03T08:00:00+01:00 Bed Time")
  }

  @Test func aShortAfternoonSleepIsANapNotANight() {
    let result = map([
      sleep(.asleep, "2026-03-07T14:00:00+01:00", "2026-03-07T14:40:00+01:00"),
      // A shift worker's day sleep is long: a night.
      sleep(.asleep, "2026-03-08T09:00:00+01:00", "2026-03-08T15:00:00+01:00"),
      // A short sleep at night is a night.
      sleep(.asleep, "2026-03-09T01:00:00+01:00", "2026-03-09T03:00:00+01:00"),
    ])
    #expect(result.naps == 1)
    #expect(result.nights == 2)
    #expect(lines(result).first == "2026-03-08T09:00:00+01:00 Bed Time")
  }

  @Test func awakeOnlySamplesMakeNoNight() {
    let result = map([sleep(.awake, "2026-03-02T23:00:00+01:00", "2026-03-03T06:00:00+01:00")])
    #expect(result.events.isEmpty)
    #expect(result.nights == 0)
  }

  @Test func aNightAcrossTheSpringChangeKeepsEachOffset() {
    let berlin = zone("Europe/Berlin")
    let result = map([
      sleep(.asleep, "2026-03-28T23:00:00+01:00", "2026-03-29T07:00:00+02:00", zone: berlin)
    ])
    #expect(
      lines(result) == [
        "2026-03-28T23:00:00+01:00 Bed Time", "2026-03-29T07:00:00+02:00 Wake Up",
      ])
  }

  @Test func aNightAcrossTheAutumnChangeIsOneNightOfNineHours() {
    // Written by the export with one offset (the phone's at export time); the zone corrects it.
    let newYork = zone("America/New_York")
    let result = map([
      sleep(.asleep, "2026-10-31T23:00:00-04:00", "2026-11-01T04:00:00-04:00", zone: newYork),
      sleep(.asleep, "2026-11-01T04:00:00-04:00", "2026-11-01T08:00:00-04:00", zone: newYork),
    ])
    #expect(
      lines(result) == [
        "2026-10-31T23:00:00-04:00 Bed Time", "2026-11-01T07:00:00-05:00 Wake Up",
      ])
  }

  @Test func aNightWhileTravellingIsInTheZoneOfItsMetadata() {
    // Exported in Berlin (+01:00), recorded in New York: the metadata gives the local times.
    let result = map([
      sleep(
        .asleep, "2026-07-20T05:00:00+02:00", "2026-07-20T13:00:00+02:00",
        zone: zone("America/New_York"))
    ])
    #expect(
      lines(result) == [
        "2026-07-19T23:00:00-04:00 Bed Time", "2026-07-20T07:00:00-04:00 Wake Up",
      ])
  }

  @Test func fromLeavesOutEarlierDatesAndCountsThem() {
    let result = map(
      [
        workout("2026-03-01T18:00:00+01:00", "2026-03-01T18:30:00+01:00"),
        workout("2026-03-02T18:00:00+01:00", "2026-03-02T18:30:00+01:00"),
        sleep(.asleep, "2026-03-01T23:00:00+01:00", "2026-03-02T07:00:00+01:00"),
      ], from: date(2026, 3, 2))
    #expect(lines(result) == ["2026-03-02T18:00:00+01:00 Workout 30.0 Running"])
    #expect(result.beforeFirstDate == 2)
  }

  @Test(arguments: [
    ("HKCategoryValueSleepAnalysisInBed", SleepStage.inBed),
    ("HKCategoryValueSleepAnalysisAsleep", .asleep),
    ("HKCategoryValueSleepAnalysisAsleepUnspecified", .asleep),
    ("HKCategoryValueSleepAnalysisAsleepCore", .asleep),
    ("HKCategoryValueSleepAnalysisAsleepDeep", .asleep),
    ("HKCategoryValueSleepAnalysisAsleepREM", .asleep),
    ("HKCategoryValueSleepAnalysisAwake", .awake),
    ("0", .inBed), ("1", .asleep), ("2", .awake),
  ])
  func sleepValuesOfEveryExportVersion(value: String, stage: SleepStage) {
    #expect(SleepStage(healthValue: value) == stage)
  }

  @Test func unknownSleepValuesAreNoStage() {
    #expect(SleepStage(healthValue: "HKCategoryValueSleepAnalysisDreaming") == nil)
  }

  @Test func nightsFarApartInAHugeLogStayApartAfterFlushes() {
    // More samples than are held at once: flushing early must not split or drop nights.
    var nights = SleepNights()
    let count = SleepNights.flushThreshold / 4 + 10
    let base = stamp("2000-01-01T23:00:00+01:00").secondsSince1970
    for night in 0..<count {
      for piece in 0..<5 {
        let start = base + Int64(night) * 86400 + Int64(piece) * 5400
        nights.add(
          stage: .asleep, start: Timestamp(secondsSinceInstant: start),
          end: Timestamp(secondsSinceInstant: start + 5400))
      }
    }
    let found = nights.finish()
    #expect(found.count == count)
    #expect(found.allSatisfy { $0.wakeUp.secondsSince1970 - $0.bedTime.secondsSince1970 == 27000 })
  }
}

extension HealthMappingTests {
  @Test func aWeekOfMoreSamplesThanAreHeldMergesInBoundedMemory() {
    // Past the threshold within one week nothing can be emitted yet: the samples of each open
    // night are held as one span, not all of them (which sorted them all again at every sample).
    var nights = SleepNights()
    let perNight = (SleepNights.flushThreshold + 4_000) / 7 + 1
    let base = stamp("2026-03-02T23:00:00+01:00").secondsSince1970
    var maximumHeld = 0
    for night in 0..<7 {
      for piece in 0..<perNight {
        // 8 hours of overlapping 60-second samples.
        let start = base + Int64(night) * 86400 + Int64(piece) * 28_800 / Int64(perNight)
        nights.add(
          stage: .asleep, start: Timestamp(secondsSinceInstant: start),
          end: Timestamp(secondsSinceInstant: start + 60))
        maximumHeld = max(maximumHeld, nights.heldSamples)
      }
    }
    #expect(maximumHeld <= SleepNights.flushThreshold)
    #expect(nights.heldSamples < 10_000)
    let found = nights.finish()
    #expect(found.count == 7)
    #expect(
      found.map { $0.bedTime.secondsSince1970 } == (0..<7).map { base + Int64($0) * 86400 })
    #expect(
      found.allSatisfy { night in
        let length = night.wakeUp.secondsSince1970 - night.bedTime.secondsSince1970
        return length > 28_700 && length <= 28_860
      })
  }

  @Test func samplesThatNoFlushCanDropAreSortedRarely() {
    // Hostile: each sample spans 100 days, so no night ends and none can be held as one span.
    // The next flush waits for twice what the last one kept: held samples only ever double.
    var nights = SleepNights(flushingPast: 64)
    let base = stamp("2026-03-02T23:00:00+01:00").secondsSince1970
    for index in 0..<5_000 {
      let start = base + Int64(index)
      nights.add(
        stage: .inBed, start: Timestamp(secondsSinceInstant: start),
        end: Timestamp(secondsSinceInstant: start + 100 * 86400))
    }
    // 64, 128, 256, ... 4096: seven flushes, where one per sample after the 64th was 4,937.
    #expect(nights.flushes <= 8)
    #expect(nights.heldSamples == 5_000)
    #expect(nights.finish().count == 5_000)
  }

  /// Seeded nights in time order: naps, gaps near 90 minutes, long nights near 14 hours,
  /// offsets changing with a trip, overlapping sources.
  static func randomSamples(seed: UInt64) -> [(SleepStage, Timestamp, Timestamp)] {
    var generator = SplitMix64(seed: seed)
    var samples: [(SleepStage, Timestamp, Timestamp)] = []
    var start = stamp("2026-01-05T22:00:00+01:00").secondsSince1970
    var offset: Int32 = 3600
    for _ in 0..<3_000 {
      start += Int64.random(in: 0...(3 * 3600), using: &generator)
      if Int.random(in: 0..<200, using: &generator) == 0 {
        offset = [3600, -18_000, 34_200, 20_700].randomElement(using: &generator)!
      }
      let length = Int64.random(in: 0...(5 * 3600), using: &generator)
      let stage: SleepStage = [.inBed, .asleep, .asleep, .awake].randomElement(using: &generator)!
      samples.append(
        (
          stage, Timestamp(secondsSince1970: start, utcOffsetSeconds: offset),
          Timestamp(secondsSince1970: start + length, utcOffsetSeconds: offset)
        ))
    }
    return samples
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func flushingOftenChangesNoNightOfSamplesInTimeOrder(seed: UInt64) {
    var rarely = SleepNights(flushingPast: 1 << 30)
    var often = SleepNights(flushingPast: 8)
    for (stage, start, end) in Self.randomSamples(seed: seed) {
      rarely.add(stage: stage, start: start, end: end)
      often.add(stage: stage, start: start, end: end)
    }
    let expected = rarely.finish()
    #expect(expected.count > 100)
    #expect(often.finish() == expected)
    #expect(often.naps == rarely.naps)
  }
}

extension Timestamp {
  fileprivate init(secondsSinceInstant seconds: Int64) {
    self.init(secondsSince1970: seconds, utcOffsetSeconds: 3600)
  }
}
