import Foundation
import Testing

@testable import RoutineCLI

/// Habits, tasks, and the time rules of the reminders you define (docs/reminders.md,
/// docs/time.md): part of ``DefinitionsTests``, in-process with fixed clocks.
extension DefinitionsTests {
  // MARK: Habits

  @Test func aHabitReminderFiresOnTheHabitsDaysBeforeOrAtItsWindow() throws {
    let sandbox = delivery.sandbox()
    let habit = sandbox.run(
      "habits", "add", "Journal", "--days", "weekdays", "--window", "21:00-22:00")
    #expect(habit.status == 0)
    #expect(habit.stdout == "Added habit-1: Journal, weekly weekdays, 21:00-22:00.\n")
    let habits = try #require(sandbox.run("habits", "--json").json["habits"] as? [Any])
    #expect(
      habits.map { Self.fields($0) } == [
        [
          "id": "habit-1", "name": "Journal", "repeat": "weekly", "days": "weekdays",
          "window": "21:00-22:00", "strength": "0", "streak": "0",
        ]
      ])
    let before = sandbox.run("reminders", "add", "--habit", "Journal", "--before-window", "15")
    #expect(before.status == 0)
    #expect(
      before.stdout
        == "Added reminder-1: habit Journal, the habit's days, 15 min before the window.\n")
    // By id, or by name in any case; the window's start is the default.
    let start = sandbox.run("reminders", "add", "--habit", "habit-1")
    #expect(
      start.stdout == "Added reminder-2: habit Journal, the habit's days, at the window's start.\n")
    #expect(
      sandbox.run("habits").stdout
        == "  habit-1  Journal  weekly weekdays, 21:00-22:00  strength 0%, streak 0 days  reminders: reminder-1, reminder-2\n"
    )
    // Friday to Monday: nothing on the weekend.
    #expect(
      sandbox.agenda("--from", "2026-05-08", "--to", "2026-05-12") == [
        "2026-05-08T20:45:00+02:00 reminder-1", "2026-05-08T21:00:00+02:00 reminder-2",
        "2026-05-11T20:45:00+02:00 reminder-1", "2026-05-11T21:00:00+02:00 reminder-2",
      ])
    let text = sandbox.run("agenda", "--from", "2026-05-08", "--to", "2026-05-09").stdout
    #expect(
      text.hasPrefix(
        "Fri 2026-05-08 20:45 +02:00  Do Journal: Journal is due between 21:00 and 22:00 today.\n"))
    let request = try #require(sandbox.requests().first { $0["id"] as? String == "reminder-1" })
    #expect(request["category"] as? String == "habit_reminder")
    let metadata = try #require(request["metadata"] as? [String: Any])
    #expect(metadata["lookBack"] as? String == "sameDay")
    #expect(metadata["link"] as? String == "habit-1")
  }

  @Test func aHabitReminderAtATimeKeepsToTheHabitsDays() {
    // docs/reminders.md: "A habit reminder inherits the habit's days (or --days of its own)
    // ... and fires at --at TIME".
    let sandbox = delivery.sandbox()
    _ = sandbox.run("habits", "add", "Journal", "--days", "weekdays", "--window", "21:00-22:00")
    let added = sandbox.run("reminders", "add", "--habit", "Journal", "--at", "07:30")
    #expect(added.status == 0)
    #expect(added.stdout == "Added reminder-1: habit Journal, the habit's days at 07:30.\n")
    #expect(
      sandbox.agenda("--from", "2026-05-08", "--to", "2026-05-12") == [
        "2026-05-08T07:30:00+02:00 reminder-1", "2026-05-11T07:30:00+02:00 reminder-1",
      ])
  }

  @Test func aReminderBeforeOrAtTheWindowOfAHabitWithoutOneIsRefusedWithTheReason() {
    let sandbox = delivery.sandbox()
    #expect(sandbox.run("habits", "add", "Floss").stdout == "Added habit-1: Floss, daily.\n")
    let reason =
      "error: cannot add the reminder: the habit 'Floss' has no time window, so there is no window to fire before or at; give it one with 'routine habits edit' or use --at\n"
    for options in [["--before-window", "10"], []] {
      let refused = sandbox.run(["reminders", "add", "--habit", "Floss"] + options)
      #expect(refused.status == 65, "\(options)")
      #expect(refused.stderr == reason, "\(options)")
      #expect(refused.stdout.isEmpty)
    }
    #expect(sandbox.reminders().isEmpty)
    // --at needs no window; --before-window is for habits only, and a habit must exist.
    #expect(sandbox.run("reminders", "add", "--habit", "Floss", "--at", "22:30").status == 0)
    let notHabit = sandbox.run("reminders", "add", "--text", "x", "--before-window", "5")
    #expect(notHabit.status == 64)
    #expect(notHabit.stderr.hasPrefix("error: --before-window applies to habit reminders\n"))
    let missing = sandbox.run("reminders", "add", "--habit", "Yoga")
    #expect(missing.status == 65)
    #expect(missing.stderr == "error: there is no habit 'Yoga'; 'routine habits' lists them\n")
  }

  @Test func loggingTheHabitThatDayCountsAsDoingIt() throws {
    let sandbox = delivery.sandbox(now: "2026-05-04T12:00:00+02:00")
    _ = sandbox.run("habits", "add", "Journal", "--days", "weekdays", "--window", "21:00-22:00")
    _ = sandbox.run("reminders", "add", "--habit", "Journal", "--before-window", "15")
    let logged = sandbox.run("log", "journal", "--at", "11:00")
    #expect(
      logged.stdout.hasSuffix(
        "Skipped reminder-1 at Mon 2026-05-04 20:45: journal logged at 11:00.\n"))
    #expect(
      sandbox.agenda("--to", "2026-05-06") == [
        "2026-05-04T20:45:00+02:00 reminder-1 skipped: journal logged at 11:00",
        "2026-05-05T20:45:00+02:00 reminder-1",
      ])
    #expect(
      sandbox.run("agenda", "--to", "2026-05-05").stdout
        == "Mon 2026-05-04 20:45 +02:00  Do Journal: Journal is due between 21:00 and 22:00 today. (skipped: journal logged at 11:00)\n"
    )
    #expect(delivery.deliver(sandbox, at: "2026-05-04T20:45:10+02:00").stdout.isEmpty)
    let outcome = sandbox.historyEntries(now: "2026-05-04T20:46:00+02:00").first
    #expect(outcome?["outcome"] as? String == "cancelled")
    // A habit's look-back is the same day: last night's entry does not count for today.
    let late = sandbox.run("log", "Journal", "--at", "23:00", "--now", "2026-05-04T23:05:00+02:00")
    #expect(!late.stdout.contains("Skipped"))
    #expect(
      sandbox.agenda("--now", "2026-05-04T23:05:00+02:00", "--to", "2026-05-06") == [
        "2026-05-05T20:45:00+02:00 reminder-1"
      ])
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-05-05T20:45:10+02:00"))
    #expect(fired.map { $0["title"] as? String } == ["Do Journal"])
    #expect(fired.first?["category"] as? String == "habit_reminder")
  }

  @Test func removingAHabitAsksAndRemovesItsRemindersForGood() {
    let sandbox = delivery.sandbox()
    _ = sandbox.run("habits", "add", "Journal", "--window", "21:00-22:00")
    _ = sandbox.run("reminders", "add", "--habit", "Journal", "--before-window", "15")
    _ = sandbox.run("reminders", "add", "--habit", "Journal", "--at", "07:00")
    _ = sandbox.run("reminders", "add", "--text", "Water", "--at", "08:00")
    let script = sandbox.run("habits", "remove", "Journal")
    #expect(script.status == 64)
    #expect(
      script.stderr.hasPrefix(
        "error: Remove the habit Journal (habit-1) and its 2 reminders? Standard input is not a terminal: add --yes to confirm"
      ))
    sandbox.interactiveAnswers = ["no"]
    let declined = sandbox.run("habits", "remove", "journal")
    #expect(declined.stderr == "Remove the habit Journal (habit-1) and its 2 reminders? [y/N] ")
    #expect(declined.stdout == "Nothing removed.\n")
    #expect(sandbox.reminders().count == 3)
    sandbox.interactiveAnswers = ["yes"]
    let removed = sandbox.run("habits", "remove", "Journal")
    #expect(removed.status == 0)
    #expect(removed.stdout == "Removed habit-1 and reminder-1, reminder-2.\n")
    sandbox.interactiveAnswers = nil
    #expect(sandbox.reminders().keys.sorted() == ["reminder-3"])
    #expect(sandbox.agenda("--to", "2026-05-05") == ["2026-05-04T08:00:00+02:00 reminder-3"])
    #expect(sandbox.run("habits").stdout.hasPrefix("No habits yet"))
    #expect(sandbox.run("reminders", "show", "reminder-1").status == 65)
    #expect(sandbox.run("habits", "remove", "Journal", "--yes").status == 65)
  }

  // MARK: Tasks

  @Test func aTaskReminderFiresItsOffsetBeforeTheDueDate() throws {
    let sandbox = delivery.sandbox(now: "2026-05-06T12:00:00+02:00")
    let task = sandbox.run("tasks", "add", "Tax", "return", "--due", "2026-05-08 17:00")
    #expect(task.stdout == "Added task-1: Tax return, due Fri 2026-05-08 17:00.\n")
    #expect(
      sandbox.run("tasks", "add", "Passport", "--due", "2026-05-09 10:00", "--json").json["id"]
        as? String == "task-2")
    _ = sandbox.run("tasks", "add", "Bins", "--due", "tomorrow 07:00")
    let adds: [([String], String)] = [
      (["--task", "Tax return"], "Added reminder-1: task Tax return, 1h before due.\n"),
      (
        ["--task", "task-2", "--before", "1d"], "Added reminder-2: task Passport, 1d before due.\n"
      ),
      (["--task", "bins", "--before", "90m"], "Added reminder-3: task Bins, 90m before due.\n"),
    ]
    for (options, line) in adds {
      let added = sandbox.run(["reminders", "add"] + options)
      #expect(added.status == 0)
      #expect(added.stdout == line)
    }
    #expect(
      sandbox.agenda() == [
        "2026-05-07T05:30:00+02:00 reminder-3", "2026-05-08T10:00:00+02:00 reminder-2",
        "2026-05-08T16:00:00+02:00 reminder-1",
      ])
    let text = sandbox.run("agenda").stdout
    #expect(
      text.contains(
        "Fri 2026-05-08 16:00 +02:00  Tax return is due: Due Fri 2026-05-08 17:00 (in 1 hour).\n"))
    #expect(
      text.contains(
        "Fri 2026-05-08 10:00 +02:00  Passport is due: Due Sat 2026-05-09 10:00 (in 1 day).\n"))
    #expect(
      text.contains(
        "Thu 2026-05-07 05:30 +02:00  Bins is due: Due Thu 2026-05-07 07:00 (in 90 minutes).\n"))
    let request = try #require(sandbox.requests().first { $0["id"] as? String == "reminder-1" })
    // A wall-clock time, as the due date is (docs/reminders.md, "Tasks").
    #expect(
      Self.fields(request["trigger"]) == ["type": "local", "date": "2026-05-08", "time": "16:00"])
    #expect(sandbox.reminders()["reminder-1"]?["repeating"] as? Bool == false)
    // A task reminder fires --before the due date: no time of its own.
    let at = sandbox.run("reminders", "add", "--task", "Bins", "--at", "10:00")
    #expect(at.status == 64)
    #expect(
      at.stderr.hasPrefix(
        "error: --at does not apply to a task reminder: it fires --before the task's due date\n"))
    #expect(sandbox.run("reminders", "add", "--task", "Bins", "--before", "soon").status == 64)
    #expect(sandbox.run("tasks", "add", "Nothing").status == 64)
  }

  @Test func movingTheDueDateMovesTheReminderAndAnEditedOffsetToo() throws {
    let sandbox = delivery.sandbox(now: "2026-05-06T12:00:00+02:00")
    _ = sandbox.run("tasks", "add", "Tax return", "--due", "2026-05-08 17:00")
    _ = sandbox.run("reminders", "add", "--task", "Tax return", "--before", "1d")
    let moved = sandbox.run("tasks", "edit", "Tax return", "--due", "2026-05-11 12:00")
    #expect(moved.stdout == "Changed task-1: Tax return, due Mon 2026-05-11 12:00.\n")
    #expect(sandbox.agenda("--to", "2026-05-12") == ["2026-05-10T12:00:00+02:00 reminder-1"])
    let request = try #require(sandbox.requests().first)
    #expect(request["nextFire"] as? String == "2026-05-10T12:00:00+02:00")
    #expect(request["body"] as? String == "Due Mon 2026-05-11 12:00 (in 1 day).")
    #expect(
      sandbox.run("reminders").stdout.contains(
        "task Tax return  1d before due  one-time   next Sun 2026-05-10 12:00\n"))
    let offset = sandbox.run("reminders", "edit", "reminder-1", "--before", "2h30m")
    #expect(offset.stdout == "Changed reminder-1: 150m before due.\n")
    #expect(sandbox.agenda("--to", "2026-05-12") == ["2026-05-11T09:30:00+02:00 reminder-1"])
  }

  @Test func aTaskReminderCanBeTurnedOffTheTaskDoneAndDeleted() throws {
    let sandbox = delivery.sandbox(now: "2026-05-04T07:00:00+02:00")
    _ = sandbox.run("tasks", "add", "Taxes", "--due", "2026-05-04 17:00")
    _ = sandbox.run("tasks", "add", "Bins", "--due", "2026-05-05 07:00")
    _ = sandbox.run("reminders", "add", "--task", "Taxes")
    _ = sandbox.run("reminders", "add", "--task", "Bins")
    // Off: no firing, the task stays.
    #expect(sandbox.run("reminders", "disable", "reminder-2").stdout == "reminder-2 is off.\n")
    #expect(sandbox.agenda() == ["2026-05-04T16:00:00+02:00 reminder-1"])
    #expect(sandbox.run("reminders", "enable", "reminder-2").status == 0)
    // Done by hand: its reminders stop; undone, they are back.
    #expect(sandbox.run("tasks", "done", "Bins").stdout == "task-2 (Bins) is done.\n")
    #expect(sandbox.agenda() == ["2026-05-04T16:00:00+02:00 reminder-1"])
    #expect(sandbox.run("reminders").stdout.contains("one-time   no further firing\n"))
    let done = try #require(
      (sandbox.run("tasks", "--json").json["tasks"] as? [[String: Any]])?.last)
    #expect(done["done"] as? String == "2026-05-04T07:00:00+02:00")
    #expect(sandbox.run("tasks", "edit", "Bins", "--undone").status == 0)
    #expect(sandbox.agenda().count == 2)
    // Answering "Done" logs it and marks the task done.
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-05-04T16:00:05+02:00"))
    #expect(fired.map { $0["category"] as? String } == ["task_reminder"])
    let answer = sandbox.run("respond", "reminder-1", "done", "--now", "2026-05-04T16:01:00+02:00")
    #expect(answer.stdout == "Done! Taxes marked done at 16:01.\n")
    #expect(
      sandbox.run("tasks").stdout.contains(
        "Taxes  due Mon 2026-05-04 17:00  done Mon 2026-05-04 16:01"))
    #expect(sandbox.run("events", "--event", "Taxes").stdout.contains("Taxes  (notification)"))
    // Deleted: its reminder goes with it, for good.
    sandbox.interactiveAnswers = ["y"]
    let removed = sandbox.run("tasks", "remove", "Bins")
    #expect(removed.stderr == "Remove the task Bins (task-2) and its 1 reminder? [y/N] ")
    #expect(removed.stdout == "Removed task-2 and reminder-2.\n")
    sandbox.interactiveAnswers = nil
    #expect(sandbox.reminders().keys.sorted() == ["reminder-1"])
    #expect(
      sandbox.run("reminders", "show", "reminder-2").stderr
        == "error: the reminder 'reminder-2' was removed\n")
    #expect(sandbox.run("tasks", "done", "Bins").status == 65)
  }

  // MARK: Time

  @Test func monthlyOnThe31stFiresOnTheLastDayOfShorterMonths() {
    let sandbox = delivery.sandbox(now: "2026-01-10T12:00:00+01:00")
    _ = sandbox.run("reminders", "add", "--text", "Pay the rent", "--day", "31", "--at", "09:00")
    #expect(
      sandbox.agenda("--from", "2026-01-01", "--to", "2026-07-01") == [
        "2026-01-31T09:00:00+01:00 reminder-1", "2026-02-28T09:00:00+01:00 reminder-1",
        "2026-03-31T09:00:00+02:00 reminder-1", "2026-04-30T09:00:00+02:00 reminder-1",
        "2026-05-31T09:00:00+02:00 reminder-1", "2026-06-30T09:00:00+02:00 reminder-1",
      ])
    // A leap year's February has 29 days.
    #expect(
      sandbox.agenda("--from", "2028-02-01", "--to", "2028-03-01")
        == ["2028-02-29T09:00:00+01:00 reminder-1"])
    let april = delivery.notifications(delivery.deliver(sandbox, at: "2026-04-30T09:00:05+02:00"))
    #expect(april.map { $0["occurrence"] as? String } == ["2026-04-30T09:00:00+02:00"])
    #expect(delivery.deliver(sandbox, at: "2026-05-01T09:00:05+02:00").stdout.isEmpty)
  }

  @Test func aOneTimeReminderInTheSpringForwardGapFiresOnceAtItsEnd() {
    let sandbox = delivery.sandbox(now: "2026-03-28T12:00:00+01:00")
    let added = sandbox.run("reminders", "add", "--text", "Gap", "--at", "2026-03-29 02:30")
    // Kept as typed: the time rules resolve it at the firing (docs/reminders.md).
    #expect(added.stdout == "Added reminder-1: \"Gap\", once 2026-03-29 02:30.\n")
    #expect(
      sandbox.agenda("--from", "2026-03-28", "--to", "2026-03-31")
        == ["2026-03-29T03:00:00+02:00 reminder-1"])
    #expect(delivery.deliver(sandbox, at: "2026-03-29T01:59:00+01:00").stdout.isEmpty)
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-03-29T03:00:05+02:00"))
    #expect(fired.map { $0["occurrence"] as? String } == ["2026-03-29T03:00:00+02:00"])
    #expect(delivery.deliver(sandbox, at: "2026-03-29T04:00:05+02:00").stdout.isEmpty)
  }

  @Test func aOneTimeReminderInTheRepeatedHourFiresOnceAtTheFirst() {
    let sandbox = delivery.sandbox(now: "2026-10-24T12:00:00+02:00")
    let added = sandbox.run("reminders", "add", "--text", "Repeat", "--at", "2026-10-25 02:30")
    #expect(added.stdout == "Added reminder-1: \"Repeat\", once 2026-10-25 02:30.\n")
    #expect(
      sandbox.agenda("--from", "2026-10-24", "--to", "2026-10-27")
        == ["2026-10-25T02:30:00+02:00 reminder-1"])
    let fired = delivery.notifications(delivery.deliver(sandbox, at: "2026-10-25T02:30:05+02:00"))
    #expect(fired.map { $0["occurrence"] as? String } == ["2026-10-25T02:30:00+02:00"])
    // The second 02:30, an hour later, is the same wall-clock time: not again.
    #expect(delivery.deliver(sandbox, at: "2026-10-25T02:30:05+01:00").stdout.isEmpty)
    #expect(delivery.deliver(sandbox, at: "2026-10-25T03:30:05+01:00").stdout.isEmpty)
  }

  @Test func remindersInHalfHourZonesFollowTheSameRules() {
    // Lord Howe: +10:30, and +11:00 in summer; the clock moves by 30 minutes.
    let howe = Sandbox(now: "2026-03-01T12:00:00+11:00", zone: "Australia/Lord_Howe")
    #expect(howe.run("settings", "--time-zone", "Australia/Lord_Howe").status == 0)
    _ = howe.run("reminders", "add", "--text", "Gap", "--at", "2026-10-04 02:15")
    _ = howe.run("reminders", "add", "--text", "Repeat", "--at", "2026-04-05 01:45")
    _ = howe.run("reminders", "add", "--text", "Daily", "--at", "02:15")
    #expect(
      howe.agenda("--from", "2026-04-04", "--to", "2026-04-07") == [
        "2026-04-04T02:15:00+11:00 reminder-3", "2026-04-05T01:45:00+11:00 reminder-2",
        "2026-04-05T02:15:00+10:30 reminder-3", "2026-04-06T02:15:00+10:30 reminder-3",
      ])
    #expect(
      howe.agenda("--from", "2026-10-03", "--to", "2026-10-06") == [
        "2026-10-03T02:15:00+10:30 reminder-3", "2026-10-04T02:30:00+11:00 reminder-1",
        "2026-10-04T02:30:00+11:00 reminder-3", "2026-10-05T02:15:00+11:00 reminder-3",
      ])
    // Kolkata: +05:30 all year.
    let kolkata = Sandbox(now: "2026-05-04T07:00:00+05:30", zone: "Asia/Kolkata")
    #expect(kolkata.run("settings", "--time-zone", "Asia/Kolkata").status == 0)
    _ = kolkata.run("reminders", "add", "--text", "Tea", "--at", "09:30")
    _ = kolkata.run("reminders", "add", "--text", "Once", "--at", "2026-05-05 18:45")
    #expect(
      kolkata.agenda("--to", "2026-05-06") == [
        "2026-05-04T09:30:00+05:30 reminder-1", "2026-05-05T09:30:00+05:30 reminder-1",
        "2026-05-05T18:45:00+05:30 reminder-2",
      ])
    let fired = delivery.notifications(delivery.deliver(kolkata, at: "2026-05-04T09:30:05+05:30"))
    #expect(fired.map { $0["occurrence"] as? String } == ["2026-05-04T09:30:00+05:30"])
  }
}

