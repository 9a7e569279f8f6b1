import Foundation
import RoutineCore
import RoutineStore

/// What `routine import` adds for Apple Health exports: telling one from an event file, the
/// reader, `--from`, and the summary line and JSON.
enum HealthImport {
  /// `--from DATE`: the first local date to import.
  static let from = Option(
    "from", .calendarDate(),
    "Import only events on or after DATE (YYYY-MM-DD, their own local date).")

  /// Whether the file at `path` is an Apple Health export: named `.xml` or `.zip`, or (without an
  /// extension routine knows) starting like XML or a ZIP archive. Standard input is an event
  /// file unless `--format apple-health` says otherwise: its first bytes cannot be read twice.
  static func looksLikeExport(_ path: String) -> Bool {
    guard path != "-", EventFileFormat.guess(fromPath: path) == nil else { return false }
    let lower = path.lowercased()
    if lower.hasSuffix(".xml") || lower.hasSuffix(".zip") { return true }
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let head = (try? handle.read(upToCount: 64)) ?? Data()
    return AppleHealthReader.recognizes([UInt8](head))
  }

  /// The reader for `path`, with `HKTimeZone` names looked up in the zone database.
  static func reader(
    _ path: String, skippingInvalid: Bool, defaultZone: Zone?, context: Context
  ) -> AppleHealthReader {
    let database = context.zoneDatabase
    return AppleHealthReader(
      path: path, skipsInvalid: skippingInvalid, defaultZone: defaultZone
    ) { name in
      (try? database.zone(named: name)) ?? nil
    }
  }

  /// The most skipped types the summary line names; the JSON has them all.
  static let namedTypes = 5

  /// `'export.zip': 52000 records read: 300 Workout, 40 Mindfulness, 12 Alcohol, 364 nights
  /// (Bed Time + Wake Up); 51284 skipped (40000 StepCount, ...); 1044 events, 1044 added, 0
  /// already present.`
  static func line(
    _ summary: EventStore.HealthImportSummary, name: String, firstDate: LocalDate?
  ) -> String {
    let mapping = summary.mapping
    var line =
      "\(name): \(counted(summary.reading.records, "record")) read: \(mapping.workouts) Workout, "
      + "\(mapping.mindfulSessions) Mindfulness, \(mapping.alcohol) Alcohol, "
      + "\(counted(mapping.nights, "night")) (Bed Time + Wake Up)"
    line += HealthImport.leftOut(mapping, firstDate: firstDate)
    let skipped = summary.reading.skipped
    line += "; \(summary.reading.skippedCount) skipped"
    if !skipped.isEmpty {
      var types = skipped.prefix(namedTypes).map { "\($0.count) \(TerminalText.escaped($0.type))" }
      if skipped.count > namedTypes {
        types.append(counted(skipped.count - namedTypes, "more type"))
      }
      line += " (" + types.joined(separator: ", ") + ")"
    }
    if !summary.reading.invalid.isEmpty {
      line += ", \(counted(summary.reading.invalid.count, "invalid record")) skipped"
    }
    line +=
      "; \(counted(mapping.events.count, "event")), \(summary.added) added, "
      + "\(summary.alreadyPresent) already present."
    return line
  }

  /// ` (left out: 7 duplicates, 1 nap, 16 before 2026-03-23)`, or nothing when nothing was.
  static func leftOut(_ mapping: HealthMapping.Result, firstDate: LocalDate?) -> String {
    var left: [String] = []
    if mapping.duplicates > 0 { left.append(counted(mapping.duplicates, "duplicate")) }
    if mapping.naps > 0 { left.append(counted(mapping.naps, "nap")) }
    if let firstDate, mapping.beforeFirstDate > 0 {
      left.append("\(mapping.beforeFirstDate) before \(firstDate)")
    }
    return left.isEmpty ? "" : " (left out: " + left.joined(separator: ", ") + ")"
  }

  /// The keys every file's object of `import --json` from a reader of records (Apple Health,
  /// another app's export) starts with.
  static func fileMembers(
    _ path: String, read: Int, added: Int, alreadyPresent: Int, skipped: [(Int, String)]
  ) -> [(String, JSON)] {
    [
      ("file", .string(path)), ("read", .integer(read)), ("added", .integer(added)),
      ("alreadyPresent", .integer(alreadyPresent)),
      (
        "skipped",
        .array(skipped.map { .object([("line", .integer($0.0)), ("message", .string($0.1))]) })
      ),
      ("error", .null),
    ]
  }

  /// The file's object of `import --json`: the keys of every import, then `appleHealth`.
  static func report(_ summary: EventStore.HealthImportSummary, path: String) -> JSON {
    let mapping = summary.mapping
    return .object(
      fileMembers(
        path, read: mapping.events.count, added: summary.added,
        alreadyPresent: summary.alreadyPresent,
        skipped: summary.reading.invalid.map { ($0.line, $0.message) }) + [
          (
            "appleHealth",
            .object([
              ("records", .integer(summary.reading.records)),
              ("workouts", .integer(mapping.workouts)),
              ("mindfulness", .integer(mapping.mindfulSessions)),
              ("alcohol", .integer(mapping.alcohol)), ("nights", .integer(mapping.nights)),
              ("naps", .integer(mapping.naps)), ("duplicates", .integer(mapping.duplicates)),
              ("beforeFrom", .integer(mapping.beforeFirstDate)),
              ("skipped", .integer(summary.reading.skippedCount)),
              (
                "skippedTypes",
                .object(summary.reading.skipped.map { ($0.type, .integer($0.count)) })
              ),
            ])
          )
        ])
  }
}
