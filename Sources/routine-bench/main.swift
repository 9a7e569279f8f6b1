// Reruns the performance targets of docs/performance.md against the release build:
//
//   swift build -c release && .build/release/routine-bench [--runs N] [--work DIR]
//
// It generates the 2,000,000-event benchmark log with `routine sample` when missing, then times
// `routine analyze --log` on it, `routine import` of it into a new store, and `routine log`
// against a Foundation hello-world (this program with --hello). Wall time and peak memory come
// from the child processes themselves (wait4), not from timers inside routine.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
if arguments.contains("--hello") {
  // The baseline: a Swift program that imports Foundation and prints.
  print("hello, \(Date(timeIntervalSince1970: 0).timeIntervalSince1970)")
  exit(0)
}

func option(_ name: String, _ fallback: String) -> String {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
    return fallback
  }
  return arguments[index + 1]
}
let runs = Int(option("--runs", "10")) ?? 10
let work = option("--work", NSTemporaryDirectory() + "routine-bench")
let directory = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent()
let routine = directory.appendingPathComponent("routine").path
let bench = directory.appendingPathComponent("routine-bench").path
guard FileManager.default.isExecutableFile(atPath: routine) else {
  FileHandle.standardError.write(
    Data("routine-bench: no \(routine); run swift build -c release first\n".utf8))
  exit(66)
}
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)

/// One child process: wall seconds, peak resident memory in MiB, exit status.
struct Run {
  var seconds: Double
  var peakMiB: Double
  var status: Int32
}

/// Runs `path arguments`, stdout and stderr to /dev/null, measuring it with wait4.
func measure(_ path: String, _ arguments: [String]) -> Run {
  var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  let start = DispatchTime.now().uptimeNanoseconds
  guard posix_spawn(&pid, path, &actions, nil, argv, environ) == 0 else {
    return Run(seconds: 0, peakMiB: 0, status: -1)
  }
  var status: Int32 = 0
  var usage = rusage()
  _ = wait4(pid, &status, 0, &usage)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  #if canImport(Darwin)
    let peak = Double(usage.ru_maxrss) / 1_048_576
  #else
    let peak = Double(usage.ru_maxrss) / 1024
  #endif
  return Run(seconds: seconds, peakMiB: peak, status: (status >> 8) & 0xFF)
}

func summary(_ results: [Run]) -> (mean: Double, min: Double, max: Double, peak: Double) {
  let times = results.map(\.seconds)
  return (
    times.reduce(0, +) / Double(times.count), times.min()!, times.max()!,
    results.map(\.peakMiB).max()!
  )
}

func report(_ name: String, _ results: [Run], target: String, pass: Bool) {
  let s = summary(results)
  let line = String(
    format: "| %@ | %.1f ms | %.1f ms | %.1f ms | %.1f MiB | %@ | %@ |", name, s.mean * 1000,
    s.min * 1000,
    s.max * 1000, s.peak, target, pass ? "met" : "missed")
  print(line)
  if results.contains(where: { $0.status != 0 }) {
    print("  (a run exited with status \(results.map(\.status)))")
  }
}

let log = work + "/benchmark-2000000.csv"
if !FileManager.default.fileExists(atPath: log) {
  print("Generating \(log) ...")
  let generated = measure(
    routine,
    [
      "sample", "--days", "18262", "--kinds", "120", "--seed", "1", "--start", "1976-01-01",
      "--limit", "2000000", "--output", log,
    ])
  guard generated.status == 0 else { print("generation failed"); exit(1) }
}
let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
print(
  "Benchmark log: \(log), \(size / 1_000_000) MB; \(runs) runs each; \(ProcessInfo.processInfo.activeProcessorCount) cores."
)
print("")
print("| measurement | mean | min | max | peak memory | target | |")
print("| --- | --- | --- | --- | --- | --- | --- |")

