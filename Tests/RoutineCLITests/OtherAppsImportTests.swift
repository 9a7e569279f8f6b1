import Foundation
import Testing

/// `routine import` of other apps' exports, end to end: recognition, `--format`, the zone they
/// are read in, errors, and the same session from two sources.
struct OtherAppsImportTests {
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/other-apps")

  static func fixture(_ name: String) -> String { data.appendingPathComponent(name).path }

  static let garmin = """
    Activity Type,Date,Favorite,Title,Distance,Calories,Time
    Running,2026-03-04 18:05:11,false,Run,10.02,"1,250",01:02:03

    """

  @Test func eachFixtureImportsWithoutOptionsAndOnlyOnce() throws {
    let sandbox = Sandbox()
    let files = [
      "sleep-export.csv", "Activities.csv", "HealthAutoExport.json", "daylio_export.csv",
    ].map(Self.fixture)
    let first = sandbox.run(["import"] + files + ["--json"])
    #expect(first.status == 0, "\(first.stderr)")
    let reports = try #require(first.json["files"] as? [[String: Any]])
    #expect(
      reports.map { ($0["app"] as? [String: Any])?["format"] as? String } == [
        "sleep-as-android", "garmin", "health-auto-export", "daylio",
      ])
    // Health Auto Export's run is Garmin's: one of its two workouts is already there.
    #expect(reports.map { $0["added"] as? Int } == [6, 3, 1, 3])
    let again = sandbox.run(["import"] + files)
    #expect(again.status == 0)
    #expect(again.stdout.components(separatedBy: ", 0 added,").count == 5, "\(again.stdout)")
  }

  /// `$TZ` is the zone of an app's local times when no option names one; `--tz` wins over it;
  /// without either, the settings' zone.
  @Test func appsLocalTimesAreReadInTzThenTheSettingsZone() throws {
    let sandbox = Sandbox(zone: "America/New_York")
    let file = sandbox.file("Activities.csv", Self.garmin)
    let store = sandbox.directory.path + "/tz.db"
    #expect(sandbox.run("import", file, "--store", store).status == 0)
    #expect(
      sandbox.run("events", "--store", store).stdout.hasPrefix(
        "2026-03-04T18:05:11-05:00  Workout"))

    let option = sandbox.directory.path + "/option.db"
    #expect(sandbox.run("import", file, "--tz", "Asia/Tokyo", "--store", option).status == 0)
    #expect(
      sandbox.run("events", "--store", option).stdout.hasPrefix(
        "2026-03-04T18:05:11+09:00  Workout"))

    sandbox.variables["TZ"] = nil
    #expect(sandbox.run("settings", "--time-zone", "Europe/Paris").status == 0)
    #expect(sandbox.run("import", file).status == 0)
    #expect(sandbox.run("events").stdout.hasPrefix("2026-03-04T18:05:11+01:00  Workout"))
  }

  /// The user's zone is found as by every command: with a zone in the settings, a cron job's
  /// `TZ=UTC` (or a wrong `$TZ`) does not move an app's local times.
  @Test func theSettingsZoneComesBeforeTz() throws {
    let sandbox = Sandbox(zone: "UTC")
    let file = sandbox.file("Activities.csv", Self.garmin)
    #expect(sandbox.run("settings", "--time-zone", "America/New_York").status == 0)
    #expect(sandbox.run("import", file).status == 0)
    #expect(sandbox.run("events").stdout.hasPrefix("2026-03-04T18:05:11-05:00  Workout"))
    sandbox.variables["TZ"] = "Europe/Berln"
    let other = sandbox.directory.path + "/other.db"
    #expect(sandbox.run("settings", "--time-zone", "Asia/Tokyo", "--store", other).status == 0)
    let imported = sandbox.run("import", file, "--store", other)
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(
      sandbox.run("events", "--store", other).stdout.hasPrefix(
        "2026-03-04T18:05:11+09:00  Workout"))
  }

  /// The decision of docs/formats.md: routine's own CSV is not read in `$TZ`.
  @Test func routinesOwnCSVStillRefusesLocalTimesWithTzSet() {
    let sandbox = Sandbox(zone: "Europe/Paris")
    let file = sandbox.file("log.csv", "timestamp,event\n2026-03-04 18:05,Tea\n")
    let refused = sandbox.run("import", file)
    #expect(refused.status == 65)
    #expect(refused.stderr.contains("give --assume-zone ZONE to read local times"))
    #expect(sandbox.run("import", file, "--tz", "Europe/Paris").status == 0)
  }

  @Test func formatNamesAnAppForStandardInputAndForAFileOfAnotherName() throws {
    let sandbox = Sandbox()
    let piped = try sandbox.runBinary(
      ["import", "-", "--format", "garmin", "--json"], input: Data(Self.garmin.utf8))
    #expect(piped.status == 0, "\(piped.stderr)")
    let report = try #require((piped.json["files"] as? [[String: Any]])?.first)
    #expect(report["added"] as? Int == 1)
    // Without --format, standard input is routine's own CSV.
    let unnamed = try sandbox.runBinary(["import", "-"], input: Data(Self.garmin.utf8))
    #expect(unnamed.status == 65)
    #expect(unnamed.stderr.contains("expected the columns timestamp and event"))
  }

  /// Fitbit and Health Auto Export tell their JSON from their CSV by the first byte: piped in,
  /// both shapes of both import as from the file (a pipe cannot be read twice: it is kept).
  @Test(arguments: [
    ("sleep-2026-03-04.json", "fitbit"), ("fitbit-sleep.csv", "fitbit"),
    ("HealthAutoExport.json", "health-auto-export"),
    ("health-auto-export-workouts.csv", "health-auto-export"),
  ])
  func aPipedExportOfEitherShapeIsRead(file: String, format: String) throws {
    let sandbox = Sandbox()
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture(file)))
    let piped = try sandbox.runBinary(
      ["import", "-", "--format", format, "--tz", "Europe/Berlin", "--json"], input: data)
    #expect(piped.status == 0, "\(piped.stderr)")
    let fromFile = Sandbox().run(
      "import", Self.fixture(file), "--format", format, "--tz", "Europe/Berlin", "--json")
    let added = (piped.json["files"] as? [[String: Any]])?.first?["added"] as? Int
    #expect(added != nil && added! > 0)
    #expect(added == (fromFile.json["files"] as? [[String: Any]])?.first?["added"] as? Int)
  }

  /// An app's export read as routine's CSV (piped without --format, or recognition turned off by
  /// a date option) is named with the --format that reads it, not a --columns guess.
  @Test func anAppsExportReadAsRoutinesCSVNamesItsFormat() throws {
    let sandbox = Sandbox()
    let data = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("sleep-export.csv")))
    let piped = try sandbox.runBinary(["import", "-"], input: data)
    #expect(piped.status == 65)
    #expect(
      piped.stderr.contains(
        "found the header of Sleep as Android's export: import it with --format sleep-as-android"),
      "\(piped.stderr)")
    let dated = sandbox.run(
      "import", Self.fixture("Activities.csv"), "--date-format", "yyyy-MM-dd HH:mm:ss")
    #expect(dated.status == 65)
    #expect(dated.stderr.contains("import it with --format garmin"), "\(dated.stderr)")
  }

  @Test func aFileOfAnotherShapeThanTheFormatNamedIsRefusedAtItsFirstLine() {
    let sandbox = Sandbox()
    let result = sandbox.run("import", Self.fixture("daylio_export.csv"), "--format", "garmin")
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: '\(Self.fixture("daylio_export.csv"))' line 1: expected a Garmin Connect header"))
    #expect(!sandbox.run("events").stdout.contains("Workout"))
  }

  @Test func anInvalidRecordImportsNothingUnlessSkipped() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "Activities.csv", Self.garmin + "Cycling,2026-03-05 18:00:00,false,Ride,1,1,forty\n")
    let refused = sandbox.run("import", file)
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "error: '\(file)' line 3: column 'Time': expected a duration such as 01:02:03 (hours, minutes, seconds), found 'forty'\n"
    )
    #expect(!sandbox.run("events").stdout.contains("Workout"))
    let skipped = sandbox.run("import", file, "--skip-invalid")
    #expect(skipped.status == 0)
    #expect(skipped.stdout.contains("1 invalid record skipped; 1 event, 1 added"))
    #expect(skipped.stderr.contains("line 3: column 'Time'"))
  }

  @Test func columnsWithANamedFormatIsAUsageError() {
    let sandbox = Sandbox()
    let result = sandbox.run(
      "import", Self.fixture("Activities.csv"), "--format", "garmin", "--columns",
      "timestamp=Date,event=Title")
    #expect(result.status == 64)
    #expect(
      result.stderr.contains(
        "--columns, --date-order, --date-format, --thousands and --skip-lines read routine's CSV"))
    // Given without --format, --columns reads the file as routine's CSV: not recognised.
    let mapped = sandbox.run(
      "import", Self.fixture("Activities.csv"), "--columns", "timestamp=Date,event=Title", "--tz",
      "Europe/Berlin")
    #expect(mapped.status == 0, "\(mapped.stderr)")
    #expect(mapped.stdout.contains("3 events read"))
  }

  @Test func aNightFromAppleHealthAndFromSleepAsAndroidCountsOnce() throws {
    let sandbox = Sandbox()
    let export = sandbox.file(
      "export.xml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <HealthData locale="en_GB">
       <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Phone" startDate="2026-03-04 23:20:00 +0100" endDate="2026-03-05 07:00:00 +0100" value="HKCategoryValueSleepAnalysisInBed"/>
      </HealthData>

      """)
    #expect(sandbox.run("import", export).status == 0)
    let result = sandbox.run("import", Self.fixture("sleep-export.csv"))
    #expect(result.status == 0)
    #expect(result.stdout.contains("6 events, 4 added, 2 already present"), "\(result.stdout)")
    #expect(
      sandbox.run("events", "--event", "bed time", "--from", "2026-03-04", "--to", "2026-03-05")
        .stdout == "2026-03-04T23:20:00+01:00  Bed Time  (import)\n")
  }
}
