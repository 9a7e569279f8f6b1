import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `routine-bench --export`: `routine export` of the 2,000,000-event store as CSV and JSON Lines
/// (target: CSV in at most 2 s), a tenth of it to show that memory does not grow with the
/// events, and the plain CSV import beside it, to show the reader's fast path kept its speed.
func exportBenchmarks(log: String) {
  let store = work + "/export.db"
  if !FileManager.default.fileExists(atPath: store) {
    let imported = measure(routine, ["import", log, "--store", store])
    guard imported.status == 0 else {
      print("import failed")
      exit(1)
    }
  }
  let out = work + "/export-out"
  defer { for suffix in [".csv", ".jsonl"] { unlink(out + suffix) } }
  let count = max(3, runs / 3)
  let csv = (0..<count).map { _ in
    measure(routine, ["export", "--store", store, "--format", "csv", "--out", out + ".csv"])
  }
  report(
    "export --format csv, 2M events", csv, target: "<= 2 s", pass: summary(csv).mean <= 2)
  let jsonl = (0..<count).map { _ in
    measure(routine, ["export", "--store", store, "--format", "jsonl", "--out", out + ".jsonl"])
  }
  report("export --format jsonl, 2M events", jsonl, target: "-", pass: true)
  // The events before mid-1980: about 200,000 of the 2,000,000.
  let tenth = (0..<count).map { _ in
    measure(
      routine,
      ["export", "--store", store, "--to", "1980-06-01", "--tz", "UTC", "--out", out + ".csv"])
  }
  let flat = summary(csv).peak <= summary(tenth).peak + 8
  report(
    "export --format csv, 200k events", tenth, target: "peak within 8 MiB of 2M's",
    pass: flat)
  let imports = (0..<count).map { index -> Run in
    let target = work + "/export-import-\(index).db"
    for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
    defer { for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) } }
    return measure(routine, ["import", log, "--store", target])
  }
  report(
    "import into a new store, 2M events", imports, target: "<= 5 s",
    pass: summary(imports).mean <= 5)
}
