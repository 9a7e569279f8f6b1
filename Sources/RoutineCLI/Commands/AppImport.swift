import Foundation
import RoutineCore
import RoutineStore

/// What `routine import` adds for other apps' exports: recognising one, the reader, and the
/// summary line and JSON.
enum AppImport {
  /// The app whose export the file at `path` is, from its first bytes; `nil` for anything else
  /// and for standard input (whose bytes cannot be read twice: `--format` names its app).
  static func detect(_ path: String) -> AppFormat? {
    guard path != "-", let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: AppFormat.detectionBytes)) ?? Data()
    return AppFormat.detect([UInt8](head))
  }

  /// The reader for `path`, with zone names the file gives looked up in the zone database.
  static func reader(
    _ path: String, format: AppFormat, skippingInvalid: Bool, zone: Zone, context: Context
  ) -> AppFileReader {
    let database = context.zoneDatabase
    return AppFileReader(
      path: path, format: format, skipsInvalid: skippingInvalid, zone: zone
    ) { name in
      (try? database.zone(named: name)) ?? nil
    }
  }

  /// `'sleep-export.csv': Sleep as Android, 3 records read: 3 nights (Bed Time + Wake Up);
  /// 6 events, 6 added, 0 already present.`
  static func line(
    _ summary: EventStore.AppImportSummary, name: String, format: AppFormat,
    firstDate: LocalDate?
  ) -> String {
    let mapping = summary.mapping
    var line = "\(name): \(format.appName), \(counted(summary.reading.records, "record")) read"
    var found: [String] = []
    if summary.workouts > 0 { found.append("\(mapping.workouts) Workout") }
    if summary.sleeps > 0 {
      found.append("\(counted(mapping.nights, "night")) (Bed Time + Wake Up)")
    }
    if !found.isEmpty { line += ": " + found.joined(separator: ", ") }
    var left: [String] = []
    if mapping.duplicates > 0 { left.append(counted(mapping.duplicates, "duplicate")) }
    if mapping.naps > 0 { left.append(counted(mapping.naps, "nap")) }
    if let firstDate, mapping.beforeFirstDate > 0 {
      left.append("\(mapping.beforeFirstDate) before \(firstDate)")
    }
    if !left.isEmpty { line += " (left out: " + left.joined(separator: ", ") + ")" }
    if !summary.reading.invalid.isEmpty {
      line += ", \(counted(summary.reading.invalid.count, "invalid record")) skipped"
    }
    line +=
      "; \(counted(mapping.events.count, "event")), \(summary.added) added, "
      + "\(summary.alreadyPresent) already present."
    return line
  }

  /// The file's object of `import --json`: the keys of every import, then `app`.
  static func report(
    _ summary: EventStore.AppImportSummary, path: String, format: AppFormat
  ) -> JSON {
    let mapping = summary.mapping
    return .object(
      HealthImport.fileMembers(
        path, read: mapping.events.count, added: summary.added,
        alreadyPresent: summary.alreadyPresent,
        skipped: summary.reading.invalid.map { ($0.line, $0.message) }) + [
          (
            "app",
            .object([
              ("format", .string(format.rawValue)), ("records", .integer(summary.reading.records)),
              ("workouts", .integer(mapping.workouts)), ("nights", .integer(mapping.nights)),
              ("naps", .integer(mapping.naps)), ("duplicates", .integer(mapping.duplicates)),
              ("beforeFrom", .integer(mapping.beforeFirstDate)),
            ])
          )
        ])
  }
}