/// Issue 30: a task reminder's text says the real time left at its firing, which a clock change
/// between the firing and the due time shortens or lengthens.
struct TaskTextAtAClockChangeTests {
  func delivered(due: String, before: String, at now: String) throws -> String {
    let sandbox = Sandbox(now: "2026-03-20T12:00:00+01:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(sandbox.run("tasks", "add", "Flight", "--due", due).status == 0)
    #expect(sandbox.run("reminders", "add", "--task", "Flight", "--before", before).status == 0)
    let result = sandbox.run("deliver", "--now", now)
    let line = try #require(result.stdout.split(separator: "\n").first)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    return try #require(json["body"] as? String)
  }

  @Test func anHourBeforeADueTimeJustAfterTheSpringGapIsHalfAnHour() throws {
    // 60 minutes before 03:30 is 02:30, which does not exist: it fires at 03:00 (01:00Z).
    let body = try delivered(due: "2026-03-29 03:30", before: "1h", at: "2026-03-29T01:00:30Z")
    #expect(body == "Due Sun 2026-03-29 03:30 (in 30 minutes).")
  }

  @Test func anHourBeforeADueTimeAfterTheRepeatedHourIsTwoHours() throws {
    // 02:00 before 03:00 on the night clocks go back: the first 02:00 (00:00Z), 03:00 is 02:00Z.
    let body = try delivered(due: "2026-10-25 03:00", before: "1h", at: "2026-10-25T00:00:30Z")
    #expect(body == "Due Sun 2026-10-25 03:00 (in 2 hours).")
  }

  @Test func onAnOrdinaryDayAndForWholeDaysTheLeadIsAsGiven() throws {
    #expect(
      try delivered(due: "2026-03-27 12:00", before: "90m", at: "2026-03-27T09:30:30Z")
        == "Due Fri 2026-03-27 12:00 (in 90 minutes).")
    // A day before 09:00 Monday is 09:00 Sunday, 23 real hours across the change: "1 day".
    #expect(
      try delivered(due: "2026-03-30 09:00", before: "1d", at: "2026-03-29T07:00:30Z")
        == "Due Mon 2026-03-30 09:00 (in 1 day).")
  }
}

