import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// Undoing mistakes: the last event, a selection of events, a misspelled kind.
struct CorrectionTests {
  /// A sandbox with three events logged by hand and one imported.
  func logged() -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Wake Up", "--at", "06:45").status == 0)
    #expect(sandbox.run("log", "Cofee", "--at", "07:10", "--value", "2").status == 0)
    #expect(sandbox.run("log", "Coffee", "--at", "08:10").status == 0)
    let file = sandbox.file("old.csv", "timestamp,event\n2026-04-26T07:00:00+02:00,Coffee\n")
    #expect(sandbox.run("import", file).status == 0)
    return sandbox
  }

  @Test func undoRevertsTheLastChangeOneAtATime() {
    let sandbox = logged()
    let first = sandbox.run("undo", "--yes")
    #expect(first.stdout.hasPrefix("Undid 'import "), "\(first.stdout)")
    #expect(first.stdout.hasSuffix("old.csv' of 2026-04-27 09:00 (1 event added).\n"))
    let second = sandbox.run("undo", "--json")
    #expect(second.json["undone"] as? Bool == true)
    let changes = second.json["changes"] as? [[String: Any]]
    #expect(changes?.first?["command"] as? String == "log Coffee --at 08:10")
    #expect(
      sandbox.run("events").stdout
        == "2026-04-27T06:45:00+02:00  Wake Up  (cli)\n2026-04-27T07:10:00+02:00  Cofee  value=2  (cli)\n"
    )
  }

  @Test func undoAsksOnATerminalAndDoesItWithoutOne() throws {
    let sandbox = logged()
    #expect(sandbox.run("undo").status == 0)
    sandbox.interactiveAnswers = ["n"]
    let declined = sandbox.run("undo")
    #expect(
      declined.stderr
        == "Undo 'log Coffee --at 08:10' of 2026-04-27 09:00 (1 event added, 1 kind added)? [y/N] ")
    #expect(declined.stdout == "Nothing undone.\n")
    sandbox.interactiveAnswers = ["y"]
    #expect(
      sandbox.run("undo").stdout
        == "Undid 'log Coffee --at 08:10' of 2026-04-27 09:00 (1 event added, 1 kind added).\n")
    // Without a terminal it does not ask: it says what it reverted.
    let script = try sandbox.runBinary("undo")
    #expect(script.status == 0)
    #expect(
      script.stdout
        == "Undid 'log Cofee --at 07:10 --value 2' of 2026-04-27 09:00 (1 event added, 1 kind added).\n"
    )
    #expect(script.stderr == "")
    #expect(!sandbox.run("events").stdout.contains("Cofee"))
  }

  @Test func undoWithNothingRecordedSaysSo() {
    let sandbox = Sandbox()
    let undo = sandbox.run("undo")
    #expect(undo.status == 0)
    #expect(undo.stdout == "Nothing to undo: no change is recorded.\n")
  }

  @Test func deletingASelectionListsItAndDeletesExactlyThat() {
    let sandbox = logged()
    let deleted = sandbox.run("events", "delete", "--event", "coffee", "--from", "today", "--yes")
    #expect(
      deleted.stdout
        == "2026-04-27T08:10:00+02:00  Coffee  (cli)\nDeleted 1 event.\n")
    #expect(
      sandbox.run("events", "--event", "coffee").stdout
        == "2026-04-26T07:00:00+02:00  Coffee  (import)\n")
    let none = sandbox.run("events", "delete", "--from", "2030-01-01", "--yes")
    #expect(none.stdout == "No events match; nothing deleted.\n")
    let everything = sandbox.run("events", "delete", "--yes")
    #expect(everything.status == 64)
    #expect(
      everything.stderr.hasPrefix(
        "error: say which events to delete with --from, --to, --event or --last"))
  }

  @Test func renamingFixesATypoAndMergingAsksFirst() throws {
    let sandbox = logged()
    let refused = try sandbox.runBinary("kinds", "rename", "cofee", "Coffee")
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("Merge 'Cofee' into 'Coffee'?"))
    let merged = sandbox.run("kinds", "rename", "cofee", "Coffee", "--yes")
    #expect(merged.stdout == "Merged 'Cofee' into 'Coffee': 1 event moved, 0 duplicates dropped.\n")
    let renamed = sandbox.run("kinds", "rename", "wake up", "Woke Up")
    #expect(renamed.stdout == "Renamed 'Wake Up' to 'Woke Up' (1 event).\n")
    #expect(
      sandbox.run("kinds").stdout
        == "  Coffee   3 events  2026-04-26 to 2026-04-27\n  Woke Up  1 event   2026-04-27 to 2026-04-27\n"
    )
    let unknown = sandbox.run("kinds", "rename", "Coffe", "Tea")
    #expect(unknown.status == 65)
    #expect(
      unknown.stderr == "error: there is no kind 'Coffe' in the store; did you mean 'Coffee'?\n")
    // A kind whose only event was undone is not listed, and cannot be renamed either.
    #expect(sandbox.run("log", "Tae").status == 0)
    #expect(sandbox.run("undo", "--yes").status == 0)
    #expect(!sandbox.run("kinds").stdout.contains("Tae"))
    let gone = sandbox.run("kinds", "rename", "Tae", "Tea")
    #expect(gone.status == 65)
    #expect(gone.stderr.hasPrefix("error: there is no kind 'Tae' in the store"), "\(gone.stderr)")
  }
}

