import Foundation
import RoutineCore

/// Reads an Apple Health export, `export.xml` or the `export.zip` the Health app writes, and
/// feeds the records routine maps (workouts, mindful sessions, drinks, sleep) to a
/// ``HealthMapping``; every other record is skipped and counted by type.
///
/// Streaming: memory is the scanner's buffer (1 MiB), zlib's window and the mapping's compact
/// records, whatever the size of the export. Records inside a `Correlation` are not read: the
/// export repeats them at the top level.
public struct AppleHealthReader {
  /// The path as the user named it (`-` is standard input, which cannot be a ZIP archive).
  public let path: String
  /// Whether a record that cannot be read (a bad date) is skipped and counted instead of
  /// failing the file.
  public let skipsInvalid: Bool
  /// The zone for records without `HKTimeZone` metadata (`--assume-zone`): the export writes
  /// every date with the offset of the exporting phone at the time of the export (a summer
  /// workout exported in winter says +0100), which this zone corrects. `nil` keeps the offsets
  /// as written.
  public let defaultZone: Zone?
  /// The zone an `HKTimeZone` names, or `nil` when it names none routine knows.
  public let zone: (String) -> Zone?

  /// A reader for `path`.
  public init(
    path: String, skipsInvalid: Bool = false, defaultZone: Zone? = nil,
    zone: @escaping (String) -> Zone?
  ) {
    self.path = path
    self.skipsInvalid = skipsInvalid
    self.defaultZone = defaultZone
    self.zone = zone
  }

  /// What the reader saw.
  public struct Summary: Sendable, Equatable {
    /// Top-level records and workouts read, mapped or not.
    public var records = 0
    /// Records skipped, by type (`StepCount`, `HeartRate`, `ActivitySummary`), most first.
    public var skipped: [(type: String, count: Int)] = []
    /// Records of mapped types that could not be read (only when skipping invalid records).
    public var invalid: [FormatError] = []
    /// Whether the export came out of a ZIP archive.
    public var isArchive = false

    /// How many records were skipped in all.
    public var skippedCount: Int { skipped.reduce(0) { $0 + $1.count } }

    /// Whether two summaries count the same.
    public static func == (lhs: Summary, rhs: Summary) -> Bool {
      lhs.records == rhs.records && lhs.skipped.elementsEqual(rhs.skipped, by: { $0 == $1 })
        && lhs.invalid == rhs.invalid && lhs.isArchive == rhs.isArchive
    }
  }

  /// Whether `head`, a file's first bytes, looks like an Apple Health export: a ZIP archive
  /// (`PK\3\4`) or XML (`<?xml` or `<HealthData`, after a byte order mark or spaces).
  public static func recognizes(_ head: [UInt8]) -> Bool {
    if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return true }
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    bytes = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    return bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<HealthData".utf8))
      || bytes.starts(with: Array("<!DOCTYPE HealthData".utf8))
  }

  /// Reads the export into `mapping`. Throws `FileError` when it cannot be read,
  /// ``ArchiveError`` for a damaged or cut-short archive, and `FormatError` (with the line) for
  /// XML that is not an Apple Health export.
  public func read(into mapping: inout HealthMapping) throws -> Summary {
    let file = try FileByteSource(path: path)
    var head = [UInt8](repeating: 0, count: 4)
    var headCount = 0
    var summary = Summary()
    let source: ByteSource
    let name: String
    if file.isRegularFile {
      headCount = try head.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
    }
    if headCount == 4, head == [0x50, 0x4B, 0x03, 0x04] {
      let archive = try ZipArchive(file: file)
      let exports = archive.healthExports()
      guard exports.count <= 1 else {
        throw ArchiveError(file: path, message: Self.severalExports(exports.map(\.name)))
      }
      guard let entry = exports.first else {
        throw ArchiveError(
          file: path,
          message:
            "expected an Apple Health export (apple_health_export/export.xml) in the archive, found none among its \(archive.entries.count) entries"
        )
      }
      source = try ZipEntryReader(archive: archive, entry: entry)
      name = "\(path)/\(entry.name)"
      summary.isArchive = true
    } else {
      source = file
      name = path
    }
    let scanner = XMLScanner(source: source, file: name)
    if !summary.isArchive {
      let first = try scanner.peek(4)
      if first.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
        throw ArchiveError(
          file: path,
          message: "expected a ZIP archive in a file, found one on a pipe; save it to a file first")
      }
    }
    var state = ReadState(reader: self, scanner: scanner)
    try state.run(into: &mapping)
    summary.records = state.records
    summary.invalid = state.invalid
    summary.skipped = state.skippedTypes.enumerated().map {
      ($0.element, state.skippedCounts[$0.offset])
    }
    .filter { $0.1 > 0 }
    .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
    return summary
  }
}

