import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// The grammar of times typed on the command line (`routine help dates`, docs/dates.md).
struct DatesTests {
  static func zone(_ name: String) -> Zone { Zone(foundation: TimeZone(identifier: name)!) }

  static func parse(
    _ text: String, now: String, in name: String = "Europe/Berlin",
    _ meaning: TimeArgument.TimeOfDayMeaning = .today
  ) throws(UsageError) -> String {
    let instant = Timestamp(iso8601: now)!.secondsSince1970
    return try TimeArgument.parse(
      text, option: "at", now: Date(timeIntervalSince1970: Double(instant)), zone: zone(name),
      timeOfDay: meaning, command: nil
    ).iso8601
  }

  @Test(arguments: [
    // Berlin springs forward on 2026-03-29 (02:00 → 03:00): calendar days keep the wall
    // clock, elapsed hours do not.
    ("+2d", "2026-03-28T10:00:00+01:00", "Europe/Berlin", "2026-03-30T10:00:00+02:00"),
    ("in 2 days", "2026-03-28T10:00:00+01:00", "Europe/Berlin", "2026-03-30T10:00:00+02:00"),
    ("+48h", "2026-03-28T10:00:00+01:00", "Europe/Berlin", "2026-03-30T11:00:00+02:00"),
    ("+2880m", "2026-03-28T10:00:00+01:00", "Europe/Berlin", "2026-03-30T11:00:00+02:00"),
    ("+1w", "2026-03-26T10:00:00+01:00", "Europe/Berlin", "2026-04-02T10:00:00+02:00"),
    // A day later at 02:30 is in the gap: the first instant after it.
    ("+1d", "2026-03-28T02:30:00+01:00", "Europe/Berlin", "2026-03-29T03:00:00+02:00"),
    // Back across the autumn change: 02:30 exists twice, the first is taken.
    ("-1d", "2026-10-26T02:30:00+01:00", "Europe/Berlin", "2026-10-25T02:30:00+02:00"),
    ("1 day ago", "2026-10-26T02:30:00+01:00", "Europe/Berlin", "2026-10-25T02:30:00+02:00"),
    ("-24h", "2026-10-26T02:30:00+01:00", "Europe/Berlin", "2026-10-25T02:30:00+01:00"),
    // Lord Howe falls back 30 minutes on 2026-04-05 (02:00 → 01:30).
    ("-1d", "2026-04-05T12:00:00+10:30", "Australia/Lord_Howe", "2026-04-04T12:00:00+11:00"),
    ("-24h", "2026-04-05T12:00:00+10:30", "Australia/Lord_Howe", "2026-04-04T12:30:00+11:00"),
    // ... and springs forward 30 minutes on 2026-10-04 (02:00 → 02:30).
    ("+1d", "2026-10-03T02:15:00+10:30", "Australia/Lord_Howe", "2026-10-04T02:30:00+11:00"),
    ("+90m", "2026-10-04T01:00:00+10:30", "Australia/Lord_Howe", "2026-10-04T03:00:00+11:00"),
    // Past midnight.
    ("+90m", "2026-04-24T23:00:00+02:00", "Europe/Berlin", "2026-04-25T00:30:00+02:00"),
    ("in 2 hours", "2026-04-24T23:00:00+02:00", "Europe/Berlin", "2026-04-25T01:00:00+02:00"),
    ("90 minutes ago", "2026-04-25T00:10:00+02:00", "Europe/Berlin", "2026-04-24T22:40:00+02:00"),
    ("now", "2026-04-25T00:10:00+02:00", "Europe/Berlin", "2026-04-25T00:10:00+02:00"),
    ("+ 2 D", "2026-04-24T23:00:00+02:00", "Europe/Berlin", "2026-04-26T23:00:00+02:00"),
  ])
  func relativeDaysKeepTheWallClockAndMinutesAndHoursElapse(
    text: String, now: String, zone: String, expected: String
  ) throws {
    #expect(try Self.parse(text, now: now, in: zone) == expected)
    // The same whatever the option looks to: a relative time names its own direction.
    #expect(try Self.parse(text, now: now, in: zone, .latestPast) == expected)
    #expect(try Self.parse(text, now: now, in: zone, .upcoming) == expected)
  }

