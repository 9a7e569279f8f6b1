import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// A trip, end to end (issue 17, docs/delivery.md "A change of zone"): the commands of the
/// issue's reports, with the clock given for each step.
struct TripDeliveryTests {
  func sandbox(_ zone: String, now: String) -> Sandbox {
    let sandbox = Sandbox(now: now, zone: "UTC")
    #expect(sandbox.run("settings", "--time-zone", zone).status == 0)
    return sandbox
  }

  func run(_ sandbox: Sandbox, at now: String, _ arguments: String...) -> Invocation {
    sandbox.run(arguments + ["--now", now])
  }

  func epoch(_ text: String) -> Int64 { Timestamp(iso8601: text)!.secondsSince1970 }

  func history(_ sandbox: Sandbox, at now: String) -> [[String: Any]] {
    let result = sandbox.run("history", "--json", "--now", now, "--from", "2026-03-20")
    return result.json["entries"] as? [[String: Any]] ?? []
  }

  @Test func westwardAnAnsweredAlarmDoesNotRingAgainTheSameDay() {
    let sandbox = sandbox("Europe/Lisbon", now: "2026-03-26T07:00:00Z")
    #expect(
      sandbox.run(
        "reminders", "add", "--text", "Take the pills", "--at", "08:00", "--style", "alarm"
      )
      .status == 0)
    #expect(run(sandbox, at: "2026-03-26T08:00:30Z", "deliver").stdout.contains("Take the pills"))
    #expect(run(sandbox, at: "2026-03-26T08:01:00Z", "respond", "reminder-1", "done").status == 0)
    #expect(
      run(sandbox, at: "2026-03-26T09:00:00Z", "settings", "--time-zone", "America/New_York")
        .status == 0)
    for now in ["2026-03-26T12:00:30Z", "2026-03-26T12:05:30Z", "2026-03-26T12:10:30Z"] {
      let delivered = run(sandbox, at: now, "deliver")
      #expect(delivered.status == 0)
      #expect(delivered.stdout.isEmpty, "\(now): \(delivered.stdout)")
    }
    let entries = history(sandbox, at: "2026-03-26T13:00:00Z")
    #expect(entries.filter { $0["type"] as? String == "delivery" }.count == 1)
    // The agenda says why New York's 08:00 does not come today, and that tomorrow's does.
    let agenda = run(sandbox, at: "2026-03-26T11:00:00Z", "agenda", "--to", "2026-03-28")
    #expect(
      agenda.stdout.contains(
        "Thu 2026-03-26 08:00 -04:00  Take the pills: Every day at 08:00. (skipped: this day's 08:00 came already, at 04:00 (-04:00), before the time zone changed)"
      ), "\(agenda.stdout)")
    #expect(
      agenda.stdout.contains("Fri 2026-03-27 08:00 -04:00  Take the pills: Every day at 08:00.\n"))
    #expect(run(sandbox, at: "2026-03-27T12:00:30Z", "deliver").stdout.contains("Take the pills"))
  }

  @Test func westwardLearnedRemindersAreNotRecordedAgainAtTheirNewTimes() {
    let sandbox = sandbox("Europe/Lisbon", now: "2026-04-28T03:00:00Z")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    #expect(sandbox.run("plan").status == 0)
    // A morning in Lisbon, delivery every few minutes.
    var lisbon = 0
    for minute in stride(from: 0, through: 240, by: 5) {
      let now = Timestamp(
        secondsSince1970: epoch("2026-04-28T04:30:00Z") + Int64(minute) * 60, utcOffsetSeconds: 0)
      lisbon += sandbox.run("deliver", "--now", now.iso8601).stdout.split(separator: "\n").count
    }
    #expect(lisbon > 0)
    let recorded = history(sandbox, at: "2026-04-28T09:00:00Z").count
    #expect(
      run(sandbox, at: "2026-04-28T09:00:00Z", "settings", "--time-zone", "America/New_York")
        .status == 0)
    // The same wall-clock morning again in New York: nothing delivered, nothing recorded.
    for minute in stride(from: 0, through: 240, by: 5) {
      let now = Timestamp(
        secondsSince1970: epoch("2026-04-28T09:30:00Z") + Int64(minute) * 60, utcOffsetSeconds: 0)
      #expect(sandbox.run("deliver", "--now", now.iso8601).stdout.isEmpty)
    }
    #expect(history(sandbox, at: "2026-04-28T14:00:00Z").count == recorded)
  }

  @Test func eastwardTheFiringTheJumpPassedOverIsRecordedNotDropped() {
    let sandbox = sandbox("Europe/Lisbon", now: "2026-03-26T07:00:00Z")
    #expect(
      sandbox.run(
        "reminders", "add", "--text", "Take the pills", "--at", "09:00", "--style", "alarm"
      )
      .status == 0)
    #expect(run(sandbox, at: "2026-03-26T08:29:30Z", "deliver").stdout.isEmpty)
    #expect(
      run(sandbox, at: "2026-03-26T08:30:00Z", "settings", "--time-zone", "Europe/Berlin").status
        == 0)
    #expect(run(sandbox, at: "2026-03-26T08:30:30Z", "deliver").stdout.isEmpty)
    #expect(run(sandbox, at: "2026-03-26T09:00:30Z", "deliver").stdout.isEmpty)
    let entries = history(sandbox, at: "2026-03-26T09:01:00Z")
    #expect(entries.count == 1)
    #expect(entries.first?["outcome"] as? String == "missed")
    #expect(entries.first?["occurrence"] as? String == "2026-03-26T09:00:00+01:00")
    let why = run(sandbox, at: "2026-03-26T09:01:00Z", "why", "reminder-1").stdout
    #expect(why.contains("Thu 2026-03-26 09:00 reminder-1: missed: 30 minutes late"), "\(why)")
  }

  @Test func eastwardByLessThanTheGracePeriodTheFiringComesLate() {
    let sandbox = sandbox("Asia/Kolkata", now: "2026-03-26T00:00:00Z")
    #expect(sandbox.run("reminders", "add", "--text", "Coffee", "--at", "07:30").status == 0)
    #expect(run(sandbox, at: "2026-03-26T01:55:00Z", "deliver").stdout.isEmpty)
    #expect(
      run(sandbox, at: "2026-03-26T01:55:20Z", "settings", "--time-zone", "Asia/Kathmandu").status
        == 0)
    let late = run(sandbox, at: "2026-03-26T01:56:00Z", "deliver").stdout
    #expect(late.contains("\"late\":true"), "\(late)")
    #expect(late.contains("\"occurrence\":\"2026-03-26T07:30:00+05:45\""))
  }

  @Test func aTaskDueAtAWallClockTimeStaysAtItAfterAMove() {
    let sandbox = sandbox("Europe/Lisbon", now: "2026-03-26T07:00:00Z")
    #expect(sandbox.run("tasks", "add", "Send report", "--due", "2026-03-27 12:00").status == 0)
    #expect(
      sandbox.run("reminders", "add", "--task", "Send report", "--before", "1h").status == 0)
    #expect(
      run(sandbox, at: "2026-03-26T09:00:00Z", "settings", "--time-zone", "America/New_York")
        .status == 0)
    let tasks = run(sandbox, at: "2026-03-26T10:00:00Z", "tasks").stdout
    #expect(tasks.contains("due Fri 2026-03-27 12:00"), "\(tasks)")
    let json = run(sandbox, at: "2026-03-26T10:00:00Z", "tasks", "--json").json
    let task = (json["tasks"] as? [[String: Any]])?.first
    #expect(task?["due"] as? String == "2026-03-27T12:00:00-04:00")
    #expect(task?["pinned"] as? Bool == false)
    // Nothing at 07:00 New York (11:00Z, an hour before Lisbon's noon)...
    #expect(run(sandbox, at: "2026-03-27T11:00:30Z", "deliver").stdout.isEmpty)
    // ...but at 11:00 New York, an hour before its noon, saying so.
    let delivered = run(sandbox, at: "2026-03-27T15:00:30Z", "deliver").stdout
    #expect(
      delivered.contains("\"body\":\"Due Fri 2026-03-27 12:00 (in 1 hour).\""), "\(delivered)")
    #expect(delivered.contains("\"occurrence\":\"2026-03-27T11:00:00-04:00\""))
  }

  @Test func aTaskDueAtAnInstantGivenWithAnOffsetKeepsTheInstantAndSaysItsOffset() {
    let sandbox = sandbox("Europe/Lisbon", now: "2026-03-26T07:00:00Z")
    #expect(sandbox.run("tasks", "add", "Call Ana", "--due", "2026-03-27T12:00+00:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--task", "Call Ana", "--before", "1h").status == 0)
    #expect(
      run(sandbox, at: "2026-03-26T09:00:00Z", "settings", "--time-zone", "America/New_York")
        .status == 0)
    #expect(
      run(sandbox, at: "2026-03-26T10:00:00Z", "tasks").stdout.contains(
        "due Fri 2026-03-27 12:00 (+00:00)"))
    let delivered = run(sandbox, at: "2026-03-27T11:00:30Z", "deliver").stdout
    #expect(delivered.contains("\"body\":\"Due Fri 2026-03-27 12:00 (+00:00) (in 1 hour).\""))
    #expect(delivered.contains("\"occurrence\":\"2026-03-27T07:00:00-04:00\""))
  }

  @Test func aDueDateWithoutATimeIsDueAtNine() {
    let sandbox = sandbox("Europe/Berlin", now: "2026-05-01T07:00:00Z")
    let added = sandbox.run("tasks", "add", "Tax return", "--due", "2026-05-31")
    #expect(added.stdout == "Added task-1: Tax return, due Sun 2026-05-31 09:00.\n")
    #expect(
      sandbox.run("reminders", "add", "--task", "Tax return", "--before", "1d", "--style", "alarm")
        .status == 0)
    let agenda = sandbox.run("agenda", "--from", "2026-05-30", "--to", "2026-06-01").stdout
    #expect(agenda.hasPrefix("Sat 2026-05-30 09:00 +02:00  Tax return is due"), "\(agenda)")
  }
}

