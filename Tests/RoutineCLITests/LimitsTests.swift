import Foundation
import RoutineCore
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
}
