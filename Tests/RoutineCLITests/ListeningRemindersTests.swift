import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Issue 28, end to end over simulated weeks: reminders that listen (Europe/Berlin; 2026-05-04
/// is a Monday). Each test lives days with the CLI as cron would: a plan at 03:15, deliveries
/// when something falls due, answers and logs.
struct ListeningRemindersTests {
  static let monday = LocalDate(year: 2026, month: 5, day: 4)!

  /// `2026-05-04T07:05:00+02:00` for day `day` after Monday 2026-05-04, at `time`.
  static func at(_ day: Int, _ time: String) -> String {
    "\(monday.adding(days: day))T\(time):00+02:00"
  }

  /// A store with `weeks` of `kind` logged every day (or on weekdays) at `times` in turn, before
  /// Monday 2026-05-04.
  func sandbox(_ kind: String, times: [String], weeks: Int = 4, weekdaysOnly: Bool = false)
    -> Sandbox
  {
    let sandbox = Sandbox(now: Self.at(0, "03:00"), zone: "Europe/Berlin")
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    var lines = ["timestamp,event"]
    for day in -(weeks * 7)..<0 {
      let date = Self.monday.adding(days: day)
      if weekdaysOnly && date.isWeekend { continue }
      lines.append("\(date)T\(times[(day + 100) % times.count]):00+02:00,\(kind)")
    }
    let path = sandbox.file("history.csv", lines.joined(separator: "\n") + "\n")
    #expect(sandbox.run("import", path).status == 0)
    return sandbox
  }

  @discardableResult
  func run(_ sandbox: Sandbox, _ now: String, _ arguments: String...) -> Invocation {
    let result = sandbox.run(arguments + ["--now", now])
    #expect(result.status == 0, "\(arguments) at \(now): \(result.stderr)")
    return result
  }

  /// The pending learned request of `kind`'s next firing, as `pending --json` shows it.
  func next(_ sandbox: Sandbox, _ prefix: String, now: String) -> String? {
    let pending = run(sandbox, now, "pending", "--json").json["requests"] as? [[String: Any]] ?? []
    return pending.filter { ($0["id"] as? String)?.hasPrefix(prefix) == true }
      .compactMap { $0["nextFire"] as? String }.min()
  }

  /// The notifications a delivery run printed.
  func delivered(_ invocation: Invocation) -> [[String: Any]] {
    invocation.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  @Test func aReminderSnoozedDayAfterDayMovesLaterAndSaysWhy() throws {
    let sandbox = sandbox("Wake Up", times: ["06:55", "07:00", "07:05"], weekdaysOnly: true)
    for day in 0..<4 {
      run(sandbox, Self.at(day, "03:15"), "plan")
      let time = try #require(next(sandbox, "routine_WakeUp", now: Self.at(day, "03:16")))
      let notes = delivered(run(sandbox, time, "deliver"))
      let id = try #require(notes.first?["id"] as? String)
      run(sandbox, Self.at(day, "06:59"), "respond", id, "snooze")
      run(sandbox, Self.at(day, "07:12"), "log", "Wake Up")
    }
    let plan = run(sandbox, Self.at(4, "03:15"), "plan").stdout
    #expect(plan.contains("adapted   routine_WakeUp"), "\(plan)")
    #expect(plan.contains("moved 15 min later: you snoozed 4 of the last 4"), "\(plan)")
    let moved = try #require(next(sandbox, "routine_WakeUp", now: Self.at(4, "03:16")))
    let why = run(sandbox, Self.at(4, "03:16"), "why", "routine_WakeUp").stdout
    #expect(why.contains("routine_WakeUp: active"), "\(why)")
    #expect(why.contains("  moved 15 min later: you snoozed 4 of the last 4"), "\(why)")
    // The firings' outcome: snoozed, then acted on.
    #expect(why.contains("snoozed, then acted on"), "\(why)")
    // Adaptation off: the learned time again, at the next plan: the move was 15 minutes, less
    // where the routine's latest usual time stops it.
    run(sandbox, Self.at(4, "03:20"), "settings", "--adapt", "false")
    run(sandbox, Self.at(4, "03:21"), "plan")
    let learned = try #require(next(sandbox, "routine_WakeUp", now: Self.at(4, "03:22")))
    let shift =
      try #require(Timestamp(iso8601: moved)).secondsSince1970
      - (try #require(Timestamp(iso8601: learned))).secondsSince1970
    #expect(shift > 0 && shift <= 900, "\(moved) \(learned)")
  }

  @Test func loggingTheActClosesItsSnoozedCopy() throws {
    let sandbox = sandbox("Coffee", times: ["07:15", "07:20", "07:10"])
    run(sandbox, Self.at(0, "03:15"), "plan")
    let note = try #require(delivered(run(sandbox, Self.at(0, "07:10"), "deliver")).first)
    let id = try #require(note["id"] as? String)
    run(sandbox, Self.at(0, "07:11"), "respond", id, "snooze")
    let logged = run(sandbox, Self.at(0, "07:13"), "log", "Coffee").stdout
    #expect(logged.contains("Removed the snoozed alert_Coffee_"), "\(logged)")
    #expect(logged.contains("Coffee logged at 07:13."), "\(logged)")
    #expect(run(sandbox, Self.at(0, "07:16"), "deliver").stdout.isEmpty)
    let history = run(sandbox, Self.at(0, "20:00"), "history", "--json").json
    let entries = history["entries"] as? [[String: Any]] ?? []
    let first = try #require(
      entries.first { $0["id"] as? String == id && $0["type"] as? String == "delivery" })
    #expect(first["result"] as? String == "snoozed-then-acted")
    #expect(first["resultMinutes"] as? Int == 3)
  }

  @Test func aHabitYouDefinedSupersedesTheLearnedReminderOfItsKind() throws {
    let sandbox = sandbox("Meditation", times: ["21:25", "21:30", "21:35"])
    run(sandbox, Self.at(0, "03:15"), "plan")
    run(sandbox, Self.at(0, "08:00"), "habits", "add", "Meditation", "--window", "21:00-22:00")
    run(sandbox, Self.at(0, "08:01"), "reminders", "add", "--habit", "Meditation")
    let agenda = run(sandbox, Self.at(0, "08:02"), "agenda", "--to", "tomorrow").stdout
    #expect(agenda.contains("Do Meditation"), "\(agenda)")
    #expect(
      agenda.contains(
        "(skipped: superseded: reminder-1, which you defined, reminds of it at 21:00)"),
      "\(agenda)")
    #expect(
      delivered(run(sandbox, Self.at(0, "21:00"), "deliver")).map { $0["id"] as? String } == [
        "reminder-1"
      ])
    #expect(delivered(run(sandbox, Self.at(0, "21:25"), "deliver")).isEmpty)
    let history = run(sandbox, Self.at(0, "22:00"), "history").stdout
    #expect(history.contains("skipped"), "\(history)")
    #expect(
      history.contains("superseded; reminder-1, which you defined, reminds of it at 21:00"),
      "\(history)")
  }

  @Test func weeksDoneOnYourOwnPauseALearnedReminderAndTwoMissedDaysBringItBack() throws {
    let sandbox = sandbox("Coffee", times: ["07:15", "07:20", "07:10", "07:25"])
    var plans = ""
    for day in 0..<7 {
      plans += run(sandbox, Self.at(day, "03:15"), "plan").stdout
      for time in ["07:05", "07:15"] { _ = run(sandbox, Self.at(day, time), "deliver") }
      // Coffee at 07:18, without touching the reminder.
      run(sandbox, Self.at(day, "07:18"), "log", "Coffee")
      _ = run(sandbox, Self.at(day, "07:30"), "deliver")
    }
    // It fired for a week first; then the four weeks before it and the week with it were done
    // on the person's own.
    #expect(!plans.contains("paused"), "\(plans)")
    let plan = run(sandbox, Self.at(7, "03:15"), "plan").stdout
    #expect(plan.contains("paused: done on your own on 14 of the last 14 days"), "\(plan)")
    for day in 7..<9 {
      if day > 7 { run(sandbox, Self.at(day, "03:15"), "plan") }
      run(sandbox, Self.at(day, "07:18"), "log", "Coffee")
      _ = run(sandbox, Self.at(day, "07:40"), "deliver")
    }
    run(sandbox, Self.at(9, "03:15"), "plan")
    let listing = run(sandbox, Self.at(9, "03:16"), "reminders").stdout
    #expect(listing.contains("Learned from your log"), "\(listing)")
    #expect(listing.contains("routine_Coffee"), "\(listing)")
    #expect(listing.contains("paused, strength"), "\(listing)")
    // Paused, it only checks in late in its usual range, and not when done by then.
    let checkIn = try #require(next(sandbox, "routine_Coffee", now: Self.at(9, "03:16")))
    #expect(checkIn > Self.at(9, "07:20"), "\(checkIn)")
    run(sandbox, Self.at(9, "07:12"), "log", "Coffee")
    #expect(delivered(run(sandbox, checkIn, "deliver")).isEmpty)
    // Missed two days in a row: the check-ins fire, and it comes back.
    for day in 10..<12 {
      run(sandbox, Self.at(day, "03:15"), "plan")
      let time = try #require(next(sandbox, "routine_Coffee", now: Self.at(day, "03:16")))
      let notes = delivered(run(sandbox, time, "deliver"))
      #expect(
        notes.first?["body"] as? String
          == "Check-in: Coffee is not logged yet today (usually around 07:17).", "\(notes)")
    }
    let back = run(sandbox, Self.at(12, "03:15"), "plan").stdout
    #expect(back.contains("back from its pause: Coffee was missed 2 days in a row"), "\(back)")
    #expect(next(sandbox, "routine_Coffee", now: Self.at(12, "03:16")) == Self.at(12, "07:12"))
  }

  @Test func ignoredThreeTimesAReminderYouDefinedBacksOffAndAnAnswerBringsItBack() throws {
    let sandbox = Sandbox(now: Self.at(0, "03:00"), zone: "Europe/Berlin")
    run(sandbox, Self.at(0, "03:00"), "settings", "--time-zone", "Europe/Berlin")
    run(sandbox, Self.at(0, "03:01"), "reminders", "add", "--activity", "Stretch", "--at", "07:30")
    for day in 0..<3 {
      run(sandbox, Self.at(day, "03:15"), "plan")
      #expect(delivered(run(sandbox, Self.at(day, "07:30"), "deliver")).count == 1)
    }
    run(sandbox, Self.at(3, "03:15"), "plan")
    let listing = run(sandbox, Self.at(3, "03:16"), "reminders").stdout
    #expect(listing.contains("backing off: every other day"), "\(listing)")
    let agenda = run(sandbox, Self.at(3, "03:16"), "agenda", "--to", Self.at(7, "00:00")).stdout
    let lines = agenda.split(separator: "\n")
    // The last delivery was day 2: day 3 quiet, day 4 fires, day 5 quiet, day 6 fires.
    #expect(lines.count == 4, "\(agenda)")
    #expect(lines[0].contains("(skipped: backing off: every other day)"), "\(agenda)")
    #expect(!lines[1].contains("skipped"), "\(agenda)")
    #expect(lines[2].contains("(skipped: backing off"), "\(agenda)")
    #expect(delivered(run(sandbox, Self.at(3, "07:30"), "deliver")).isEmpty)
    let skipped = run(sandbox, Self.at(3, "08:00"), "history", "--from", "today").stdout
    #expect(skipped.contains("backing off; backing off: every other day"), "\(skipped)")
    run(sandbox, Self.at(4, "03:15"), "plan")
    let note = try #require(delivered(run(sandbox, Self.at(4, "07:30"), "deliver")).first)
    run(sandbox, Self.at(4, "07:31"), "respond", note["id"] as? String ?? "", "done")
    run(sandbox, Self.at(5, "03:15"), "plan")
    #expect(!run(sandbox, Self.at(5, "03:16"), "reminders").stdout.contains("backing off"))
    #expect(delivered(run(sandbox, Self.at(5, "07:30"), "deliver")).count == 1)
    // Off for this reminder: it fires as defined whatever happens.
    run(sandbox, Self.at(5, "08:00"), "reminders", "adapt", "reminder-1", "off")
    #expect(
      run(sandbox, Self.at(5, "08:01"), "reminders", "--json").json["reminders"].map {
        ($0 as? [[String: Any]])?.first?["adapt"] as? String
      } == "off")
  }

  @Test func loggingTheActStopsAnAlarmsRings() throws {
    let sandbox = Sandbox(now: Self.at(0, "08:00"), zone: "Europe/Berlin")
    run(sandbox, Self.at(0, "08:00"), "settings", "--time-zone", "Europe/Berlin")
    run(sandbox, Self.at(0, "08:00"), "habits", "add", "Pills")
    run(
      sandbox, Self.at(0, "08:01"), "reminders", "add", "--habit", "Pills", "--at", "21:00",
      "--style", "alarm")
    #expect(delivered(run(sandbox, Self.at(0, "21:00"), "deliver")).count == 1)
    #expect(delivered(run(sandbox, Self.at(0, "21:05"), "deliver")).first?["attempt"] as? Int == 1)
    run(sandbox, Self.at(0, "21:07"), "log", "Pills")
    #expect(delivered(run(sandbox, Self.at(0, "21:10"), "deliver")).isEmpty)
    #expect(delivered(run(sandbox, Self.at(0, "21:15"), "deliver")).isEmpty)
    let history = run(sandbox, Self.at(0, "22:00"), "history", "--from", "today").stdout
    #expect(history.contains("suppressed again"), "\(history)")
    #expect(history.contains("Pills logged at 21:07"), "\(history)")
  }

  @Test func theDailyCapLetsLearnedRemindersGiveWayFirstAndAlarmsAlwaysRing() throws {
    let sandbox = sandbox("Coffee", times: ["07:15", "07:20", "07:10"])
    run(sandbox, Self.at(0, "03:00"), "settings", "--daily-cap", "1")
    run(
      sandbox, Self.at(0, "03:01"), "reminders", "add", "--text", "Water the plants", "--at",
      "18:00")
    run(
      sandbox, Self.at(0, "03:02"), "reminders", "add", "--text", "Pills", "--at", "21:00",
      "--style", "alarm")
    run(sandbox, Self.at(0, "03:15"), "plan")
    // The learned coffee at 07:10 gives way: the plants, yours, are still to come.
    #expect(delivered(run(sandbox, Self.at(0, "07:10"), "deliver")).isEmpty)
    #expect(delivered(run(sandbox, Self.at(0, "18:00"), "deliver")).count == 1)
    #expect(delivered(run(sandbox, Self.at(0, "21:00"), "deliver")).count == 1)
    let history = run(sandbox, Self.at(0, "22:00"), "history", "--from", "today").stdout
    #expect(
      history.contains(
        "daily cap; the day's cap of 1 reminders was reached (1 you defined still to come)"),
      "\(history)")
  }

  @Test func aMovedRoutineIsFollowedWithinTwoDaysAndTheOldTimeStops() throws {
    let sandbox = sandbox("Leaving Home", times: ["07:28", "07:32", "07:30"], weekdaysOnly: true)
    run(sandbox, Self.at(0, "03:15"), "plan")
    #expect(next(sandbox, "routine_LeavingHome", now: Self.at(0, "03:16")) == Self.at(0, "07:15"))
    // A new job from Monday: leaving at 09:00.
    for day in 0..<2 {
      run(sandbox, Self.at(day, "03:15"), "plan")
      run(sandbox, Self.at(day, "09:01"), "log", "Leaving Home", "--at", Self.at(day, "09:00"))
    }
    let plan = run(sandbox, Self.at(2, "03:15"), "plan").stdout
    #expect(
      plan.contains(
        "moved to 09:00: you did Leaving Home around 09:00 on 2 of the last 4 days it was on"),
      "\(plan)")
    #expect(next(sandbox, "routine_LeavingHome", now: Self.at(2, "03:16")) == Self.at(2, "08:45"))
  }

  /// A store edited by hand with impossible counts works, clamped to what the rules decide.
  @Test func impossibleAdaptationRecordsAreReadWithinTheirBounds() throws {
    let sandbox = sandbox("Coffee", times: ["07:15"])
    run(sandbox, Self.at(0, "03:15"), "plan")
    let store = try EventStore(path: sandbox.storePath)
    try store.connection.execute(
      """
      UPDATE adaptations SET spacing = 99, offset_minutes = 100000, strength = 7, streak = -5,
        state = 'nonsense', anchor_day = 9223372036854775807, computed_day = -3
      """)
    for arguments in [
      ["reminders"], ["why", "routine_Coffee"], ["agenda"], ["pending"], ["plan"], ["status"],
    ] {
      let result = sandbox.run(arguments + ["--now", Self.at(0, "04:00")])
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    let record = try #require(try store.adaptation(key: "routine_Coffee"))
    #expect((1...3).contains(record.spacing))
    #expect(abs(record.offsetMinutes) <= Adaptation.maximumOffsetMinutes)
    #expect(record.strength.map { (0...1).contains($0) } ?? true)
    #expect((record.streak ?? 0) >= 0)
  }

  /// Answers given in one burst days later are each their firing's, once: the record counts
  /// them as answered, and answering again changes nothing.
  @Test func answersGivenDaysLaterInABurstCountOnce() throws {
    let sandbox = sandbox("Coffee", times: ["07:15", "07:20", "07:10"])
    var firings: [(String, String)] = []
    for day in 0..<3 {
      run(sandbox, Self.at(day, "03:15"), "plan")
      let note = try #require(delivered(run(sandbox, Self.at(day, "07:10"), "deliver")).first)
      firings.append((note["id"] as? String ?? "", note["occurrence"] as? String ?? ""))
    }
    for _ in 0..<2 {
      for (id, occurrence) in firings {
        let answer = sandbox.run(
          "respond", id, "dismiss", "--occurrence", occurrence, "--now", Self.at(5, "20:00"))
        #expect(answer.status == 0, "\(answer.stderr)")
      }
    }
    let store = try EventStore(path: sandbox.storePath)
    #expect(try store.answers().count == 3)
    let history = run(
      sandbox, Self.at(5, "21:00"), "history", "--from", Self.at(0, "00:00"), "--json"
    ).json
    let results = (history["entries"] as? [[String: Any]] ?? []).compactMap {
      $0["result"] as? String
    }
    #expect(results == ["dismissed", "dismissed", "dismissed"])
  }

  /// The clock set back (a machine's clock wrong, then corrected): plans at earlier times work
  /// and decide from what is recorded, nothing doubled.
  @Test func aClockSetBackChangesNothingRecordedAndCrashesNothing() throws {
    let sandbox = sandbox("Coffee", times: ["07:15"])
    run(sandbox, Self.at(10, "03:15"), "plan")
    _ = run(sandbox, Self.at(10, "07:10"), "deliver")
    run(sandbox, Self.at(2, "03:15"), "plan")
    _ = run(sandbox, Self.at(2, "07:10"), "deliver")
    run(sandbox, Self.at(10, "07:20"), "plan")
    let store = try EventStore(path: sandbox.storePath)
    let deliveries = try store.deliveries()
    #expect(Set(deliveries.map(\.occurrence)).count == deliveries.count)
  }
}
