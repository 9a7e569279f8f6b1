// The delivery and reminder targets (issues 8 and 9): the commands cron and a desktop
// notification run every minute or on every answer, measured side by side with the Foundation
// hello-world, and the lists of a store with 1,000 reminders.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The median wall time of `runs`, in seconds.
func median(_ runs: [Run]) -> Double {
  let times = runs.map(\.seconds).sorted()
  guard !times.isEmpty else { return 0 }
  return times.count % 2 == 1
    ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
}

/// Runs each of `commands` `count` times, interleaved with the hello-world, so that both see
/// the same machine (a shared one drifts by ±15% within minutes); `arguments(index)` may vary
/// per run (a new answer, a new event).
@MainActor
func sideBySide(_ count: Int, _ arguments: (Int) -> [String]) -> (runs: [Run], hellos: [Run]) {
  var runs: [Run] = []
  var hellos: [Run] = []
  for index in 0..<count {
    hellos.append(measure(bench, ["--hello"]))
    runs.append(measure(routine, arguments(index)))
  }
  return (runs, hellos)
}

/// One row for a target given as a ratio of medians to the hello-world.
@MainActor
func reportRatio(_ name: String, _ measured: (runs: [Run], hellos: [Run]), limit: Double) {
  let ratio = median(measured.runs) / median(measured.hellos)
  let line = String(
    format: "| %@ | %.1f ms | %.1f ms | %.2f x | <= %.1f x hello-world | %@ |", name,
    median(measured.runs) * 1000, median(measured.hellos) * 1000, ratio, limit,
    ratio <= limit ? "met" : "missed")
  print(line)
  let failures = measured.runs.filter { $0.status != 0 }.map(\.status)
  if !failures.isEmpty { print("  (runs exited with status \(failures))") }
}

/// A store made once from `setup` (a list of routine invocations, each with `--store` added),
/// copied to a scratch path for every use that changes it.
@MainActor
func prepareStore(_ name: String, _ setup: [[String]]) -> String {
  let path = work + "/\(name).db"
  guard !FileManager.default.fileExists(atPath: path) else { return path }
  let building = path + ".building"
  for suffix in ["", "-wal", "-shm"] { unlink(building + suffix) }
  for arguments in setup {
    let result = measure(routine, arguments + ["--store", building])
    guard result.status == 0 else {
      print("setting up \(name) failed: routine \(arguments.joined(separator: " "))")
      exit(1)
    }
  }
  // One file: fold the write-ahead log in, so that a copy is the whole store.
  _ = measure(routine, ["events", "--last", "1", "--store", building])
  rename(building, path)
  for suffix in ["-wal", "-shm"] { unlink(building + suffix) }
  return path
}

/// A fresh copy of `store` at `copy`.
func copyStore(_ store: String, to copy: String) -> String {
  for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) }
  try? FileManager.default.copyItem(atPath: store, toPath: copy)
  // Written out before the measurement: otherwise the command's first fsync pays for the whole
  // copy (0.35 s for the 340 MB store of two years of answers), which no real store has pending.
  let descriptor = open(copy, O_RDONLY)
  if descriptor >= 0 {
    fsync(descriptor)
    close(descriptor)
  }
  return copy
}

/// Writes `reminders` (definition objects) as a `reminders import` file.
@MainActor
func definitionsFile(_ name: String, _ reminders: [[String: Any]]) -> String {
  let path = work + "/\(name).json"
  let object: [String: Any] = [
    "format": "routine-definitions", "version": 1, "habits": [], "tasks": [],
    "reminders": reminders,
  ]
  let data = try! JSONSerialization.data(withJSONObject: object)
  _ = FileManager.default.createFile(atPath: path, contents: data)
  return path
}

func clock(_ minutes: Int) -> String {
  String(format: "%02d:%02d", minutes / 60 % 24, minutes % 60)
}

