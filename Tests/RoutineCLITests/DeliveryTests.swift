import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// `routine deliver`, `respond`, `history`, `why` and `status`, end to end in-process with a
/// fixed clock (Europe/Berlin; 2026-05-04 is a Monday).
struct DeliveryTests {
  static let zone = "Europe/Berlin"

  func sandbox(now: String = "2026-05-04T07:00:00+02:00") -> Sandbox {
    let sandbox = Sandbox(now: now, zone: Self.zone)
    #expect(sandbox.run("settings", "--time-zone", Self.zone).status == 0)
    return sandbox
  }

  /// The JSON objects `deliver --sink stdout` printed, one per line.
  func notifications(_ invocation: Invocation) -> [[String: Any]] {
    invocation.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  func deliver(_ sandbox: Sandbox, at now: String, _ extra: String...) -> Invocation {
    sandbox.run(["deliver", "--now", now] + extra)
  }

  func history(_ sandbox: Sandbox, now: String) -> [[String: Any]] {
    let result = sandbox.run("history", "--json", "--now", now, "--from", "2026-05-01")
    return result.json["entries"] as? [[String: Any]] ?? []
  }

  // MARK: Deliver

  @Test func eachFiringIsDeliveredOnceWithTheDocumentedFields() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Water", "--at", "09:00").status == 0)
    #expect(deliver(sandbox, at: "2026-05-04T08:59:59+02:00").stdout.isEmpty)
    let first = deliver(sandbox, at: "2026-05-04T09:00:20+02:00")
    #expect(first.status == 0)
    let shown = notifications(first)
    #expect(shown.count == 1)
    let notification = try #require(shown.first)
    #expect(notification["id"] as? String == "reminder-1")
    #expect(notification["occurrence"] as? String == "2026-05-04T09:00:00+02:00")
    #expect(notification["category"] as? String == "reminder")
    #expect(notification["title"] as? String == "Water")
    #expect(notification["late"] as? Bool == false)
    let actions = notification["actions"] as? [[String: String]] ?? []
    #expect(actions.map { $0["id"] } == ["done", "snooze", "dismiss"])
    #expect(actions.allSatisfy { !($0["title"] ?? "").isEmpty })
    // The same minute again, and the next: nothing twice.
    #expect(deliver(sandbox, at: "2026-05-04T09:00:40+02:00").stdout.isEmpty)
    #expect(deliver(sandbox, at: "2026-05-04T09:01:00+02:00").stdout.isEmpty)
    // Tomorrow's firing is another one.
    let tomorrow = notifications(deliver(sandbox, at: "2026-05-05T09:00:05+02:00"))
    #expect(tomorrow.map { $0["occurrence"] as? String } == ["2026-05-05T09:00:00+02:00"])
  }

  @Test func afterDowntimeFiringsWithinTheGraceAreLateAndOlderOnesMissed() throws {
    let sandbox = sandbox()
    for (text, at) in [("A", "09:00"), ("B", "09:20"), ("C", "09:29")] {
      #expect(sandbox.run("reminders", "add", "--text", text, "--at", at).status == 0)
    }
    #expect(deliver(sandbox, at: "2026-05-04T08:00:00+02:00").status == 0)
    // The machine slept from 08:00 to 09:30: A is 30 minutes late (past the 15-minute grace),
    // B 10 minutes (late), C 1 minute (not late: cron's minute).
    let run = notifications(deliver(sandbox, at: "2026-05-04T09:30:00+02:00"))
    #expect(run.map { $0["title"] as? String } == ["B", "C"])
    #expect(run.map { $0["late"] as? Bool } == [true, false])
    let entries = history(sandbox, now: "2026-05-04T09:31:00+02:00")
    let missed = try #require(entries.first { $0["outcome"] as? String == "missed" })
    #expect(missed["id"] as? String == "reminder-1")
    #expect((missed["reason"] as? String)?.contains("30 minutes late") == true)
    // A longer grace delivers what a shorter one missed.
    #expect(sandbox.run("settings", "--grace", "60").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "D", "--at", "10:00").status == 0)
    let later = notifications(deliver(sandbox, at: "2026-05-04T10:45:00+02:00"))
    #expect(later.map { $0["title"] as? String } == ["D"])
    #expect(later.first?["late"] as? Bool == true)
  }

