// Other apps' exports (docs/formats.md#other-apps), the speed target of issue 30:
//
//   .build/release/routine-bench --other-apps [--runs N] [--work DIR]
//
// writes a Sleep as Android export of about 10 MB (every night a header line, a line of values
// with 96 actigraphy columns, a noise line) and a Garmin Connect Activities.csv of 100,000
// rows, each also at a quarter of the size, and times `routine import` of each into a fresh
// store: wall time and peak memory of the child (wait4). The quarter sizes show how memory
// grows with the records (the file itself is streamed through a 1 MiB buffer).
import Foundation

func otherAppsBenchmarks() {
  let sleep = work + "/sleep-export-10MB.csv"
  let sleepQuarter = work + "/sleep-export-2.5MB.csv"
  let garmin = work + "/Activities-100000.csv"
  let garminQuarter = work + "/Activities-25000.csv"
  if !FileManager.default.fileExists(atPath: sleep) {
    writeSleepAsAndroid(bytes: 10_000_000, to: sleep)
  }
  if !FileManager.default.fileExists(atPath: sleepQuarter) {
    writeSleepAsAndroid(bytes: 2_500_000, to: sleepQuarter)
  }
  if !FileManager.default.fileExists(atPath: garmin) { writeGarmin(rows: 100_000, to: garmin) }
  if !FileManager.default.fileExists(atPath: garminQuarter) {
    writeGarmin(rows: 25_000, to: garminQuarter)
  }
  func megabytes(_ path: String) -> Double {
    Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
  }
  print(
    String(
      format: "Files: %@ (%.1f MB), %@ (%.1f MB); %d runs each; %d cores.", sleep,
      megabytes(sleep), garmin, megabytes(garmin), runs,
      ProcessInfo.processInfo.activeProcessorCount))
  print("")
  print("| measurement | mean | min | max | peak memory | target | |")
  print("| --- | --- | --- | --- | --- | --- | --- |")
  for (path, name, bounded) in [
    (sleepQuarter, "import of a 2.5 MB sleep-export.csv", false),
    (sleep, "import of a 10 MB sleep-export.csv", true),
    (garminQuarter, "import of a 25,000-row Activities.csv", false),
    (garmin, "import of a 100,000-row Activities.csv", true),
  ] {
    var results: [Run] = []
    for run in 0..<runs {
      let store = work + "/apps-\(run).db"
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
      results.append(
        measure(routine, ["--store", store, "--tz", "Europe/Berlin", "import", path]))
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: store + suffix)
      }
    }
    let s = summary(results)
    report(
      name, results, target: bounded ? "2 s" : "(memory growth)",
      pass: (!bounded || s.max <= 2) && results.allSatisfy { $0.status == 0 })
  }
}

/// Writes a Sleep as Android export of about `bytes` bytes: one night a record, from
/// 2000-01-01 on, in Europe/Berlin, every fifth in America/New_York.
func writeSleepAsAndroid(bytes: Int, to path: String) {
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  guard let handle = FileHandle(forWritingAtPath: path) else { exit(1) }
  defer { try? handle.close() }
  let periods = 96
  var header =
    "Id,Tz,From,To,Sched,Hours,Rating,Comment,Framerate,Snore,Noise,Cycles,DeepSleep,LenAdjust,Geo"
  for period in 0..<periods {
    header += ",\"\((23 + period / 12) % 24):\(String(format: "%02d", period % 12 * 5))\""
  }
  header += "\n"
  var values = ""
  for period in 0..<periods { values += ",\"\(String(format: "%.4f", Double(period % 17) / 7))\"" }
  var noise = String(repeating: ",", count: 14)
  for period in 0..<periods { noise += ",\"\(String(format: "%.3f", Double(period % 5) / 100))\"" }
  noise += "\n"
  var written = 0
  var night = 0
  var text = ""
  while written < bytes {
    let day = dateText(daysSince2000: night)
    let next = dateText(daysSince2000: night + 1)
    let zone = night % 5 == 4 ? "America/New_York" : "Europe/Berlin"
    let minute = 10 + night % 40
    var record = header
    record +=
      "\"\(946_684_800_000 + night * 86_400_000)\",\"\(zone)\",\"\(day) 23:\(minute)\","
      + "\"\(next) 7:\(String(format: "%02d", night % 50))\",\"\(next) 7:00\",\"7.5\",\"3.5\","
      + "\"#home\",\"10000\",\"-1\",\"0.25\",\"4\",\"0.42\",\"0\",\"\""
    record += values + "\n" + noise
    text += record
    written += record.utf8.count
    night += 1
    if text.utf8.count > 1 << 20 {
      handle.write(Data(text.utf8))
      text = ""
    }
  }
  handle.write(Data(text.utf8))
}

/// Writes a Garmin Connect Activities.csv of `rows` activities, two a day from 2000-01-01 on.
func writeGarmin(rows: Int, to path: String) {
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  guard let handle = FileHandle(forWritingAtPath: path) else { exit(1) }
  defer { try? handle.close() }
  var text =
    "Activity Type,Date,Favorite,Title,Distance,Calories,Time,Avg HR,Max HR,Aerobic TE,"
    + "Avg Run Cadence,Max Run Cadence,Avg Pace,Best Pace,Total Ascent,Total Descent\n"
  let types = ["Running", "Cycling", "Strength Training", "Walking", "Pool Swim"]
  for row in 0..<rows {
    let day = dateText(daysSince2000: row / 2, separator: "-", yearFirst: true)
    let hour = row % 2 == 0 ? 7 : 18
    let minutes = 20 + row % 70
    text +=
      "\(types[row % types.count]),\(day) \(String(format: "%02d", hour)):\(String(format: "%02d", row % 60)):11,false,"
      + "Activity \(row),\"\(row % 20).\(row % 100)\",\"1,\(String(format: "%03d", row % 1000))\","
      + "\(String(format: "%02d:%02d:%02d", minutes / 60, minutes % 60, row % 60)),"
      + "140,170,3.1,160,180,5:30,4:50,\"1,120\",--\n"
    if text.utf8.count > 1 << 20 {
      handle.write(Data(text.utf8))
      text = ""
    }
  }
  handle.write(Data(text.utf8))
}

/// A date `days` after 2000-01-01 as Sleep as Android (`04. 03. 2026`) or Garmin (`2026-03-04`)
/// writes it.
func dateText(daysSince2000 days: Int, separator: String = ". ", yearFirst: Bool = false)
  -> String
{
  var date = DateComponents(
    calendar: Calendar(identifier: .gregorian), year: 2000, month: 1, day: 1)
  date.day = 1 + days
  let resolved = Calendar(identifier: .gregorian).dateComponents(
    in: TimeZone(identifier: "UTC")!, from: date.date!)
  let (year, month, day) = (resolved.year!, resolved.month!, resolved.day!)
  return yearFirst
    ? String(format: "%04d-%02d-%02d", year, month, day)
    : String(format: "%02d%@%02d%@%04d", day, separator, month, separator, year)
}