  @Test(arguments: [
    // On Friday 2026-04-24 at 11:00 in Berlin.
    (
      "fri 12:00", "2026-04-24T11:00:00+02:00", "2026-04-17T12:00:00+02:00",
      "2026-04-24T12:00:00+02:00"
    ),
    (
      "fri 10:00", "2026-04-24T11:00:00+02:00", "2026-04-24T10:00:00+02:00",
      "2026-05-01T10:00:00+02:00"
    ),
    (
      "Friday 11:00", "2026-04-24T11:00:00+02:00", "2026-04-24T11:00:00+02:00",
      "2026-05-01T11:00:00+02:00"
    ),
    ("fri", "2026-04-24T11:00:00+02:00", "2026-04-24T00:00:00+02:00", "2026-05-01T00:00:00+02:00"),
    (
      "MON 9am", "2026-04-24T11:00:00+02:00", "2026-04-20T09:00:00+02:00",
      "2026-04-27T09:00:00+02:00"
    ),
    (
      "th noon", "2026-04-24T11:00:00+02:00", "2026-04-23T12:00:00+02:00",
      "2026-04-30T12:00:00+02:00"
    ),
    // Just past midnight: last night's Friday is still "the latest".
    (
      "fri 23:30", "2026-04-25T00:10:00+02:00", "2026-04-24T23:30:00+02:00",
      "2026-05-01T23:30:00+02:00"
    ),
    (
      "sat midnight", "2026-04-25T00:10:00+02:00", "2026-04-25T00:00:00+02:00",
      "2026-05-02T00:00:00+02:00"
    ),
    // Across the Berlin change: last Sunday's 02:30 was in the gap.
    (
      "sun 2:30am", "2026-03-30T09:00:00+02:00", "2026-03-29T03:00:00+02:00",
      "2026-04-05T02:30:00+02:00"
    ),
    (
      "sun 12:00", "2026-03-28T13:00:00+01:00", "2026-03-22T12:00:00+01:00",
      "2026-03-29T12:00:00+02:00"
    ),
  ])
  func aWeekdayIsTheLatestOneForThePastAndTheNextOneAhead(
    text: String, now: String, past: String, ahead: String
  ) throws {
    #expect(try Self.parse(text, now: now, .latestPast) == past)
    #expect(try Self.parse(text, now: now, .today) == past)
    #expect(try Self.parse(text, now: now, .upcoming) == ahead)
  }

  @Test(arguments: [
    // Monday 2026-04-27, 08:00 in Berlin: "next" is never today, whichever way the option looks.
    ("tomorrow 9", TimeArgument.TimeOfDayMeaning.upcoming, "2026-04-28T09:00:00+02:00"),
    ("fri 18", .upcoming, "2026-05-01T18:00:00+02:00"),
    ("next fri", .upcoming, "2026-05-01T00:00:00+02:00"),
    ("next friday 9am", .latestPast, "2026-05-01T09:00:00+02:00"),
    ("next mon", .upcoming, "2026-05-04T00:00:00+02:00"),
    ("next mon 7", .latestPast, "2026-05-04T07:00:00+02:00"),
    ("last mon", .upcoming, "2026-04-20T00:00:00+02:00"),
    ("last sun 23", .today, "2026-04-26T23:00:00+02:00"),
  ])
  func nextAndLastWeekdaysAndBareHoursAfterADay(
    text: String, meaning: TimeArgument.TimeOfDayMeaning, expected: String
  ) throws {
    #expect(try Self.parse(text, now: "2026-04-27T08:00:00+02:00", meaning) == expected)
  }

  @Test(arguments: ["tomorrow 24", "next", "next 9", "last week", "9", "fri 123"])
  func aBareHourOutOfRangeOrWithoutADayIsRefused(text: String) {
    #expect(throws: UsageError.self) { try Self.parse(text, now: "2026-04-27T08:00:00+02:00") }
  }