/// The state of one read.
private struct ReadState {
  let reader: AppleHealthReader
  let scanner: XMLScanner
  var records = 0
  var invalid: [FormatError] = []
  /// Skipped types by their raw `type` bytes, as indices into the two arrays below.
  let typeIndex = ByteKeyTable<Int>()
  var skippedTypes: [String] = []
  var skippedCounts: [Int] = []
  var zones: [String: Zone?] = [:]

  /// The mapped record whose element is open, waiting for its metadata.
  var pending: HealthRecord?
  var pendingDepth = 0
  var pendingLine = 0

  init(reader: AppleHealthReader, scanner: XMLScanner) {
    self.reader = reader
    self.scanner = scanner
  }

  mutating func run(into mapping: inout HealthMapping) throws {
    var depth = 0
    var sawRoot = false
    var closedRoot = false
    while let token = try scanner.next() {
      switch token {
      case .end:
        if depth == 1, scanner.matches(scanner.name, "HealthData") { closedRoot = true }
        if depth == pendingDepth { complete(into: &mapping) }
        depth = max(depth - 1, 0)
      case .start(let isEmpty):
        depth += 1
        if depth == 1 {
          guard scanner.matches(scanner.name, "HealthData") else {
            throw scanner.error(
              "expected an Apple Health export (a <HealthData> element), found <\(scanner.text(scanner.name))>"
            )
          }
          sawRoot = true
        } else if depth == 2 {
          try topLevel()
        } else if depth == pendingDepth + 1, pending != nil,
          scanner.matches(scanner.name, "MetadataEntry")
        {
          metadata()
        }
        if isEmpty {
          if depth == pendingDepth { complete(into: &mapping) }
          depth -= 1
        }
      }
    }
    guard sawRoot else {
      throw FormatError(
        file: scanner.file, line: scanner.line,
        message: "expected an Apple Health export (a <HealthData> element), found none")
    }
    guard closedRoot else {
      throw FormatError(
        file: scanner.file, line: scanner.line,
        message:
          "expected </HealthData> at the end of the export, found the end of the file; is it cut short?"
      )
    }
  }

  /// Hands the pending record, its element closed, to the mapping.
  private mutating func complete(into mapping: inout HealthMapping) {
    guard var record = pending else { return }
    if record.timeZone == nil { record.timeZone = reader.defaultZone }
    mapping.add(record)
    pending = nil
  }

  /// A child of `<HealthData>`.
  private mutating func topLevel() throws {
    if scanner.matches(scanner.name, "Record") {
      records += 1
      guard let type = scanner.attribute("type") else {
        throw scanner.error("expected a 'type' attribute on <Record>, found none")
      }
      let kind: HealthRecord.Kind
      if scanner.matches(type, "HKCategoryTypeIdentifierSleepAnalysis") {
        guard let value = scanner.attribute("value"),
          let stage = SleepStage(healthValue: scanner.text(value))
        else {
          count(type)
          return
        }
        kind = .sleep(stage)
      } else if scanner.matches(type, "HKCategoryTypeIdentifierMindfulSession") {
        kind = .mindfulSession
      } else if scanner.matches(type, "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages") {
        kind = .alcohol
      } else {
        count(type)
        return
      }
      try begin(kind)
    } else if scanner.matches(scanner.name, "Workout") {
      records += 1
      let activity = scanner.attribute("workoutActivityType").map(scanner.text) ?? "Workout"
      try begin(.workout(activity: activity))
    } else if scanner.matches(scanner.name, "ExportDate") || scanner.matches(scanner.name, "Me") {
      return
    } else {
      records += 1
      count(scanner.name)
    }
  }

  /// Starts a mapped record from the current tag's attributes.
  private mutating func begin(_ kind: HealthRecord.Kind) throws {
    let line = scanner.line
    guard let start = try date("startDate"), let end = try date("endDate") else { return }
    var value: Double?
    var unit: String?
    switch kind {
    case .workout:
      value = scanner.attribute("duration").flatMap { Double(scanner.text($0)) }
      unit = scanner.attribute("durationUnit").map(scanner.text)
    case .alcohol:
      guard let range = scanner.attribute("value"), let number = Double(scanner.text(range)),
        number.isFinite
      else {
        try invalid(
          "expected a number for 'value' of a drinks record, found \(scanner.attribute("value").map { quoted(scanner.bytes($0)) } ?? "none")"
        )
        return
      }
      value = number
    default: break
    }
    pending = HealthRecord(
      kind: kind, start: start, end: end, value: value, unit: unit,
      source: scanner.attribute("sourceName").map(scanner.text) ?? "")
    pendingDepth = 2
    pendingLine = line
  }

