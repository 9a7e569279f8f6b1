import Foundation
import Testing

/// When logging stops (docs/analytics.md, "When logging stops"): `plan` pauses the learned
/// reminders and says why, `status`, `why` and `doctor` say so, and the next logged event
/// brings them back at once.
@Suite struct LoggingStopsTests {
  /// The sample (its last event on Sunday 2026-04-26) imported and planned on the Monday.
  func planned() -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    #expect(sandbox.run("plan").status == 0)
    return sandbox
  }

  func learned(_ sandbox: Sandbox) -> [String] {
    let requests = sandbox.run("pending", "--json").json["requests"] as? [[String: Any]] ?? []
    return requests.compactMap { $0["id"] as? String }.filter { $0.hasPrefix("routine_") }
  }

  @Test func twoSilentDaysKeepTheLearnedRemindersAndThreePauseThem() throws {
    let sandbox = planned()
    let before = learned(sandbox)
    #expect(before.count > 20)
    // Wednesday: Monday and Tuesday silent; one silent day lowers nothing, two a little.
    sandbox.variables["ROUTINE_NOW"] = "2026-04-29T03:00:00+02:00"
    let wednesday = sandbox.run("plan", "--json")
    #expect(wednesday.status == 0)
    #expect(wednesday.json["paused"] is NSNull)
    #expect(!learned(sandbox).isEmpty)
    // Thursday: three silent days.
    sandbox.variables["ROUTINE_NOW"] = "2026-04-30T03:00:00+02:00"
    let thursday = sandbox.run("plan")
    #expect(thursday.status == 0)
    #expect(
      thursday.stdout.hasSuffix(
        "Paused: nothing logged since Sun 2026-04-26: learned reminders pause until you log again.\n"
      ), "\(thursday.stdout)")
    #expect(learned(sandbox).isEmpty)
    let json = sandbox.run("plan", "--json").json
    let paused = try #require(json["paused"] as? [String: Any])
    #expect(paused["lastLogged"] as? String == "2026-04-26")
    #expect(paused["silentDays"] as? Int == 3)
    #expect((json["removed"] as? [Any])?.isEmpty == true)
  }

  @Test func statusWhyAndDoctorSayWhyAndTheNextEventBringsThemBack() throws {
    let sandbox = planned()
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T03:00:00+02:00"
    #expect(sandbox.run("plan").status == 0)
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T09:00:00+02:00"
    #expect(
      sandbox.run("status").stdout == "no reminders · paused: nothing logged since Sun\n")
    #expect(sandbox.run("status", "--json").json["learnedPausedSince"] as? String == "2026-04-26")
    // `why` explains the learned request the plan left out; an unknown one is still unknown.
    let why = sandbox.run("why", "routine_WakeUp-weekday-2")
    #expect(why.status == 0)
    #expect(
      why.stdout.hasPrefix(
        "routine_WakeUp-weekday-2 makes no request now. Paused: nothing logged since Sun 2026-04-26: learned reminders pause until you log again (the nightly plan decided).\n"
      ), "\(why.stdout)")
    let whyJSON = sandbox.run("why", "routine_WakeUp-weekday-2", "--json").json
    #expect((whyJSON["learnedPaused"] as? String)?.hasPrefix("nothing logged since Sun") == true)
    #expect(sandbox.run("why", "reminder-9").status == 65)
    #expect(sandbox.run("pending").stdout.contains("Learned reminders: paused: nothing logged"))
    // `reminders resume` is for another pause, and says which one this is.
    #expect(
      sandbox.run("reminders", "resume", "routine_WakeUp").stdout.contains(
        "Learned reminders are paused for another reason: nothing logged since Sun 2026-04-26"))
    let doctor = sandbox.run("doctor", "--json").json["checks"] as? [[String: Any]] ?? []
    #expect(
      doctor.contains {
        $0["area"] as? String == "learning" && $0["level"] as? String == "warning"
          && ($0["text"] as? String)?.hasPrefix("nothing logged since Sun 2026-04-26") == true
      })
    // One event brings them back in its own transaction, without waiting for the night.
    let logged = sandbox.run("log", "Coffee")
    #expect(logged.status == 0)
    #expect(
      logged.stdout.contains(
        "Learned reminders are back (nothing had been logged since 2026-04-26): "),
      "\(logged.stdout)")
    #expect(!learned(sandbox).isEmpty)
    #expect(sandbox.run("status", "--json").json["learnedPausedSince"] is NSNull)
    #expect(!sandbox.run("status").stdout.contains("paused"))
    // A second event changes nothing more.
    #expect(!sandbox.run("log", "Meal").stdout.contains("are back"))
  }

  @Test func anAnswerThatLogsBringsThemBack() throws {
    let sandbox = planned()
    // A reminder you defined is not paused: it fires, and its Done logs the act.
    #expect(sandbox.run("reminders", "add", "--activity", "Tea", "--at", "09:00").status == 0)
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T03:00:00+02:00"
    #expect(sandbox.run("plan").stdout.contains("Paused: nothing logged since Sun 2026-04-26"))
    #expect(learned(sandbox).isEmpty)
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T09:00:30+02:00"
    let delivered = sandbox.run("deliver", "--sink", "stdout")
    #expect(delivered.stdout.contains("\"title\":\"Time for Tea\""), "\(delivered.stdout)")
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T09:01:00+02:00"
    let answered = sandbox.run("respond", "reminder-1", "done")
    #expect(answered.status == 0, "\(answered.stderr)")
    #expect(answered.stdout.contains("Learned reminders are back"), "\(answered.stdout)")
    #expect(!learned(sandbox).isEmpty)
  }

  @Test func anImportOfRecentEventsBringsThemBackAndOldHistoryDoesNot() {
    let sandbox = planned()
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T03:00:00+02:00"
    #expect(sandbox.run("plan").status == 0)
    sandbox.variables["ROUTINE_NOW"] = "2026-05-01T09:00:00+02:00"
    // Older history: still silent since.
    let old = sandbox.file("old.csv", "timestamp,event\n2026-03-01T08:00:00+01:00,Tea\n")
    #expect(!sandbox.run("import", old).stdout.contains("are back"))
    #expect(learned(sandbox).isEmpty)
    let today = sandbox.file("today.csv", "timestamp,event\n2026-05-01T08:30:00+02:00,Tea\n")
    let imported = sandbox.run("import", today)
    #expect(imported.status == 0)
    #expect(imported.stdout.contains("Learned reminders are back"), "\(imported.stdout)")
    #expect(!learned(sandbox).isEmpty)
  }
}
