import Foundation
import Testing

@testable import RoutineCore

struct TriggerScheduleTests {
  static func instant(_ text: String) -> Int64 { stamp(text).secondsSince1970 }

  func calendar(_ time: String, weekday: Int? = nil, repeats: Bool = true) -> Trigger {
    let parsed = TimeOfDay(parsing: time)!
    return .calendar(
      CalendarTrigger(weekday: weekday, hour: parsed.hour, minute: parsed.minute, repeats: repeats))
  }

  @Test func aDailyTriggerFiresNextAtItsWallClockTime() {
    let berlin = zone("Europe/Berlin")
    let trigger = calendar("06:41")
    #expect(
      trigger.nextFire(after: Self.instant("2026-04-27T05:00+02:00"), in: berlin)
        == Self.instant("2026-04-27T06:41+02:00"))
    // Strictly after: at the firing instant, the next one is tomorrow's.
    #expect(
      trigger.nextFire(after: Self.instant("2026-04-27T06:41+02:00"), in: berlin)
        == Self.instant("2026-04-28T06:41+02:00"))
  }

  @Test func aWeekdayTriggerFiresOnItsWeekdayOnly() {
    let berlin = zone("Europe/Berlin")
    let wednesday = calendar("18:00", weekday: 4)
    #expect(
      wednesday.nextFire(after: Self.instant("2026-04-27T20:00+02:00"), in: berlin)
        == Self.instant("2026-04-29T18:00+02:00"))
    #expect(
      wednesday.nextFire(after: Self.instant("2026-04-29T18:00+02:00"), in: berlin)
        == Self.instant("2026-05-06T18:00+02:00"))
  }

  @Test(arguments: [
    ("Europe/Berlin", "02:30", "2026-03-28T12:00+01:00", "2026-03-29T03:00+02:00"),
    ("Europe/Berlin", "02:30", "2026-10-24T12:00+02:00", "2026-10-25T02:30+02:00"),
    ("America/New_York", "02:30", "2026-03-07T12:00-05:00", "2026-03-08T03:00-04:00"),
    ("America/New_York", "01:30", "2026-10-31T12:00-04:00", "2026-11-01T01:30-04:00"),
    ("Australia/Lord_Howe", "02:15", "2026-10-03T12:00+10:30", "2026-10-04T02:30+11:00"),
    ("Australia/Lord_Howe", "01:45", "2026-04-04T12:00+11:00", "2026-04-05T01:45+11:00"),
    ("Asia/Kolkata", "02:30", "2026-03-28T12:00+05:30", "2026-03-29T02:30+05:30"),
    ("UTC", "02:30", "2026-03-28T12:00Z", "2026-03-29T02:30Z"),
  ])
  func gapsFireAtTheEndOfTheGapAndRepeatsOnceAtTheFirstInstant(
    zoneName: String, time: String, after: String, expected: String
  ) {
    let trigger = calendar(time)
    let timeZone = zone(zoneName)
    let fire = trigger.nextFire(after: Self.instant(after), in: timeZone)
    #expect(fire == Self.instant(expected))
    // Exactly once that night: the next firing is a day (give or take the shift) later.
    let next = trigger.nextFire(after: fire!, in: timeZone)!
    #expect(next - fire! >= 22 * 3600 && next - fire! <= 26 * 3600)
  }

  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
  ])
  func aDailyTriggerFiresOnEveryDayOfAYearOnce(_ name: String) {
    let timeZone = zone(name)
    for time in ["02:30", "01:45", "00:00", "23:59", "07:00"] {
      let trigger = calendar(time)
      let start = WallClock.instant(
        on: date(2026, 1, 1), at: TimeOfDay(secondsSinceMidnight: 0), in: timeZone)
      let end = WallClock.instant(
        on: date(2027, 1, 1), at: TimeOfDay(secondsSinceMidnight: 0), in: timeZone)
      let fires = trigger.occurrences(from: start, to: end, in: timeZone)
      #expect(fires.count == 365, "\(name) \(time)")
      #expect(Set(fires.map { WallClock.localDate(at: $0, in: timeZone) }).count == 365)
      #expect(zip(fires, fires.dropFirst()).allSatisfy { $0 < $1 })
    }
  }

  @Test func whenTheZoneChangesRemindersKeepTheirWallClockTime() {
    let trigger = calendar("07:00", weekday: 2)
    let after = Self.instant("2026-04-26T00:00Z")
    for name in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"] {
      let timeZone = zone(name)
      let fire = trigger.nextFire(after: after, in: timeZone)!
      let local = Timestamp(
        secondsSince1970: fire, utcOffsetSeconds: Int32(WallClock.offset(at: fire, in: timeZone)))
      #expect(local.timeOfDay.description == "07:00", "\(name)")
      #expect(local.localDate.weekday == 2)
    }
  }

  @Test func oneTimeTriggersFireOnce() {
    let berlin = zone("Europe/Berlin")
    let at = Self.instant("2026-04-27T08:05+02:00")
    #expect(Trigger.date(at).nextFire(after: at - 1, in: berlin) == at)
    #expect(Trigger.date(at).nextFire(after: at, in: berlin) == nil)
    #expect(Trigger.date(at).occurrences(from: at - 60, to: at + 60, in: berlin) == [at])
    let once = calendar("09:00", repeats: false)
    let from = Self.instant("2026-04-27T08:00+02:00")
    #expect(
      once.occurrences(from: from, to: from + 7 * 86_400, in: berlin) == [
        Self.instant("2026-04-27T09:00+02:00")
      ])
  }

  /// The independent reference. On each local date D a calendar trigger fires at the first
  /// instant whose wall clock has reached D at its time: that is the only instant normally, the
  /// first of two in a repeated hour, and the end of the jump in a gap. Scanning minute by minute
  /// and keeping the highest wall clock seen finds those instants by brute force.
  static func referenceNextFire(_ trigger: CalendarTrigger, after: Int64, in timeZone: Zone)
    -> Int64
  {
    let target = trigger.hour * 60 + trigger.minute
    func wallMinute(_ instant: Int64) -> Int {
      floorDiv(
        Int(instant) + Int(timeZone.offset(at: instant)),
        60)
    }
    var instant = after - Int64(floorMod(Int(after), 60)) - 2 * 86_400
    var highest = wallMinute(instant)
    var day = floorDiv(highest - target, 1440) + 1
    while instant <= after + 10 * 86_400 {
      instant += 60
      highest = max(highest, wallMinute(instant))
      while day * 1440 + target <= highest {
        let matches = trigger.weekday.map { LocalDate(daysSince1970: day).weekday == $0 } ?? true
        if matches && instant > after { return instant }
        day += 1
      }
    }
    return -1
  }

  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC",
  ])
  func agreesWithAMinuteByMinuteReferenceOnRandomTriggersAroundTransitions(_ name: String) {
    let timeZone = zone(name)
    var random = SplitMix64(seed: 2026)
    var transitions = transitions2026And2027(in: timeZone)
    if transitions.isEmpty {
      transitions = [Self.instant("2026-03-29T01:00Z"), Self.instant("2026-10-25T01:00Z")]
    }
    var mismatches: [String] = []
    for _ in 0..<300 {
      let transition = transitions[random.integer(in: 0...(transitions.count - 1))]
      // Around a transition: within two days before it, to the minute or the second.
      let after = transition - Int64(random.integer(in: 0...(2 * 86_400)))
      // Times near the transition's wall clock are the interesting ones; some anywhere.
      let hour = random.chance(0.7) ? random.integer(in: 0...3) : random.integer(in: 0...23)
      let minute = [0, 15, 29, 30, 31, 45, 59][random.integer(in: 0...6)]
      let weekday: Int? = random.chance(0.5) ? random.integer(in: 1...7) : nil
      let trigger = CalendarTrigger(weekday: weekday, hour: hour, minute: minute)
      let fast = Trigger.calendar(trigger).nextFire(after: after, in: timeZone)
      let slow = Self.referenceNextFire(trigger, after: after, in: timeZone)
      if fast != slow {
        mismatches.append("\(trigger) after \(after): \(String(describing: fast)) vs \(slow)")
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
  }

  @Test func theAgendaListsEveryOccurrenceInOrder() {
    let berlin = zone("Europe/Berlin")
    let requests = [
      NotificationRequest(
        id: "b", origin: .learned, category: .routineReminder, title: "B", body: "",
        trigger: calendar("07:00"),
        metadata: nil),
      NotificationRequest(
        id: "a", origin: .learned, category: .routineReminder, title: "A", body: "",
        trigger: calendar("07:00", weekday: 3), metadata: nil),
      NotificationRequest(
        id: "c", origin: .snooze, category: .earlyWarning, title: "C", body: "",
        trigger: .date(Self.instant("2026-04-28T06:00+02:00")), metadata: nil),
    ]
    let items = Agenda.items(
      for: requests, from: Self.instant("2026-04-27T00:00+02:00"),
      to: Self.instant("2026-04-29T00:00+02:00"), in: berlin)
    #expect(items.map(\.request.id) == ["b", "c", "a", "b"])
    #expect(items.map(\.at) == items.map(\.at).sorted())
  }
}
