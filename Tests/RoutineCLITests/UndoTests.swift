import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// `routine undo` reverts any recorded change (docs/cli.md, "Undo").
struct UndoTests {
  /// Everything a user can see of the store: what an undo must bring back exactly.
  func snapshot(_ sandbox: Sandbox) -> String {
    [
      ["events", "--json"], ["kinds"], ["reminders", "--json"], ["habits"], ["tasks"],
      ["settings"], ["pending"],
    ].map { sandbox.run($0).stdout }.joined(separator: "\n--\n")
  }

  @Test func everyKindOfChangeIsUndoneEndToEnd() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    let file = sandbox.file(
      "old.csv",
      "timestamp,event\n2026-04-26T07:00:00+02:00,Tea\n2026-04-26T07:30:00+02:00,Tea\n")
    let definitions = sandbox.file(
      "definitions.json",
      """
      {"format": "routine-definitions", "version": 1, "habits": [], "tasks": [],
       "reminders": [{"id": "water", "type": "general", "enabled": true, "message": "Water",
         "style": "notification", "schedule": {"repeat": "daily", "at": "12:00"}}]}
      """)
    let commands: [[String]] = [
      ["log", "Coffee", "--at", "07:00"],
      ["log", "Cofee", "--at", "08:00", "--value", "2"],
      ["import", file],
      ["kinds", "rename", "Tea", "Green Tea"],
      ["kinds", "rename", "Cofee", "Coffee", "--yes"],
      ["events", "delete", "--event", "Green Tea", "--yes"],
      ["settings", "--lead", "20", "--snooze", "7"],
      // Added again after its undo, a reminder gets a new number: ids are never reused.
      ["reminders", "add", "--text", "Stretch", "--at", "10:00"],
      ["reminders", "import", definitions],
      ["reminders", "edit", "water", "--at", "11:00"],
      ["reminders", "disable", "water"],
      ["reminders", "enable", "water"],
      ["reminders", "remove", "water", "--yes"],
      ["habits", "add", "Read"],
      ["habits", "edit", "Read", "--days", "mon,tue"],
      ["habits", "remove", "Read", "--yes"],
      ["tasks", "add", "Taxes", "--due", "tomorrow 9"],
      ["tasks", "edit", "Taxes", "--due", "tomorrow 10"],
      ["tasks", "done", "Taxes"],
      ["tasks", "remove", "Taxes", "--yes"],
    ]
    // The store exists (a first command also records the locale, which is no change of its).
    #expect(sandbox.run("settings", "--time-zone", "Europe/Berlin").status == 0)
    for command in commands {
      let before = snapshot(sandbox)
      let made = sandbox.run(command)
      #expect(made.status == 0, "\(command): \(made.stderr)")
      #expect(snapshot(sandbox) != before, "\(command) changed nothing visible")
      let undone = sandbox.run("undo")
      #expect(undone.status == 0, "\(command): \(undone.stderr)")
      #expect(undone.stdout.hasPrefix("Undid '\(command[0])"), "\(undone.stdout)")
      #expect(snapshot(sandbox) == before, "undo of \(command) left a difference")
      // Done again, to build the next step on it.
      #expect(sandbox.run(command).status == 0, "\(command) again")
    }
  }

  @Test func undoAfterKindsRenameRevertsTheRenameNotTheLastEvent() {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    #expect(sandbox.run("log", "Coffe", "--at", "08:00").status == 0)
    #expect(sandbox.run("kinds", "rename", "Coffe", "Coffee", "--yes").status == 0)
    let undone = sandbox.run("undo")
    #expect(
      undone.stdout
        == "Undid 'kinds rename Coffe Coffee' of 2026-04-27 09:00 (1 event changed, 1 kind removed).\n"
    )
    #expect(
      sandbox.run("events").stdout
        == "2026-04-27T07:00:00+02:00  Coffee  (cli)\n2026-04-27T08:00:00+02:00  Coffe  (cli)\n")
    // Undo again reverts the change before it, the last log; a third undo the first log.
    #expect(
      sandbox.run("undo").stdout
        == "Undid 'log Coffe --at 08:00' of 2026-04-27 09:00 (1 event added, 1 kind added).\n")
    #expect(sandbox.run("undo").status == 0)
    #expect(
      sandbox.run("undo").stdout
        == "Nothing to undo: the 3 recorded changes are all undone already ('routine undo --list' shows them).\n"
    )
    #expect(
      sandbox.run("undo", "--list").stdout
        == """
        2026-04-27 09:00  kinds rename Coffe Coffee  1 event changed, 1 kind removed  (undone)
        2026-04-27 09:00  log Coffe --at 08:00  1 event added, 1 kind added  (undone)
        2026-04-27 09:00  log Coffee --at 07:00  1 event added, 1 kind added  (undone)

        """)
  }

  @Test func anAnswerIsUndoneWithWhatItLogged() {
    let sandbox = Sandbox(now: "2026-05-05T08:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--activity", "noalc", "--at", "09:00").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-05-05T09:00:30+02:00").status == 0)
    let before = snapshot(sandbox)
    let at = ["--now", "2026-05-05T09:01:00+02:00"]
    #expect(sandbox.run(["respond", "reminder-1-weekday-3", "dismiss"] + at).status == 0)
    let undone = sandbox.run(["undo"] + at)
    #expect(
      undone.stdout
        == "Undid 'respond reminder-1-weekday-3 dismiss' of 2026-05-05 09:01 (1 answer given).\n")
    #expect(snapshot(sandbox) == before)
    // Answered again (the undone answer no longer closes the firing), with a logged event.
    let wild = sandbox.run(["respond", "reminder-1-weekday-3", "wild"] + at)
    #expect(wild.status == 0, "\(wild.stderr)")
    #expect(sandbox.run(["undo"] + at).stdout.contains("1 event added"))
    #expect(snapshot(sandbox) == before)
  }

  @Test func undoListsAsJSON() {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    let list = sandbox.run("undo", "--list", "--json")
    let entries =
      (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) as? [[String: Any]]
    #expect(entries?.count == 1)
    #expect(entries?.first?["command"] as? String == "log Coffee --at 07:00")
    #expect(entries?.first?["madeAt"] as? String == "2026-04-27T09:00:00+02:00")
    #expect(entries?.first?["undone"] as? Bool == false)
    let undone = sandbox.run("undo", "--json")
    #expect(undone.json["undone"] as? Bool == true)
  }

  @Test func onATerminalUndoShowsTheChangeAndAsks() {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("habits", "add", "Read").status == 0)
    sandbox.interactiveAnswers = ["n"]
    let declined = sandbox.run("undo")
    #expect(declined.stderr == "Undo 'habits add Read' of 2026-04-27 09:00 (1 habit added)? [y/N] ")
    #expect(declined.stdout == "Nothing undone.\n")
    #expect(sandbox.run("habits").stdout.contains("Read"))
    sandbox.interactiveAnswers = ["y"]
    #expect(
      sandbox.run("undo").stdout == "Undid 'habits add Read' of 2026-04-27 09:00 (1 habit added).\n"
    )
    #expect(!sandbox.run("habits").stdout.contains("Read"))
  }

  @Test func importIsRecordedByItsRangeAndUndoneWhole() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    var lines = "timestamp,event\n"
    for day in 1...300 {
      lines +=
        "2025-\(day % 12 + 1)-\(day % 28 + 1)T07:\(day % 60 < 10 ? "0" : "")\(day % 60):00+02:00,Tea\n"
    }
    #expect(sandbox.run("import", sandbox.file("many.csv", lines)).status == 0)
    let store = try EventStore(path: sandbox.storePath, creating: false)
    let steps = try store.connection.scalarInt("SELECT count(*) FROM change_steps") ?? -1
    // The import added its kind (one step), not a step per event.
    #expect(steps == 2)
    #expect(try store.count() > 200)
    let undone = sandbox.run("undo")
    #expect(undone.stdout.contains("events added"), "\(undone.stdout)")
    #expect(try store.count() == 1)
  }

  /// Loop Habit Tracker's days done are in a table of their own (day_marks): undoing the import
  /// takes them out, and habits count none of them again.
  @Test func anImportOfDaysDoneIsUndone() throws {
    let sandbox = Sandbox(now: "2026-03-08T20:00:00+01:00", zone: "Europe/Berlin")
    let loop = EndToEndTests.data.appendingPathComponent("other-apps/loop")
    #expect(sandbox.run("import", loop.appendingPathComponent("Habits.csv").path).status == 0)
    let before = sandbox.run("habits", "--json").stdout
    #expect(sandbox.run("import", loop.appendingPathComponent("Checkmarks.csv").path).status == 0)
    let store = try EventStore(path: sandbox.storePath, creating: false)
    #expect((try store.connection.scalarInt("SELECT count(*) FROM day_marks") ?? 0) > 0)
    #expect(sandbox.run("habits", "--json").stdout != before)
    let marks = try store.connection.scalarInt("SELECT count(*) FROM day_marks") ?? 0
    #expect(sandbox.run("undo", "--list").stdout.contains("\(marks) days done added"))
    let undone = sandbox.run("undo")
    #expect(undone.status == 0, "\(undone.stderr)")
    #expect(undone.stdout.contains("(\(marks) days done added)"), "\(undone.stdout)")
    #expect(try store.connection.scalarInt("SELECT count(*) FROM day_marks") == 0)
    #expect(sandbox.run("habits", "--json").stdout == before)
    // The habits' own import is the change before: undone next.
    #expect(sandbox.run("undo").status == 0)
    #expect(sandbox.run("habits").stdout.contains("No habits yet"))
  }

  @Test func aChangeThatCannotBeUndoneSaysWhyAndChangesNothing() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    #expect(sandbox.run("log", "Tea", "--at", "08:00").status == 0)
    #expect(sandbox.run("events", "delete", "--event", "Coffee", "--yes").status == 0)
    // An event added by something that records no change (a routine from before the journal,
    // or another program): the store is no longer as the deletion left it.
    let store = try EventStore(path: sandbox.storePath, creating: false)
    try store.connection.execute(
      """
      INSERT INTO events (at, utc_offset, kind_id, value, note, source)
        SELECT 1777280400, 7200, id, NULL, NULL, 'cli' FROM kinds WHERE key = 'tea'
      """)
    let before = snapshot(sandbox)
    let refused = sandbox.run("undo")
    #expect(refused.status == 1)
    #expect(refused.stdout == "")
    #expect(
      refused.stderr
        == "error: cannot undo 'events delete --event Coffee' of 2026-04-27 09:00 (1 event removed): events were added after it by a change that was not recorded; nothing changed\n"
    )
    #expect(snapshot(sandbox) == before)
  }

  @Test func restoringAnEventThatIsBackIsRefused() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Tea", "--at", "06:00").status == 0)
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    #expect(sandbox.run("events", "delete", "--event", "Coffee", "--yes").status == 0)
    // Written without a record, with an id below the newest: the same event as the deleted one.
    let store = try EventStore(path: sandbox.storePath, creating: false)
    try store.connection.execute(
      """
      UPDATE events SET kind_id = (SELECT id FROM kinds WHERE key = 'coffee'), at = 1777266000
      """)
    let before = snapshot(sandbox)
    let refused = sandbox.run("undo")
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "error: cannot undo 'events delete --event Coffee' of 2026-04-27 09:00 (1 event removed): the events it would restore were since changed (one of them is in the store again); nothing changed\n"
    )
    #expect(snapshot(sandbox) == before)
    #expect(sandbox.run("undo", "--list").stdout.hasPrefix("2026-04-27 09:00  events delete"))
  }

  @Test func changesFromBeforeTheJournalCannotBeUndone() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    #expect(sandbox.run("log", "Coffee", "--at", "07:00").status == 0)
    // The store as a routine before the journal left it: migration 0009 not applied.
    do {
      let store = try EventStore(path: sandbox.storePath, creating: false)
      try store.connection.execute(
        """
        DROP TABLE changes; DROP TABLE change_steps; DROP TABLE change_events;
        DELETE FROM state WHERE key LIKE 'journal_%';
        DELETE FROM migrations WHERE name = '0009-change-journal';
        """)
    }
    let undo = sandbox.run("undo")
    #expect(undo.status == 1)
    #expect(undo.stdout == "")
    #expect(
      undo.stderr.hasPrefix("error: nothing to undo: no change is recorded; changes made before "))
    #expect(undo.stderr.hasSuffix("(when this store began recording them) cannot be undone.\n"))
    #expect(sandbox.run("events").stdout.contains("Coffee"))
    // Changes from then on are recorded.
    #expect(sandbox.run("log", "Tea", "--at", "08:00").status == 0)
    #expect(sandbox.run("undo").stdout.hasPrefix("Undid 'log Tea --at 08:00'"))
  }

  @Test func twoUndosAtOnceRevertTwoChangesNeverOneTwice() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    for hour in ["06:00", "07:00", "08:00"] {
      #expect(sandbox.run("log", "Coffee", "--at", hour).status == 0)
    }
    let results = Results()
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      if let result = try? sandbox.runBinary("undo") { results.append(result) }
    }
    let all = results.all
    #expect(all.count == 2)
    #expect(all.allSatisfy { $0.status == 0 }, "\(all.map(\.stderr))")
    #expect(Set(all.map(\.stdout)).count == 2)
    #expect(sandbox.run("events").stdout == "2026-04-27T06:00:00+02:00  Coffee  (cli)\n")
    // With one change left, two undos at once: one reverts it, the other finds nothing.
    let last = Results()
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      if let result = try? sandbox.runBinary("undo") { last.append(result) }
    }
    #expect(last.all.filter { $0.stdout.hasPrefix("Undid") }.count == 1)
    #expect(last.all.filter { $0.stdout.hasPrefix("Nothing to undo") }.count == 1)
    #expect(sandbox.run("events").stdout == "No events yet.\n")
  }

  @Test func theJournalKeepsTheLastHundredChanges() throws {
    let sandbox = Sandbox(now: "2026-04-27T09:00:00+02:00")
    let store = try EventStore(path: sandbox.storePath)
    try store.recordChanges(as: "log", run: "test", at: 0)
    for minute in 0..<105 {
      try store.insert(
        Event(
          kind: EventKind("Coffee")!,
          timestamp: Timestamp(
            secondsSince1970: 1_777_266_000 + Int64(minute) * 60, utcOffsetSeconds: 7200),
          source: .cli))
    }
    #expect(try store.recordedChanges(limit: 1000).count == EventStore.keptChanges)
    #expect(try store.connection.scalarInt("SELECT min(id) FROM changes") == 6)
    // Undone (the 100 are one command's), the older ones are said to be forgotten.
    #expect(try store.undoLatest(at: 0)?.count == 100)
    let undo = sandbox.run("undo")
    #expect(undo.status == 1)
    #expect(
      undo.stderr
        == "error: nothing to undo: the 100 recorded changes are all undone already ('routine undo --list' shows them); older changes are no longer kept (the store keeps the last 100).\n"
    )
  }
}

/// Results gathered from concurrent runs.
private final class Results: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [Invocation] = []
  func append(_ item: Invocation) { lock.withLock { items.append(item) } }
  var all: [Invocation] { lock.withLock { items } }
}
