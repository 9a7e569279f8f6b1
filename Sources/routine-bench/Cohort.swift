// `routine analyze --cohort` (docs/cohort.md): a thousand people with 10,000 events each
// (10 million in all), analysed at once on every core, against the same people analysed one
// after another in one process, and against polars grouping the same events by person.
//
//   .build/release/routine-bench --cohort [--people N] [--events N] [--runs N] [--work DIR]
//
// The people are persons 0... of the generated population (`routine sample --persona`), 8,000
// days each, cut to their last N events so that every log ends on the same day; they are made
// once in the work directory, as one CSV per person and as one CSV with a person column (the
// people's lines interleaved, the order that keeps every person's buffer busy while splitting).
import Foundation
import RoutineCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `routine-bench --cohort-sequential DIR NOW`: `routine analyze --log FILE --json` for each file
/// of DIR in turn, in this one process (the baseline `--cohort` is compared with).
func runCohortSequential(_ arguments: [String]) -> Int32 {
  guard let index = arguments.firstIndex(of: "--cohort-sequential"), index + 2 < arguments.count
  else { return 64 }
  let directory = arguments[index + 1]
  let now = arguments[index + 2]
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  let output = Output(descriptor: 1)
  let errors = Output(descriptor: 2)
  var status: Int32 = 0
  for file in files where !file.hasPrefix(".") {
    let result = RoutineCLI.run(
      [
        "analyze", "--log", directory + "/" + file, "--json", "--now", now, "--tz", "Europe/Berlin",
      ],
      environment: .current, output: output, errors: errors)
    if result != 0 { status = result }
  }
  return status
}

