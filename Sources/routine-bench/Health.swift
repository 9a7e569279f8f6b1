// The Apple Health import of docs/apple-health.md:
//
//   .build/release/routine-bench --health [--runs N] [--work DIR]
//
// generates a 200 MB export.xml and the same export as export.zip with `routine sample
// --format apple-health --size 200MB` (once, in the work directory), then times `routine
// import` of each into a fresh store: wall time and peak memory of the child (wait4).
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
}
