import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Numbers from outside are bounded, and one `validate()` keeps every way in to the same rules
/// (issue 17, items 3.1 and 3.5): a lead too large for an instant is refused with a sentence,
/// never a crash, and `reminders import` refuses what `reminders add` refuses.
struct LimitsTests {
  func sandbox() -> Sandbox {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("tasks", "add", "Tax", "--due", "2026-05-10 12:00").status == 0)
    #expect(sandbox.run("habits", "add", "Stretch", "--window", "08:00-09:00").status == 0)
    return sandbox
  }

  @Test func aTaskLeadTooLargeForAnInstantIsRefusedWithASentence() throws {
    let sandbox = sandbox()
    let huge = try sandbox.runBinary([
      "reminders", "add", "--task", "Tax", "--before", "200000000000000d",
    ])
    #expect(huge.status == 65)
    #expect(
      huge.stderr
        == "error: cannot add the reminder: a task reminder fires from 0 minutes to 366 days before the due date, not 200000000000000 days\n"
    )
    // A number no integer holds is no duration at all.
    let unreadable = sandbox.run(
      "reminders", "add", "--task", "Tax", "--before", "99999999999999999999d")
    #expect(unreadable.status == 64)
    #expect(
      unreadable.stderr.hasPrefix("error: --before: expected a duration like 1h, 1d, 90m or 0"))
    // Edited to it: the same.
    #expect(sandbox.run("reminders", "add", "--task", "Tax", "--before", "1h").status == 0)
    let edited = try sandbox.runBinary([
      "reminders", "edit", "reminder-1", "--before", "200000000000000d",
    ])
    #expect(edited.status == 65)
    #expect(edited.stderr.contains("not 200000000000000 days"))
    #expect(sandbox.run("reminders", "add", "--task", "Tax", "--before", "366d").status == 0)
  }

  @Test func aHabitLeadOutOfRangeIsRefused() throws {
    let sandbox = sandbox()
    for minutes in ["0", "-5", "99999", "9223372036854775807", "99999999999999999999"] {
      let refused = try sandbox.runBinary(
        ["reminders", "add", "--habit", "Stretch", "--before-window", minutes])
      #expect(refused.status == 64, "\(minutes): \(refused.stderr)")
      #expect(
        refused.stderr.contains("--before-window: expected minutes from 1 to 720"), "\(minutes)")
    }
  }

  /// What `add` refuses, `import` refuses, naming the field.
  @Test(
    arguments: [
      (
        #"{"type": "task", "link": "task-1", "minutesBefore": 9223372036854775807}"#,
        "reminders[0].minutesBefore: a task reminder fires from 0 minutes to 366 days before the due date, not 9223372036854775807 minutes"
      ),
      (
        #"{"type": "task", "link": "task-1", "minutesBefore": -30}"#,
        "reminders[0].minutesBefore: a task reminder fires from 0 minutes to 366 days before the due date, not -30 minutes"
      ),
      (
        #"{"type": "habit", "link": "habit-1", "habitTiming": "beforeWindow 9223372036854775807"}"#,
        "reminders[0].habitTiming: a habit reminder fires from 1 to 720 minutes before the habit's window, not 9223372036854775807 minutes"
      ),
      (
        #"{"type": "habit", "link": "habit-1", "habitTiming": "beforeWindow 0"}"#,
        "reminders[0].habitTiming: a habit reminder fires from 1 to 720 minutes before the habit's window, not 0 minutes"
      ),
      (
        #"{"type": "habit", "link": "habit-1", "habitTiming": "beforeWindow -5"}"#,
        "reminders[0].habitTiming: a habit reminder fires from 1 to 720 minutes before the habit's window, not -5 minutes"
      ),
      (
        #"{"type": "habit", "link": "habit-1", "habitTiming": "beforeWindow 99999"}"#,
        "reminders[0].habitTiming: a habit reminder fires from 1 to 720 minutes before the habit's window, not 99999 minutes"
      ),
      (
        #"{"type": "general", "message": "M", "schedule": {"repeat": "monthly", "at": "09:00"}}"#,
        "reminders[0].schedule.day: a monthly schedule needs a day of the month"
      ),
      (
        #"{"type": "activity", "activity": "Tea", "lookbackHours": 5, "schedule": {"repeat": "weekly", "at": "09:00", "days": "mon"}}"#,
        "reminders[0].lookbackHours: expected a look-back of 1, 3, 6, 12, 24 or 48 hours, found 5"
      ),
    ] as [(String, String)])
  func importRefusesWhatAddRefuses(reminder: String, message: String) throws {
    let sandbox = sandbox()
    let path = sandbox.file(
      "definitions.json",
      #"{"format": "routine-definitions", "version": 1, "reminders": ["# + reminder + "]}")
    let result = try sandbox.runBinary(["reminders", "import", path])
    #expect(result.status == 65, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect((sandbox.run("reminders", "--json").json["reminders"] as? [Any])?.isEmpty == true)
  }

  /// From the fuzzing of issue 17: a start year no timestamp can hold crashed `sample`.
  @Test func aSampleStartsOnAFourDigitDateAndEndsBeforeTheYear10000() throws {
    let sandbox = Sandbox()
    for start in ["292277026597-01-01", "99999999999999999-01-01", "-5-01-01", "+999-01-01"] {
      let result = try sandbox.runBinary(["sample", "--start=\(start)", "--days", "1"])
      #expect(result.status == 64, "\(start): \(result.stderr)")
      #expect(result.stderr.hasPrefix("error: --start: expected a date YYYY-MM-DD"), "\(start)")
    }
    let late = sandbox.run("sample", "--start", "9999-12-25", "--days", "10")
    #expect(late.status == 64)
    #expect(late.stderr.hasPrefix("error: --start: the sample must end before the year 10000"))
    #expect(sandbox.run("sample", "--start", "9999-12-20", "--days", "10").status == 0)
  }

  /// A setting no `routine settings` could write (an edited store) is a damaged store, not an
  /// overflow.
  @Test func aSettingOutOfItsRangeIsADamagedStore() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("settings", "--grace", "1440").status == 0)
    let settings = sandbox.run("settings", "--grace", "1441")
    #expect(settings.status == 64)
    let store = try EventStore(path: sandbox.storePath)
    try store.connection.execute(
      "UPDATE settings SET value = '9223372036854775807' WHERE key = 'graceMinutes'")
    let deliver = try sandbox.runBinary("deliver")
    #expect(deliver.status == 65)
    #expect(
      deliver.stderr.contains(
        "is damaged (the setting graceMinutes is 9223372036854775807, outside 0...1440)"),
      "\(deliver.stderr)")
  }

  /// Offsets no routine writes (an edited store) are clamped where they are read: no command
  /// that reads events, deliveries, answers or tasks traps on them.
  @Test func offsetsOutOfRangeInAnEditedStoreDoNotTrap() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("log", "Coffee", "--at", "06:30").status == 0)
    #expect(sandbox.run("reminders", "add", "--activity", "Coffee", "--at", "07:30").status == 0)
    #expect(sandbox.run("tasks", "add", "Report", "--due", "2026-05-05T12:00+02:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-05-04T08:00:30+02:00").status == 0)
    #expect(
      sandbox.run("respond", "reminder-2", "done", "--now", "2026-05-04T08:01:00+02:00").status == 0
    )
    let store = try EventStore(path: sandbox.storePath)
    let edits = [
      ("9223372036854775807", "0"), ("9223372036854775807", "7200"),
      ("-9223372036854775808", "-7200"), ("1656000000", "1099511627776"),
      ("-1099511627776", "-9223372036854775808"),
    ]
    for (at, offset) in edits {
      try store.connection.execute("UPDATE events SET at = \(at), utc_offset = \(offset)")
      try store.connection.execute(
        "UPDATE tasks SET due_at = \(at), due_offset = \(offset), done_offset = \(offset)")
      for command in [
        ["events"], ["kinds"], ["analyze"], ["plan"], ["backtest"], ["history"],
        ["why", "reminder-2"], ["tasks"], ["agenda"], ["status"],
        ["deliver", "--now", "2026-05-04T09:00:30+02:00"],
      ] {
        let run = try sandbox.runBinary(command)
        // Never a trap (a signal: status 132 or 134).
        #expect(run.status == 0, "\(at) \(offset) \(command): \(run.status) \(run.stderr)")
      }
      // A wrong time within what routine writes, never a sentinel or a year out of range.
      let listed = sandbox.run("kinds")
      let kinds = listed.stdout + listed.stderr
      #expect(kinds.contains("Coffee  1 event  "), "\(kinds)")
      #expect(!kinds.contains("-2922"), "\(kinds)")
    }
  }

  @Test func aSnoozeThatComesBackTomorrowSaysTheDay() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--snooze", "1440").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "10:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-05-04T10:00:30+02:00").status == 0)
    let snoozed = sandbox.run(
      "respond", "reminder-1", "snooze", "--now", "2026-05-04T10:01:00+02:00")
    #expect(snoozed.stdout == "Snoozed: 'Pills' comes back at Tue 2026-05-05 10:01.\n")
  }
}