extension TaskTextAtAClockChangeTests {
  /// The first delivery run of a store, just after a spring-forward gap, delivers the firing
  /// the gap moved to 03:00: 15 minutes back on the wall clock (02:45) passes over its 02:30.
  @Test func aFirstRunJustAfterTheGapDeliversTheFiringTheGapMoved() throws {
    let sandbox = Sandbox(now: "2026-03-20T12:00:00+01:00", zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "02:30").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-03-29T01:00:30Z").stdout.contains("Pills"))
    #expect(sandbox.run("deliver", "--now", "2026-03-29T01:01:30Z").stdout.isEmpty)
  }
}

/// Issue 30: `tasks` and `habits` list in columns, whatever the names' lengths.
struct AlignedListingTests {
  func column(of word: String, in lines: [Substring]) -> Set<Int> {
    Set(
      lines.compactMap { line in
        line.range(of: word).map { line.distance(from: line.startIndex, to: $0.lowerBound) }
      })
  }

  @Test func tasksAndHabitsLineUpTheirColumns() {
    let sandbox = Sandbox(now: "2026-05-01T08:00:00+02:00", zone: "Europe/Berlin")
    for arguments in [
      ["tasks", "add", "Tax return", "--due", "2026-05-08 17:00"],
      ["tasks", "add", "Bins", "--due", "2026-05-02 07:00"],
      ["reminders", "add", "--task", "Bins", "--before", "1h"],
      ["tasks", "done", "Tax return"],
      ["habits", "add", "Stretch", "--window", "07:00-08:00"],
      ["habits", "add", "Read a long book", "--days", "mon,wed"],
    ] {
      #expect(sandbox.run(arguments).status == 0, "\(arguments)")
    }
    let tasks = sandbox.run("tasks").stdout.split(separator: "\n")
    #expect(tasks.count == 2)
    #expect(column(of: "due ", in: tasks).count == 1, "\(tasks)")
    #expect(column(of: "open", in: tasks).union(column(of: "done ", in: tasks)).count == 1)
    let habits = sandbox.run("habits").stdout.split(separator: "\n")
    #expect(column(of: "strength", in: habits).count == 1, "\(habits)")
  }
}
