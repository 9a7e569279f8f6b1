import Foundation
import RoutineCore
import RoutineStore
import Testing

@testable import RoutineCLI

/// Issue 17, item 3.7 (unbounded work) and item 4.10 (the agenda's 7 days): ranges are bounded
/// and say their limit, long lists are written as they are read, listing is linear in the
/// definitions, and what the commands print is what it was.
struct UnboundedWorkTests {
  // MARK: Output

  @Test(arguments: [0, 1, 3])
  func aListWrittenAnElementAtATimeIsTheWholeListSerialized(count: Int) {
    let elements: [JSON] = (0..<count).map { index in
      .object([
        ("id", .string("r-\(index)")), ("nested", .object([("list", .array([.integer(index)]))])),
        ("empty", .array([])), ("quote", .string("\"\n")),
      ])
    }
    let output = Output()
    var list = JSONListWriter(output, key: "items")
    for element in elements { list.append(element) }
    list.finish()
    #expect(output.text == JSON.object([("items", .array(elements))]).serialized() + "\n")
  }

  // MARK: Kinds

  /// Counts, first and last (with the offset each was logged with) are what they were before
  /// the index: a kind whose events are all deleted is not listed.
  @Test func kindsListEachKindWithItsCountAndSpanAsBefore() {
    let sandbox = Sandbox()
    let log = sandbox.file(
      "log.csv",
      """
      timestamp,event,value,note
      2026-03-28T08:00:00+01:00,Coffee,,
      2026-03-30T07:30:00+02:00,coffee,2,
      2026-03-30T07:30:00+02:00,Coffee,3,
      2026-04-01T09:00:00+02:00,Tea,,
      2025-12-31T23:30:00-05:00,Wake up,,
      2026-01-01T06:00:00+09:00,Wake Up,,
      2026-02-01T06:00:00+01:00,Juice,,

      """)
    #expect(sandbox.run("import", log).status == 0)
    #expect(sandbox.run("events", "delete", "--event", "Juice", "--yes").status == 0)
    #expect(
      sandbox.run("kinds").stdout
        == """
          Coffee   3 events  2026-03-28 to 2026-03-30
          Tea      1 event   2026-04-01 to 2026-04-01
          Wake up  2 events  2026-01-01 to 2025-12-31

        """)
    #expect(
      sandbox.run("kinds", "--json").stdout
        == """
        {
          "kinds": [
            {
              "event": "Coffee",
              "count": 3,
              "first": "2026-03-28T08:00:00+01:00",
              "last": "2026-03-30T07:30:00+02:00"
            },
            {
              "event": "Tea",
              "count": 1,
              "first": "2026-04-01T09:00:00+02:00",
              "last": "2026-04-01T09:00:00+02:00"
            },
            {
              "event": "Wake up",
              "count": 2,
              "first": "2026-01-01T06:00:00+09:00",
              "last": "2025-12-31T23:30:00-05:00"
            }
          ]
        }

        """)
  }

  // MARK: Reminders

  /// Habits, tasks and the reminders of each, with texts and activity reminders between them:
  /// every row finds its own habit, task, requests and cancellations.
  @Test func remindersListEveryDefinitionWithItsOwnHabitTaskAndNextFiring() throws {
    let sandbox = Sandbox(now: "2026-05-04T07:00:00+02:00")
    var habits: [String] = []
    var tasks: [String] = []
    var reminders: [String] = []
    for index in 0..<60 {
      habits.append(
        #"{"id": "habit-\#(index)", "name": "Habit \#(index)", "window": "08:\#(String(format: "%02d", index))-09:00"}"#
      )
      tasks.append(
        #"{"id": "task-\#(index)", "name": "Task \#(index)", "due": "2026-05-\#(10 + index % 20)T12:00:00+02:00"}"#
      )
      reminders.append(#"{"type": "habit", "link": "habit-\#(index)"}"#)
      reminders.append(
        #"{"type": "task", "link": "task-\#(index)", "minutesBefore": \#(index + 1)}"#)
      reminders.append(
        #"{"type": "activity", "activity": "Walk \#(index)", "schedule": {"repeat": "weekly", "at": "20:00", "days": "mon"}}"#
      )
    }
    let file = sandbox.file(
      "definitions.json",
      #"{"habits": [\#(habits.joined(separator: ","))], "tasks": [\#(tasks.joined(separator: ","))], "reminders": [\#(reminders.joined(separator: ","))]}"#
    )
    #expect(sandbox.run("reminders", "import", file).status == 0)
    #expect(sandbox.run("log", "Walk 7", "--now", "2026-05-04T19:00:00+02:00").status == 0)
    // Imported, not logged: no cancellation, but the activity is done within the look-back.
    let walked = sandbox.file("walk.csv", "timestamp,event\n2026-05-04T10:00:00+02:00,Walk 9\n")
    #expect(sandbox.run("import", walked).status == 0)
    let listed = sandbox.run("reminders", "--json", "--now", "2026-05-04T19:01:00+02:00")
    let rows = try #require(listed.json["reminders"] as? [[String: Any]])
    #expect(rows.count == 180)
    for index in 0..<60 {
      let (habit, task, walk) = (rows[3 * index], rows[3 * index + 1], rows[3 * index + 2])
      #expect(habit["link"] as? String == "habit-\(index)")
      #expect(
        habit["nextFire"] as? String
          == "2026-05-05T08:\(String(format: "%02d", index)):00+02:00")
      #expect(task["link"] as? String == "task-\(index)")
      #expect(task["summary"] as? String == "\(ReminderPlanner.leadText(index + 1)) before due")
      #expect(walk["activity"] as? String == "Walk \(index)")
      #expect(walk["cancelled"] as? Int == (index == 7 ? 1 : 0))
      #expect((walk["nextSkipped"] is String) == (index == 7 || index == 9))
    }
    let text = sandbox.run("reminders", "--now", "2026-05-04T19:01:00+02:00").stdout
    let lines = text.split(separator: "\n")
    #expect(lines.count == 180)
    #expect(lines[3 * 42].contains("habit Habit 42"))
    #expect(lines[3 * 42 + 1].contains("task Task 42"))
    #expect(lines[3 * 7 + 2].hasSuffix(", 1 firing cancelled"))
  }

  // MARK: Import

  /// Definitions are read by routine's own JSON reader: what is not JSON is refused with its
  /// line, what is not an object says what it is, and the fields are checked as before.
  @Test func anImportThatIsNotJSONNamesTheLineAndAddsNothing() {
    let sandbox = Sandbox()
    let broken = sandbox.file(
      "broken.json", "{\"reminders\": [\n  {\"type\": \"general\",}\n]}")
    let refused = sandbox.run("reminders", "import", broken)
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "error: '\(broken)' line 2: expected a key in quotes, found '}' (the file is not valid JSON)\n"
    )
    let list = sandbox.file("list.json", "[]")
    #expect(
      sandbox.run("reminders", "import", list).stderr
        == "error: '\(list)': expected a JSON object with habits, tasks and reminders, found an array\n"
    )
    let fields = sandbox.file(
      "fields.json",
      #"{"reminders": [{"type": "general", "message": "Tea", "enabled": 1, "schedule": {"repeat": "daily", "at": "09:00"}}]}"#
    )
    #expect(
      sandbox.run("reminders", "import", fields).stderr
        == "error: '\(fields)': reminders[0].enabled: expected true or false, found a number\n")
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
    let whole = sandbox.file(
      "whole.json",
      #"{"reminders": [{"type": "task", "link": "task-1", "minutesBefore": 3.0}], "tasks": [{"id": "task-1", "name": "Tax", "due": "2026-05-10T12:00:00+02:00", "pinned": true}]}"#
    )
    #expect(sandbox.run("reminders", "import", whole).status == 0)
    #expect(
      sandbox.run("tasks", "--json").stdout.contains("\"due\": \"2026-05-10T12:00:00+02:00\""))
    #expect(sandbox.run("reminders").stdout.contains("3m before due"))
  }
}
