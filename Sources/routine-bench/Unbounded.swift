// Issue 17, "unbounded work": commands whose cost grew with the store faster than its size, or
// without a bound. Each is run as a child process and measured by its CPU time (user + system)
// and peak memory (wait4), not its wall time: the machine is shared.
//
//   .build/release/routine-bench --unbounded [--counts 10000,20000,100000] [--kinds-events N]
//
// The stores are made once, in the work directory, by the `routine` beside the bench (an older
// build makes its own: a store from a newer routine is refused).
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `count` definitions for `reminders import`: a tenth each habits, reminders of those habits,
/// tasks, reminders of those tasks, daily, weekly, monthly and one-time texts; a fifth activity
/// reminders on two weekdays. Without `linked`, texts and activity reminders only.
func generatedDefinitions(_ count: Int, linked: Bool = true) -> [String: Any] {
  var habits: [[String: Any]] = []
  var tasks: [[String: Any]] = []
  var reminders: [[String: Any]] = []
  let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  for index in 0..<count {
    let at = clock(6 * 60 + index % 960)
    // Unlinked: the places of habits, tasks and their reminders go to the others.
    switch linked ? index % 10 : 4 + index % 6 {
    case 0:
      habits.append([
        "id": "habit-\(index)", "name": "Habit \(index)", "repeat": "daily",
        "window": "\(clock(6 * 60 + index % 600))-\(clock(7 * 60 + index % 600))",
      ])
    case 1:
      reminders.append(["type": "habit", "link": "habit-\(index - 1)"])
    case 2:
      tasks.append([
        "id": "task-\(index)", "name": "Task \(index)",
        "due": String(format: "2026-%02d-%02dT%@:00Z", 6 + index % 6, 1 + index % 28, at),
        "pinned": false,
      ])
    case 3:
      reminders.append(["type": "task", "link": "task-\(index - 1)", "minutesBefore": 60])
    case 4, 5:
      reminders.append([
        "type": "activity", "activity": "Activity \(index)", "lookbackHours": 12,
        "schedule": [
          "repeat": "weekly", "at": at,
          "days": "\(dayNames[index % 7]),\(dayNames[(index + 3) % 7])",
        ],
      ])
    case 6:
      reminders.append([
        "type": "general", "message": "Daily \(index)",
        "schedule": ["repeat": "daily", "at": at],
      ])
    case 7:
      reminders.append([
        "type": "general", "message": "Weekly \(index)",
        "schedule": ["repeat": "weekly", "at": at, "days": dayNames[index % 7]],
      ])
    case 8:
      reminders.append([
        "type": "general", "message": "Monthly \(index)",
        "schedule": ["repeat": "monthly", "at": at, "day": 1 + index % 31],
      ])
    default:
      reminders.append([
        "type": "general", "message": "Once \(index)",
        "schedule": [
          "repeat": "once", "at": at, "date": String(format: "2026-06-%02d", 1 + index % 30),
        ],
      ])
    }
  }
  return [
    "format": "routine-definitions", "version": 1, "habits": habits, "tasks": tasks,
    "reminders": reminders,
  ]
}

/// Writes `count` generated definitions to `path`; with `count` 0, as many texts and activity
/// reminders as fit in 16 MiB (the cost of reading the file, not of linking: an import of
/// habit and task reminders was quadratic before issue 17, and would take an hour here).
/// Run in a child process (`--write-definitions`): the memory Foundation takes to build them
/// would otherwise stay with the bench, and a child started by posix_spawn reports the
/// parent's memory at the time in its own peak.
func writeDefinitions(_ count: Int, to path: String) {
  let linked = count > 0
  var count = count
  if count == 0 {
    let sample = try! JSONSerialization.data(
      withJSONObject: generatedDefinitions(10_000, linked: false)
    ).count
    count = (16 << 20) * 10_000 / sample
  }
  while true {
    let data = try! JSONSerialization.data(
      withJSONObject: generatedDefinitions(count, linked: linked))
    if data.count <= 16 << 20 {
      _ = FileManager.default.createFile(atPath: path, contents: data)
      return
    }
    count = count * 99 / 100
  }
}

/// The definitions file of `count` generated definitions (0: as many as fit in 16 MiB).
@MainActor
func generatedDefinitionsFile(_ count: Int) -> String {
  let path = work + "/definitions-\(count == 0 ? "16mib" : "\(count)").json"
  if !FileManager.default.fileExists(atPath: path) {
    _ = measure(bench, ["--write-definitions", "\(count)", path])
  }
  return path
}

/// Prints one row: CPU seconds and peak memory of `run`.
func reportCPU(_ name: String, _ run: Run, note: String = "") {
  print(
    String(
      format: "| %@ | %.2f s | %.0f MiB | %d | %@ |", name, run.cpuSeconds, run.peakMiB,
      run.status, note))
}