  @Test func aReminderAddedAfterItsTimeStartsTheNextDay() {
    let sandbox = sandbox(now: "2026-05-04T09:05:00+02:00")
    #expect(sandbox.run("reminders", "add", "--text", "Late", "--at", "09:00").status == 0)
    #expect(deliver(sandbox, at: "2026-05-04T09:06:00+02:00").stdout.isEmpty)
    #expect(notifications(deliver(sandbox, at: "2026-05-05T09:00:10+02:00")).count == 1)
  }

  @Test func aFiringThatAZoneChangeMovesIntoThePastIsStillDeliveredLate() {
    // 09:00 in London is 10:00 in Berlin: at 09:40 Berlin time it is ahead; after the zone
    // becomes Berlin's, 09:00 Berlin is 40 minutes past, but within a 60-minute grace.
    let sandbox = sandbox(now: "2026-05-04T06:00:00+02:00")
    #expect(sandbox.run("settings", "--time-zone", "Europe/London", "--grace", "60").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "09:00").status == 0)
    #expect(deliver(sandbox, at: "2026-05-04T09:40:00+02:00").stdout.isEmpty)
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    let run = notifications(deliver(sandbox, at: "2026-05-04T09:41:00+02:00"))
    #expect(run.map { $0["occurrence"] as? String } == ["2026-05-04T09:00:00+02:00"])
    #expect(run.first?["late"] as? Bool == true)
  }