// analyze --log over the whole file (a window longer than the 50 years it spans).
let analyzeArguments = [
  "analyze", "--log", log, "--now", "2026-01-01T00:00:00Z", "--days", "20000", "--tz", "UTC",
]
_ = measure(routine, analyzeArguments)  // Warm the page cache.
let analyses = (0..<runs).map { _ in measure(routine, analyzeArguments) }
let analysis = summary(analyses)
report(
  "analyze --log, 2M events", analyses, target: "<= 250 ms, <= 64 MiB",
  pass: analysis.mean <= 0.25 && analysis.peak <= 64)

// import into a new store each time.
let imports = (0..<max(3, runs / 3)).map { index -> Run in
  let store = work + "/import-\(index).db"
  for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
  defer { for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) } }
  return measure(routine, ["import", log, "--store", store])
}
report(
  "import into a new store, 2M events", imports, target: "<= 5 s", pass: summary(imports).mean <= 5)

// routine log, each run a new event, against the Foundation hello-world.
let store = work + "/log.db"
for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
_ = measure(routine, ["log", "Warm Up", "--store", store])
let count = max(runs * 5, 50)
let logs = (0..<count).map { index in
  measure(
    routine,
    [
      "log", "Coffee", "--store", store, "--now", "2026-04-27T08:00:00+02:00", "--value",
      "\(index)",
    ])
}
let hellos = (0..<count).map { _ in measure(bench, ["--hello"]) }
let ratio = summary(logs).mean / summary(hellos).mean
report("Foundation hello-world", hellos, target: "baseline", pass: true)
report("log (one new event)", logs, target: "<= 2 x hello", pass: ratio <= 2)

// plan on a store of 1,000,000 events across 100 kinds, then the agenda of its (64) requests.
let planLog = work + "/plan-1000000.csv"
let planStore = work + "/plan.db"
if !FileManager.default.fileExists(atPath: planStore) {
  for suffix in ["", "-wal", "-shm"] { unlink(planStore + suffix) }
  _ = measure(
    routine,
    [
      "sample", "--days", "10000", "--kinds", "100", "--seed", "2", "--start", "1999-01-01",
      "--limit", "1000000", "--output", planLog,
    ])
  _ = measure(routine, ["import", planLog, "--store", planStore])
}
// "Now" is the morning after the last event (the last line's date). Only the file's tail is read:
// a child started by posix_spawn reports the parent's memory at the time in its own peak.
let tail: String = {
  guard let handle = FileHandle(forReadingAtPath: planLog) else { return "" }
  defer { try? handle.close() }
  let size = (try? handle.seekToEnd()) ?? 0
  try? handle.seek(toOffset: size > 256 ? size - 256 : 0)
  return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}()
let lastLine = tail.split(separator: "\n").last ?? ""
let lastDate = LocalDate.parse(String(lastLine.prefix(10))) ?? "2026-01-01"
let planNow = LocalDate.next(after: lastDate) + "T04:00:00Z"
let planArguments = ["plan", "--store", planStore, "--now", planNow, "--tz", "UTC"]
let plans = (0..<max(3, runs / 2)).map { _ in measure(routine, planArguments) }
report(
  "plan, 1M events across 100 kinds", plans, target: "<= 500 ms", pass: summary(plans).mean <= 0.5)
let agendaArguments = [
  "agenda", "--store", planStore, "--now", planNow, "--tz", "UTC", "--to",
  LocalDate.next(after: lastDate, years: 1) + "T04:00:00Z",
]
let agendas = (0..<runs).map { _ in measure(routine, agendaArguments) }
report(
  "agenda over a year, 64 requests", agendas, target: "<= 50 ms",
  pass: summary(agendas).mean <= 0.05)

print("")
print(String(format: "log / hello-world = %.2f", ratio))

/// Date text helpers (the bench has no access to routine's own types).
enum LocalDate {
  static func parse(_ text: String) -> String? { text.count == 10 ? text : nil }

  /// The day after `date` (YYYY-MM-DD), `years` later when given.
  static func next(after date: String, years: Int = 0) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    let day = formatter.date(from: date)!
    let later = calendar.date(byAdding: DateComponents(year: years, day: 1), to: day)!
    return formatter.string(from: later)
  }
}
