import Foundation
import RoutineCore
import Testing

/// Quiet hours on the wall clock (across midnight and clock changes) and the verdicts of the
/// hold rules at their boundaries.
struct HoldingTests {
  func hours(_ text: String) -> QuietHours {
    guard let hours = QuietHours(parsing: text) else { fatalError("bad quiet hours \(text)") }
    return hours
  }

  func time(_ text: String) -> TimeOfDay { TimeOfDay(parsing: text)! }

  func instant(_ text: String) -> Int64 { stamp(text).secondsSince1970 }

  @Test(arguments: [
    ("21:00-07:30", "21:00", true), ("21:00-07:30", "20:59", false),
    ("21:00-07:30", "23:59", true), ("21:00-07:30", "00:00", true),
    ("21:00-07:30", "07:29", true), ("21:00-07:30", "07:30", false),
    ("21:00-07:30", "12:00", false), ("13:00-14:00", "13:00", true),
    ("13:00-14:00", "13:59", true), ("13:00-14:00", "14:00", false),
    ("13:00-14:00", "12:59", false), ("13:00-14:00", "00:00", false),
  ])
  func quietHoursIncludeTheirStartAndNotTheirEndAcrossMidnight(
    range: String, at: String, inside: Bool
  ) {
    #expect(hours(range).contains(time(at)) == inside)
  }

  @Test func quietHoursAreParsedAsTypedAndARangeOfNothingIsNone() {
    #expect(QuietHours(parsing: " 21:00 - 07:30 ")?.description == "21:00-07:30")
    #expect(QuietHours(parsing: "07:30-07:30") == nil)
    #expect(QuietHours(parsing: "21:00") == nil)
    #expect(QuietHours(parsing: "21:00-07:30-08:00") == nil)
    #expect(QuietHours(parsing: "25:00-07:00") == nil)
  }

