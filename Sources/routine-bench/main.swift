// Reruns the performance targets of docs/performance.md against the release build:
//
//   swift build -c release && .build/release/routine-bench [--runs N] [--work DIR]
//
// with --export, the export targets and the import beside them (Export.swift); with --delivery,
// only the delivery and reminder targets (Delivery.swift; --idle-seconds N for
// the watch, 60 by default), with --unbounded, the measurements of issue 17 (Unbounded.swift),
// with --cohort, `analyze --cohort` over 1,000 people and 10M events (Cohort.swift),
// with --health, the Apple Health import (Health.swift), with --other-apps, the imports of
// Sleep as Android and Garmin exports (OtherApps.swift), and, with --quality, the long backtest of the generated persona that used to be a unit test
// (two minutes in a debug build; a second here): docs/analytics.md gives its quality bars.
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
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    usage: routine-bench [--runs N] [--work DIR]     the performance targets (docs/performance.md)
           routine-bench --export | --delivery [--idle-seconds N] | --unbounded | --health
           routine-bench --other-apps                   Sleep as Android and Garmin imports
           routine-bench --adaptation                   plan with 1,000 reminders' records
           routine-bench --cohort [--people N] [--events N]
                                                        analyze --cohort on every core (docs/cohort.md)
           routine-bench --quality                      the long backtest's quality bars
           routine-bench --calibration [--personas N]   calibration on generated people
           routine-bench --fit [--personas N] [--log FILE]... [--days N] [--leave-one-out]
                         [--long-look-back N] [--no-evidence-bound]
                                                        refit the confidence model
           routine-bench --changes [--people N] [--log FILE]...
                                                        a moved routine, logging that stops
           routine-bench --simulate [--people N] [--days N] [--seed S]
                                                        people living with reminders that listen
           routine-bench --simulate-holds [--people N] [--days N] [--seed S]
                                                        reminders held while people are away
    Run from a release build (swift build -c release); docs/analytics.md and
    docs/performance.md say what each measures.
    """)
  exit(0)
}
if arguments.contains("--hello") {
  // The baseline: a Swift program that imports Foundation and prints.
  print("hello, \(Date(timeIntervalSince1970: 0).timeIntervalSince1970)")
  exit(0)
}
if arguments.contains("--cohort-sequential") {
  // The people of a cohort analysed one after another in this process (Cohort.swift).
  exit(runCohortSequential(arguments))
}
if arguments.contains("--cohort-generate") {
  exit(runCohortGeneration(arguments))
}
if arguments.contains("--presence") { exit(runPresence(arguments)) }
if arguments.contains("--fit") {
  // Fits the confidence model's weights (Fit.swift).
  exit(runFit(arguments))
}
if arguments.contains("--changes") {
  // A moved routine and logging that stops (Changes.swift).
  exit(runChanges(arguments))
}
if arguments.contains("--simulate") {
  // People living with routine for 90 days, adaptation off and on (Simulation.swift).
  exit(runSimulation(arguments, work: option("--work", NSTemporaryDirectory() + "routine-bench")))
}
if arguments.contains("--simulate-holds") {
  // People living with reminders held while they are away (HoldSimulation.swift).
  exit(
    runHoldSimulation(
      arguments, work: option("--work", NSTemporaryDirectory() + "routine-bench")))
}
if arguments.count == 4, arguments[1] == "--write-definitions", let count = Int(arguments[2]) {
  writeDefinitions(count, to: arguments[3])
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

/// Runs `path arguments` and returns its standard output (standard error is dropped).
func capture(_ path: String, _ arguments: [String]) -> (status: Int32, output: Data) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return (-1, Data()) }
  let output = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, output)
}

if arguments.contains("--quality") {
  // 120 days of the generated persona (seed 3), backtested with 7- and 28-day windows: the
  // bars sit below what the method reaches, so that a regression in the estimator shows.
  let persona = work + "/persona-120.csv"
  let generated = capture(
    routine,
    ["sample", "--days", "120", "--seed", "3", "--start", "2025-01-06", "--output", persona])
  guard generated.status == 0 else {
    print("routine sample failed")
    exit(1)
  }
  print("| window | precision | recall | Brier | bars | |")
  print("| --- | --- | --- | --- | --- | --- |")
  var passed = true
  for days in [7, 28] {
    let result = capture(routine, ["backtest", "--log", persona, "--days", "\(days)", "--json"])
    let json =
      (try? JSONSerialization.jsonObject(with: result.output)) as? [String: Any] ?? [:]
    let precision = json["precision"] as? Double ?? 0
    let recall = json["recall"] as? Double ?? 0
    let brier = json["brier"] as? Double ?? 1
    let pass = result.status == 0 && precision > 0.74 && recall > 0.45 && brier < 0.21
    passed = passed && pass
    print(
      String(
        format: "| %d days | %.3f | %.3f | %.3f | > 0.74, > 0.45, < 0.21 | %@ |", days, precision,
        recall, brier, pass ? "met" : "missed"))
  }
  exit(passed ? 0 : 1)
}

if arguments.contains("--calibration") {
  // The population of docs/analytics.md: persona n has regularity n % 7 (tight, loose,
  // drifting, shift work, several slots, weekly-only, long gaps; the first four but tight
  // ... see PersonaPopulation), 180 days each, backtested with 7-day windows. Pools each
  // persona's reliability table and reports the expected calibration error overall and for the
  // irregular half (loose, drifting, shift work, long gaps).
  let count = Int(option("--personas", "56")) ?? 56
  let kinds = ["tight", "loose", "drifting", "shiftWork", "severalSlots", "weeklyOnly", "longGaps"]
  let irregular: Set<String> = ["loose", "drifting", "shiftWork", "longGaps"]
  // Per group: (count, summed confidence, summed hits) per tenth of confidence.
  var pooled: [String: [(Double, Double, Double)]] = [:]
  var quality:
    [String: (reminders: Double, hits: Double, eventDays: Double, eventDaysHit: Double)] =
      [:]
  for persona in 0..<count {
    let file = work + "/persona-\(persona).csv"
    let generated = capture(
      routine,
      [
        "sample", "--persona", "\(persona)", "--days", "180", "--seed", "1", "--start",
        "2025-01-06", "--output", file,
      ])
    let result = capture(routine, ["backtest", "--log", file, "--days", "7", "--json"])
    guard generated.status == 0, result.status == 0,
      let json = (try? JSONSerialization.jsonObject(with: result.output)) as? [String: Any]
    else {
      print("persona \(persona) failed")
      exit(1)
    }
    let kind = kinds[persona % kinds.count]
    for group in ["all", kind, irregular.contains(kind) ? "irregular half" : "regular half"] {
      var bins = pooled[group] ?? Array(repeating: (0, 0, 0), count: 10)
      for case let bin as [String: Any] in json["reliability"] as? [Any] ?? [] {
        let index = Int(((bin["from"] as? Double ?? 0) * 10).rounded())
        let n = Double(bin["count"] as? Int ?? 0)
        bins[index].0 += n
        bins[index].1 += n * (bin["meanConfidence"] as? Double ?? 0)
        bins[index].2 += n * (bin["hitRate"] as? Double ?? 0)
      }
      pooled[group] = bins
      var totals = quality[group] ?? (0, 0, 0, 0)
      totals.reminders += Double(json["reminders"] as? Int ?? 0)
      totals.hits += Double(json["hits"] as? Int ?? 0)
      totals.eventDays += Double(json["eventDays"] as? Int ?? 0)
      totals.eventDaysHit += Double(json["eventDaysHit"] as? Int ?? 0)
      quality[group] = totals
    }
  }
  func calibrationError(_ bins: [(Double, Double, Double)]) -> Double {
    let total = bins.reduce(0) { $0 + $1.0 }
    return bins.reduce(0) { $0 + abs($1.1 - $1.2) } / max(total, 1)
  }
  print("| personas | predictions | ECE | precision | recall |")
  print("| --- | --- | --- | --- | --- |")
  for group in ["all", "regular half", "irregular half"] + kinds {
    guard let bins = pooled[group], let totals = quality[group] else { continue }
    print(
      String(
        format: "| %@ | %.0f | %.3f | %.3f | %.3f |", group, bins.reduce(0) { $0 + $1.0 },
        calibrationError(bins), totals.hits / max(totals.reminders, 1),
        totals.eventDaysHit / max(totals.eventDays, 1)))
  }
  print("")
  print("| confidence | predictions | mean confidence | hit rate |")
  print("| --- | --- | --- | --- |")
  for (index, bin) in (pooled["all"] ?? []).enumerated() where bin.0 > 0 {
    print(
      String(
        format: "| %.1f-%.1f | %.0f | %.3f | %.3f |", Double(index) / 10, Double(index + 1) / 10,
        bin.0, bin.1 / bin.0, bin.2 / bin.0))
  }
  let overall = calibrationError(pooled["all"] ?? [])
  let irregularError = calibrationError(pooled["irregular half"] ?? [])
  print(
    String(
      format: "\nECE %.3f overall (target <= 0.05), %.3f for the irregular half (target <= 0.08)",
      overall, irregularError))
  exit(overall <= 0.05 && irregularError <= 0.08 ? 0 : 1)
}

/// One child process: wall seconds, CPU seconds (user and system), peak resident memory in
/// MiB, exit status.
struct Run {
  var seconds: Double
  var cpuSeconds: Double = 0
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
  let cpu =
    Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
  return Run(seconds: seconds, cpuSeconds: cpu, peakMiB: peak, status: (status >> 8) & 0xFF)
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

let idleSeconds = Int(option("--idle-seconds", "60")) ?? 60
if arguments.contains("--unbounded") {
  unboundedBenchmarks()
  exit(0)
}
if arguments.contains("--health") {
  healthBenchmarks()
  exit(0)
}
if arguments.contains("--other-apps") {
  otherAppsBenchmarks()
  exit(0)
}
if arguments.contains("--delivery") {
  deliveryBenchmarks(idleSeconds: idleSeconds)
  exit(0)
}
if arguments.contains("--adaptation") {
  adaptationBenchmarks()
  exit(0)
}
if arguments.contains("--cohort") {
  cohortBenchmarks()
  exit(0)
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
if arguments.contains("--export") {
  exportBenchmarks(log: log)
  exit(0)
}

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

// Many kinds: analysis must cost the same per kind whatever the number of other kinds (ten
// times the kinds, at most about ten times the CPU), and names that share their first and last
// bytes must not share a hash chain (issue 7).
func kindsLog(_ kinds: Int) -> String {
  let path = work + "/kinds-\(kinds).csv"
  if !FileManager.default.fileExists(atPath: path) {
    var text = "timestamp,event\n"
    for day in 11...17 {
      for kind in 0..<kinds {
        text += String(
          format: "2026-04-%02dT%02d:%02d:00+02:00,Kind %05d\n", day, kind % 24, kind * 7 % 60,
          kind)
      }
    }
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
  }
  return path
}
func kindsCPU(_ kinds: Int) -> (runs: [Run], cpu: Double) {
  let path = kindsLog(kinds)
  let runs = (0..<max(3, runs / 3)).map { _ in
    measure(
      routine,
      ["analyze", "--log", path, "--now", "2026-04-18T12:00:00+02:00", "--tz", "Europe/Berlin"])
  }
  return (runs, runs.map(\.cpuSeconds).reduce(0, +) / Double(runs.count))
}
let fewKinds = kindsCPU(2_000)
let manyKinds = kindsCPU(20_000)
let kindRatio = manyKinds.cpu / fewKinds.cpu
report(
  String(
    format: "analyze --log, 20,000 kinds (%.2f s CPU; %.1f x 2,000 kinds)", manyKinds.cpu,
    kindRatio), manyKinds.runs, target: "<= 12 x 2,000 kinds", pass: kindRatio <= 12)

let colliding = work + "/collide-40000.csv"
if !FileManager.default.fileExists(atPath: colliding) {
  var text = "timestamp,event\n"
  for index in 0..<40_000 {
    text += String(format: "2026-04-20T07:00:00+02:00,collide-%08d-tail-xx\n", index)
  }
  _ = FileManager.default.createFile(atPath: colliding, contents: Data(text.utf8))
}
let collisionImports = (0..<3).map { index -> Run in
  let store = work + "/collide-\(index).db"
  for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) }
  defer { for suffix in ["", "-wal", "-shm"] { unlink(store + suffix) } }
  return measure(routine, ["import", colliding, "--store", store])
}
let collisionCPU = collisionImports.map(\.cpuSeconds).reduce(0, +) / 3
report(
  String(format: "import, 40,000 names alike at both ends (%.2f s CPU)", collisionCPU),
  collisionImports, target: "<= 2 s CPU", pass: collisionCPU <= 2)

print("")
print(String(format: "log / hello-world = %.2f", ratio))
deliveryBenchmarks(idleSeconds: idleSeconds)

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
