import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// What a week of real use found (issue 17, section 4), end to end with a fixed clock
/// (Europe/Berlin; 2026-05-04 is a Monday).
struct WeekOfUseTests {
  func sandbox(now: String = "2026-05-04T07:00:00+02:00") -> Sandbox {
    let sandbox = Sandbox(now: now, zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    return sandbox
  }

  func run(_ sandbox: Sandbox, at now: String, _ arguments: String...) -> Invocation {
    sandbox.run(arguments + ["--now", now])
  }

  // MARK: 4.1 A learned reminder after its event was logged

  @Test func aLearnedReminderIsSkippedWhenItsKindWasLoggedInItsRangeThatDay() throws {
    let sandbox = sandbox(now: "2026-05-04T07:00:00+02:00")
    // Three weeks of workouts between 17:58 and 18:33.
    var lines = ["timestamp,event"]
    let times = ["17:58", "18:05", "18:12", "18:19", "18:26", "18:33", "18:12"]
    for day in 1...21 {
      let date = LocalDate(year: 2026, month: 4, day: 12)!.adding(days: day)
      lines.append("\(date)T\(times[day % 7]):00+02:00,Workout")
    }
    let path = sandbox.file("workouts.csv", lines.joined(separator: "\n") + "\n")
    #expect(sandbox.run("import", path).status == 0)
    #expect(sandbox.run("plan").status == 0)
    let pending = sandbox.run("pending", "--json").json["requests"] as? [[String: Any]] ?? []
    let workout = try #require(
      pending.first { ($0["id"] as? String)?.hasPrefix("routine_Workout") == true })
    let next = try #require(workout["nextFire"] as? String)
    let firing = try #require(Timestamp(iso8601: next))
    #expect(firing.timeOfDay.hour == 18)
    // Worked out at 18:07, in the weekday routine's range (18:05 to 18:33: the weekends, at
    // 17:58 and 18:12, are their own routine) and before the reminder: it stays quiet, and says
    // why.
    #expect(firing.timeOfDay > TimeOfDay(hour: 18, minute: 7)!)
    #expect(sandbox.run("log", "Workout", "--at", "2026-05-04T18:07:00+02:00").status == 0)
    let agenda = run(sandbox, at: "2026-05-04T18:08:00+02:00", "agenda", "--to", "tomorrow").stdout
    #expect(agenda.contains("Time for Workout"), "\(agenda)")
    #expect(agenda.contains("(skipped: Workout logged at 18:07)"), "\(agenda)")
    let delivered = run(
      sandbox,
      at: Timestamp(secondsSince1970: firing.secondsSince1970 + 30, utcOffsetSeconds: 7200).iso8601,
      "deliver")
    #expect(delivered.stdout.isEmpty, "\(delivered.stdout)")
    let history = run(sandbox, at: "2026-05-04T20:00:00+02:00", "history", "--from", "today").stdout
    #expect(history.contains("suppressed"), "\(history)")
    #expect(history.contains("Workout logged at 18:07"))
  }

  // MARK: 4.2 A reminder's id in an answer