  @Test func inAHalfHourZoneTheWallClockDecides() {
    let kolkata = zone("Asia/Kolkata")
    let quiet = hours("21:00-07:30")
    #expect(quiet.contains(instant("2026-05-04T01:59:59Z"), in: kolkata))  // 07:29:59 IST
    #expect(!quiet.contains(instant("2026-05-04T02:00:00Z"), in: kolkata))  // 07:30 IST
    #expect(!quiet.contains(instant("2026-05-04T15:29:59Z"), in: kolkata))  // 20:59:59 IST
    #expect(quiet.contains(instant("2026-05-04T15:30:00Z"), in: kolkata))  // 21:00 IST
    #expect(
      quiet.nextEnd(after: instant("2026-05-04T16:00:00Z"), in: kolkata)
        == instant("2026-05-05T02:00:00Z"))
    // At the very end: the next end is tomorrow's.
    #expect(
      quiet.nextEnd(after: instant("2026-05-05T02:00:00Z"), in: kolkata)
        == instant("2026-05-06T02:00:00Z"))
  }

  @Test func anEndInTheSpringGapEndsWhenTheGapDoes() {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT, so 02:30 does not exist.
    let newYork = zone("America/New_York")
    let quiet = hours("22:00-02:30")
    let start = instant("2026-03-08T01:00:00-05:00")
    #expect(quiet.contains(start, in: newYork))
    #expect(quiet.nextEnd(after: start, in: newYork) == instant("2026-03-08T03:00:00-04:00"))
    #expect(!quiet.contains(instant("2026-03-08T03:00:00-04:00"), in: newYork))
    #expect(quiet.contains(instant("2026-03-08T01:59:59-05:00"), in: newYork))
  }

  @Test(arguments: [
    // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST; 01:00 to 02:00 happens twice.
    (
      "America/New_York", "23:00-01:30", "2026-11-01T00:30:00-04:00",
      "2026-11-01T01:30:00-04:00", "2026-11-01T01:10:00-05:00", "2026-11-01T01:30:00-05:00"
    ),
    // Lord Howe Island, 2026-04-05: 02:00 (+11) becomes 01:30 (+10:30); a half-hour repeat.
    (
      "Australia/Lord_Howe", "00:00-01:45", "2026-04-05T01:00:00+11:00",
      "2026-04-05T01:45:00+11:00", "2026-04-05T01:35:00+10:30", "2026-04-05T01:45:00+10:30"
    ),
  ])
  func anEndInTheRepeatedHourEndsAtItsNextPass(
    zoneName: String, range: String, before: String, firstEnd: String, again: String,
    secondEnd: String
  ) {
    let zone = zone(zoneName)
    let quiet = hours(range)
    #expect(quiet.contains(instant(before), in: zone))
    #expect(quiet.nextEnd(after: instant(before), in: zone) == instant(firstEnd))
    #expect(!quiet.contains(instant(firstEnd), in: zone))
    // The clock goes back into the quiet hours; they end when it reaches their end again,
    // not a day later.
    #expect(quiet.contains(instant(again), in: zone))
    #expect(quiet.nextEnd(after: instant(again), in: zone) == instant(secondEnd))
  }

  func rules(idleMinutes: Int = 10, doNotDisturb: Bool = true, quiet: String? = nil) -> HoldRules {
    var settings = PlannerSettings()
    settings.holdWhileIdleMinutes = idleMinutes
    settings.holdWhileDoNotDisturb = doNotDisturb
    settings.holdAtMostMinutes = 120
    settings.settleSeconds = 60
    settings.quietHours = quiet.flatMap(QuietHours.init(parsing:))
    return HoldRules(settings)
  }

  @Test func idlenessHoldsFromExactlyTheSettingAndOnlyWithASource() {
    let utc = zone("UTC")
    let now = instant("2026-05-04T12:00:00Z")
    let rules = rules()
    let idle = Presence(source: "the X screen saver extension on :0", idleSeconds: 600)
    #expect(rules.reason(presence: idle, now: now, in: utc) == .idle(minutes: 10))
    var almost = idle
    almost.idleSeconds = 599
    #expect(rules.reason(presence: almost, now: now, in: utc) == nil)
    var sourceless = idle
    sourceless.source = nil
    sourceless.isLocked = true
    #expect(rules.reason(presence: sourceless, now: now, in: utc) == nil)
    #expect(
      rules.reason(
        presence: Presence(source: "logind session 3", isLocked: true), now: now, in: utc)
        == .locked)
    #expect(
      self.rules(idleMinutes: 0).reason(presence: idle, now: now, in: utc) == nil)
  }

  @Test func doNotDisturbHoldsOnlyWhenAskedAndQuietHoursComeFirst() {
    let utc = zone("UTC")
    let paused = Presence(source: nil, doNotDisturb: "dunst")
    let noon = instant("2026-05-04T12:00:00Z")
    #expect(rules().reason(presence: paused, now: noon, in: utc) == .doNotDisturb("dunst"))
    #expect(rules(doNotDisturb: false).reason(presence: paused, now: noon, in: utc) == nil)
    let quiet = rules(quiet: "11:30-12:30")
    #expect(
      quiet.reason(presence: paused, now: noon, in: utc) == .quietHours(hours("11:30-12:30")))
    #expect(quiet.reason(presence: nil, now: noon, in: utc) == .quietHours(hours("11:30-12:30")))
    #expect(
      quiet.reason(presence: nil, now: instant("2026-05-04T12:30:00Z"), in: utc) == nil)
  }

  @Test func aHeldFiringIsMissedOnlyPastAtMostAndReleasedAfterTheSettleDelay() {
    let rules = rules()
    let utc = zone("UTC")
    let due = instant("2026-05-04T12:00:00Z")
    let atMost = due + 7200
    let longBack = due - 3600
    #expect(
      rules.verdict(dueAt: due, now: atMost, reasonNow: .locked, backSince: atMost, in: utc)
        == .keep)
    #expect(
      rules.verdict(dueAt: due, now: atMost, reasonNow: nil, backSince: longBack, in: utc)
        == .release)
    #expect(
      rules.verdict(dueAt: due, now: atMost + 1, reasonNow: nil, backSince: longBack, in: utc)
        == .missed)
    // Past the limit, missed even while the reason holds.
    #expect(
      rules.verdict(dueAt: due, now: atMost + 1, reasonNow: .locked, backSince: atMost, in: utc)
        == .missed)
    let now = due + 600
    #expect(
      rules.verdict(dueAt: due, now: now, reasonNow: nil, backSince: now - 59, in: utc) == .keep)
    #expect(
      rules.verdict(dueAt: due, now: now, reasonNow: nil, backSince: now - 60, in: utc) == .release)
  }

  @Test func quietHoursThatEndPastTheLimitMakeAFiringMissedAtOnce() {
    let berlin = zone("Europe/Berlin")
    let rules = rules(quiet: "21:00-07:30")
    let quiet = hours("21:00-07:30")
    // 22:00: they end 9.5 hours on. 06:00: 90 minutes on, within the 120-minute limit.
    let late = instant("2026-11-20T22:00:00+01:00")
    let early = instant("2026-11-21T06:00:00+01:00")
    #expect(
      rules.verdict(
        dueAt: late, now: late + 10, reasonNow: .quietHours(quiet), backSince: late, in: berlin)
        == .missed)
    #expect(
      rules.verdict(
        dueAt: early, now: early + 10, reasonNow: .quietHours(quiet), backSince: early,
        in: berlin) == .keep)
    // Exactly at the limit: kept (missed is more than the limit late).
    let edge = instant("2026-11-21T05:30:00+01:00")
    #expect(
      rules.verdict(
        dueAt: edge, now: edge + 10, reasonNow: .quietHours(quiet), backSince: edge, in: berlin)
        == .keep)
  }

  @Test func theNextLookIsTheEarliestOfMissedQuietEndPollAndSettle() {
    let utc = zone("UTC")
    let due = instant("2026-05-04T12:00:00Z")
    let now = due + 300
    let quiet = hours("11:30-12:30")
    let rules = rules(quiet: "11:30-12:30")
    #expect(
      rules.nextLook(
        dueAt: due, now: now, reasonNow: .quietHours(quiet), backSince: nil, in: utc,
        pollSeconds: 60) == instant("2026-05-04T12:30:00Z"))
    #expect(
      rules.nextLook(
        dueAt: due, now: now, reasonNow: .locked, backSince: nil, in: utc, pollSeconds: 60)
        == now + 60)
    #expect(
      rules.nextLook(
        dueAt: due, now: now, reasonNow: nil, backSince: now - 20, in: utc, pollSeconds: 60)
        == now + 40)
    #expect(
      rules.nextLook(
        dueAt: due, now: due + 7190, reasonNow: .locked, backSince: nil, in: utc,
        pollSeconds: 60) == due + 7201)
  }
}