/// The cohort benchmarks; see the top of this file.
func cohortBenchmarks() {
  let people = Int(option("--people", "1000")) ?? 1000
  let events = Int(option("--events", "10000")) ?? 10_000
  let cores = ProcessInfo.processInfo.activeProcessorCount
  let directory = work + "/cohort-\(people)x\(events)"
  let single = work + "/cohort-\(people)x\(events).csv"
  if !FileManager.default.fileExists(atPath: single) {
    print("Generating \(directory) and \(single) ...")
    // In a child: a child's peak memory counts what its parent holds when it starts, and
    // generating holds every log at once.
    let generated = measure(
      bench, ["--cohort-generate", "\(people)", "\(events)", directory, single])
    guard generated.status == 0 else {
      print("generation failed")
      exit(1)
    }
  }
  let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  let sizes = names.map {
    (try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as? Int) ?? 0
  }
  let total = sizes.reduce(0, +)
  let largestMiB = Double(sizes.max() ?? 0) / 1_048_576
  // "Now" is the morning after the last day, which every log reaches.
  let last =
    (try? String(contentsOfFile: directory + "/" + names[0], encoding: .utf8))?
    .split(separator: "\n").last.map { String($0.prefix(10)) } ?? "2025-11-26"
  let now = LocalDate.next(after: last) + "T08:00:00+01:00"
  print("Load average at the start: \(loadAverage())")
  print(
    "Cohort: \(names.count) people, \(people * events) events, \(total / 1_000_000) MB of CSV "
      + "(largest log \(String(format: "%.2f", largestMiB)) MiB); \(runs) runs each; \(cores) cores; --now \(now)."
  )
  print("")
  print(
    "| measurement | wall | CPU | others' load | runs undisturbed | peak memory | target | |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- |")
  /// The run a row reports: the fastest of those no other process disturbed (others' load under
  /// a tenth of a core), else the fastest of all.
  func chosen(_ samples: [Sample]) -> Sample {
    let quiet = samples.filter { $0.others < 0.1 }
    return (quiet.isEmpty ? samples : quiet).min { $0.run.seconds < $1.run.seconds }!
  }
  func row(_ name: String, _ samples: [Sample], target: String, pass: Bool?) {
    let best = chosen(samples)
    let quiet = samples.filter { $0.others < 0.1 }.count
    let peak = samples.map(\.run.peakMiB).max() ?? 0
    let verdict = pass.map { $0 ? "met" : "missed" } ?? ""
    print(
      String(
        format: "| %@ | %.2f s | %.2f s | %.2f cores | %d of %d | %.1f MiB | %@ | %@ |", name,
        best.run.seconds, best.run.cpuSeconds, best.others, quiet, samples.count, peak, target,
        verdict))
    if samples.contains(where: { $0.run.status != 0 }) {
      print("  (a run exited with status \(samples.map(\.run.status)))")
    }
  }
  let count = max(1, runs)
  let analyze = ["analyze", "--json", "--now", now, "--tz", "Europe/Berlin"]
  _ = measure(routine, analyze + ["--cohort", directory])  // Warm the page cache.
  // Taken in turn, and each run's disturbance by other processes measured (the machine may be
  // shared): a row reports its fastest undisturbed run.
  var cohort: [Sample] = []
  var sequential: [Sample] = []
  var pinned: [Sample] = []
  var split: [Sample] = []
  // The analysis of one person already spreads its kinds over the cores (parallelMap), so the
  // baseline "one person after another" is also taken on one core (taskset), where it is
  // serial: the target divides that by the cores.
  let taskset = "/usr/bin/taskset"
  let canPin = FileManager.default.isExecutableFile(atPath: taskset)
  for _ in 0..<count {
    cohort.append(observed(routine, analyze + ["--cohort", directory]))
    if canPin {
      pinned.append(
        observed(taskset, ["-c", "0", bench, "--cohort-sequential", directory, now]))
    }
    sequential.append(observed(bench, ["--cohort-sequential", directory, now]))
    split.append(observed(routine, analyze + ["--cohort", single]))
  }
  let memoryTarget = 64 + Double(cores) * largestMiB
  let baseline = chosen(canPin ? pinned : sequential).run.seconds
  let ratio = chosen(cohort).run.seconds / (baseline / Double(cores))
  let peak = cohort.map(\.run.peakMiB).max() ?? 0
  row(
    "analyze --cohort DIR --json", cohort,
    target: String(
      format: "<= 1.2 x sequential%@ / %d cores (%.2f x), <= %.0f MiB",
      canPin ? " on one core" : "", cores, ratio, memoryTarget),
    pass: ratio <= 1.2 && peak <= memoryTarget)
  if canPin {
    row(
      "the same, one --log after another in one process, on one core", pinned,
      target: "baseline", pass: nil)
  }
  row(
    "the same, one --log after another in one process", sequential,
    target: canPin ? "-" : "baseline", pass: nil)
  let splitPeak = split.map(\.run.peakMiB).max() ?? 0
  row(
    "analyze --cohort FILE --json (one CSV, person column)", split,
    target: String(format: "<= %.0f MiB", memoryTarget), pass: splitPeak <= memoryTarget)
  // polars: each person's median minute of the day per kind, from the files and from the one
  // file; a group-by, far less work than an analysis, for scale.
  let python = "/usr/bin/env"
  let files = (0..<count).map { _ in
    observed(python, ["python3", "-c", polarsScript, "dir", directory])
  }
  row("polars: median time of day per person and kind, the files", files, target: "-", pass: nil)
  let one = (0..<count).map { _ in
    observed(python, ["python3", "-c", polarsScript, "file", single])
  }
  row("polars: the same from the one file", one, target: "-", pass: nil)
  // The cohort's output is the same whichever way the people come.
  let fromDirectory = capture(routine, analyze + ["--cohort", directory]).output
  let fromFile = capture(routine, analyze + ["--cohort", single]).output
  print("")
  print(
    "Directory and file outputs \(fromDirectory == fromFile ? "are identical" : "DIFFER") "
      + "(\(fromDirectory.count) bytes). Load average at the end: \(loadAverage())")
}

/// Groups the events by person and kind and takes the median minute of the day (as written, in
/// the event's own offset); prints the number of groups.
private let polarsScript = """
  import sys
  import polars as pl
  mode, path = sys.argv[1], sys.argv[2]
  schema = {"timestamp": pl.Utf8, "event": pl.Utf8, "value": pl.Float64, "note": pl.Utf8}
  if mode == "dir":
      frame = pl.scan_csv(path + "/*.csv", schema_overrides=schema, include_file_paths="path")
      frame = frame.with_columns(pl.col("path").str.extract(r"([^/]+)\\.csv$").alias("person"))
  else:
      frame = pl.scan_csv(path, schema_overrides=schema | {"person": pl.Utf8})
  minute = (pl.col("timestamp").str.slice(11, 2).cast(pl.Int32) * 60
            + pl.col("timestamp").str.slice(14, 2).cast(pl.Int32))
  result = (frame.with_columns(minute.alias("minute"))
            .group_by("person", "event")
            .agg(pl.col("minute").median().alias("median"), pl.len().alias("events"))
            .sort("person", "event")
            .collect())
  print(result.height)
  """

