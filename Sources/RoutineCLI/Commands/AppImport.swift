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

  /// Fitbit's and Health Auto Export's readers look at the first byte to tell their JSON from
  /// their CSV, then read from the start, which a pipe cannot give twice (`cat sleep.json |
  /// routine import - --format fitbit` read nothing). A pipe on standard input is copied first
  /// into a temporary file, unlinked at once, put in its place: it then reads as `< file` does,
  /// and messages still say "standard input".
  static func makeStandardInputRereadable(for format: AppFormat) throws {
    guard format == .fitbit || format == .healthAutoExport else { return }
    var status = stat()
    guard fstat(0, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG else { return }
    func failure() -> CommandError {
      CommandError(
        .ioError,
        "cannot keep standard input in a temporary file in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))"
      )
    }
    var template = Array("\(NSTemporaryDirectory())/routine-stdin-XXXXXX".utf8CString)
    let copy = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard copy >= 0 else { throw failure() }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    defer { close(copy) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = read(0, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw failure() }
      if count == 0 { break }
      var written = 0
      while written < count {
        let result = buffer.withUnsafeBytes {
          write(copy, $0.baseAddress! + written, count - written)
        }
        if result < 0, errno == EINTR { continue }
        guard result > 0 else { throw failure() }
        written += result
      }
    }
    guard dup2(copy, 0) >= 0 else { throw failure() }
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
    line += HealthImport.leftOut(mapping, firstDate: firstDate)
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