/// Voluntary and involuntary context switches of every thread of `pid`: each is a wake-up.
func contextSwitches(_ pid: Int32) -> Int {
  let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
  return tasks.reduce(0) { total, task in
    let status =
      (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
    let counts = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
      .compactMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    return total + counts.reduce(0, +)
  }
}

@MainActor
func deliveryBenchmarks(idleSeconds: Int) {
  let count = max(runs * 5, 50)
  print("")
  print("Delivery and reminders: medians of \(count) runs, each beside a hello-world run.")
  print("")
  print("| measurement | median | hello-world | ratio | target | |")
  print("| --- | --- | --- | --- | --- | --- |")
  let utc = ["--tz", "UTC"]
  let defined = ["--now", "2025-05-31T00:00:00Z"] + utc

  // A small store: one activity reminder a day (a kind without a preset: "done" logs it).
  let small = prepareStore(
    "delivery-small",
    [
      ["settings", "--time-zone", "UTC"] + defined,
      ["reminders", "add", "--activity", "Stretching", "--at", "08:00"] + defined,
    ])
  reportRatio(
    "deliver, nothing due",
    sideBySide(count) { _ in ["deliver", "--store", small, "--now", "2026-06-01T12:00:30Z"] + utc },
    limit: 1.5)
  // Each answer a new one: "done" to the next day's firing, which logs a Workout (and runs the
  // reverse cancellation and the outlier check).
  let answered = copyStore(small, to: work + "/respond.db")
  reportRatio(
    "respond done (logs the event)",
    sideBySide(count) { index in
      let day = String(format: "2026-%02d-%02d", 6 + index / 28, 1 + index % 28)
      return [
        "respond", "reminder-1-weekday-\(weekday(day))", "done", "--occurrence",
        "\(day)T08:00:00Z", "--store", answered, "--now", "\(day)T08:01:00Z",
      ] + utc
    }, limit: 1.5)

  // 64 repeating requests (36 daily texts, 4 daily activity reminders of 7 weekday requests
  // each) and a year of history: the generated persona's events and every firing delivered.
  var year: [[String: Any]] = (0..<36).map { index in
    [
      "type": "general", "message": "Reminder \(index)",
      "schedule": ["repeat": "daily", "at": clock(8 * 60 + index * 17)],
    ]
  }
  for (index, kind) in ["Workout", "Meditation", "Reading", "Coffee"].enumerated() {
    year.append([
      "type": "activity", "activity": kind, "lookbackHours": 6,
      "schedule": ["repeat": "weekly", "days": "daily", "at": clock(7 * 60 + index * 181)],
    ])
  }
  let history = work + "/year-events.csv"
  if !FileManager.default.fileExists(atPath: history) {
    _ = measure(
      routine,
      ["sample", "--days", "366", "--seed", "4", "--start", "2025-06-01", "--output", history])
  }
  // Every day's firings delivered by one run late that evening (a 24-hour grace period).
  let days = (0..<365).map { offset -> [String] in
    let date = Calendar.utc.date(byAdding: .day, value: offset, to: Date.day("2025-06-01"))!
    return ["deliver", "--now", "\(Date.text(date))T23:59:00Z"] + utc
  }
  let yearStore = prepareStore(
    "delivery-year",
    [
      ["settings", "--time-zone", "UTC", "--grace", "1440"] + defined,
      ["reminders", "import", definitionsFile("year", year)] + defined,
      ["import", history] + utc,
    ] + days + [["settings", "--grace", "15"] + utc])
  reportRatio(
    "deliver, 64 requests, a year of history, nothing due",
    sideBySide(count) { _ in
      ["deliver", "--store", yearStore, "--now", "2026-06-01T12:00:30Z"] + utc
    }, limit: 2)
  // The 36 texts fall due one at a time, 17 minutes apart: each run delivers one.
  let delivering = copyStore(yearStore, to: work + "/delivering.db")
  reportRatio(
    "deliver, 64 requests, a year of history, one due",
    sideBySide(36) { index in
      [
        "deliver", "--store", delivering, "--now", "2026-06-01T\(clock(8 * 60 + index * 17)):30Z",
      ] + utc
    }, limit: 2)

  // 100 activity reminders; `log` of one of their kinds cancels what it covers.
  let hundred = (0..<100).map { index -> [String: Any] in
    [
      "type": "activity", "activity": "Habit \(String(format: "%03d", index))",
      "lookbackHours": 12,
      "schedule": ["repeat": "weekly", "days": "daily", "at": clock(6 * 60 + index * 9)],
    ]
  }
  // The same year, with the 100 reminders and without them (what a logged event costs anyway).
  let logged = [["import", history] + utc, ["plan", "--now", "2026-06-01T03:00:00Z"] + utc]
  let settings = [["settings", "--time-zone", "UTC"] + defined]
  let imported = [["reminders", "import", definitionsFile("hundred", hundred)] + defined]
  for (name, setup, label) in [
    ("log-no-reminders", settings + logged, "log, no reminders (for comparison)"),
    ("log-100-reminders", settings + imported + logged, "log, 100 activity reminders defined"),
  ] {
    let logging = copyStore(prepareStore(name, setup), to: work + "/\(name)-copy.db")
    reportRatio(
      label,
      sideBySide(count) { index in
        [
          "log", "Habit \(String(format: "%03d", index % 100))", "--store", logging, "--now",
          "2026-06-01T\(clock(6 * 60 + index)):00Z", "--value", "\(index)",
        ] + utc
      }, limit: 1.5)
  }

  // 1,000 reminders of every kind: a quarter each activity reminders on two or three weekdays,
  // weekly texts, monthly texts and one-time texts within the month.
  let thousand = (0..<1000).map { index -> [String: Any] in
    let at = clock(6 * 60 + index % 960)
    let dayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    switch index % 4 {
    case 0:
      return [
        "type": "activity", "activity": "Activity \(index)", "lookbackHours": 12,
        "schedule": [
          "repeat": "weekly", "at": at,
          "days": "\(dayNames[index % 7]),\(dayNames[(index + 3) % 7])",
        ],
      ]
    case 1:
      return [
        "type": "general", "message": "Weekly \(index)",
        "schedule": ["repeat": "weekly", "at": at, "days": dayNames[index % 7]],
      ]
    case 2:
      return [
        "type": "general", "message": "Monthly \(index)",
        "schedule": ["repeat": "monthly", "at": at, "day": 1 + index % 31],
      ]
    default:
      return [
        "type": "general", "message": "Once \(index)",
        "schedule": [
          "repeat": "once", "at": at, "date": String(format: "2026-06-%02d", 1 + index % 30),
        ],
      ]
    }
  }
  let thousandStore = prepareStore(
    "thousand-reminders",
    [
      ["settings", "--time-zone", "UTC"] + defined,
      ["reminders", "import", definitionsFile("thousand", thousand)] + defined,
    ])
  let now = ["--store", thousandStore, "--now", "2026-06-01T00:00:00Z"] + utc
  let lists = (0..<runs).map { _ in measure(routine, ["reminders"] + now) }
  report(
    "reminders list, 1,000 reminders", lists, target: "<= 50 ms", pass: median(lists) <= 0.05)
  let month = ["agenda", "--to", "2026-07-01T00:00:00Z"] + now
  let agendas = (0..<runs).map { _ in measure(routine, month) }
  report(
    "agenda for a month, 1,000 reminders", agendas, target: "<= 50 ms",
    pass: median(agendas) <= 0.05)

  // watch, idle: a reminder hours away; every context switch of every thread is a wake-up.
  let later = Date().addingTimeInterval(3 * 3600)
  let minutes = Int(later.timeIntervalSince1970) / 60 % 1440
  let idleStore = prepareStore(
    "watch-idle-\(minutes)",
    [
      ["settings", "--time-zone", "UTC"] + utc,
      ["reminders", "add", "--text", "Later", "--repeat", "daily", "--at", clock(minutes)] + utc,
    ])
  var pid: pid_t = 0
  let argv = ([routine, "watch", "--store", idleStore] + utc).map { strdup($0) } + [nil]
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  guard posix_spawn(&pid, routine, &actions, nil, argv, environ) == 0 else {
    print("| watch, idle | could not start | | | | |")
    return
  }
  sleep(2)  // Start-up: the store opened, the plan made, the timer set.
  let before = contextSwitches(pid)
  sleep(UInt32(idleSeconds))
  let after = contextSwitches(pid)
  kill(pid, SIGTERM)
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  let perMinute = Double(after - before) * 60 / Double(idleSeconds)
  print(
    String(
      format: "| watch, idle for %d s | %.1f wake-ups a minute | | | 0 | %@ |", idleSeconds,
      perMinute, after == before ? "met" : "missed"))
}

extension Calendar {
  static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}

extension Date {
  /// Midnight UTC of `text` (YYYY-MM-DD).
  static func day(_ text: String) -> Date {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    return Calendar.utc.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
  }

  /// The UTC date of `date` as YYYY-MM-DD.
  static func text(_ date: Date) -> String {
    let parts = Calendar.utc.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }
}

/// The weekday of `day` (YYYY-MM-DD), 1 for Sunday to 7 for Saturday, as request ids number it.
func weekday(_ day: String) -> Int {
  Calendar.utc.component(.weekday, from: Date.day(day))
}
