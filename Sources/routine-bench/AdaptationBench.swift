// The speed of reminders that listen (issue 28):
//
//   .build/release/routine-bench --adaptation [--runs N] [--work DIR]
//
// `routine plan` of a store with 1,000 reminders you defined (daily activity reminders) and
// their record of 3 months and of 2 years: every day's firing delivered, answered in turn done,
// snoozed then done, dismissed or not at all, with the events the answers and the person logged.
// The plan reads the last 4 weeks of it (90 days of events for strength and streak), so its time
// and memory must not grow with the years behind.
import Foundation
import RoutineCore
import RoutineStore

/// Builds (once) the store of `days` days of record for 1,000 reminders.
@MainActor
func adaptationStore(days: Int) -> String {
  let path = work + "/adaptation-\(days).db"
  if FileManager.default.fileExists(atPath: path) { return path }
  let building = path + ".building"
  for suffix in ["", "-wal", "-shm"] { unlink(building + suffix) }
  var reminders: [[String: Any]] = []
  for index in 0..<1_000 {
    let minute = 6 * 60 + index % 900
    reminders.append([
      "type": "activity", "activity": "Habit \(index)", "lookbackHours": 12,
      "schedule": ["repeat": "daily", "at": String(format: "%02d:%02d", minute / 60, minute % 60)],
    ])
  }
  let definitions = definitionsFile("adaptation-1000", reminders)
  let now = "2026-06-01T03:15:00Z"
  for arguments in [
    ["settings", "--time-zone", "UTC"],
    ["reminders", "import", definitions, "--now", "2024-01-01T00:00:00Z"],
  ] {
    guard measure(routine, arguments + ["--store", building]).status == 0 else {
      print("setting up the adaptation store failed: \(arguments)")
      exit(1)
    }
  }
  do {
    let store = try EventStore(path: building)
    let requests = try store.pendingRequests(clock: .twentyFourHour)
    let end = Timestamp(iso8601: now)!.secondsSince1970
    let start = end - Int64(days) * 86_400
    try store.write {
      var day = start
      var counter = 0
      while day < end {
        for request in requests {
          guard let firing = request.trigger.nextFiring(after: day, in: .utc),
            firing.at < day + 86_400,
            firing.at < end
          else { continue }
          counter += 1
          let due = DueOccurrence(request: request, firing: firing)
          guard
            let record = try store.claim(
              due, outcome: .delivered, late: false, reason: nil, sink: "stdout", at: firing.at)
          else { continue }
          let kind = EventKind(request.metadata?.eventKind ?? "Habit")!
          switch counter % 4 {
          case 0:
            let event = Event(
              kind: kind,
              timestamp: Timestamp(secondsSince1970: firing.at + 120, utcOffsetSeconds: 0),
              source: .notification)
            let inserted = try store.insertReturningID(event)
            _ = try store.recordAnswer(
              record.occurrence, action: "done", at: firing.at + 120, eventID: inserted.id,
              message: "Logged")
          case 1:
            _ = try store.recordAnswer(
              record.occurrence, action: "snooze", at: firing.at + 60, eventID: nil,
              message: "Snoozed")
            try store.insert(
              Event(
                kind: kind,
                timestamp: Timestamp(secondsSince1970: firing.at + 900, utcOffsetSeconds: 0),
                source: .cli))
          case 2:
            _ = try store.recordAnswer(
              record.occurrence, action: "dismiss", at: firing.at + 60, eventID: nil,
              message: "Dismissed")
          default:
            break
          }
        }
        day += 86_400
      }
    }
  } catch {
    print("writing the record failed: \(error)")
    exit(1)
  }
  _ = measure(routine, ["events", "--last", "1", "--store", building])
  rename(building, path)
  for suffix in ["-wal", "-shm"] { unlink(building + suffix) }
  return path
}

@MainActor
func adaptationBenchmarks() {
  print("| measurement | mean | min | max | peak memory | target | |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
  for days in [91, 730] {
    let store = adaptationStore(days: days)
    var results: [Run] = []
    for run in 0..<runs {
      let copy = copyStore(store, to: work + "/adaptation-copy.db")
      results.append(
        measure(routine, ["plan", "--store", copy, "--now", "2026-06-01T03:15:00Z"]))
      _ = run
    }
    let s = summary(results)
    report(
      "plan, 1,000 reminders, \(days == 730 ? "two years" : "three months") of answers", results,
      target: "1 s", pass: s.max <= 1 && results.allSatisfy { $0.status == 0 })
  }
}
