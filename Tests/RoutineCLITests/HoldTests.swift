import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Issue 31: reminders held in quiet hours and while the person is away, with a fixed clock:
/// delivered once when the reason is over, at most `--hold-at-most` late, otherwise missed;
/// alarms and task reminders ring unless their reminder says otherwise.
struct HoldTests {
  static func instant(_ text: String) -> Int64 { Timestamp(iso8601: text)!.secondsSince1970 }

  /// A sandbox in Berlin with quiet hours 21:00-07:30 and the reminders `definitions` (each
  /// the arguments of one `reminders add`), added the day before.
  func sandbox(
    zone: String = "Europe/Berlin", quiet: String = "21:00-07:30", now: String,
    _ definitions: [[String]]
  ) -> Sandbox {
    let sandbox = Sandbox(now: now, zone: zone)
    #expect(sandbox.run("settings", "--time-zone", zone, "--quiet", quiet).status == 0)
    for definition in definitions {
      let added = sandbox.run(["reminders", "add"] + definition)
      #expect(added.status == 0, "\(added.stderr)")
    }
    return sandbox
  }

  /// The titles `deliver` handed to its stdout sink at `now`.
  func delivered(_ sandbox: Sandbox, at now: String) -> [String] {
    let run = sandbox.run("deliver", "--now", now)
    #expect(run.status == 0, "\(run.stderr)")
    return run.stdout.split(separator: "\n").compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["title"]
        as? String
    }
  }

  /// Each delivery row of `history --json` between the two instants: outcome, held reason,
  /// whether it was released.
  func rows(_ sandbox: Sandbox, from: String, now: String) throws -> [(
    id: String, outcome: String, held: String?, released: Bool, reason: String?
  )] {
    let json = sandbox.run("history", "--json", "--from", from, "--now", now).json
    let entries = try #require(json["entries"] as? [[String: Any]])
    return entries.filter { $0["type"] as? String == "delivery" }.map { entry in
      let held = entry["held"] as? [String: Any]
      return (
        entry["id"] as? String ?? "", entry["outcome"] as? String ?? "",
        held?["reason"] as? String, held?["releasedAt"] is String, entry["reason"] as? String
      )
    }
  }

  @Test func aReminderInQuietHoursThatEndPastTheLimitIsMissedAtOnceNotDeliveredNextMorning()
    throws
  {
    // 22:00 in quiet hours 21:00-07:30: they end 9.5 hours later, past the 120-minute limit,
    // so it is missed when it comes due (as the agenda foretold), not hours later.
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00", [["--text", "Stretch", "--at", "22:00"]])
    #expect(delivered(sandbox, at: "2026-11-20T22:00:10+01:00").isEmpty)
    let found = try rows(sandbox, from: "2026-11-20", now: "2026-11-20T22:01:00+01:00")
    #expect(found.map(\.outcome) == ["missed"])
    #expect(found.first?.held == "quiet hours 21:00-07:30")
    #expect(
      found.first?.reason
        == "held past its time (quiet hours 21:00-07:30): they end at 07:30, past the 120-minute limit of 'settings --hold-at-most'"
    )
    // The morning after the quiet hours: nothing comes of it.
    #expect(delivered(sandbox, at: "2026-11-21T07:31:00+01:00").isEmpty)
  }

  @Test func aReminderHeldByQuietHoursThatAreTurnedOffIsMissedPastTheLimit() throws {
    // Held at 06:00 (quiet hours end at 07:30, 90 minutes on: within the limit); quiet hours
    // turned off at 06:05, and no run again until 08:00: the first run sees no reason and
    // starts the settle delay, the next, more than 120 minutes after 06:00, records it missed.
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00", [["--text", "Water", "--at", "06:00"]])
    #expect(delivered(sandbox, at: "2026-11-21T06:00:10+01:00").isEmpty)
    #expect(
      try rows(sandbox, from: "2026-11-21", now: "2026-11-21T06:01:00+01:00").map(\.outcome)
        == ["held"])
    #expect(
      sandbox.run("settings", "--quiet", "off", "--now", "2026-11-21T06:05:00+01:00").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T08:00:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T08:00:01+01:00").isEmpty)
    let found = try rows(sandbox, from: "2026-11-21", now: "2026-11-21T08:02:00+01:00")
    #expect(found.map(\.outcome) == ["missed"])
    #expect(
      found.first?.reason?.hasSuffix(
        "120 minutes late, over the 120-minute limit of 'settings --hold-at-most'") == true,
      "\(found)")
    #expect(delivered(sandbox, at: "2026-11-21T08:03:00+01:00").isEmpty)
  }

  @Test func aMorningReminderIsDeliveredOnceWhenTheQuietHoursEndAfterTheSettleDelay() throws {
    let sandbox = sandbox(now: "2026-11-20T12:00:00+01:00", [["--text", "Water", "--at", "07:10"]])
    #expect(delivered(sandbox, at: "2026-11-21T07:10:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:29:59+01:00").isEmpty)
    // The first run after 07:30 sees the quiet hours over; the settle delay (60 s) counts from it.
    #expect(delivered(sandbox, at: "2026-11-21T07:30:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:30:59+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:31:00+01:00") == ["Water"])
    // Never twice.
    #expect(delivered(sandbox, at: "2026-11-21T07:31:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:32:00+01:00").isEmpty)
    let found = try rows(sandbox, from: "2026-11-21", now: "2026-11-21T08:00:00+01:00")
    #expect(found.count == 1)
    #expect(found.first?.outcome == "delivered" && found.first?.released == true)
    let history = sandbox.run(
      "history", "--from", "2026-11-21", "--now", "2026-11-21T08:00:00+01:00")
    #expect(history.stdout.contains("released"), "\(history.stdout)")
    #expect(
      history.stdout.contains("held 21 minutes: quiet hours 21:00-07:30"), "\(history.stdout)")
    let why = sandbox.run("why", "reminder-1", "--now", "2026-11-21T08:00:00+01:00").stdout
    #expect(
      why.contains("held (quiet hours 21:00-07:30), then delivered through stdout 21 minutes late"),
      "\(why)")
  }

  @Test func withNoSettleDelayTheFirstRunAfterTheQuietHoursDelivers() {
    let sandbox = sandbox(now: "2026-11-20T12:00:00+01:00", [["--text", "Water", "--at", "07:10"]])
    #expect(sandbox.run("settings", "--settle", "0").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T07:10:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:30:00+01:00") == ["Water"])
  }

  @Test func alarmsAndTaskRemindersRingInQuietHoursUnlessTheirReminderSaysHold() throws {
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00",
      [
        ["--text", "Pills", "--at", "22:30", "--style", "alarm"],
        ["--text", "Pills held", "--at", "22:30", "--style", "alarm", "--hold", "on"],
        ["--text", "Never held", "--at", "22:30", "--hold", "off"],
        ["--text", "Usual", "--at", "22:30"],
      ])
    #expect(sandbox.run("tasks", "add", "Taxes", "--due", "2026-11-20 23:30").status == 0)
    #expect(sandbox.run("reminders", "add", "--task", "task-1", "--before", "1h").status == 0)
    #expect(
      Set(delivered(sandbox, at: "2026-11-20T22:30:00+01:00"))
        == ["Pills", "Never held", "Taxes is due"], "the task reminder fires at 22:30 too")
    let found = try rows(sandbox, from: "2026-11-20", now: "2026-11-20T22:31:00+01:00")
    // Held, and at once missed: the quiet hours end at 07:30, past the limit.
    #expect(Set(found.filter { $0.held != nil }.map(\.id)) == ["reminder-2", "reminder-4"])
    #expect(Set(found.filter { $0.held != nil }.map(\.outcome)) == ["missed"])
    // The reminder's choice is kept in its definition and in exports.
    let exported = sandbox.run("reminders", "export").stdout
    #expect(exported.contains("\"hold\":\"on\"") || exported.contains("\"hold\": \"on\""))
  }

  @Test func aHeldAlarmRingsAgainFiveMinutesAfterItsReleaseNotAtOnce() {
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00",
      [["--text", "Pills", "--at", "07:00", "--style", "alarm", "--hold", "on"]])
    #expect(sandbox.run("settings", "--settle", "0").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T07:00:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:30:00+01:00") == ["Pills"])
    #expect(delivered(sandbox, at: "2026-11-21T07:31:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:34:59+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:35:00+01:00") == ["Pills"])
  }

  @Test func anActLoggedWhileHeldMeansItIsNotDeliveredAfterwards() throws {
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00",
      [["--activity", "Meditation", "--at", "07:00", "--lookback", "3"]])
    #expect(sandbox.run("settings", "--settle", "0").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T07:00:00+01:00").isEmpty)
    #expect(sandbox.run("log", "Meditation", "--at", "2026-11-21T07:20:00+01:00").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T07:30:00+01:00").isEmpty)
    let found = try rows(sandbox, from: "2026-11-21", now: "2026-11-21T08:00:00+01:00")
    #expect(found.map(\.outcome) == ["suppressed"])
    #expect(found.first?.held == "quiet hours 21:00-07:30")
  }

  @Test func aReminderRemovedWhileHeldIsNotDelivered() throws {
    let sandbox = sandbox(now: "2026-11-20T12:00:00+01:00", [["--text", "Water", "--at", "07:10"]])
    #expect(delivered(sandbox, at: "2026-11-21T07:10:00+01:00").isEmpty)
    #expect(sandbox.run("reminders", "disable", "reminder-1").status == 0)
    #expect(delivered(sandbox, at: "2026-11-21T07:40:00+01:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-11-21T07:41:00+01:00").isEmpty)
    let found = try rows(sandbox, from: "2026-11-21", now: "2026-11-21T08:00:00+01:00")
    #expect(found.map(\.outcome) == ["cancelled"])
  }

  @Test func quietHoursFollowTheWallClockAcrossTheSpringGap() {
    // Berlin springs from 02:00 to 03:00 on 2026-03-29: the 02:30 reminder fires at 03:00,
    // inside quiet hours 01:00-03:30, and is released after 03:30 (03:31 with the settle delay).
    let sandbox = sandbox(
      quiet: "01:00-03:30", now: "2026-03-28T12:00:00+01:00",
      [["--text", "Night", "--at", "02:30"]])
    #expect(delivered(sandbox, at: "2026-03-29T03:00:30+02:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-03-29T03:30:00+02:00").isEmpty)
    #expect(delivered(sandbox, at: "2026-03-29T03:31:00+02:00") == ["Night"])
  }

  @Test func inAThirtyMinuteZoneTheQuietHoursEndOnItsOwnClock() {
    // Adelaide is UTC+10:30 in summer: 07:30 there is 21:00 UTC the day before.
    let sandbox = sandbox(
      zone: "Australia/Adelaide", now: "2026-01-10T12:00:00+10:30",
      [["--text", "Water", "--at", "07:10"]])
    #expect(sandbox.run("settings", "--settle", "0").status == 0)
    #expect(delivered(sandbox, at: "2026-01-10T20:40:00Z").isEmpty)
    #expect(delivered(sandbox, at: "2026-01-10T20:59:59Z").isEmpty)
    #expect(delivered(sandbox, at: "2026-01-10T21:00:00Z") == ["Water"])
  }

  @Test func afterAFlightTheQuietHoursAreThoseOfTheZoneYouAreIn() {
    // Held at 22:00 in Berlin by quiet hours 21:00-23:30; an hour later the person is in New
    // York, where it is 17:18: not quiet there, so it is delivered (79 minutes late, within
    // the limit).
    let sandbox = sandbox(
      quiet: "21:00-23:30", now: "2026-11-20T12:00:00+01:00",
      [["--text", "Stretch", "--at", "22:00"]])
    #expect(delivered(sandbox, at: "2026-11-20T22:00:00+01:00").isEmpty)
    #expect(sandbox.run("settings", "--time-zone", "America/New_York").status == 0)
    #expect(delivered(sandbox, at: "2026-11-20T17:18:00-05:00").isEmpty, "settling")
    #expect(delivered(sandbox, at: "2026-11-20T17:19:00-05:00") == ["Stretch"])
  }

  @Test func theAgendaForetellsWhichFiringsTheQuietHoursMakeMissed() {
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00",
      [["--text", "Stretch", "--at", "22:00"], ["--text", "Water", "--at", "07:10"]])
    let agenda = sandbox.run(
      "agenda", "--now", "2026-11-20T12:00:00+01:00", "--to", "2026-11-21T12:00:00+01:00"
    ).stdout
    let lines = agenda.split(separator: "\n")
    #expect(
      lines.contains {
        $0.contains("Stretch")
          && $0.hasSuffix(
            "(skipped: quiet hours 21:00-07:30: held until 07:30, past the 120-minute limit of a hold)"
          )
      }, "\(agenda)")
    // Held 20 minutes, within the limit: it comes, late.
    #expect(lines.contains { $0.contains("Water") && !$0.contains("skipped") }, "\(agenda)")
  }

  @Test func theQuietHoursSettingIsCheckedAndShown() {
    let sandbox = Sandbox(now: "2026-11-20T12:00:00+01:00", zone: "Europe/Berlin")
    for bad in ["21:00", "21:00-21:00", "25:00-07:00", "21:00-07:30-08:00", "nine-five"] {
      let run = sandbox.run("settings", "--quiet", bad)
      #expect(run.status == 64, "\(bad)")
      #expect(run.stderr.contains("--quiet"), "\(bad): \(run.stderr)")
    }
    #expect(sandbox.run("settings", "--quiet", "22:15-06:45").stdout.contains("22:15-06:45"))
    let json = sandbox.run("settings", "--json").json
    #expect(json["quietHours"] as? String == "22:15-06:45")
    #expect(json["holdAtMostMinutes"] as? Int == 120)
    #expect(sandbox.run("settings", "--quiet", "off").stdout.contains("quiet hours     off"))
    for (option, value) in [
      ("--hold-at-most", "0"), ("--hold-at-most", "1441"), ("--hold-while-idle", "-1"),
      ("--settle", "3601"),
    ] {
      #expect(sandbox.run("settings", option, value).status == 64, "\(option) \(value)")
    }
  }

  @Test func theReportCountsAndListsHeldFirings() throws {
    let sandbox = sandbox(
      now: "2026-11-20T12:00:00+01:00",
      [["--text", "Water", "--at", "07:10"], ["--text", "Stretch", "--at", "22:00"]])
    _ = delivered(sandbox, at: "2026-11-20T22:00:00+01:00")
    _ = delivered(sandbox, at: "2026-11-21T00:05:00+01:00")
    _ = delivered(sandbox, at: "2026-11-21T07:10:00+01:00")
    _ = delivered(sandbox, at: "2026-11-21T07:30:00+01:00")
    _ = delivered(sandbox, at: "2026-11-21T07:31:00+01:00")
    let output = sandbox.directory.appendingPathComponent("report.html").path
    let run = sandbox.run("report", "--out", output, "--now", "2026-11-21T08:00:00+01:00")
    #expect(run.status == 0, "\(run.stderr)")
    let page = try String(contentsOfFile: output, encoding: .utf8)
    #expect(page.contains("Held while you were away"))
    #expect(page.contains("released after 21 minutes"))
    #expect(page.contains("missed: held past its time"))
    #expect(page.contains("1 held past its time"))
    #expect(page.contains("1 after a hold"))
  }

  /// `routine watch` with quiet hours: it sleeps until they end (plus the settle delay), not
  /// on a timer, and delivers then.
  @Test func watchWakesWhenTheQuietHoursEndAndWhenTheSettleDelayIsOver() throws {
    let sandbox = sandbox(now: "2026-11-20T12:00:00+01:00", [["--text", "Water", "--at", "07:10"]])
    let store = try EventStore(path: sandbox.storePath)
    let sink = RecordingSink()
    var now = Self.instant("2026-11-21T07:00:00+01:00")
    var sleeps: [Int64] = []
    var watcher = Watcher(
      store: store, context: try WatchTests().context(sandbox), sink: sink, now: { now },
      wait: { until in
        guard sink.delivered.isEmpty else { return .stop(SIGTERM) }
        now = until
        return .time
      })
    watcher.onSleep = { sleeps.append($0) }
    #expect(try watcher.run() == .ok)
    #expect(
      sleeps == [
        Self.instant("2026-11-21T07:10:00+01:00"), Self.instant("2026-11-21T07:30:00+01:00"),
        Self.instant("2026-11-21T07:31:00+01:00"), Self.instant("2026-11-22T03:00:00+01:00"),
      ])
    #expect(sink.delivered.map(\.title) == ["Water"])
  }

  /// `routine watch` while the desktop says the person is away: it reads the desktop again
  /// every few seconds, and delivers a settle delay after they are back.
  @Test func watchPollsTheDesktopOnlyWhileSomethingIsHeld() throws {
    let sandbox = Sandbox(now: "2026-11-20T12:00:00+01:00", zone: "Europe/Berlin")
    #expect(
      sandbox.run("settings", "--time-zone", "Europe/Berlin", "--hold-while-idle", "5").status
        == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Water", "--at", "09:00").status == 0)
    let store = try EventStore(path: sandbox.storePath)
    let sink = RecordingSink()
    let back = Self.instant("2026-11-21T09:00:12+01:00")
    var now = Self.instant("2026-11-21T08:00:00+01:00")
    var sleeps: [Int64] = []
    var reads = 0
    var watcher = Watcher(
      store: store, context: try WatchTests().context(sandbox), sink: sink, now: { now },
      wait: { until in
        guard sink.delivered.isEmpty else { return .stop(SIGTERM) }
        now = until
        return .time
      })
    watcher.readPresence = { _ in
      reads += 1
      return (Presence(source: "a test", idleSeconds: now < back ? 900 : 0), [])
    }
    watcher.onSleep = { sleeps.append($0) }
    #expect(try watcher.run() == .ok)
    let nine = Self.instant("2026-11-21T09:00:00+01:00")
    // Asleep until 09:00 (nothing read before), then every 5 s while away, back at 09:00:15's
    // read, delivered 60 s later.
    #expect(sleeps.first == nine)
    #expect(Array(sleeps.dropFirst().prefix(3)) == [nine + 5, nine + 10, nine + 15])
    #expect(sleeps.dropFirst(4).first == nine + 15 + 60)
    #expect(sink.delivered.map(\.title) == ["Water"])
    #expect(reads >= 5 && reads <= 7, "\(reads)")
  }
}