  /// `<MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>` under the pending record.
  private mutating func metadata() {
    guard let key = scanner.attribute("key"), scanner.matches(key, "HKTimeZone"),
      let value = scanner.attribute("value")
    else { return }
    let name = scanner.text(value)
    if let known = zones[name] {
      pending?.timeZone = known
      return
    }
    let zone = reader.zone(name)
    zones[name] = zone
    pending?.timeZone = zone
  }

  private mutating func count(_ type: Range<Int>) {
    let bytes = scanner.bytes(type)
    if let index = typeIndex.value(for: bytes) {
      skippedCounts[index] += 1
      return
    }
    var name = scanner.text(type)
    for prefix in [
      "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier",
      "HKDataTypeIdentifier", "HKDataType",
    ] where name.hasPrefix(prefix) {
      name.removeFirst(prefix.count)
      break
    }
    typeIndex.insert(skippedTypes.count, for: bytes)
    skippedTypes.append(name)
    skippedCounts.append(1)
  }

  private mutating func invalid(_ message: String) throws {
    let error = scanner.error(message)
    guard reader.skipsInvalid else { throw error }
    invalid.append(error)
  }

  /// The date in attribute `name`: `2020-10-24 10:51:16 +0100`; `nil` (after reporting it when
  /// skipping) when it is missing or malformed.
  private mutating func date(_ name: StaticString) throws -> Timestamp? {
    guard let range = scanner.attribute(name) else {
      try invalid("expected a '\(name)' attribute, found none")
      return nil
    }
    guard let timestamp = Self.parseDate(scanner.bytes(range)) else {
      try invalid(
        "expected '\(name)' as a date like 2020-10-24 10:51:16 +0100, found \(quoted(scanner.bytes(range)))"
      )
      return nil
    }
    return timestamp
  }

  /// `YYYY-MM-DD HH:MM:SS ±HHMM`, as every Health export writes dates; anything else the event
  /// files accept (ISO 8601 with an offset) too.
  static func parseDate(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
    func digits(_ at: Int, _ count: Int) -> Int? {
      var value = 0
      for index in at..<(at + count) {
        let digit = Int(bytes[index]) - 48
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    if bytes.count == 25, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20, bytes[13] == 0x3A,
      bytes[16] == 0x3A, bytes[19] == 0x20, bytes[20] == 0x2B || bytes[20] == 0x2D,
      let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
      let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
      let offsetHours = digits(21, 2), let offsetMinutes = digits(23, 2),
      hour < 24, minute < 60, second < 61, offsetHours < 24, offsetMinutes < 60,
      let date = LocalDate(year: year, month: month, day: day)
    {
      let offset = (offsetHours * 3600 + offsetMinutes * 60) * (bytes[20] == 0x2D ? -1 : 1)
      let local = Int64(date.daysSince1970) * 86400 + Int64(hour * 3600 + minute * 60 + second)
      return Timestamp(secondsSince1970: local - Int64(offset), utcOffsetSeconds: Int32(offset))
    }
    // Other spellings: drop the space before the offset and read it as ISO 8601.
    var text = String(decoding: bytes, as: UTF8.self)
    if let space = text.lastIndex(of: " "), text.distance(from: space, to: text.endIndex) <= 7 {
      text.remove(at: space)
    }
    return Timestamp(iso8601: text)
  }
}

extension AppleHealthReader {
  /// Why an archive with several exports is refused, naming them: entries of one name counted
  /// (which `unzip` cannot pick one of), else how to extract the one meant.
  static func severalExports(_ names: [String]) -> String {
    var counts: [(name: String, count: Int)] = []
    for name in names {
      if let index = counts.firstIndex(where: { $0.name == name }) {
        counts[index].count += 1
      } else {
        counts.append((name, 1))
      }
    }
    let listed = counts.map {
      $0.count == 1 ? $0.name : "\($0.name) (\($0.count) entries of that name)"
    }
    let advice =
      counts.contains { $0.count > 1 }
      ? "an archive holding one name twice was added to after the Health app wrote it; export again from the Health app"
      : "extract the one to import (unzip -p ARCHIVE NAME > export.xml) and import that"
    return "expected one Apple Health export in the archive, found \(names.count): "
      + listed.joined(separator: ", ") + "; " + advice
  }
}
