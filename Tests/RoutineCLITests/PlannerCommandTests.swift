import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

struct PlannerCommandTests {
  /// A sandbox holding the bundled sample, "now" early on Monday 2026-04-27 in Berlin.
  func planned() -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    return sandbox
  }

  @Test func planIsIdempotentAndADryRunChangesNothing() throws {
    let sandbox = planned()
    let dry = sandbox.run("plan", "--dry-run", "--json").json
    let wouldAdd = try #require(dry["added"] as? [[String: Any]])
    #expect(!wouldAdd.isEmpty)
    #expect((sandbox.run("pending", "--json").json["requests"] as? [Any])?.isEmpty == true)
    let first = sandbox.run("plan", "--json").json
    #expect((first["added"] as? [Any])?.count == wouldAdd.count)
    let second = sandbox.run("plan", "--json").json
    #expect((second["added"] as? [Any])?.isEmpty == true)
    #expect((second["removed"] as? [Any])?.isEmpty == true)
    #expect((second["replaced"] as? [Any])?.isEmpty == true)
    #expect((second["kept"] as? [String])?.count == wouldAdd.count)
    #expect(
      sandbox.run("plan").stdout.contains("kept      \(wouldAdd.count) requests as they were"))
  }

  @Test func aLongerLeadReplacesEveryLearnedRequestAndTheDryRunSaysSoInColumns() throws {
    let sandbox = planned()
    let planned = try #require(sandbox.run("plan", "--json").json["added"] as? [Any]).count
    #expect(sandbox.run("settings", "--lead", "10").status == 0)
    let lines = sandbox.run("plan", "--dry-run").stdout.split(separator: "\n").dropFirst()
    let replacing = lines.filter { $0.hasPrefix("  would replace") }
    #expect(replacing.count == planned)
    // The identifier column starts after the widest label, on every line.
    for line in replacing { #expect(line.dropFirst(17).hasPrefix("routine_"), "\(line)") }
    #expect(lines.contains { $0.hasPrefix("  kept           0 requests") })
    let wake = try #require(
      (sandbox.run("plan", "--json").json["replaced"] as? [[String: Any]])?.first {
        $0["id"] as? String == "routine_WakeUp-weekday-2"
      })
    let trigger = try #require(wake["trigger"] as? [String: Any])
    #expect(trigger["hour"] as? Int == 6)
    #expect(trigger["minute"] as? Int == 37)
  }

  /// Issue 30: a night on which only the requests' words changed (here the locale's time
  /// format) writes a few lines, counting them, while the JSON still lists each one.
  @Test func aNightWithOnlyNewWordsIsQuietAndTheJSONStillHasEveryRequest() throws {
    let sandbox = planned()
    #expect(sandbox.run("settings", "--locale", "en_US").status == 0)
    #expect(sandbox.run("plan").status == 0)
    #expect(sandbox.run("settings", "--locale", "de_DE").status == 0)
    let dry = sandbox.run("plan", "--dry-run", "--json").json
    let replaced = try #require(dry["replaced"] as? [[String: Any]])
    #expect(replaced.count > 30)
    let lines = sandbox.run("plan").stdout.split(separator: "\n").map(String.init)
    #expect(lines.count <= 4, "\(lines)")
    #expect(!lines.contains { $0.contains("replaced") })
    #expect(
      lines.contains(
        "  reworded  \(replaced.count) requests at the same times (new confidence or reason)"))
    // A new time is still listed, one line each.
    #expect(sandbox.run("settings", "--lead", "10").status == 0)
    let moved = sandbox.run("plan").stdout.split(separator: "\n")
    let all = replaced.count + (dry["kept"] as? [Any] ?? []).count
    #expect(moved.filter { $0.hasPrefix("  replaced  routine_") }.count == all)
  }

  @Test func pendingHasTheDocumentedShapeAndOrder() throws {
    let sandbox = planned()
    _ = sandbox.run("plan")
    let requests = try #require(
      sandbox.run("pending", "--json").json["requests"] as? [[String: Any]])
    let wake = try #require(requests.first { $0["id"] as? String == "routine_WakeUp-weekday-2" })
    #expect(wake["category"] as? String == "routine_reminder")
    #expect(wake["title"] as? String == "Time for Wake Up")
    #expect((wake["body"] as? String)?.hasPrefix("Time to start your day!") == true)
    let trigger = try #require(wake["trigger"] as? [String: Any])
    #expect(trigger["type"] as? String == "calendar")
    #expect(trigger["weekday"] as? Int == 2)
    #expect(trigger["repeats"] as? Bool == true)
    #expect(wake["nextFire"] as? String == "2026-04-27T06:42:00+02:00")
    let metadata = try #require(wake["metadata"] as? [String: Any])
    #expect(metadata["event"] as? String == "Wake Up")
    #expect(metadata["suggestedTime"] as? String == "06:47")
    let fires = requests.compactMap { $0["nextFire"] as? String }
    #expect(fires == fires.sorted())
    // Breakfast and lunch on weekdays come first in the day, so the daily dinner is the kind's
    // third slot.
    let daily = try #require(requests.first { $0["id"] as? String == "routine_Meal-3" })
    #expect((daily["trigger"] as? [String: Any])?["weekday"] == nil)
    #expect(requests.contains { $0["id"] as? String == "routine_Meal-weekday-2" })
  }

  @Test func theAgendaListsEachOccurrenceOfTheNextSevenDaysInOrder() throws {
    let sandbox = planned()
    _ = sandbox.run("plan")
    let requests = try EventStore(path: sandbox.storePath).requests()
    let items = try #require(sandbox.run("agenda", "--json").json["items"] as? [[String: Any]])
    let berlin = Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)
    let now = Timestamp(iso8601: "2026-04-27T04:00:00+02:00")!.secondsSince1970
    let expected = requests.flatMap { request in
      request.trigger.occurrences(from: now, to: now + 7 * 86_400, in: berlin).map {
        ($0, request.id)
      }
    }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    #expect(items.count == expected.count)
    #expect(items.map { $0["id"] as? String } == expected.map(\.1))
    let stamps = items.compactMap { ($0["at"] as? String).flatMap(Timestamp.init(iso8601:)) }
    #expect(stamps.map(\.secondsSince1970) == expected.map(\.0))
    #expect(Set(items.flatMap { $0.keys }) == ["at", "id", "category", "title", "body", "skipped"])
  }

  @Test func theAgendaCrossesTheSpringForwardNightWithoutSkippingOrDoubling() throws {
    let sandbox = Sandbox(now: "2026-03-27T12:00:00+01:00")
    let store = try EventStore(path: sandbox.storePath)
    try store.schedule(
      NotificationRequest(
        id: "routine_Night", origin: .learned, category: .routineReminder, title: "Night",
        body: "b",
        trigger: .calendar(CalendarTrigger(hour: 2, minute: 30)), metadata: nil))
    let items = try #require(
      sandbox.run("agenda", "--to", "2026-03-31", "--json").json["items"] as? [[String: Any]])
    #expect(
      items.map { $0["at"] as? String } == [
        "2026-03-28T02:30:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-30T02:30:00+02:00",
      ])
  }

  @Test func theSettingsZoneComesFirstAndRemindersKeepTheirWallClockWhenItChanges() throws {
    let sandbox = planned()
    _ = sandbox.run("plan")
    #expect(sandbox.run("settings", "--time-zone", "America/New_York").status == 0)
    let result = sandbox.run("pending", "--json", "--tz", "Asia/Kolkata")
    #expect(result.stderr.contains("--tz Asia/Kolkata ignored: the settings say America/New_York"))
    let requests = try #require(result.json["requests"] as? [[String: Any]])
    let wake = try #require(requests.first { $0["id"] as? String == "routine_WakeUp-weekday-2" })
    #expect((wake["nextFire"] as? String)?.hasSuffix("T06:42:00-04:00") == true)
  }

  @Test func settingsShowChangeAndValidate() throws {
    let sandbox = planned()
    let shown = sandbox.run("settings", "--json").json
    #expect(shown["enabled"] as? Bool == true)
    #expect(shown["threshold"] as? Double == 0.6)
    #expect(shown["leadMinutes"] as? Int == 5)
    #expect(shown["bufferMinutes"] as? Int == 10)
    #expect(shown["windowDays"] as? Int == 7)
    #expect(shown["timeZone"] is NSNull)
    let changed = sandbox.run(
      "settings", "--lead", "10", "--threshold", "0.7", "--window", "14", "--json"
    ).json
    #expect(changed["leadMinutes"] as? Int == 10)
    #expect(changed["threshold"] as? Double == 0.7)
    #expect(sandbox.run("settings", "--json").json["windowDays"] as? Int == 14)
    for (option, value) in [
      ("--threshold", "1.5"), ("--lead", "-1"), ("--window", "0"), ("--enabled", "maybe"),
      ("--time-zone", "Mars/Base"),
    ] {
      let result = sandbox.run("settings", option, value)
      #expect(result.status == 64, "\(option) \(value)")
      #expect(result.stderr.hasPrefix("error: \(option):"))
    }
  }

  @Test func turningRemindersOffClearsTheLearnedOnesAndPlanAddsNone() throws {
    let sandbox = planned()
    _ = sandbox.run("plan")
    let store = try EventStore(path: sandbox.storePath)
    let fire = try #require(Timestamp(iso8601: "2026-04-27T04:05:00+02:00")).secondsSince1970
    try store.schedule(
      NotificationRequest.snoozeAlert(
        of: AnswerTarget(
          requestID: "routine_Coffee", occurrence: fire - 300, category: .routineReminder,
          origin: .learned, title: "Time for Coffee", body: "b",
          metadata: RequestMetadata(eventKind: "Coffee")),
        firingAt: fire))
    let off = sandbox.run("settings", "--enabled", "false")
    #expect(off.stdout.contains("learned requests removed"))
    #expect(try store.requests().map(\.origin) == [.snooze])
    #expect((sandbox.run("plan", "--json").json["added"] as? [Any])?.isEmpty == true)
    #expect(sandbox.run("plan").stdout.hasPrefix("Smart reminders are off"))
  }

  @Test func clearTakesExactlyOneOption() throws {
    let sandbox = planned()
    _ = sandbox.run("plan")
    #expect(sandbox.run("clear").status == 64)
    #expect(sandbox.run("clear", "--all", "--learned").status == 64)
    let cleared = sandbox.run("clear", "--learned")
    #expect(cleared.status == 0)
    #expect(cleared.stdout.hasSuffix("learned requests removed.\n"))
    #expect(try EventStore(path: sandbox.storePath).requests().isEmpty)
    #expect(
      sandbox.run("clear", "--delivered").stdout
        == "0 delivered notifications forgotten from the history.\n")
  }
}