  @Test func aSnoozedAlertIsOneTimeAndRemovedOnceDelivered() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Stretch", "--at", "09:00").status == 0)
    _ = deliver(sandbox, at: "2026-05-04T09:00:05+02:00")
    let snooze = sandbox.run(
      "respond", "reminder-1", "snooze", "--now", "2026-05-04T09:01:00+02:00")
    #expect(snooze.status == 0)
    let alertID =
      "alert_Stretch_\(try #require(Timestamp(iso8601: "2026-05-04T09:06:00+02:00")).secondsSince1970)"
    #expect(sandbox.run("pending").stdout.contains(alertID))
    let run = notifications(deliver(sandbox, at: "2026-05-04T09:06:10+02:00"))
    #expect(run.map { $0["id"] as? String } == [alertID])
    // A reminder you defined keeps its category (and buttons) when snoozed.
    #expect(run.first?["category"] as? String == "reminder")
    #expect(!sandbox.run("pending").stdout.contains(alertID))
    #expect(deliver(sandbox, at: "2026-05-04T09:07:00+02:00").stdout.isEmpty)
  }

  // MARK: Forward check

  @Test func theForwardCheckSuppressesAFiringWhoseActivityIsInItsLookBack() throws {
    // A 48-hour look-back reaches past the 24 hours that cancellations look ahead: Monday's
    // workout cancels nothing on Wednesday, the forward check at fire time skips it.
    let sandbox = sandbox(now: "2026-05-04T10:30:00+02:00")
    #expect(
      sandbox.run(
        "reminders", "add", "--activity", "workout", "--days", "wed", "--at", "09:00",
        "--lookback", "48"
      ).status == 0)
    let logged = sandbox.run("log", "Workout", "--at", "10:00")
    #expect(!logged.stdout.contains("Skipped"))
    #expect(deliver(sandbox, at: "2026-05-06T09:00:10+02:00").stdout.isEmpty)
    let entries = history(sandbox, now: "2026-05-06T09:01:00+02:00")
    let suppressed = try #require(entries.first { $0["type"] as? String == "delivery" })
    #expect(suppressed["outcome"] as? String == "suppressed")
    #expect(suppressed["reason"] as? String == "Workout logged at 10:00")
    // Without the event, the next Wednesday fires.
    #expect(notifications(deliver(sandbox, at: "2026-05-13T09:00:10+02:00")).count == 1)
  }

  @Test func aLogThatCannotBeReadMakesTheReminderFireAndSaysWhy() throws {
    let sandbox = sandbox()
    #expect(
      sandbox.run("reminders", "add", "--activity", "workout", "--at", "18:00").status == 0)
    // The events table gone: the check cannot read the log; the reminder must not stay quiet.
    let store = try EventStore(path: sandbox.storePath)
    try store.connection.execute("ALTER TABLE events RENAME TO events_elsewhere")
    let run = deliver(sandbox, at: "2026-05-04T18:00:05+02:00")
    #expect(run.status == 0)
    #expect(notifications(run).count == 1)
    let entry = try #require(history(sandbox, now: "2026-05-04T18:01:00+02:00").first)
    #expect(entry["outcome"] as? String == "delivered")
    #expect((entry["reason"] as? String)?.contains("could not be read") == true)
    #expect((entry["reason"] as? String)?.contains("delivered anyway") == true)
  }

  // MARK: Sinks

  @Test func anExecSinkGetsTheNotificationAsDataNeverAsCode() throws {
    let sandbox = sandbox()
    let hostile = "$(touch pwned); rm -rf ~"
    #expect(sandbox.run("reminders", "add", "--text", hostile, "--at", "09:00").status == 0)
    let marker = sandbox.directory.appendingPathComponent("keep-me").path
    #expect(FileManager.default.createFile(atPath: marker, contents: Data("x".utf8)))
    let run = deliver(
      sandbox, at: "2026-05-04T09:00:05+02:00", "--sink", "exec", "--exec",
      "printf '%s' \"$ROUTINE_TITLE\" > \"$HOME/seen.txt\"; cat > \"$HOME/stdin.json\"")
    #expect(run.status == 0, "\(run.stderr)")
    let seen = try String(
      contentsOf: sandbox.directory.appendingPathComponent("seen.txt"), encoding: .utf8)
    #expect(seen == hostile)
    let stdin = try Data(contentsOf: sandbox.directory.appendingPathComponent("stdin.json"))
    let object = try JSONSerialization.jsonObject(with: stdin) as? [String: Any]
    #expect(object?["title"] as? String == hostile)
    #expect(
      !FileManager.default.fileExists(
        atPath: sandbox.directory.appendingPathComponent("pwned").path))
    #expect(FileManager.default.fileExists(atPath: marker))
  }

  @Test func anExecCommandAnswersByPrintingAnActionAndItsFailureIsRecorded() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "09:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "Broken", "--at", "10:00").status == 0)
    let answered = deliver(
      sandbox, at: "2026-05-04T09:00:05+02:00", "--sink", "exec", "--exec", "echo done")
    #expect(answered.status == 0)
    #expect(answered.stdout.contains("Logged! Reading recorded at 09:00."))
    #expect(sandbox.run("events", "--event", "Reading").stdout.contains("(notification)"))
    // Something that is not one of its actions answers nothing.
    let ignored = deliver(
      sandbox, at: "2026-05-04T10:00:05+02:00", "--sink", "exec", "--exec", "echo fly; exit 3")
    #expect(ignored.status == 74)
    #expect(ignored.stderr.contains("reminder-2 could not be delivered"))
    #expect(ignored.stderr.contains("exited with status 3"))
    let failed = history(sandbox, now: "2026-05-04T10:01:00+02:00").last {
      $0["type"] as? String == "delivery"
    }
    #expect(failed?["outcome"] as? String == "failed")
    // At most once: a failed firing is not tried again.
    #expect(deliver(sandbox, at: "2026-05-04T10:01:00+02:00").stdout.isEmpty)
  }

  @Test func theNotifySendSinkWithoutNotifySendNamesThePackage() {
    let sandbox = sandbox()
    sandbox.variables["PATH"] = sandbox.directory.path
    let run = deliver(sandbox, at: "2026-05-04T09:00:05+02:00", "--sink", "notify-send")
    #expect(run.status == 69)
    #expect(run.stderr.contains("install libnotify-bin"))
  }

  @Test func sinkOptionsAreChecked() {
    let sandbox = sandbox()
    #expect(deliver(sandbox, at: "2026-05-04T09:00:00+02:00", "--sink", "exec").status == 64)
    #expect(
      deliver(sandbox, at: "2026-05-04T09:00:00+02:00", "--exec", "true").stderr.contains(
        "--exec goes with --sink exec"))
    let typo = deliver(sandbox, at: "2026-05-04T09:00:00+02:00", "--sink", "stdot")
    #expect(typo.status == 64)
    #expect(
      typo.stderr.contains(
        "--sink: expected stdout, exec or notify-send, found 'stdot'; did you mean 'stdout'?"))
  }

  // MARK: Respond

  @Test func answersAreStoredOnceAndUnknownOnesListWhatIsValid() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "09:00").status == 0)
    _ = deliver(sandbox, at: "2026-05-04T09:00:05+02:00")
    let first = sandbox.run(
      "respond", "reminder-1-weekday-2", "done", "--now", "2026-05-04T09:02:00+02:00")
    #expect(first.stdout == "Logged! Reading recorded at 09:02.\n")
    let again = sandbox.run(
      "respond", "reminder-1-weekday-2", "done", "--now", "2026-05-04T09:03:00+02:00", "--json")
    #expect(again.json["recorded"] as? Bool == false)
    #expect(sandbox.run("events", "--event", "Reading").stdout.split(separator: "\n").count == 1)
    let wrong = sandbox.run("respond", "reminder-1-weekday-2", "wild")
    #expect(wrong.status == 65)
    #expect(wrong.stderr.contains("offers done, snooze, dismiss and open, not 'wild'"))
    let unknown = sandbox.run("respond", "reminder-1-weekday-9", "done")
    #expect(unknown.status == 65)
    #expect(unknown.stderr.contains("reminder-1-weekday-9"))
  }

  /// `--occurrence` is a local time in the user's zone (here Berlin, with `TZ=UTC` around it),
  /// and must name a firing that has come; a firing takes one answer, snooze and open aside.
  @Test func anAnswerNamesARealFiringInTheUsersZoneAndClosesIt() throws {
    let sandbox = sandbox()
    sandbox.variables["TZ"] = "UTC"
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "06:41").status == 0)
    _ = deliver(sandbox, at: "2026-05-05T06:41:05+02:00")
    let now = "2026-05-05T07:00:00+02:00"
    func respond(_ action: String, _ occurrence: String, id: String = "reminder-1-weekday-3")
      -> Invocation
    {
      sandbox.run("respond", id, action, "--occurrence", occurrence, "--now", now, "--json")
    }
    let first = respond("snooze", "2026-05-05 06:41")
    #expect(first.status == 0, "\(first.stderr)")
    let answers = sandbox.run("history", "--json", "--now", now, "--from", "2026-05-05").json
    let answered = (answers["entries"] as? [[String: Any]] ?? []).first {
      $0["type"] as? String == "answer"
    }
    #expect(answered?["occurrence"] as? String == "2026-05-05T06:41:00+02:00")
    // Snooze left it open; "done" closes it; after that another answer changes nothing.
    #expect(respond("done", "2026-05-05 06:41").json["recorded"] as? Bool == true)
    let late = respond("dismiss", "2026-05-05 06:41")
    #expect(late.status == 65)
    #expect(late.stderr.contains("was answered 'done' at 07:00 already; a firing takes one answer"))
    // Times that are no firing, or a firing still to come, are refused.
    let wrong = respond("done", "2026-05-05 08:41")
    #expect(wrong.status == 65)
    #expect(
      wrong.stderr.contains(
        "'reminder-1-weekday-3' does not fire at Tue 2026-05-05 08:41; its latest was Tue 2026-05-05 06:41"
      ))
    let ahead = respond("done", "2026-05-06 06:41", id: "reminder-1-weekday-4")
    #expect(ahead.status == 65)
    #expect(ahead.stderr.contains("which has not come yet"))
    #expect(sandbox.run("events", "--event", "Reading").stdout.split(separator: "\n").count == 1)
  }

  /// Two firings answered "done" in the same second log one event, and the second says so.
  @Test func twoAnswersInOneSecondLogOneEventAndSaySo() throws {
    let sandbox = sandbox(now: "2026-05-03T06:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "07:00").status == 0)
    let now = "2026-05-05T08:00:00+02:00"
    let first = sandbox.run(
      "respond", "reminder-1-weekday-2", "done", "--occurrence", "2026-05-04 07:00", "--now", now)
    #expect(first.stdout == "Logged! Reading recorded at 08:00.\n")
    let second = sandbox.run(
      "respond", "reminder-1-weekday-3", "done", "--occurrence", "2026-05-05 07:00", "--now", now)
    #expect(second.stdout == "Reading at 08:00 was logged already; it counts once.\n")
    #expect(sandbox.run("events", "--event", "Reading").stdout.split(separator: "\n").count == 1)
  }

  @Test func anAnswerToARequestRemovedMeanwhileIsStillLogged() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "Reading", "--at", "09:00").status == 0)
    _ = deliver(sandbox, at: "2026-05-04T09:00:05+02:00")
    #expect(sandbox.run("reminders", "remove", "reminder-1", "--yes").status == 0)
    let answer = sandbox.run(
      "respond", "reminder-1-weekday-2", "done", "--now", "2026-05-04T09:05:00+02:00")
    #expect(answer.status == 0, "\(answer.stderr)")
    #expect(answer.stdout.contains("Logged! Reading recorded at 09:05."))
  }

  @Test func noAlcLevelsLogTheEveningBefore() throws {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "noalc").status == 0)
    _ = deliver(sandbox, at: "2026-05-04T09:00:05+02:00")
    let answer = sandbox.run(
      "respond", "reminder-1-weekday-2", "wild", "--now", "2026-05-04T09:10:00+02:00")
    #expect(answer.stdout == "Logged Alcohol (wild) for Sun 2026-05-03.\n")
    #expect(
      sandbox.run("events", "--event", "alcohol").stdout
        == "2026-05-03T23:59:00+02:00  Alcohol  value=2  note=\"wild\"  (notification)\n")
    // The answer was for Sunday: Tuesday's check-in asks about Monday and stays.
    let tuesday = ["agenda", "--from", "2026-05-05", "--to", "2026-05-05 12:00"]
    #expect(
      !sandbox.run(tuesday + ["--now", "2026-05-04T09:10:00+02:00"]).stdout.contains("skipped"))
    // Alcohol logged by hand on Monday evening counts: Tuesday's check-in is cancelled (the
    // design's open question 1).
    #expect(
      sandbox.run("log", "Alcohol", "--value", "1", "--now", "2026-05-04T20:00:00+02:00").status
        == 0)
    #expect(
      sandbox.run(tuesday + ["--now", "2026-05-04T20:00:00+02:00"]).stdout.contains(
        "(skipped: Alcohol logged at 20:00)"))
  }

  // MARK: Alarms

  @Test func anAlarmRingsAgainEveryFiveMinutesUntilAnsweredAtMostSixTimes() throws {
    let sandbox = sandbox()
    #expect(
      sandbox.run("reminders", "add", "--text", "Pills", "--at", "21:00", "--style", "alarm")
        .status == 0)
    var attempts: [Int] = []
    for minute in stride(from: 0, through: 40, by: 1) {
      let now = String(format: "2026-05-04T21:%02d:30+02:00", minute)
      for shown in notifications(deliver(sandbox, at: now)) {
        #expect(shown["alarm"] as? Bool == true)
        attempts.append(shown["attempt"] as? Int ?? -1)
      }
    }
    #expect(attempts == [0, 1, 2, 3, 4, 5, 6])
    // The next evening, answered after the second ring: it stops.
    var rings = 0
    for minute in stride(from: 0, through: 30, by: 1) {
      let now = String(format: "2026-05-05T21:%02d:30+02:00", minute)
      rings += notifications(deliver(sandbox, at: now)).count
      if minute == 6 {
        #expect(
          sandbox.run("respond", "reminder-1", "done", "--now", now).status == 0)
      }
    }
    #expect(rings == 2)
  }

  // MARK: History, why, status

  @Test func whyExplainsWhatBecameOfAFiring() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--activity", "workout", "--at", "18:00").status == 0)
    #expect(
      sandbox.run(
        "log", "Workout", "--at", "2026-05-04 10:00", "--now", "2026-05-04T10:05:00+02:00"
      ).status == 0)
    _ = deliver(sandbox, at: "2026-05-04T18:00:30+02:00")
    let why = sandbox.run("why", "reminder-1-weekday-2", "--now", "2026-05-04T19:00:00+02:00")
    #expect(why.status == 0)
    #expect(why.stdout.contains("from reminder-1, which you defined"))
    #expect(
      why.stdout.contains(
        "next Mon 2026-05-11 18:00: will fire unless Workout is logged in the 12 hours before."))
    #expect(
      why.stdout.contains(
        "Mon 2026-05-04 18:00 reminder-1-weekday-2: not delivered: cancelled when it was logged: Workout logged at 10:00."
      ))
    let unknown = sandbox.run("why", "reminder-1-weekday-22")
    #expect(unknown.status == 65)
    #expect(unknown.stderr.contains("did you mean"))
  }

  /// An unanswered alarm's rings read apart in why: each its number and the time it went out.
  @Test func whyNumbersAnAlarmsRings() {
    let sandbox = sandbox()
    #expect(
      sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00", "--style", "alarm")
        .status == 0)
    for minute in ["00", "05", "10"] {
      _ = deliver(sandbox, at: "2026-05-04T08:\(minute):30+02:00")
    }
    let why = sandbox.run("why", "reminder-1", "--now", "2026-05-04T08:11:00+02:00").stdout
    #expect(
      why.contains("Mon 2026-05-04 08:00 reminder-1: delivered through stdout: no answer yet."),
      "\(why)")
    #expect(
      why.contains(
        "Mon 2026-05-04 08:00 reminder-1: rang again, ring 2 at 08:05 (unanswered alarm) through stdout."
      ), "\(why)")
    #expect(why.contains("ring 3 at 08:10"), "\(why)")
  }

  /// The first delivery run starts delivery: the firings of the days before it are not
  /// recorded, and why says that nothing delivered rather than that nothing came due.
  @Test func theFirstDeliveryRunLooksBackTheGracePeriodAndWhySaysSo() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Pills", "--at", "08:00").status == 0)
    let before = sandbox.run("why", "reminder-1", "--now", "2026-05-06T12:00:00+02:00").stdout
    #expect(
      before.contains(
        "No firing of it is recorded: nothing has delivered reminders from this store yet"),
      "\(before)")
    #expect(deliver(sandbox, at: "2026-05-06T12:00:00+02:00").stdout.isEmpty)
    let after = sandbox.run("why", "reminder-1", "--now", "2026-05-06T12:01:00+02:00").stdout
    #expect(after.contains("No firing of it is recorded yet."), "\(after)")
    // From then on a firing is delivered, or recorded missed after downtime.
    #expect(deliver(sandbox, at: "2026-05-07T08:00:30+02:00").stdout.contains("Pills"))
    _ = deliver(sandbox, at: "2026-05-08T12:00:00+02:00")
    let missed = sandbox.run("why", "reminder-1", "--now", "2026-05-08T12:01:00+02:00").stdout
    #expect(missed.contains("Fri 2026-05-08 08:00 reminder-1: missed"), "\(missed)")
  }

  @Test func statusCountsTodayLeavesOutSkippedFiringsAndNeedsNoStore() {
    let empty = Sandbox(now: "2026-05-04T07:00:00+02:00", zone: Self.zone)
    #expect(empty.run("status").stdout == "no reminders\n")
    #expect(!FileManager.default.fileExists(atPath: empty.storePath))
    let sandbox = sandbox()
    for (text, at) in [("A", "06:00"), ("B", "12:00"), ("C", "20:00")] {
      #expect(sandbox.run("reminders", "add", "--text", text, "--at", at).status == 0)
    }
    #expect(sandbox.run("reminders", "add", "--activity", "workout", "--at", "18:00").status == 0)
    #expect(sandbox.run("log", "Workout", "--now", "2026-05-04T09:00:00+02:00").status == 0)
    let status = sandbox.run("status", "--now", "2026-05-04T09:00:00+02:00")
    #expect(status.stdout == "12:00 B · 2 of 3 left today\n")
    let json = sandbox.run("status", "--json", "--now", "2026-05-04T21:00:00+02:00").json
    #expect(json["today"] as? Int == 3)
    #expect(json["leftToday"] as? Int == 0)
    #expect(json["skippedToday"] as? Int == 1)
    #expect((json["next"] as? [String: Any])?["at"] as? String == "2026-05-05T06:00:00+02:00")
  }

  @Test func clearingTheHistoryKeepsTheClaimsThatPreventRepeats() {
    let sandbox = sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "A", "--at", "08:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--text", "B", "--at", "09:00").status == 0)
    _ = deliver(sandbox, at: "2026-05-04T08:00:05+02:00")
    _ = deliver(sandbox, at: "2026-05-04T09:00:05+02:00")
    let cleared = sandbox.run(
      "clear", "--delivered", "--json", "--now", "2026-05-04T09:01:00+02:00")
    #expect(cleared.json["count"] as? Int == 2)
    #expect(
      sandbox.run("history", "--now", "2026-05-04T09:01:30+02:00").stdout.hasPrefix(
        "Nothing in that range"))
    // B's claim stays: delivery looks back over the grace period and must not repeat it.
    #expect(deliver(sandbox, at: "2026-05-04T09:02:00+02:00").stdout.isEmpty)
  }

  /// Issue 17, 3.3: history cleared at 11:00, then a clock set back to 09:05 (the grace period
  /// of the 09:00 firing): it is not delivered again.
  @Test func aFiringClearedFromTheHistoryIsNotDeliveredAgainWhenTheClockGoesBack() {
    let sandbox = sandbox()
    #expect(
      sandbox.run(
        "reminders", "add", "--text", "Pills", "--at", "09:00", "--now", "2026-05-04T08:00:00+02:00"
      )
      .status == 0)
    #expect(deliver(sandbox, at: "2026-05-04T09:00:30+02:00").stdout.contains("Pills"))
    #expect(
      sandbox.run("clear", "--delivered", "--now", "2026-05-04T11:00:00+02:00").status == 0)
    #expect(deliver(sandbox, at: "2026-05-04T09:05:00+02:00").stdout.isEmpty)
    // Tomorrow's comes as usual.
    #expect(deliver(sandbox, at: "2026-05-05T09:00:30+02:00").stdout.contains("Pills"))
  }
}
