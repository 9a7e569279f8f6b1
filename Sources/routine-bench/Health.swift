// The Apple Health import of docs/apple-health.md:
//
//   .build/release/routine-bench --health [--runs N] [--work DIR]
//
// generates a 200 MB export.xml and the same export as export.zip with `routine sample
// --format apple-health --size 200MB` (once, in the work directory), then times `routine
// import` of each into a fresh store: wall time and peak memory of the child (wait4). Then the
// hostile case of issue 27: exports of 270,000 and 2,000,000 sleep samples all within one week
// (more than the 262,144 held before a flush), which must import in time linear in the samples.
import Foundation

func healthBenchmarks() {
  let xml = work + "/health-200MB.xml"
  let zip = work + "/health-200MB.zip"
  for (path, what) in [(xml, "XML"), (zip, "ZIP")]
  where !FileManager.default.fileExists(atPath: path) {
    print("Generating \(path) ...")
    let generated = measure(
      routine,
      ["sample", "--format", "apple-health", "--size", "200MB", "--seed", "1", "--output", path])
    guard generated.status == 0 else {
      print("generating the \(what) export failed")
      exit(1)
    }
    print(
      String(format: "  generated in %.2f s, peak %.1f MiB", generated.seconds, generated.peakMiB))
  }
  func megabytes(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_000_000
  }
  print(
    "Exports: \(xml) (\(megabytes(xml)) MB), \(zip) (\(megabytes(zip)) MB); \(runs) runs each; \(ProcessInfo.processInfo.activeProcessorCount) cores."
  )
  print("")
  print("| measurement | mean | min | max | peak memory | target | |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
  for (path, name, limit) in [
    (xml, "import of a 200 MB export.xml", 5.0), (zip, "import of the same export.zip", 7.0),
  ] {
    var results: [Run] = []
    for run in 0..<runs {
      // A fresh store each time: everything is added.
      let store = work + "/health-\(run).db"
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
      results.append(measure(routine, ["--store", store, "import", path]))
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
    }
    let s = summary(results)
    report(
      name, results, target: String(format: "%.0f s, 64 MiB", limit),
      pass: s.max <= limit && s.peak <= 64 && results.allSatisfy { $0.status == 0 })
  }
  sleepWeekBenchmarks()
}

/// Imports exports whose sleep samples all fall within one week: 7 nights of overlapping
/// one-minute samples, in time order within each night.
func sleepWeekBenchmarks() {
  print("")
  print("| sleep samples in one week | mean | min | max | peak memory | per sample | target | |")
  print("| --- | --- | --- | --- | --- | --- | --- | --- |")
  for count in [270_000, 2_000_000] {
    let path = work + "/sleep-week-\(count).xml"
    if !FileManager.default.fileExists(atPath: path) { writeSleepWeek(count, to: path) }
    var results: [Run] = []
    for run in 0..<max(1, min(runs, 3)) {
      let store = work + "/sleep-\(run).db"
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
      results.append(measure(routine, ["--store", store, "--tz", "Europe/Berlin", "import", path]))
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
    }
    let s = summary(results)
    let perSample = s.mean / Double(count) * 1e6
    // Issue 27's bar: about 23 microseconds a sample, whatever the count, in 64 MiB.
    let pass = perSample <= 23 && s.peak <= 64 && results.allSatisfy { $0.status == 0 }
    print(
      String(
        format: "| %d | %.2f s | %.2f s | %.2f s | %.1f MiB | %.1f µs | 23 µs, 64 MiB | ",
        count, s.mean, s.min, s.max, s.peak, perSample) + (pass ? "met |" : "NOT MET |"))
  }
}

/// Writes an export of `count` sleep samples in the week from 2026-03-02.
func writeSleepWeek(_ count: Int, to path: String) {
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  guard let handle = FileHandle(forWritingAtPath: path) else { exit(1) }
  defer { try? handle.close() }
  var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
  let perNight = (count + 6) / 7
  func clock(_ seconds: Int) -> String {
    String(format: "%02d:%02d:%02d", seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
  }
  for night in 0..<7 {
    for piece in 0..<min(perNight, count - night * perNight) {
      // From 22:00 on day 2+night, 8 hours of one-minute samples.
      let offset = 22 * 3600 + piece * 28_800 / perNight
      let day = 2 + night + offset / 86400
      let endDay = 2 + night + (offset + 60) / 86400
      text +=
        " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Watch\" "
        + "startDate=\"2026-03-\(String(format: "%02d", day)) \(clock(offset)) +0100\" "
        + "endDate=\"2026-03-\(String(format: "%02d", endDay)) \(clock(offset + 60)) +0100\" "
        + "value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n"
      if text.utf8.count > 1 << 20 {
        handle.write(Data(text.utf8))
        text = ""
      }
    }
  }
  text += "</HealthData>\n"
  handle.write(Data(text.utf8))
}