/// Times as people type them.
struct TimeWordTests {
  @Test(arguments: [
    ("today", "2026-04-27T00:00:00+02:00"), ("yesterday", "2026-04-26T00:00:00+02:00"),
    ("Yesterday 23:10", "2026-04-26T23:10:00+02:00"), ("07:05", "2026-04-27T07:05:00+02:00"),
    ("7:05", "2026-04-27T07:05:00+02:00"), ("07:05:30", "2026-04-27T07:05:30+02:00"),
    ("22:00", "2026-04-27T22:00:00+02:00"), ("tomorrow", "2026-04-28T00:00:00+02:00"),
    ("2026-04-20T7:05", "2026-04-20T07:05:00+02:00"),
  ])
  func rangeBoundsTakeDaysWordsAndTimesOfToday(text: String, expected: String) throws {
    let now = try #require(Timestamp(iso8601: "2026-04-27T09:00:00+02:00"))
    let zone = Zone(foundation: try #require(TimeZone(identifier: "Europe/Berlin")))
    let parsed = try TimeArgument.parse(
      text, option: "from", now: now.date, zone: zone, timeOfDay: .today, command: nil)
    #expect(parsed.iso8601 == expected)
  }

  @Test(arguments: [
    ("07:05:30", "2026-04-27T07:05:30+02:00"), ("22:00", "2026-04-26T22:00:00+02:00"),
    ("yesterday 7:05", "2026-04-26T07:05:00+02:00"),
  ])
  func logAtTakesTheLatestPastTimeWithOrWithoutSeconds(text: String, expected: String) {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    let event = sandbox.run("log", "Tea", "--at", text, "--json").json["event"] as? [String: Any]
    #expect(event?["timestamp"] as? String == expected)
  }

  @Test(arguments: ["25:00", "7:5", "07:05:61", "today 13pm", "yesterday7:00", "0am", "fri fri"])
  func nonsenseIsAUsageError(text: String) {
    let result = Sandbox().run("events", "--from", text)
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix(
        "error: --from: expected \(TimeArgument.expectedForms), found '\(text)'\n"))
  }

  @Test(arguments: ["2026-02-30", "2026-02-30 09:00", "2026-13-01T07:00"])
  func aDayThatDoesNotExistIsNamed(text: String) {
    let result = Sandbox().run("events", "--from", text)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: --from: there is no day \(text.prefix(10))\n"))
  }

  @Test func eventsLastShowsTheLatestInTimeOrder() {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    for time in ["06:00", "07:00", "08:00"] { _ = sandbox.run("log", "Tea", "--at", time) }
    #expect(
      sandbox.run("events", "--last", "2").stdout
        == "2026-04-27T07:00:00+02:00  Tea  (cli)\n2026-04-27T08:00:00+02:00  Tea  (cli)\n")
    #expect(sandbox.run("events", "--last", "0").status == 64)
    #expect(
      sandbox.run("events", "--from", "07:30").stdout == "2026-04-27T08:00:00+02:00  Tea  (cli)\n")
  }
}