/// `routine-bench --cohort-generate PEOPLE EVENTS DIR FILE`: writes PEOPLE logs of EVENTS
/// events each into DIR (p0000.csv, ...) and the same events as one CSV with a person column,
/// the people's lines interleaved, as FILE.
func runCohortGeneration(_ arguments: [String]) -> Int32 {
  guard let index = arguments.firstIndex(of: "--cohort-generate"), index + 4 < arguments.count,
    let people = Int(arguments[index + 1]), let events = Int(arguments[index + 2])
  else { return 64 }
  let routine = URL(fileURLWithPath: arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("routine").path
  return generateCohort(
    people: people, events: events, into: arguments[index + 3], single: arguments[index + 4],
    routine: routine) ? 0 : 1
}

private func generateCohort(
  people: Int, events: Int, into directory: String, single: String, routine: String
) -> Bool {
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let failures = Failures()
  DispatchQueue.concurrentPerform(iterations: people) { index in
    let name = String(format: "p%04d", index)
    let target = directory + "/" + name + ".csv"
    if FileManager.default.fileExists(atPath: target) { return }
    let scratch = directory + "/." + name + ".full"
    let generated = Process()
    generated.executableURL = URL(fileURLWithPath: routine)
    generated.arguments = [
      "sample", "--persona", "\(index)", "--days", "8000", "--seed", "1", "--start", "2004-01-01",
      "--output", scratch,
    ]
    generated.standardOutput = FileHandle.nullDevice
    generated.standardError = FileHandle.nullDevice
    defer { unlink(scratch) }
    guard (try? generated.run()) != nil else { return failures.add() }
    generated.waitUntilExit()
    guard generated.terminationStatus == 0,
      let text = try? String(contentsOfFile: scratch, encoding: .utf8)
    else { return failures.add() }
    let lines = text.split(separator: "\n")
    let kept = [lines[0]] + lines.dropFirst().suffix(events)
    guard
      (try? (kept.joined(separator: "\n") + "\n").write(
        toFile: target, atomically: true, encoding: .utf8)) != nil
    else { return failures.add() }
  }
  guard failures.count == 0 else { return false }
  // One file, the people's lines round-robin: line 1 of everyone, then line 2, ...
  let names = (0..<people).map { String(format: "p%04d", $0) }
  var logs: [[Substring]] = []
  for name in names {
    guard let text = try? String(contentsOfFile: directory + "/" + name + ".csv", encoding: .utf8)
    else { return false }
    logs.append(Array(text.split(separator: "\n").dropFirst()))
  }
  guard FileManager.default.createFile(atPath: single + ".part", contents: nil),
    let handle = FileHandle(forWritingAtPath: single + ".part")
  else { return false }
  var buffer = "person,timestamp,event,value,note\n"
  for line in 0..<(logs.map(\.count).max() ?? 0) {
    for (person, log) in logs.enumerated() where line < log.count {
      buffer += names[person] + "," + log[line] + "\n"
    }
    if buffer.utf8.count > 1 << 20 {
      handle.write(Data(buffer.utf8))
      buffer = ""
    }
  }
  handle.write(Data(buffer.utf8))
  try? handle.close()
  return rename(single + ".part", single) == 0
}

/// Failed generations, counted from several threads.
private final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var failed = 0

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return failed
  }

  func add() {
    lock.lock()
    failed += 1
    lock.unlock()
  }
}

/// The first three fields of /proc/loadavg (the machine may be shared), or "unknown".
private func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
    return "unknown"
  }
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}

/// One measured run, and how many cores other processes kept busy meanwhile.
struct Sample {
  var run: Run
  var others: Double
}

/// Measures `path arguments` (``measure(_:_:)``) and the machine's busy time around it: what is
/// not the run's own CPU time was other processes'.
func observed(_ path: String, _ arguments: [String]) -> Sample {
  let before = busySeconds()
  let run = measure(path, arguments)
  let busy = busySeconds() - before
  return Sample(run: run, others: max(0, busy - run.cpuSeconds) / max(run.seconds, 0.001))
}

/// The machine's busy CPU seconds since boot, from /proc/stat (0 where there is none).
private func busySeconds() -> Double {
  guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
    let first = text.split(separator: "\n").first
  else { return 0 }
  // cpu user nice system idle iowait irq softirq steal ...
  let fields = first.split(separator: " ").dropFirst().compactMap { Double($0) }
  guard fields.count >= 8 else { return 0 }
  let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
  return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
}
