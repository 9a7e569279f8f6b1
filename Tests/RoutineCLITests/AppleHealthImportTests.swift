import Foundation
import Testing

/// `routine import` of Apple Health exports and `routine sample --format apple-health`, end to
/// end.
struct AppleHealthImportTests {
  @Test func aSampleExportImportsOnceAsXMLAndAsZIP() throws {
    let sandbox = Sandbox()
    let xml = sandbox.directory.appendingPathComponent("export.xml").path
    let zip = sandbox.directory.appendingPathComponent("export.zip").path
    #expect(
      sandbox.run("sample", "--format", "apple-health", "--days", "21", "--output", xml).status == 0
    )
    #expect(
      sandbox.run("sample", "--format", "apple-health", "--days", "21", "--output", zip).status == 0
    )
    let first = sandbox.run("import", xml)
    #expect(first.status == 0)
    #expect(first.stdout.contains("21 nights (Bed Time + Wake Up)"))
    #expect(first.stdout.contains("StepCount"))
    // The ZIP holds the same export: everything is already present.
    let second = sandbox.run("import", zip, "--json")
    #expect(second.status == 0)
    let file = try #require((second.json["files"] as? [[String: Any]])?.first)
    #expect(file["added"] as? Int == 0)
    #expect((file["alreadyPresent"] as? Int ?? 0) > 0)
    let health = try #require(file["appleHealth"] as? [String: Any])
    #expect(health["nights"] as? Int == 21)
    #expect(((health["skippedTypes"] as? [String: Any])?["StepCount"] as? Int ?? 0) > 0)
    #expect((health["duplicates"] as? Int ?? 0) > 0)
  }

  /// The Health app writes a summer workout exported in winter with the winter offset: the
  /// zone the settings name (or --assume-zone) gives it the offset its clock showed; HKTimeZone
  /// still wins; without either, the offset written stands.
  @Test func recordsWithoutTheirZoneAreReadInTheSettingsZone() throws {
    let sandbox = Sandbox()
    let export = sandbox.file(
      "export.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_GB">
       <ExportDate value="2020-11-20 09:00:00 +0000"/>
       <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="20" durationUnit="min" sourceName="Watch" startDate="2020-07-24 10:51:16 +0100" endDate="2020-07-24 11:11:16 +0100"/>
       <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="30" durationUnit="min" sourceName="Watch" startDate="2020-07-25 10:00:00 +0100" endDate="2020-07-25 10:30:00 +0100">
        <MetadataEntry key="HKTimeZone" value="America/New_York"/>
       </Workout>
      </HealthData>

      """)
    let written = sandbox.run("import", export, "--store", sandbox.directory.path + "/plain.db")
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      sandbox.run("events", "--event", "workout", "--store", sandbox.directory.path + "/plain.db")
        .stdout.hasPrefix("2020-07-24T10:51:16+01:00  Workout"))
    #expect(sandbox.run("settings", "--time-zone", "Europe/Paris").status == 0)
    #expect(sandbox.run("import", export).status == 0)
    #expect(
      sandbox.run("events", "--event", "workout").stdout
        == """
        2020-07-24T11:51:16+02:00  Workout  value=20  note="Running"  (import)
        2020-07-25T05:00:00-04:00  Workout  value=30  note="Yoga"  (import)

        """)
  }

  @Test func csvOptionsWithAnExportAreRefusedRatherThanIgnored() throws {
    let sandbox = Sandbox()
    let xml = sandbox.directory.appendingPathComponent("export.xml").path
    #expect(
      sandbox.run("sample", "--format", "apple-health", "--days", "2", "--output", xml).status == 0)
    for option in [["--columns", "timestamp=Date,event=What"], ["--date-order", "dmy"]] {
      let run = sandbox.run(["import", xml] + option)
      #expect(run.status == 64)
      #expect(run.stderr.contains("is an Apple Health export: import it without them"))
    }
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test func theFormatIsRecognisedFromTheContent() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("health-data").path
    #expect(
      sandbox.run("sample", "--format", "apple-health", "--days", "3", "--output", path).status == 0
    )
    let result = sandbox.run("import", path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("records read"))
  }

  @Test func standardInputWithFormatAppleHealth() throws {
    let sandbox = Sandbox()
    let text = sandbox.run("sample", "--format", "apple-health", "--days", "2").stdout
    let result = try sandbox.runBinary(
      ["import", "--format", "apple-health", "-"], input: Data(text.utf8))
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("standard input: "))
  }

  @Test func fromImportsOnlyRecentHistory() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("export.xml").path
    _ = sandbox.run("sample", "--format", "apple-health", "--days", "10", "--output", path)
    let result = sandbox.run("import", path, "--from", "2026-03-09", "--json")
    let health = try #require(
      ((result.json["files"] as? [[String: Any]])?.first)?["appleHealth"] as? [String: Any])
    #expect((health["beforeFrom"] as? Int ?? 0) > 0)
    let events = sandbox.run("events", "--json").stdout
    #expect(!events.contains("2026-03-08T"))
    let bad = sandbox.run("import", path, "--from", "March")
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--from: expected a date YYYY-MM-DD, found 'March'"))
  }

  @Test func aDamagedArchiveIsBadDataAndImportsNothing() throws {
    let sandbox = Sandbox()
    let zip = sandbox.directory.appendingPathComponent("export.zip").path
    _ = sandbox.run("sample", "--format", "apple-health", "--days", "5", "--output", zip)
    var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: zip)))
    bytes[bytes.count / 2] ^= 0xFF
    let damaged = sandbox.file("damaged.zip", "")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    let result = sandbox.run("import", damaged)
    #expect(result.status == 65)
    #expect(result.stderr.contains("'\(damaged)'"))
    #expect(result.stderr.contains("is damaged"))
    #expect(sandbox.run("events").stdout.hasPrefix("No events"))
  }

  @Test func otherCommandsDoNotTakeTheHealthFormat() {
    let sandbox = Sandbox()
    let result = sandbox.run("analyze", "--log", "x.csv", "--format", "apple-health")
    #expect(result.status == 64)
    #expect(result.stderr.contains("--format: expected csv or jsonl, found 'apple-health'"))
    let size = sandbox.run("sample", "--size", "1MB")
    #expect(size.status == 64)
    let typo = sandbox.run("sample", "--format", "apple-health", "--size", "lots")
    #expect(typo.stderr.contains("--size: expected a size such as 200MB or 2GB, found 'lots'"))
  }

  @Test func sizeStopsTheSampleNearThatSize() throws {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent("export.xml").path
    #expect(
      sandbox.run("sample", "--format", "apple-health", "--size", "3MB", "--output", path).status
        == 0)
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(size >= 3_000_000 && size < 3_200_000)
  }
}