/// Empty states, hints and the small things of issue 7.
struct MessageTests {
  @Test func aStoreWhoseEventsAreOlderThanTheWindowSaysSoAndSuggestsNow() {
    let sandbox = Sandbox(now: "2026-11-21T10:00:00+01:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    let result = sandbox.run("analyze")
    #expect(!result.stdout.contains("none yet"))
    #expect(
      result.stdout.hasSuffix(
        "\n  none: the store's events run from 2026-03-02 to 2026-04-26, outside the window (2026-11-14 to 2026-11-20); try --now 2026-04-27T00:00:00+02:00.\n"
      ), "\(result.stdout)")
    #expect(result.stderr == "")
    // Beside JSON, the same sentence is a warning.
    #expect(
      sandbox.run("analyze", "--json").stderr
        == "warning: the store's events run from 2026-03-02 to 2026-04-26, outside the window (2026-11-14 to 2026-11-20); try --now 2026-04-27T00:00:00+02:00\n"
    )
    let plan = sandbox.run("plan")
    #expect(plan.status == 0)
    #expect(
      plan.stdout.hasSuffix(
        "\nNo routine: the store's events run from 2026-03-02 to 2026-04-26, outside the window (2026-11-14 to 2026-11-20); log or import recent ones ('routine analyze --now 2026-04-27T00:00:00+02:00' shows what the old ones teach).\n"
      ), "\(plan.stdout)")
  }

  @Test func routinesLearnedFromBeforeAnEmptyWindowSaySo() {
    // The sample's events end on Sunday 2026-04-26; three weeks later the window is empty, but
    // the last days with events within the six-week horizon still teach the weekday routines.
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    let later = Sandbox(now: "2026-05-20T06:00:00+02:00")
    #expect(later.run("import", sample).status == 0)
    for arguments in [["analyze"], ["analyze", "--json"], ["analyze", "--log", sample]] {
      let result = later.run(arguments)
      #expect(result.status == 0)
      #expect(result.stdout.contains("Wake Up"), "\(arguments)")
      #expect(
        result.stderr
          == "warning: no events from 2026-05-13 to 2026-05-19; these routines are learned from "
          + "the days with events before, the last on Sun 2026-04-26\n"
          // A log analysed on its own plans no reminders: only the lowering is said.
          + (arguments.contains("--log")
            ? "warning: nothing logged since Sun 2026-04-26: confidences lowered by 23 silent days\n"
            : "warning: nothing logged since Sun 2026-04-26: learned reminders pause until you "
              + "log again (confidences lowered by 23 silent days)\n"),
        "\(arguments)")
    }
    // Twenty-three silent days leave every confidence near nothing (a half-life of 3 days).
    let silent = later.run("analyze", "--json").json
    let confidences = (silent["routines"] as? [[String: Any]] ?? []).compactMap {
      $0["confidence"] as? Double
    }
    #expect(!confidences.isEmpty && confidences.allSatisfy { $0 < 0.01 })
    #expect((silent["silence"] as? [String: Any])?["pausesLearned"] as? Bool == true)
    // An event logged today is not in the window, which ends yesterday: the warning stays.
    #expect(later.run("log", "Coffee", "--at", "05:30").status == 0)
    let logged = later.run("analyze")
    #expect(logged.stderr.hasPrefix("warning: no events from 2026-05-13 to "))
    #expect(!logged.stderr.contains("nothing logged since"))
    // With events in the window, nothing to warn about.
    let now = Sandbox(now: "2026-04-27T06:00:00+02:00")
    #expect(now.run("import", sample).status == 0)
    #expect(now.run("analyze").stderr == "")
  }

  @Test func emptyStatesAreAnswersOnStandardOutput() {
    let sandbox = Sandbox()
    for (command, text) in [
      (
        ["pending"],
        "No pending requests ('routine plan' makes them from your routines, 'routine reminders add' from yours).\n"
      ),
      (["agenda"], "Nothing fires in that range.\n"),
      (["kinds"], "No kinds yet: log or import events first.\n"),
    ] {
      let result = sandbox.run(command)
      #expect(result.stdout == text, "\(command)")
      #expect(result.stderr.isEmpty, "\(command)")
    }
  }

  @Test func turningRemindersOffSaysWhatWasRemoved() {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    #expect(sandbox.run("import", sample).status == 0)
    let count = (sandbox.run("plan", "--json").json["added"] as? [Any])?.count ?? 0
    #expect(count > 0)
    let off = sandbox.run("settings", "--enabled", "false")
    #expect(
      off.stdout.hasSuffix(
        "Smart reminders off: \(count) learned requests removed (snooze and outlier alerts stay).\n"
      ))
    #expect(
      sandbox.run("settings", "--enabled", "false", "--json").json["removedRequests"] is NSNull)
  }

  @Test func arrivalsGetNoReminderAndLongNamesAShortTitle() throws {
    let sandbox = Sandbox(now: "2026-04-27T04:00:00+02:00")
    let long = String(repeating: "Very Long Activity ", count: 6)
    var text = "timestamp,event\n"
    for day in 20...26 {
      text += "2026-04-\(day)T18:00:00+02:00,Arriving Home\n2026-04-\(day)T12:00:00+02:00,\(long)\n"
    }
    #expect(sandbox.run("import", sandbox.file("log.csv", text)).status == 0)
    let added = try #require(sandbox.run("plan", "--json").json["added"] as? [[String: Any]])
    #expect(added.count == 1)
    let title = try #require(added.first?["title"] as? String)
    #expect(title.count == ReminderMessages.maximumTitleLength && title.hasSuffix("…"))
  }
}