  @Test func anAnswerNamingAReminderAnswersItsFiringDeliveredLast() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "workout", "--at", "18:00").status == 0)
    #expect(
      run(sandbox, at: "2026-05-04T18:00:30+02:00", "deliver").stdout.contains(
        "reminder-1-weekday-2"))
    let answered = run(sandbox, at: "2026-05-04T18:05:00+02:00", "respond", "reminder-1", "dismiss")
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout == "Dismissed 'Workout'; nothing logged.\n")
    let history = run(sandbox, at: "2026-05-04T18:06:00+02:00", "history", "--id", "reminder-1")
      .stdout
    #expect(history.contains("answered         reminder-1-weekday-2"), "\(history)")
  }

  @Test func aReminderNoneOfWhoseFiringsCameIsRefusedNamingItsFirings() {
    let sandbox = sandbox()
    #expect(
      sandbox.run("reminders", "add", "--activity", "workout", "--at", "18:00", "--days", "mon,wed")
        .status == 0)
    let refused = run(sandbox, at: "2026-05-04T12:00:00+02:00", "respond", "reminder-1", "done")
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "error: 'reminder-1' is a reminder none of whose firings was delivered yet; answer a firing by its notification's id (reminder-1-weekday-2, reminder-1-weekday-4)\n"
    )
  }

  // MARK: 4.5 A mistaken quick-log answer, undone and answered again

  @Test func aQuickLogAnswerUndoneCanBeAnsweredAgainAndHistorySaysSo() {
    let sandbox = sandbox(now: "2026-05-05T08:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--activity", "noalc", "--at", "09:00").status == 0)
    #expect(run(sandbox, at: "2026-05-05T09:00:30+02:00", "deliver").status == 0)
    let id = "reminder-1-weekday-3"
    #expect(run(sandbox, at: "2026-05-05T09:01:00+02:00", "respond", id, "wild").status == 0)
    #expect(run(sandbox, at: "2026-05-05T09:02:00+02:00", "undo", "--yes").status == 0)
    let corrected = run(sandbox, at: "2026-05-05T09:03:00+02:00", "respond", id, "steady")
    #expect(corrected.status == 0, "\(corrected.stderr)")
    #expect(corrected.stdout == "Logged Alcohol (steady) for Mon 2026-05-04.\n")
    let events =
      sandbox.run("events", "--event", "Alcohol", "--json").json["events"] as? [[String: Any]]
    #expect(events?.map { $0["note"] as? String } == ["steady"])
    let history = run(sandbox, at: "2026-05-05T09:04:00+02:00", "history", "--from", "today").stdout
    #expect(history.contains("'wild' to the firing of Tue 2026-05-05 09:00"), "\(history)")
    #expect(history.contains("(undone: the event it logged was removed)"))
    let json = run(sandbox, at: "2026-05-05T09:04:00+02:00", "history", "--json", "--from", "today")
      .json
    let answers = (json["entries"] as? [[String: Any]] ?? []).filter {
      $0["type"] as? String == "answer"
    }
    #expect(answers.map { $0["undone"] as? Bool } == [true, false])
  }

  // MARK: 4.10 Answers after a snooze, and open after a closing answer

  @Test func doneToTheOriginalAfterSnoozingItStopsTheSnoozedCopy() {
    let sandbox = sandbox()
    #expect(
      sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00", "--style", "alarm").status
        == 0)
    #expect(run(sandbox, at: "2026-05-04T08:00:30+02:00", "deliver").status == 0)
    #expect(
      run(sandbox, at: "2026-05-04T08:01:00+02:00", "respond", "reminder-1", "snooze").status == 0)
    #expect(
      run(sandbox, at: "2026-05-04T08:02:00+02:00", "respond", "reminder-1", "done").status == 0)
    // Neither the snoozed copy nor another ring of the alarm comes.
    for now in ["2026-05-04T08:06:30+02:00", "2026-05-04T08:10:30+02:00"] {
      let delivered = run(sandbox, at: now, "deliver").stdout
      #expect(delivered.isEmpty, "\(now): \(delivered)")
    }
    #expect(!sandbox.run("pending").stdout.contains("alert_"))
  }

  @Test func openingAFiringAfterAClosingAnswerIsTaken() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00").status == 0)
    #expect(run(sandbox, at: "2026-05-04T08:00:30+02:00", "deliver").status == 0)
    #expect(
      run(sandbox, at: "2026-05-04T08:01:00+02:00", "respond", "reminder-1", "dismiss").status == 0)
    let opened = run(sandbox, at: "2026-05-04T08:02:00+02:00", "respond", "reminder-1", "open")
    #expect(opened.status == 0, "\(opened.stderr)")
    let done = run(sandbox, at: "2026-05-04T08:03:00+02:00", "respond", "reminder-1", "done")
    #expect(done.status == 65)
    #expect(done.stderr.contains("was answered 'dismiss' at 08:01 already"))
  }

  /// A reminder's id with --occurrence answers the firing of its request at that time.
  @Test func aReminderIdWithAnOccurrenceAnswersThatFiring() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "NoAlc", "--at", "09:00").status == 0)
    for day in ["04", "05", "06"] {
      #expect(run(sandbox, at: "2026-05-\(day)T09:00:30+02:00", "deliver").status == 0)
    }
    let answered = run(
      sandbox, at: "2026-05-06T10:00:00+02:00", "respond", "reminder-1", "easy", "--occurrence",
      "2026-05-05T09:00:00+02:00", "--json")
    #expect(answered.status == 0, "\(answered.stderr)")
    let history = run(sandbox, at: "2026-05-06T10:01:00+02:00", "history", "--from", "2026-05-01")
    #expect(
      history.stdout.contains(
        "reminder-1-weekday-3  'easy' to the firing of Tue 2026-05-05 09:00"), "\(history.stdout)")
    let none = run(
      sandbox, at: "2026-05-06T10:00:00+02:00", "respond", "reminder-1", "easy", "--occurrence",
      "2026-05-05T09:30:00+02:00")
    #expect(none.status == 65)
    #expect(none.stderr.hasPrefix("error: 'reminder-1' has no firing at Tue 2026-05-05 09:30"))
  }

  /// A reminder's id answers its firing; a refusal names both, with balanced parentheses.
  @Test func aRefusalForAReminderIdNamesItsFiring() {
    let sandbox = sandbox()
    // A quick-log reminder has a request per weekday.
    let added = sandbox.run("reminders", "add", "--activity", "NoAlc", "--at", "08:00")
    #expect(added.status == 0)
    #expect(run(sandbox, at: "2026-05-04T08:00:30+02:00", "deliver").status == 0)
    #expect(
      run(sandbox, at: "2026-05-04T08:01:00+02:00", "respond", "reminder-1", "wild").status == 0)
    let done = run(sandbox, at: "2026-05-04T08:03:00+02:00", "respond", "reminder-1", "steady")
    #expect(done.status == 65)
    #expect(
      done.stderr.hasPrefix(
        "error: 'reminder-1' ('reminder-1-weekday-2', Mon 2026-05-04 08:00) was answered 'wild' at 08:01 already;"
      ), "\(done.stderr)")
  }

  // MARK: 4.4 The snooze button says how long

  @Test func theSnoozeButtonSaysTheSnoozeOfTheSettings() {
    let sandbox = sandbox()
    #expect(sandbox.run("settings", "--snooze", "10").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00").status == 0)
    let delivered = run(sandbox, at: "2026-05-04T08:00:30+02:00", "deliver").stdout
    #expect(delivered.contains(#"{"id":"snooze","title":"Remind me in 10 min"}"#), "\(delivered)")
    #expect(NotificationCategory.snoozeTitle(minutes: 60) == "Remind me in 1 h")
    #expect(NotificationCategory.snoozeTitle(minutes: 1439) == "Again in 1439 min")
    #expect((1...1440).allSatisfy { NotificationCategory.snoozeTitle(minutes: $0).count <= 20 })
  }

  // MARK: 4.9 A preset counts the names of its activity

  @Test func theMindfulnessReminderCountsALoggedMindfulnessAsWellAsMeditation() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "mindfulness").status == 0)
    let logged = run(sandbox, at: "2026-05-04T10:00:00+02:00", "log", "Mindfulness")
    #expect(
      logged.stdout.contains("Skipped reminder-1-weekday-2 at Mon 2026-05-04 20:00"),
      "\(logged.stdout)")
    #expect(run(sandbox, at: "2026-05-04T20:00:30+02:00", "deliver").stdout.isEmpty)
    // The forward check too, for an event imported without the check after logging.
    let path = sandbox.file("m.csv", "timestamp,event\n2026-05-05T09:00:00+02:00,Mindfulness\n")
    #expect(run(sandbox, at: "2026-05-05T19:00:00+02:00", "import", path).status == 0)
    let agenda = run(sandbox, at: "2026-05-05T19:00:00+02:00", "agenda", "--to", "tomorrow").stdout
    #expect(agenda.contains("(skipped: Mindfulness logged at 09:00)"), "\(agenda)")
    #expect(run(sandbox, at: "2026-05-05T20:00:30+02:00", "deliver").stdout.isEmpty)
  }

  /// Past 64 watched kinds the skip check reads the two days once for all kinds instead of a
  /// query per kind; Mindfulness must still count for the mindfulness preset on that path.
  @Test func aLoggedMindfulnessCountsWhenManyKindsAreWatched() throws {
    let sandbox = sandbox()
    let others = (1...70).map { index in
      """
      {"type": "activity", "activity": "Kind \(index)", "style": "notification",
       "schedule": {"repeat": "weekly", "at": "21:00", "days": "daily"}, "lookbackHours": 12}
      """
    }
    let mindfulness = """
      {"type": "activity", "activity": "Meditation", "preset": "mindfulness",
       "style": "notification", "schedule": {"repeat": "weekly", "at": "20:00", "days": "daily"},
       "lookbackHours": 12}
      """
    let file = sandbox.file(
      "many.json",
      #"{"format": "routine-definitions", "version": 1, "reminders": ["#
        + (others + [mindfulness]).joined(separator: ",") + "]}")
    let csv = sandbox.file(
      "m.csv",
      "timestamp,event\n2026-05-05T09:00:00+02:00,Mindfulness\n2026-05-05T10:00:00+02:00,Kind 7\n")
    #expect(run(sandbox, at: "2026-05-05T19:00:00+02:00", "import", csv).status == 0)
    // The reminders come after the events, so no cancellation was made when they were logged:
    // the agenda's forward check alone finds them.
    let imported = sandbox.run("reminders", "import", file)
    #expect(imported.status == 0, "\(imported.stderr)")
    let agenda = run(
      sandbox, at: "2026-05-05T19:00:00+02:00", "agenda", "--to", "2026-05-05 22:00"
    ).stdout
    let lines = agenda.split(separator: "\n")
    #expect(lines.count == 71, "\(agenda)")
    #expect(
      lines.filter { $0.contains(" 20:00 ") && $0.hasSuffix(" logged at 09:00)") }.count == 1,
      "\(agenda)")
    #expect(
      lines.filter { $0.contains("(skipped: Kind 7 logged at 10:00)") }.count == 1, "\(agenda)")
    #expect(lines.filter { $0.contains("(skipped") }.count == 2, "\(agenda)")
  }

  // MARK: 4.8 A time with an offset names a moment, whatever the system's zone

  @Test func aOneTimeReminderGivenWithAnOffsetFiresAtThatMoment() {
    let sandbox = sandbox()
    sandbox.variables["TZ"] = "America/New_York"
    let added = sandbox.run("reminders", "add", "--text", "Test", "--at", "2026-05-04T06:35+00:00")
    #expect(
      added.stdout == "Added reminder-1: \"Test\", once 2026-05-04 08:35.\n", "\(added.stdout)")
    #expect(run(sandbox, at: "2026-05-04T06:35:20Z", "deliver").stdout.contains("\"Test\""))
  }
}