extension TripDeliveryTests {
  /// Issue 30: after a trip, `history` shows New York's firings at New York's wall-clock time
  /// with their offset, not at Berlin's reading of the instant; home firings stay as they were.
  @Test func historyAfterATripShowsFiringsOnTheClockTheyFiredBy() throws {
    let sandbox = sandbox("Europe/Berlin", now: "2026-03-19T12:00:00Z")
    #expect(sandbox.run("reminders", "add", "--text", "Stretch", "--at", "07:00").status == 0)
    #expect(run(sandbox, at: "2026-03-20T06:00:30Z", "deliver").stdout.contains("Stretch"))
    #expect(
      run(sandbox, at: "2026-03-20T12:00:00Z", "settings", "--time-zone", "America/New_York")
        .status == 0)
    #expect(run(sandbox, at: "2026-03-21T11:00:30Z", "deliver").stdout.contains("Stretch"))
    #expect(
      run(sandbox, at: "2026-03-22T12:00:00Z", "settings", "--time-zone", "Europe/Berlin").status
        == 0)
    let text = run(sandbox, at: "2026-03-22T13:00:00Z", "history", "--from", "2026-03-19")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    let home = try #require(lines.first { $0.contains("2026-03-20") })
    let away = try #require(lines.first { $0.contains("2026-03-21") })
    #expect(home.hasPrefix("Fri 2026-03-20 07:00  "), "\(text.stdout)")
    #expect(away.hasPrefix("Sat 2026-03-21 07:00 -04:00  "), "\(text.stdout)")
    // The columns stay aligned: both lines' labels start in the same place.
    #expect(
      home.range(of: "delivered")?.lowerBound.utf16Offset(in: home)
        == away.range(of: "delivered")?.lowerBound.utf16Offset(in: away))
    let stamps = history(sandbox, at: "2026-03-22T13:00:00Z").compactMap { $0["at"] as? String }
    #expect(stamps == ["2026-03-20T07:00:00+01:00", "2026-03-21T07:00:00-04:00"])
  }
}
