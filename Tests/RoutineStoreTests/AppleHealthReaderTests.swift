import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// Reading Apple Health exports: the XML scanner, the ZIP reader, and what they hand the
/// mapping.
struct AppleHealthReaderTests {
  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE HealthData [
    <!-- HealthKit Export Version: 11 -->
    <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout)*)>
    <!ATTLIST HealthData
      locale CDATA #REQUIRED
    >
    <!ATTLIST Record
      type          CDATA #REQUIRED
      unit          CDATA "count>1"
    >
    ]>
    <HealthData locale="en_DE">
     <ExportDate value="2026-04-27 12:00:00 +0200"/>
     <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>

    """

  static func export(_ body: String) -> String { header + body + "</HealthData>\n" }

  static func zones(_ name: String) -> Zone? {
    TimeZone(identifier: name).map(Zone.init(foundation:))
  }

  func read(
    _ path: String, skipping: Bool = false, defaultZone: Zone? = nil
  ) throws -> (AppleHealthReader.Summary, HealthMapping.Result) {
    var mapping = HealthMapping()
    let reader = AppleHealthReader(
      path: path, skipsInvalid: skipping, defaultZone: defaultZone, zone: Self.zones)
    let summary = try reader.read(into: &mapping)
    return (summary, mapping.finish())
  }

  func lines(_ result: HealthMapping.Result) -> [String] {
    result.events.map { event in
      var line = "\(event.timestamp.iso8601) \(event.kind.name)"
      if let value = event.value { line += " \(value)" }
      if let note = event.note { line += " \(note)" }
      return line
    }
  }

  static let sample = export(
    """
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="J&#xF6;rg&#x2019;s iPhone" unit="count" startDate="2026-03-02 09:07:45 +0100" endDate="2026-03-02 09:13:55 +0100" value="8"/>
     <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2026-03-02 10:07:45 +0100" endDate="2026-03-02 10:13:55 +0100" value="9"/>
     <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron &amp; Co" startDate="2026-03-02 07:30:00 +0100" endDate="2026-03-02 07:30:00 +0100">
      <Record type="HKQuantityTypeIdentifierNumberOfAlcoholicBeverages" sourceName="x" unit="count" startDate="2026-03-02 07:30:00 +0100" endDate="2026-03-02 07:30:00 +0100" value="5"/>
     </Correlation>
     <Record type="HKQuantityTypeIdentifierNumberOfAlcoholicBeverages" sourceName="Phone" unit="count" startDate="2026-03-02 20:00:00 +0100" endDate="2026-03-02 20:00:00 +0100" value="2"/>
     <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Calm &amp; Co" startDate="2026-03-02 21:00:00 +0100" endDate="2026-03-02 21:12:00 +0100" value="HKCategoryValueNotApplicable">
      <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
     </Record>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone" startDate="2026-03-02 22:30:00 +0100" endDate="2026-03-03 07:00:00 +0100" value="HKCategoryValueSleepAnalysisInBed"/>
     <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="2026-03-02 23:10:00 +0100" endDate="2026-03-03 06:40:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="21.39970092773438" durationUnit="min" sourceName="Connect" startDate="2026-03-03 10:51:16 +0100" endDate="2026-03-03 11:12:39 +0100">
      <MetadataEntry key="HKIndoorWorkout" value="0"/>
      <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2026-03-03 10:51:16 +0100" duration="10" durationUnit="min"/>
      <WorkoutRoute sourceName="Connect" startDate="2026-03-03 10:51:16 +0100" endDate="2026-03-03 11:12:39 +0100">
       <MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>
       <FileReference path="/workout-routes/route_2026-03-03_11.12am.gpx"/>
      </WorkoutRoute>
     </Workout>
     <ActivitySummary dateComponents="2026-03-02" activeEnergyBurned="300"/>

    """)

  @Test func readsTheMappedRecordsAndCountsTheRestByType() throws {
    let directory = TemporaryDirectory()
    let (summary, result) = try read(directory.file("export.xml", Self.sample))
    #expect(
      lines(result) == [
        "2026-03-02T20:00:00+01:00 Alcohol 2.0",
        "2026-03-02T21:00:00+01:00 Mindfulness 12.0",
        "2026-03-02T22:30:00+01:00 Bed Time",
        "2026-03-03T07:00:00+01:00 Wake Up",
        // A route's metadata is not the workout's: Tokyo does not move it.
        "2026-03-03T10:51:16+01:00 Workout 21.4 Running",
      ])
    // The drinks inside the Correlation are not read: the export repeats them at the top.
    #expect(summary.records == 9)
    #expect(
      summary.skipped.map { "\($0.count) \($0.type)" } == [
        "2 StepCount", "1 ActivitySummary", "1 Correlation",
      ])
    #expect(!summary.isArchive)
  }

  @Test func theTimeZoneMetadataGivesTheLocalTime() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "export.xml",
      Self.export(
        """
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-07-20 05:00:00 +0200" endDate="2026-07-20 13:00:00 +0200" value="HKCategoryValueSleepAnalysisAsleepREM">
          <MetadataEntry key="HKTimeZone" value="America/New_York"/>
         </Record>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2026-07-21 23:00:00 +0100" endDate="2026-07-22 07:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleep"/>

        """))
    let (_, result) = try read(path)
    #expect(
      lines(result) == [
        "2026-07-19T23:00:00-04:00 Bed Time", "2026-07-20T07:00:00-04:00 Wake Up",
        "2026-07-21T23:00:00+01:00 Bed Time", "2026-07-22T07:00:00+01:00 Wake Up",
      ])
    // --assume-zone corrects the offset the export wrote (its own at export time), not the
    // metadata's.
    let (_, assumed) = try read(path, defaultZone: Self.zones("Europe/Berlin"))
    #expect(
      lines(assumed)[2...] == [
        "2026-07-22T00:00:00+02:00 Bed Time", "2026-07-22T08:00:00+02:00 Wake Up",
      ])
  }

  @Test func entitiesInSourceNamesAndActivitiesAreDecoded() throws {
    let directory = TemporaryDirectory()
    let (_, result) = try read(
      directory.file(
        "export.xml",
        Self.export(
          """
           <Workout workoutActivityType="HKWorkoutActivityType&#x59;oga" sourceName="J&#xF6;rg&apos;s &lt;Watch&gt;" startDate="2026-03-03 07:00:00 +0100" endDate="2026-03-03 07:30:00 +0100"/>

          """)))
    #expect(lines(result) == ["2026-03-03T07:00:00+01:00 Workout 30.0 Yoga"])
    let scanner = XMLScanner(
      source: StringSource("<a b=\"J&#xF6;rg&apos;s &amp;&unknown; &#1F;\"/>"), file: "x")
    _ = try scanner.next()
    #expect(scanner.text(scanner.attribute("b")!) == "Jörg's &&unknown; &#1F;")
  }

  @Test func linesAreCountedRightAcrossManyBuffersOfRecords() throws {
    // 30,000 records (about 5 MiB: several refills of the 1 MiB buffer), every 997th with a bad
    // date, some records spread over several lines: each bad one is reported at its own line.
    let directory = TemporaryDirectory()
    let headerLines = Self.header.split(separator: "\n", omittingEmptySubsequences: false).count
    var body = ""
    var line = headerLines
    var expected: [Int] = []
    for index in 0..<30_000 {
      let month = index % 997 == 0 ? "13" : "03"
      let spread = index % 5 == 0
      if index % 997 == 0 { expected.append(line) }
      body +=
        " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"W\""
        + (spread ? "\n  " : " ")
        + "startDate=\"2026-\(month)-02 23:00:00 +0100\" endDate=\"2026-03-03 07:00:00 +0100\""
        + " value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n"
      line += spread ? 2 : 1
    }
    let path = directory.file("export.xml", Self.export(body))
    let (summary, _) = try read(path, skipping: true)
    #expect(summary.invalid.map(\.line) == expected)
  }

  @Test func aBadDateNamesTheFileAndLine() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "export.xml",
      Self.export(
        """
         <Record type="HKQuantityTypeIdentifierNumberOfAlcoholicBeverages" sourceName="P" startDate="2026-13-02 20:00:00 +0100" endDate="2026-03-02 20:00:00 +0100" value="2"/>

        """))
    #expect(throws: FormatError.self) { try read(path) }
    do {
      _ = try read(path)
    } catch let error as FormatError {
      #expect(error.line == 16)
      #expect(error.message.contains("'2026-13-02 20:00:00 +0100'"))
    }
    let (summary, result) = try read(path, skipping: true)
    #expect(summary.invalid.count == 1)
    #expect(result.events.isEmpty)
  }

  @Test func notAHealthExportIsBadData() throws {
    let directory = TemporaryDirectory()
    let error = try #require(throws: FormatError.self) {
      try read(
        directory.file("other.xml", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"></rss>\n"))
    }
    #expect(error.message.contains("found <rss>"))
  }

  @Test(arguments: [
    ("unterminated tag", "<HealthData><Record type=\"HKQuantityTypeIdentifierStepCount"),
    ("unterminated comment", "<HealthData><!-- a comment that never ends"),
    ("cut short", "<HealthData>\n <Record type=\"X\" startDate=\"a\"/>\n"),
  ])
  func aCutShortExportIsAnErrorNotAPartialImport(name: String, text: String) throws {
    let directory = TemporaryDirectory()
    #expect(throws: FormatError.self) { try read(directory.file("cut.xml", text)) }
  }

  @Test func aHugeAttributeIsAnErrorNotUnboundedMemory() throws {
    let directory = TemporaryDirectory()
    let huge = "<HealthData><Record type=\"" + String(repeating: "a", count: 3 << 20) + "\"/>"
    let error = try #require(throws: FormatError.self) {
      try read(directory.file("huge.xml", huge + "</HealthData>"))
    }
    #expect(error.message.contains("at most 1 MiB"))
  }

  @Test func tagsAcrossBufferBoundariesAreRead() throws {
    // Enough records that tags straddle every refill of the 1 MiB buffer.
    let directory = TemporaryDirectory()
    var body = ""
    for day in 0..<3000 {
      let date = LocalDate(year: 2020, month: 1, day: 1)!.adding(days: day)
      body +=
        " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"P\" startDate=\"\(date) 09:00:00 +0100\" endDate=\"\(date) 09:10:00 +0100\" value=\"8\"/>\n"
      body +=
        " <Record type=\"HKQuantityTypeIdentifierNumberOfAlcoholicBeverages\" sourceName=\"P\" startDate=\"\(date) 20:00:00 +0100\" endDate=\"\(date) 20:00:00 +0100\" value=\"1\"/>\n"
      body += " <!-- \(String(repeating: "-", count: 200)) -->\n"
    }
    let (summary, result) = try read(directory.file("long.xml", Self.export(body)))
    #expect(result.alcohol == 3000)
    #expect(summary.records == 6000)
  }

  // MARK: ZIP

  func zip(_ directory: TemporaryDirectory, _ text: String, zip64: Bool = false) throws -> String {
    let path = directory.path("export.zip")
    let writer = try ZipWriter(
      path: path, entry: "apple_health_export/export.xml", forcesZip64: zip64)
    try writer.write(Array(text.utf8))
    try writer.finish()
    return path
  }

  @Test(arguments: [false, true])
  func theExportInsideAZipIsRead(zip64: Bool) throws {
    let directory = TemporaryDirectory()
    let (summary, result) = try read(try zip(directory, Self.sample, zip64: zip64))
    #expect(summary.isArchive)
    #expect(result.events.count == 5)
  }

  @Test func aStoredEntryBesideOthersIsFound() throws {
    // export_cda.xml first and a route, then export.xml, all stored, with data descriptors.
    let directory = TemporaryDirectory()
    let archive = StoredZip.archive([
      ("apple_health_export/export_cda.xml", "<ClinicalDocument/>"),
      ("apple_health_export/workout-routes/route.gpx", "<gpx/>"),
      ("apple_health_export/export.xml", Self.sample),
    ])
    let (summary, result) = try read(directory.file("export.zip", bytes: archive))
    #expect(summary.isArchive)
    #expect(result.events.count == 5)
  }

  @Test func twoExportsInOneArchiveAreRefusedNamingBoth() throws {
    let directory = TemporaryDirectory()
    let two = StoredZip.archive([
      ("q/a/export.xml", Self.sample), ("q/b/export.xml", Self.sample),
    ])
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("two.zip", bytes: two))
    }
    #expect(error.description.contains("found 2: q/a/export.xml, q/b/export.xml"))
    // The Health app's own place wins over any other copy.
    let exact = StoredZip.archive([
      ("backup/export.xml", "<HealthData>"), ("apple_health_export/export.xml", Self.sample),
    ])
    let (_, result) = try read(directory.file("exact.zip", bytes: exact))
    #expect(result.events.count == 5)
  }

  @Test func twoEntriesOfTheHealthAppsOwnNameAreRefusedNamingThem() throws {
    // One name twice (an archive added to after the Health app wrote it): which copy is the
    // person's is not for routine to guess, and `unzip -p` cannot pick the second either.
    let directory = TemporaryDirectory()
    let twice = StoredZip.archive([
      ("apple_health_export/export.xml", "<HealthData>"),
      ("apple_health_export/export.xml", Self.sample),
    ])
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("twice.zip", bytes: twice))
    }
    #expect(
      error.description.contains(
        "found 2: apple_health_export/export.xml (2 entries of that name); "
          + "an archive holding one name twice"))
    // Beside another folder's copy, the Health app's own entries still decide, and two of
    // them are still two.
    let three = StoredZip.archive([
      ("apple_health_export/export.xml", Self.sample), ("backup/export.xml", Self.sample),
      ("apple_health_export/export.xml", Self.sample),
    ])
    let refused = try #require(throws: ArchiveError.self) {
      try read(directory.file("three.zip", bytes: three))
    }
    #expect(refused.description.contains("found 2: apple_health_export/export.xml"))
  }

  @Test func aDamagedEntryIsBadDataNamingTheFile() throws {
    let directory = TemporaryDirectory()
    var archive = StoredZip.archive([("apple_health_export/export.xml", Self.sample)])
    // One byte of the XML changed: the CRC-32 no longer matches.
    let index = archive.firstIndex(of: UInt8(ascii: "J"))!
    archive[index] = UInt8(ascii: "K")
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("export.zip", bytes: archive))
    }
    #expect(error.description.contains("'\(directory.path("export.zip"))'"))
    #expect(error.description.contains("CRC-32"))
  }

  @Test func aCutShortArchiveIsBadData() throws {
    let directory = TemporaryDirectory()
    let path = try zip(directory, Self.sample)
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("cut.zip", bytes: Array(bytes.prefix(bytes.count / 2))))
    }
    #expect(error.description.contains("cut short"))
  }

  @Test func anArchiveWithoutAnExportIsBadData() throws {
    let directory = TemporaryDirectory()
    let archive = StoredZip.archive([("photos/cat.jpg", "meow")])
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("photos.zip", bytes: archive))
    }
    #expect(error.description.contains("apple_health_export/export.xml"))
  }

  @Test func aDeflateBombStreamsAndItsLieIsCaught() throws {
    // 64 MB of spaces deflate to about 64 kB: read through, a buffer at a time.
    let directory = TemporaryDirectory()
    let path = directory.path("bomb.zip")
    let writer = try ZipWriter(path: path, entry: "apple_health_export/export.xml")
    try writer.write(Array("<HealthData>".utf8))
    let spaces = [UInt8](repeating: 0x20, count: 1 << 20)
    for _ in 0..<64 { try writer.write(spaces) }
    try writer.write(Array("</HealthData>".utf8))
    try writer.finish()
    let (summary, _) = try read(path)
    #expect(summary.records == 0)
    // The same archive claiming 1,000 bytes: inflating past them is an error.
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let central = StoredZip.lastIndex(of: [0x50, 0x4B, 0x01, 0x02], in: bytes)!
    bytes.replaceSubrange((central + 24)..<(central + 28), with: [0xE8, 0x03, 0, 0])
    let error = try #require(throws: ArchiveError.self) {
      try read(directory.file("liar.zip", bytes: bytes))
    }
    #expect(error.description.contains("more than the 1000 bytes"))
  }
}

/// A byte source over a string, for the scanner alone.
final class StringSource: ByteSource {
  private var bytes: [UInt8]
  init(_ text: String) { bytes = Array(text.utf8) }
  func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let count = min(buffer.count, bytes.count)
    buffer.copyBytes(from: bytes.prefix(count))
    bytes.removeFirst(count)
    return count
  }
}

/// Builds ZIP archives of stored entries with data descriptors, as some tools write them.
enum StoredZip {
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func archive(_ entries: [(String, String)]) -> [UInt8] {
    var out: [UInt8] = []
    var directory: [UInt8] = []
    func le16(_ value: Int, _ into: inout [UInt8]) {
      into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }
    func le32(_ value: UInt32, _ into: inout [UInt8]) {
      le16(Int(value & 0xFFFF), &into)
      le16(Int(value >> 16), &into)
    }
    for (name, text) in entries {
      let data = Array(text.utf8)
      let crc = crc32(data)
      let offset = UInt32(out.count)
      le32(0x0403_4B50, &out)
      le16(20, &out)
      le16(8, &out)
      le16(0, &out)
      le16(0, &out)
      le16(0x21, &out)
      le32(0, &out)
      le32(0, &out)
      le32(0, &out)
      le16(name.utf8.count, &out)
      le16(0, &out)
      out += Array(name.utf8)
      out += data
      le32(0x0807_4B50, &out)
      le32(crc, &out)
      le32(UInt32(data.count), &out)
      le32(UInt32(data.count), &out)
      le32(0x0201_4B50, &directory)
      le16(20, &directory)
      le16(20, &directory)
      le16(8, &directory)
      le16(0, &directory)
      le16(0, &directory)
      le16(0x21, &directory)
      le32(crc, &directory)
      le32(UInt32(data.count), &directory)
      le32(UInt32(data.count), &directory)
      le16(name.utf8.count, &directory)
      for _ in 0..<4 { le16(0, &directory) }
      le32(0, &directory)
      le32(offset, &directory)
      directory += Array(name.utf8)
    }
    let directoryOffset = UInt32(out.count)
    out += directory
    le32(0x0605_4B50, &out)
    le16(0, &out)
    le16(0, &out)
    le16(entries.count, &out)
    le16(entries.count, &out)
    le32(UInt32(directory.count), &out)
    le32(directoryOffset, &out)
    le16(0, &out)
    return out
  }

  static func lastIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
    (0...(bytes.count - pattern.count)).reversed().first {
      Array(bytes[$0..<($0 + pattern.count)]) == pattern
    }
  }
}
