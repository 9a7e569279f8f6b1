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

  // MARK: History

  /// A sandbox with a week of deliveries: texts at the same minutes (ties fall to the request
  /// id), an alarm that rings again every 5 minutes past later firings (listed at its rings),
  /// answers, and a cancellation ahead.
  func history() -> Sandbox {
    let sandbox = Sandbox(now: "2026-05-03T00:00:00+02:00")
    #expect(sandbox.run("settings", "--grace", "1440").status == 0)
    for (text, time) in [("B", "08:00"), ("A", "08:00"), ("C", "08:07"), ("D", "08:10")] {
      #expect(sandbox.run("reminders", "add", "--text", text, "--at", time).status == 0)
    }
    #expect(
      sandbox.run("reminders", "add", "--text", "Alarm", "--at", "08:00", "--style", "alarm")
        .status == 0)
    #expect(sandbox.run("reminders", "add", "--activity", "Walk", "--at", "20:00").status == 0)
    for day in 4...9 {
      for minute in stride(from: 0, through: 35, by: 5) {
        let now = String(format: "2026-05-%02dT08:%02d:30+02:00", day, minute)
        #expect(sandbox.run("deliver", "--now", now).status == 0)
      }
      if day % 2 == 0 {
        let now = String(format: "2026-05-%02dT08:01:00+02:00", day)
        #expect(
          sandbox.run("respond", "reminder-1", "done", "--now", now).status == 0)
      }
    }
    #expect(sandbox.run("log", "Walk", "--now", "2026-05-10T19:00:00+02:00").status == 0)
    return sandbox
  }

  @Test func historyStreamedHoldsEveryEntryInTimeThenRequestOrder() throws {
    let sandbox = history()
    let now = "2026-05-10T19:30:00+02:00"
    let range = ["--from", "2026-05-01", "--to", "2026-05-12", "--now", now]
    let json = try sandbox.runBinary(["history", "--json"] + range)
    #expect(json.status == 0)
    let entries = try #require(json.json["entries"] as? [[String: Any]])
    // What history listed before it streamed: every record, then one (stable) sort.
    let store = try EventStore(path: sandbox.storePath, creating: false)
    let from = Timestamp(iso8601: "2026-05-01T00:00:00+02:00")!.secondsSince1970
    let to = Timestamp(iso8601: "2026-05-12T00:00:00+02:00")!.secondsSince1970
    let deliveries = try store.deliveries(from: from, to: to).map {
      ($0.occurrence.at + Int64($0.attempt * 300), $0.occurrence.requestID, "delivery")
    }
    let answers = try store.answers(from: from, to: to).map {
      ($0.answeredAt, $0.occurrence.requestID, "answer")
    }
    let cancellations = try store.cancellations(from: from).map {
      ($0.cancellation.occurrence.at, $0.cancellation.occurrence.requestID, "cancellation")
    }
    #expect(deliveries.contains { $0.0 % 300 == 0 && $0.0 % 3600 != 0 && $0.1 == "reminder-5" })
    #expect(!answers.isEmpty && cancellations.count == 1)
    let expected = (deliveries + answers + cancellations).sorted { ($0.0, $0.1) < ($1.0, $1.1) }
    let listed = entries.map {
      (
        Timestamp(iso8601: $0["at"] as? String ?? "")?.secondsSince1970 ?? 0,
        $0["id"] as? String ?? "", $0["type"] as? String ?? ""
      )
    }
    #expect(listed.map(\.0) == expected.map(\.0))
    #expect(listed.map(\.1) == expected.map(\.1))
    #expect(listed.map(\.2) == expected.map(\.2))
    // The text says the same, a line each, in columns as wide as the widest entry.
    let text = try sandbox.runBinary(["history"] + range)
    let lines = text.stdout.split(separator: "\n")
    #expect(lines.count == entries.count)
    #expect(
      lines.contains {
        $0.hasPrefix("Mon 2026-05-04 08:05  delivered again  reminder-5 ")
          && $0.hasSuffix(" Alarm (ring 2)")
      })
    #expect(lines.filter { $0.contains("answered") }.count == 3)
    #expect(
      Set(lines.map { $0.firstRange(of: "reminder-")?.lowerBound.utf16Offset(in: $0) }).count == 1)
    // One request, with the others left out.
    let one = try sandbox.runBinary(["history", "--id", "reminder-5", "--json"] + range)
    let ringing = try #require(one.json["entries"] as? [[String: Any]])
    #expect(ringing.count == 6 * 7)
    #expect(Set(ringing.compactMap { $0["id"] as? String }) == ["reminder-5"])
  }

  @Test func historyOfNothingIsAWholeEmptyListOrASentence() {
    let sandbox = history()
    let range = ["--from", "2026-04-01", "--to", "2026-04-02"]
    #expect(
      sandbox.run(["history", "--json"] + range).stdout == "{\n  \"entries\": []\n}\n")
    #expect(
      sandbox.run(["history"] + range).stdout
        == "Nothing in that range: 'routine deliver' records each firing it decides about.\n")
    #expect(
      sandbox.run(["history", "--id", "reminder-1"] + range).stdout
        == "Nothing about 'reminder-1' in that range.\n")
    // An id nothing ever had is still an error, with nothing on stdout.
    let typo = sandbox.run(["history", "--id", "reminder-77", "--json"] + range)
    #expect(typo.status == 65)
    #expect(typo.stdout.isEmpty)
    #expect(typo.stderr.contains("there is no request or reminder 'reminder-77'"))
  }

  // MARK: Agenda

  @Test func anAgendaLongerThan366DaysIsAUsageErrorThatNamesTheLimit() throws {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00")
    #expect(sandbox.run("reminders", "add", "--text", "Water", "--at", "09:00").status == 0)
    // An end before the start, when the start is the default: the message says which start.
    let before = sandbox.run("agenda", "--to", "2026-04-26")
    #expect(before.status == 64)
    #expect(
      before.stderr.hasPrefix("error: --to must come after the start, now (--from not given)"))
    let refused = try sandbox.runBinary("agenda", "--to", "9999-12-31")
    #expect(refused.status == 64)
    #expect(
      refused.stderr.hasPrefix(
        "error: --to: an agenda spans at most 366 days; from Mon 2026-04-27 08:00 it can end at Wed 2027-04-28 08:00 at the latest, found '9999-12-31'\n"
      ))
    #expect(refused.stdout.isEmpty)
    // Exactly 366 days is allowed, a second more is not.
    let year = sandbox.run("agenda", "--from", "2026-04-27", "--to", "2027-04-28")
    #expect(year.status == 0)
    #expect(year.stdout.split(separator: "\n").count == 366)
    let longer = sandbox.run("agenda", "--from", "2026-04-27", "--to", "2027-04-28T00:00:01+02:00")
    #expect(longer.status == 64)
    #expect(longer.stderr.contains("at most 366 days"))
    // The limit is in local days: 366 of them from summer to winter time (an hour more than
    // 366 times 24 hours) are allowed.
    let intoWinter = sandbox.run(
      "agenda", "--from", "2027-10-30 12:00", "--to", "2028-10-30 12:00", "--json")
    #expect(intoWinter.status == 0)
    #expect((intoWinter.json["items"] as? [Any])?.count == 366)
  }

  /// Without --to, the agenda covers the start plus 7 local days at the same time of day: 167
  /// hours across the spring change (a 12:30 reminder fires 7 times, not 8), 169 across the
  /// autumn one (an 11:30 reminder fires 7 times, not 6).
  @Test(arguments: [
    ("2026-03-25T12:00:00+01:00", "12:30", "2026-03-31T12:30:00+02:00"),
    ("2026-10-21T12:00:00+02:00", "11:30", "2026-10-28T11:30:00+01:00"),
    ("2026-05-04T12:00:00+02:00", "12:00", "2026-05-10T12:00:00+02:00"),
  ])
  func theDefaultRangeIsSevenLocalDaysAcrossADaylightSavingChange(
    now: String, at time: String, last: String
  ) {
    let sandbox = Sandbox(now: now, zone: "Europe/Berlin")
    #expect(sandbox.run("reminders", "add", "--text", "Stretch", "--at", time).status == 0)
    let items = sandbox.run("agenda", "--json").json["items"] as? [[String: Any]] ?? []
    #expect(items.count == 7)
    #expect(items.last?["at"] as? String == last)
    // --from alone: the same rule from that start.
    let fromMidnight = sandbox.run("agenda", "--from", "2026-10-24", "--json")
    let days = (fromMidnight.json["items"] as? [[String: Any]] ?? []).compactMap {
      ($0["at"] as? String)?.prefix(10)
    }
    #expect(days.first == "2026-10-24")
    #expect(days.last == "2026-10-30")
    #expect(days.count == 7)
  }

  /// Many requests over a year, written as they are worked out: the JSON is whole and valid,
  /// in order, and says the same as the text.
  @Test func aYearOfAgendaIsStreamedWholeAsJSONAndText() throws {
    let sandbox = Sandbox(now: "2026-01-01T00:00:00+01:00")
    for time in ["07:00", "07:00", "12:30", "18:45"] {
      #expect(sandbox.run("reminders", "add", "--text", "Text \(time)", "--at", time).status == 0)
    }
    #expect(
      sandbox.run("reminders", "add", "--text", "Rent", "--at", "09:00", "--day", "31").status
        == 0)
    let range = ["agenda", "--from", "2026-01-01", "--to", "2027-01-01"]
    let json = try sandbox.runBinary(range + ["--json"])
    #expect(json.status == 0)
    let items = try #require(json.json["items"] as? [[String: Any]])
    #expect(items.count == 4 * 365 + 12)
    let keys = items.map { ($0["at"] as? String ?? "", $0["id"] as? String ?? "") }
    let instants = keys.map { Timestamp(iso8601: $0.0)?.secondsSince1970 ?? 0 }
    #expect(zip(instants, instants.dropFirst()).allSatisfy { $0 <= $1 })
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.0 != $1.0 || $0.1 < $1.1 })
    #expect(
      json.stdout.hasPrefix("{\n  \"items\": [\n    {\n      \"at\": \"2026-01-01T07:00:00+01:00\"")
    )
    #expect(json.stdout.hasSuffix("\n    }\n  ]\n}\n"))
    let text = try sandbox.runBinary(range)
    #expect(text.stdout.split(separator: "\n").count == items.count)
    #expect(
      text.stdout.hasPrefix("Thu 2026-01-01 07:00 +01:00  Text 07:00: Every day at 07:00.\n"))
    // Nothing in the range: an empty list, whole.
    let none = sandbox.run("agenda", "--from", "2026-01-01 19:00", "--to", "2026-01-01 20:00")
    #expect(none.stdout == "Nothing fires in that range.\n")
    let noneJSON = sandbox.run(
      "agenda", "--from", "2026-01-01 19:00", "--to", "2026-01-01 20:00", "--json")
    #expect(noneJSON.stdout == "{\n  \"items\": []\n}\n")
  }
}
