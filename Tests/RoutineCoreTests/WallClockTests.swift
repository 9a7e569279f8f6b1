import Foundation
import Testing

@testable import RoutineCore

struct WallClockTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let zone: String
    let wall: String
    let expected: WallClock.Resolution
    var testDescription: String { "\(zone) \(wall)" }
  }

  static func instant(_ text: String) -> Int64 { stamp(text).secondsSince1970 }

  static let cases: [Case] = [
    // Spring forward: the wall time does not exist; it resolves to the end of the gap.
    Case(
      zone: "Europe/Berlin", wall: "2026-03-29 02:30",
      expected: .skipped(transition: instant("2026-03-29T03:00+02:00"))),
    Case(
      zone: "Europe/Berlin", wall: "2026-03-29 02:00",
      expected: .skipped(transition: instant("2026-03-29T03:00+02:00"))),
    Case(
      zone: "Europe/Berlin", wall: "2026-03-29 03:00",
      expected: .unique(instant("2026-03-29T03:00+02:00"))),
    Case(
      zone: "Europe/Berlin", wall: "2026-03-29 01:59",
      expected: .unique(instant("2026-03-29T01:59+01:00"))),
    // Fall back: the wall time happens twice; the first instant is chosen.
    Case(
      zone: "Europe/Berlin", wall: "2026-10-25 02:30",
      expected: .repeated(
        first: instant("2026-10-25T02:30+02:00"), second: instant("2026-10-25T02:30+01:00"))),
    Case(
      zone: "America/New_York", wall: "2026-03-08 02:30",
      expected: .skipped(transition: instant("2026-03-08T03:00-04:00"))),
    Case(
      zone: "America/New_York", wall: "2026-11-01 01:30",
      expected: .repeated(
        first: instant("2026-11-01T01:30-04:00"), second: instant("2026-11-01T01:30-05:00"))),
    // Lord Howe shifts by 30 minutes: 02:00 -> 02:30 in October, 02:00 -> 01:30 in April.
    Case(
      zone: "Australia/Lord_Howe", wall: "2026-10-04 02:15",
      expected: .skipped(transition: instant("2026-10-04T02:30+11:00"))),
    Case(
      zone: "Australia/Lord_Howe", wall: "2026-10-04 02:30",
      expected: .unique(instant("2026-10-04T02:30+11:00"))),
    Case(
      zone: "Australia/Lord_Howe", wall: "2026-04-05 01:45",
      expected: .repeated(
        first: instant("2026-04-05T01:45+11:00"), second: instant("2026-04-05T01:45+10:30"))),
    Case(
      zone: "Australia/Lord_Howe", wall: "2026-04-05 02:00",
      expected: .unique(instant("2026-04-05T02:00+10:30"))),
    // No daylight-saving time at all.
    Case(
      zone: "Asia/Kolkata", wall: "2026-03-29 02:30",
      expected: .unique(instant("2026-03-29T02:30+05:30"))),
    Case(zone: "UTC", wall: "2026-10-25 02:30", expected: .unique(instant("2026-10-25T02:30Z"))),
  ]

  static func local(_ wall: String) -> Int64 {
    let parts = wall.split(separator: " ")
    let day = parts[0].split(separator: "-").map { Int($0)! }
    return WallClock.localSeconds(
      on: date(day[0], day[1], day[2]), at: TimeOfDay(parsing: String(parts[1]))!)
  }

  @Test(arguments: cases)
  func gapsResolveToTheTransitionAndRepeatsToTheFirstInstant(_ test: Case) {
    let resolution = WallClock.resolve(localSeconds: Self.local(test.wall), in: zone(test.zone))
    #expect(resolution == test.expected)
  }

  @Test func theChosenInstantIsNeverSkippedNorDoubled() {
    let berlin = zone("Europe/Berlin")
    // A daily 02:30 reminder across the spring-forward night fires every day, once.
    let instants = (0..<5).map { offset in
      WallClock.instant(
        on: date(2026, 3, 27).adding(days: offset), at: TimeOfDay(parsing: "02:30")!, in: berlin)
    }
    for (earlier, later) in zip(instants, instants.dropFirst()) {
      #expect(later - earlier >= 23 * 3600 && later - earlier <= 25 * 3600)
    }
    #expect(instants[2] == Self.instant("2026-03-29T03:00+02:00"))
  }

  /// An independent, slow reference: scan every minute of the 36 hours around the wall time for
  /// instants whose wall clock matches; with none, the first instant whose wall clock is later.
  static func reference(localSeconds local: Int64, in zone: Zone) -> Int64 {
    var matches: [Int64] = []
    var firstLater: Int64?
    var instant = local - 18 * 3600
    while instant <= local + 18 * 3600 {
      let wall =
        instant + zone.offset(at: instant)
      if wall == local { matches.append(instant) }
      if wall > local, firstLater == nil { firstLater = instant }
      instant += 60
    }
    return matches.first ?? firstLater!
  }

  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
  ])
  func agreesWithTheReferenceOnRandomTimesAroundTransitions(_ name: String) {
    let timeZone = zone(name)
    var random = SplitMix64(seed: 42)
    // Wall times near each transition of 2026 and 2027, and some anywhere.
    let transitions = transitions2026And2027(in: timeZone)
    var locals: [Int64] = []
    for transition in transitions {
      let wall =
        transition
        + timeZone.offset(at: transition)
      for _ in 0..<40 { locals.append(wall / 60 * 60 + Int64(random.integer(in: -180...180)) * 60) }
    }
    for _ in 0..<60 {
      locals.append(
        Self.instant("2026-01-01T00:00Z") + Int64(random.integer(in: 0...1_051_200)) * 60)
    }
    var mismatches = 0
    for local in locals {
      let chosen = WallClock.resolve(localSeconds: local, in: timeZone).instant
      if chosen != Self.reference(localSeconds: local, in: timeZone) { mismatches += 1 }
    }
    #expect(mismatches == 0)
    if name != "Asia/Kolkata" && name != "UTC" { #expect(transitions.count == 4) }
  }

  @Test func todayIsTheDateInTheUsersZone() {
    let instant = Self.instant("2026-04-20T22:30Z")
    #expect(WallClock.localDate(at: instant, in: zone("Europe/Berlin")) == date(2026, 4, 21))
    #expect(WallClock.localDate(at: instant, in: zone("America/New_York")) == date(2026, 4, 20))
    #expect(WallClock.localDate(at: instant, in: zone("Asia/Kolkata")) == date(2026, 4, 21))
  }
}