@MainActor
func unboundedBenchmarks() {
  let utc = ["--tz", "UTC"]
  let now = ["--now", "2026-06-01T00:00:00Z"] + utc
  let counts = option("--counts", "10000,20000,100000").split(separator: ",").compactMap {
    Int($0)
  }
  print("Issue 17: CPU time (user + system) and peak memory of one run each.")
  print("")
  print("| measurement | CPU | peak memory | exit | |")
  print("| --- | --- | --- | --- | --- |")
  // Every child's peak includes the bench's own memory when it was started: this is the floor.
  reportCPU("hello-world", measure(bench, ["--hello"]), note: "the floor of peak memory")

  // Many definitions: the import, then every command that derives their requests.
  for count in counts {
    let file = generatedDefinitionsFile(count)
    let store = work + "/definitions-\(count).db"
    if !FileManager.default.fileExists(atPath: store) {
      let building = store + ".building"
      for suffix in ["", "-wal", "-shm"] { unlink(building + suffix) }
      _ = measure(routine, ["settings", "--time-zone", "UTC", "--store", building] + now)
      let imported = measure(routine, ["reminders", "import", file, "--store", building] + now)
      reportCPU("reminders import, \(count) definitions", imported)
      _ = measure(routine, ["events", "--last", "1", "--store", building])
      rename(building, store)
      for suffix in ["-wal", "-shm"] { unlink(building + suffix) }
    }
    let on = ["--store", store] + now
    reportCPU("reminders, \(count) definitions", measure(routine, ["reminders"] + on))
    reportCPU(
      "reminders --json, \(count) definitions", measure(routine, ["reminders", "--json"] + on))
    reportCPU("pending, \(count) definitions", measure(routine, ["pending"] + on))
    reportCPU("status, \(count) definitions", measure(routine, ["status"] + on))
    reportCPU("agenda (7 days), \(count) definitions", measure(routine, ["agenda"] + on))
    reportCPU(
      "agenda --to a year later, \(count) definitions",
      measure(routine, ["agenda", "--to", "2027-06-01T00:00:00Z"] + on))
    reportCPU(
      "agenda --json --to a year later, \(count) definitions",
      measure(routine, ["agenda", "--json", "--to", "2027-06-01T00:00:00Z"] + on))
    reportCPU("why reminder, \(count) definitions", measure(routine, ["why", "reminder-1"] + on))
    let copy = copyStore(store, to: work + "/definitions-\(count)-deliver.db")
    reportCPU(
      "deliver (first run), \(count) definitions",
      measure(routine, ["deliver", "--store", copy, "--now", "2026-06-01T00:00:30Z"] + utc))
  }

  // A definitions file just under the 16 MiB limit.
  let large = generatedDefinitionsFile(0)
  let largeSize = (try? FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0
  let importStore = work + "/import-16mib.db"
  for suffix in ["", "-wal", "-shm"] { unlink(importStore + suffix) }
  reportCPU(
    String(format: "reminders import, %.1f MiB file", Double(largeSize) / 1_048_576),
    measure(routine, ["reminders", "import", large, "--store", importStore] + now),
    note: "target < 300 MiB")
  for suffix in ["", "-wal", "-shm"] { unlink(importStore + suffix) }

  // A year of deliveries every minute: 1,440 daily texts, delivered by one run each evening.
  let minutes = (0..<1440).map { minute -> [String: Any] in
    [
      "type": "general", "message": "Minute \(minute)",
      "schedule": ["repeat": "daily", "at": clock(minute)],
    ]
  }
  let days = (0..<365).map { offset -> [String] in
    let date = Calendar.utc.date(byAdding: .day, value: offset, to: Date.day("2025-06-01"))!
    return ["deliver", "--now", "\(Date.text(date))T23:59:30Z"] + utc
  }
  let yearStore = prepareStore(
    "minutely-year",
    [
      ["settings", "--time-zone", "UTC", "--grace", "1440"] + ["--now", "2025-05-31T00:00:00Z"]
        + utc,
      ["reminders", "import", definitionsFile("minutes", minutes)] + [
        "--now", "2025-05-31T00:00:00Z",
      ] + utc,
    ] + days)
  let year = ["--store", yearStore, "--now", "2026-06-01T00:00:00Z"] + utc
  reportCPU("hello-world", measure(bench, ["--hello"]), note: "the floor, again")
  let range = ["--from", "2025-06-01T00:00:00Z", "--to", "2026-06-01T00:00:00Z"]
  _ = measure(routine, ["history", "--from", "2026-05-31"] + year)  // Migrated, if need be.
  reportCPU(
    "history --json, a year of deliveries every minute",
    measure(routine, ["history", "--json"] + range + year), note: "525,600 deliveries")
  reportCPU(
    "history, a year of deliveries every minute", measure(routine, ["history"] + range + year))
  reportCPU(
    "history, its last week", measure(routine, ["history"] + year), note: "for comparison")
  reportCPU(
    "why, a year of deliveries every minute", measure(routine, ["why", "reminder-720"] + year))

  // kinds on a store of 10,000,000 events (600 kinds, from 1976).
  let eventCount = Int(option("--kinds-events", "10000000")) ?? 10_000_000
  let eventLog = work + "/events-\(eventCount).csv"
  if !FileManager.default.fileExists(atPath: eventLog) {
    _ = measure(
      routine,
      [
        "sample", "--days", "18262", "--kinds", "600", "--seed", "1", "--start", "1976-01-01",
        "--limit", "\(eventCount)", "--output", eventLog,
      ])
  }
  let eventStore = work + "/events-\(eventCount).db"
  if !FileManager.default.fileExists(atPath: eventStore) {
    let building = eventStore + ".building"
    for suffix in ["", "-wal", "-shm"] { unlink(building + suffix) }
    reportCPU(
      "import of \(eventCount) events into a new store",
      measure(routine, ["import", eventLog, "--store", building]))
    _ = measure(routine, ["events", "--last", "1", "--store", building])
    rename(building, eventStore)
    for suffix in ["-wal", "-shm"] { unlink(building + suffix) }
  }
  reportCPU(
    "open (and migrate) the \(eventCount)-event store",
    measure(routine, ["events", "--last", "1", "--store", eventStore]))
  reportCPU("kinds, \(eventCount) events", measure(routine, ["kinds", "--store", eventStore]))
  reportCPU(
    "kinds --json, \(eventCount) events",
    measure(routine, ["kinds", "--json", "--store", eventStore]))
}