  @Test func aWeekdayInLordHoweCrossesItsHalfHourShift() throws {
    // Sunday 2026-10-04, 02:00 → 02:30: 02:15 does not exist.
    #expect(
      try Self.parse(
        "sun 2:15 am", now: "2026-10-05T09:00:00+11:00", in: "Australia/Lord_Howe", .latestPast)
        == "2026-10-04T02:30:00+11:00")
    // Sunday 2026-04-05, 02:00 → 01:30: 01:45 happens twice, the first is taken.
    #expect(
      try Self.parse(
        "sun 1:45am", now: "2026-04-01T09:00:00+11:00", in: "Australia/Lord_Howe", .upcoming)
        == "2026-04-05T01:45:00+11:00")
  }

  @Test(arguments: [
    ("9am", "2026-04-24T09:00:00+02:00"), ("9 AM", "2026-04-24T09:00:00+02:00"),
    ("7:30 pm", "2026-04-23T19:30:00+02:00"), ("7:30PM", "2026-04-23T19:30:00+02:00"),
    ("12am", "2026-04-24T00:00:00+02:00"), ("12pm", "2026-04-23T12:00:00+02:00"),
    ("12:15am", "2026-04-24T00:15:00+02:00"), ("11:59:30 pm", "2026-04-23T23:59:30+02:00"),
    ("noon", "2026-04-23T12:00:00+02:00"), ("midnight", "2026-04-24T00:00:00+02:00"),
    ("tomorrow 9am", "2026-04-25T09:00:00+02:00"), ("yesterday noon", "2026-04-23T12:00:00+02:00"),
    ("  Today   7:05 ", "2026-04-24T07:05:00+02:00"),
    ("2026-04-27 7:30pm", "2026-04-27T19:30:00+02:00"),
    ("2026-04-27T7:30pm", "2026-04-27T19:30:00+02:00"),
    ("2026-03-29 2:30 am", "2026-03-29T03:00:00+02:00"),
    ("2026-10-25 2:30am", "2026-10-25T02:30:00+02:00"),
    ("tomorrow midnight", "2026-04-25T00:00:00+02:00"),
  ])
  func twelveHourTimesNoonAndMidnightTakeTheLatestPastForLog(text: String, expected: String)
    throws
  {
    // Friday 2026-04-24, 11:00.
    #expect(try Self.parse(text, now: "2026-04-24T11:00:00+02:00", .latestPast) == expected)
  }

  @Test(arguments: [
    "", " ", "7 o'clock", "13pm", "0am", "12:60pm", "9:5am", "9amm", "am", "fri fri", "fri 25:00",
    "friday the 13th", "+2", "+d", "+2x", "+-2d", "in in 2 hours", "2 days", "ago", "-1.5h",
    "ｆｒｉ", "fri １２:00", "９am", "9am\u{0}", "💥", "tomorrow\u{1B}[31m", "t",
  ])
  func anythingElseIsAUsageErrorListingTheGrammar(text: String) {
    #expect(
      throws: UsageError("--at: expected \(TimeArgument.expectedForms), found '\(text)'")
    ) { try Self.parse(text, now: "2026-04-24T11:00:00+02:00", .latestPast) }
  }

  @Test(arguments: [
    "+99999999999d", "+36601d", "-36601 days", "in 878401 hours",
    "+\(String(repeating: "9", count: 5000))m",
    "99999999999999999999999 weeks ago",
  ])
  func aRelativeTimeTooFarAwayIsRefusedNotWrapped(text: String) {
    #expect(
      throws: UsageError("--at: '\(text)' is too far away (at most 36600 days)")
    ) { try Self.parse(text, now: "2026-04-24T11:00:00+02:00") }
  }

  @Test func theFarthestRelativeTimesAreTaken() throws {
    #expect(
      try Self.parse("+36600d", now: "2026-04-24T11:00:00+02:00") == "2126-07-09T11:00:00+02:00")
    #expect(try Self.parse("-36600d", now: "2026-04-24T11:00:00+02:00").hasPrefix("1926-"))
    #expect(
      try Self.parse("in 878400 hours", now: "2026-04-24T11:00:00+02:00").hasPrefix("2126-07-09"))
  }

  // Through the command line.

  @Test func logTakesADashedRelativeTimeAsAValue() {
    let sandbox = Sandbox(now: "2026-04-24T11:00:00+02:00")
    let logged = sandbox.run("log", "Tea", "--at", "-90m")
    #expect(logged.stdout == "Logged Tea at Fri 2026-04-24 09:30 (+02:00).\n", "\(logged.stderr)")
    #expect(
      sandbox.run("log", "Tea", "--at", "fri 7am").stdout
        == "Logged Tea at Fri 2026-04-24 07:00 (+02:00).\n")
    #expect(sandbox.run("events", "--from", "thu", "--to", "fri 8am").stdout.contains("07:00"))
  }

  @Test func tasksAndOneTimeRemindersLookAhead() {
    let sandbox = Sandbox(now: "2026-04-24T11:00:00+02:00")
    #expect(
      sandbox.run("tasks", "add", "Taxes", "--due", "fri 10am").stdout
        == "Added task-1: Taxes, due Fri 2026-05-01 10:00.\n")
    #expect(
      sandbox.run("tasks", "add", "Call", "--due", "in 2 hours").stdout
        == "Added task-2: Call, due Fri 2026-04-24 13:00.\n")
    let added = sandbox.run("reminders", "add", "--text", "Bins", "--at", "mon 7:30pm", "--json")
    #expect(added.status == 0, "\(added.stderr)")
    let listed = sandbox.run("reminders", "--json").stdout
    #expect(listed.contains("2026-04-27T19:30:00+02:00"), "\(listed)")
    let daily = sandbox.run("reminders", "add", "--text", "Pills", "--at", "9pm")
    #expect(daily.status == 0)
    #expect(sandbox.run("reminders").stdout.contains("daily 21:00"))
  }

  @Test func agendaLooksAheadAndHistoryLooksBackForAWeekday() {
    let sandbox = Sandbox(now: "2026-04-24T11:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "9pm").status == 0)
    let agenda = sandbox.run("agenda", "--to", "sun")
    #expect(agenda.stdout.components(separatedBy: "Pills").count - 1 == 2, "\(agenda.stdout)")
    #expect(sandbox.run("history", "--from", "mon").status == 0)
  }

  @Test func helpDatesExplainsTheGrammar() {
    let result = Sandbox().run("help", "dates")
    #expect(result.status == 0)
    #expect(result.stdout == TimeArgument.helpText)
    #expect(result.stdout.contains("12am is 00:00"))
  }

  @Test func nowStaysAMachinesClock() {
    let result = Sandbox().run("log", "Tea", "--now", "fri 9am")
    #expect(result.status == 64)
  }

  /// `--at fri 12:00` unquoted would leave '12:00' to the event's name: refused, with the quotes.
  @Test(arguments: [
    (["log", "Tea", "--at", "fri", "12:00"], "--at 'fri 12:00'"),
    (["log", "Tea", "--at", "tomorrow", "9am"], "--at 'tomorrow 9am'"),
    (["log", "Tea", "--at", "7:30", "pm"], "--at '7:30 pm'"),
    (["tasks", "add", "Tax", "--due", "fri", "noon"], "--due 'fri noon'"),
    (["agenda", "--to", "+3", "days"], "--to '+3 days'"),
    // The whole phrase, not its first two words: 'yesterday 7:30' would log 07:30, not 19:30.
    (["log", "Tea", "--at", "yesterday", "7:30", "pm"], "--at 'yesterday 7:30 pm'"),
    (["log", "Tea", "--at", "90", "minutes", "ago"], "--at '90 minutes ago'"),
    (["events", "--from", "2", "days", "ago"], "--from '2 days ago'"),
    (["log", "Tea", "--at", "in", "2", "hours"], "--at 'in 2 hours'"),
    (["tasks", "add", "X", "--due", "in", "2", "hours"], "--due 'in 2 hours'"),
  ])
  func aTimeOfSeveralWordsWithoutQuotesIsRefused(arguments: [String], hint: String) {
    let sandbox = Sandbox()
    let run = sandbox.run(arguments)
    #expect(run.status == 64, "\(arguments)")
    #expect(run.stderr.contains("a time of several words is one value, in quotes: \(hint)"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    // An event whose name only has a number in it is still an event.
    #expect(sandbox.run("log", "Tea", "2", "--at", "07:00").status == 0)
  }
}
