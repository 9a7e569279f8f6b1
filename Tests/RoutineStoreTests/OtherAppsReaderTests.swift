import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// Reading other apps' exports (Formats/OtherApps): detection, each mapping, each error, and the
/// rule that a workout or a night held from another source is not added again.
struct OtherAppsReaderTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin").map(Zone.init(foundation:))!
  static let newYork = TimeZone(identifier: "America/New_York").map(Zone.init(foundation:))!

  /// The fixtures of data/other-apps, written from each format's published description.
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "data/other-apps")

  static func fixture(_ name: String) -> String { data.appendingPathComponent(name).path }

  static func zones(_ name: String) -> Zone? {
    TimeZone(identifier: name).map(Zone.init(foundation:))
  }

  /// The events `path` becomes as `format`, as `timestamp kind [value] [note]` lines.
  func read(
    _ path: String, _ format: AppFormat, zone: Zone = berlin, skipping: Bool = false
  ) throws -> (summary: AppFileReader.Summary, result: HealthMapping.Result, lines: [String]) {
    var records = AppRecords(format: format)
    let reader = AppFileReader(
      path: path, format: format, skipsInvalid: skipping, zone: zone, zoneNamed: Self.zones)
    let summary = try reader.read(into: &records)
    let result = records.finish()
    let lines = result.events.map { event in
      var line = "\(event.timestamp.iso8601) \(event.kind.name)"
      if let value = event.value { line += " \(value)" }
      if let note = event.note { line += " \(note)" }
      return line
    }
    return (summary, result, lines)
  }

  func error(_ body: () throws -> Void) -> FormatError? {
    do {
      try body()
      return nil
    } catch let error as FormatError {
      return error
    } catch {
      return nil
    }
  }

  // MARK: Detection

  @Test(arguments: [
    ("sleep-export.csv", AppFormat.sleepAsAndroid), ("fitbit-sleep.csv", .fitbit),
    ("sleep-2026-03-04.json", .fitbit), ("Activities.csv", .garmin),
    ("HealthAutoExport.json", .healthAutoExport),
    ("health-auto-export-workouts.csv", .healthAutoExport), ("daylio_export.csv", .daylio),
  ])
  func eachFixtureIsRecognisedFromItsFirstBytes(name: String, format: AppFormat) throws {
    let bytes = try [UInt8](Data(contentsOf: Self.data.appendingPathComponent(name)))
    #expect(AppFormat.detect(bytes) == format)
    // A byte order mark changes nothing.
    #expect(AppFormat.detect([0xEF, 0xBB, 0xBF] + bytes) == format)
  }

  @Test(arguments: [
    "timestamp,event\n2026-04-20T07:05:00+02:00,Tea\n",
    "{\"timestamp\": \"2026-04-20T07:05Z\", \"event\": \"Tea\"}\n",
    "Date,Time,Activity\n2026-04-20,07:05,Tea\n", "[1, 2, 3]", "{\"data\": {\"metrics\": []}}",
    "",
  ])
  func routinesOwnFilesAndOthersAreNotRecognised(text: String) {
    #expect(AppFormat.detect(Array(text.utf8)) == nil)
  }

  // MARK: Mappings

  @Test func sleepAsAndroidRecordsAreNightsInTheirOwnZone() throws {
    // The reader's zone is New York: the file's Tz wins for every record.
    let (summary, result, lines) = try read(
      Self.fixture("sleep-export.csv"), .sleepAsAndroid, zone: Self.newYork)
    #expect(summary.records == 3)
    #expect(result.nights == 3)
    #expect(
      lines == [
        "2026-03-04T23:30:00+01:00 Bed Time", "2026-03-05T07:05:00+01:00 Wake Up",
        "2026-03-05T23:15:00+01:00 Bed Time", "2026-03-06T06:50:00+01:00 Wake Up",
        "2026-03-06T23:40:00-05:00 Bed Time", "2026-03-07T07:10:00-05:00 Wake Up",
      ])
  }

  @Test func fitbitCSVReadsTheSleepSectionOnly() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "fitbit_export.csv",
      """
      Body
      Date,Weight,BMI,Fat
      "2026-03-04","70.0","22.1","0"

      Sleep
      Start Time,End Time,Minutes Asleep,Minutes Awake,Number of Awakenings,Time in Bed
      "2026-03-04 11:12PM","2026-03-05 6:58AM","421","45","3","466"
      "2026-03-05 12:05AM","2026-03-05 12:35AM","30","0","0","30"

      """)
    let (summary, result, lines) = try read(path, .fitbit)
    #expect(summary.records == 2)
    // The second session (12:05 AM is five past midnight) joins the first night.
    #expect(result.nights == 1)
    #expect(lines == ["2026-03-04T23:12:00+01:00 Bed Time", "2026-03-05T06:58:00+01:00 Wake Up"])
  }

  @Test func fitbitJSONLogsAreNightsInTheGivenZone() throws {
    let (summary, _, lines) = try read(
      Self.fixture("sleep-2026-03-04.json"), .fitbit, zone: Self.newYork)
    #expect(summary.records == 2)
    #expect(
      lines == [
        "2026-03-04T23:12:30-05:00 Bed Time", "2026-03-05T06:58:30-05:00 Wake Up",
        "2026-03-05T22:40:00-05:00 Bed Time", "2026-03-06T07:02:00-05:00 Wake Up",
      ])
  }

  @Test func garminActivitiesAreWorkoutsWithTheirDuration() throws {
    let (summary, result, lines) = try read(Self.fixture("Activities.csv"), .garmin)
    #expect(summary.records == 3)
    #expect(result.workouts == 3)
    #expect(
      lines == [
        "2026-03-04T18:05:11+01:00 Workout 62.1 Running",
        "2026-03-05T07:30:00+01:00 Workout 45.0 Strength Training",
        "2026-03-06T17:00:00+01:00 Workout 38.3 Cycling",
      ])
  }

  @Test func healthAutoExportKeepsItsOffsetsAndTakesMinutesFromTheSpan() throws {
    // The zone given does not move times written with an offset.
    let (_, _, json) = try read(
      Self.fixture("HealthAutoExport.json"), .healthAutoExport, zone: Self.newYork)
    #expect(
      json == [
        "2026-03-04T18:05:00+01:00 Workout 62.0 Outdoor Run",
        "2026-03-05T07:00:00+01:00 Workout 30.0 Yoga",
      ])
    let (_, _, csv) = try read(Self.fixture("health-auto-export-workouts.csv"), .healthAutoExport)
    #expect(csv == json)
  }

  @Test func daylioActivitiesAreOneEventEach() throws {
    let (summary, _, lines) = try read(Self.fixture("daylio_export.csv"), .daylio)
    #expect(summary.records == 3)
    #expect(
      lines == [
        "2026-03-04T08:10:00+01:00 reading", "2026-03-05T20:15:00+01:00 exercise",
        "2026-03-05T20:15:00+01:00 work",
      ])
  }

  /// Local times follow docs/time.md: in the spring-forward gap at its end, in the autumn
  /// repeat at the first instant.
  @Test func localTimesInAClockChangeFollowTheTimeRules() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "Activities.csv",
      """
      Activity Type,Date,Favorite,Title,Distance,Calories,Time
      Running,2026-03-29 02:30:00,false,Gap,1,1,00:30:00
      Running,2026-10-25 02:30:00,false,Repeat,1,1,00:30:00

      """)
    let (_, _, lines) = try read(path, .garmin)
    #expect(
      lines == [
        "2026-03-29T03:00:00+02:00 Workout 30.0 Running",
        "2026-10-25T02:30:00+02:00 Workout 30.0 Running",
      ])
  }

  @Test func workoutsOfOneActivityOverlappingByHalfAreOne() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "Activities.csv",
      """
      Activity Type,Date,Favorite,Title,Distance,Calories,Time
      Running,2026-03-04 18:00:00,false,Watch,1,1,01:00:00
      Running,2026-03-04 18:30:00,false,Phone,1,1,00:40:00
      Running,2026-03-04 19:05:00,false,Later,1,1,00:20:00

      """)
    let (_, result, lines) = try read(path, .garmin)
    // 18:30-19:10 overlaps 18:00-19:00 by 30 of its 40 minutes; 19:05-19:25 by nothing.
    #expect(result.duplicates == 1)
    #expect(
      lines == [
        "2026-03-04T18:00:00+01:00 Workout 60.0 Running",
        "2026-03-04T19:05:00+01:00 Workout 20.0 Running",
      ])
  }

  // MARK: Errors

  @Test func aGarbledRecordNamesTheFileLineAndWhatWasExpected() throws {
    let directory = TemporaryDirectory()
    let cases: [(AppFormat, String, Int, String)] = [
      (
        .sleepAsAndroid,
        "Id,Tz,From,To\n\"1\",\"Europe/Berlin\",\"2026-03-04 23:30\",\"05. 03. 2026 7:00\"\n", 2,
        "column 'From': expected a date and time such as 04. 03. 2026 23:30, found '2026-03-04 23:30'"
      ),
      (
        .sleepAsAndroid,
        "Id,Tz,From,To\n\"1\",\"Mars/Olympus\",\"04. 03. 2026 23:30\",\"05. 03. 2026 7:00\"\n",
        2, "column 'Tz': expected a time zone name such as Europe/Berlin, found 'Mars/Olympus'"
      ),
      (
        .sleepAsAndroid, "\"1\",\"Europe/Berlin\"\n", 1,
        "expected a Sleep as Android header line 'Id,Tz,From,To,Sched,Hours,Rating,Comment,...', found '1'"
      ),
      (
        .fitbit, "Sleep\nStart Time,End Time\n2026-03-05 6:58AM,2026-03-04 11:12PM\n", 3,
        "expected 'End Time' after 'Start Time'"
      ),
      (
        .garmin, "Activity Type,Date,Time\nRunning,2026-03-04 18:05:11,1h\n", 2,
        "column 'Time': expected a duration such as 01:02:03 (hours, minutes, seconds), found '1h'"
      ),
      (
        .garmin, "Type,When\nRunning,2026-03-04\n", 1,
        "expected a Garmin Connect header 'Activity Type,Date,Favorite,Title,Distance,Calories,Time,...', found Type,When"
      ),
      (
        .daylio, "full_date,date,weekday,time,mood,activities\n2026-03-04,x,y,25:00,good,read\n",
        2, "column 'time': expected a time such as 20:15 or 8:15 pm, found '25:00'"
      ),
      (
        .healthAutoExport,
        "Workout Type,Start,End\nYoga,2026-03-05 07:00:00,yesterday\n", 2,
        "column 'End': expected a date and time such as 2026-03-04 18:05:11 +0100, found 'yesterday'"
      ),
    ]
    for (index, (format, text, line, message)) in cases.enumerated() {
      let path = directory.file("case\(index).csv", text)
      let error = self.error { _ = try read(path, format) }
      #expect(error == FormatError(file: path, line: line, message: message), "\(format)")
    }
  }

  @Test func aGarbledJSONObjectIsNamedByItsLine() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "sleep-2026-03-04.json",
      """
      [
        {"logId": 1, "startTime": "2026-03-04T23:12:30.000", "endTime": "2026-03-05T06:58:30.000",
         "levels": {"summary": {"deep": {"count": 3}}}},
        {"logId": 2,
         "startTime": "March 5", "endTime": "2026-03-06T07:02:00.000"}
      ]
      """)
    let error = self.error { _ = try read(path, .fitbit) }
    #expect(error?.line == 4)
    #expect(
      error?.message
        == "\"startTime\": expected a date and time such as \"2026-03-04T23:12:30.000\", found \"March 5\""
    )
    let skipped = try read(path, .fitbit, skipping: true)
    #expect(skipped.summary.invalid.map(\.line) == [4])
    #expect(skipped.result.nights == 1)
  }

  @Test func aJSONExportOfAnotherShapeSaysWhatWasExpected() throws {
    let directory = TemporaryDirectory()
    let notObjects = directory.file("sleep.json", "[\n  1\n]\n")
    #expect(
      error { _ = try read(notObjects, .fitbit) }
        == FormatError(file: notObjects, line: 1, message: "expected a sleep log object, found 1"))
    let noWorkouts = directory.file("hae.json", "{\"data\": {\"metrics\": []}}\n")
    #expect(
      error { _ = try read(noWorkouts, .healthAutoExport) }?.message
        == "expected a Health Auto Export object {\"data\": {\"workouts\": [...]}}")
    let broken = directory.file("broken.json", "[\n{\"logId\": 1,\n")
    #expect(error { _ = try read(broken, .fitbit) }?.line == 3)
  }

  @Test func skippingInvalidRecordsKeepsTheOthers() throws {
    let directory = TemporaryDirectory()
    let path = directory.file(
      "Activities.csv",
      """
      Activity Type,Date,Favorite,Title,Distance,Calories,Time
      Running,2026-03-04 18:05:11,false,Run,10.02,"1,250",01:02:03
      Running,04/03/2026 18:05,false,Run,10.02,"1,250",01:02:03
      "Cycling,2026-03-05 18:00:00,false

      """)
    let (summary, result, _) = try read(path, .garmin, skipping: true)
    #expect(summary.records == 3)
    #expect(summary.invalid.map(\.line) == [3, 4])
    #expect(result.workouts == 1)
  }

  // MARK: The same session from two sources

  func store(_ directory: TemporaryDirectory) throws -> EventStore {
    try EventStore(path: directory.path("r.db"))
  }

  func importApp(_ store: EventStore, _ path: String, _ format: AppFormat) throws
    -> EventStore.AppImportSummary
  {
    try store.importAppExport(
      from: AppFileReader(path: path, format: format, zone: Self.berlin, zoneNamed: Self.zones))
  }

  @Test func aWorkoutFromGarminAndFromAppleHealthCountsOnceInEitherOrder() throws {
    for garminFirst in [true, false] {
      let directory = TemporaryDirectory()
      let store = try store(directory)
      let health = AppleHealthReader(path: Self.fixture("export.xml"), zone: Self.zones)
      var added: [Int] = []
      if garminFirst {
        added.append(try importApp(store, Self.fixture("Activities.csv"), .garmin).added)
        added.append(try store.importHealthExport(from: health).added)
      } else {
        added.append(try store.importHealthExport(from: health).added)
        added.append(try importApp(store, Self.fixture("Activities.csv"), .garmin).added)
      }
      // Garmin: 3 workouts; Apple Health: the same run (18:05:30, 61.5 minutes) and a walk.
      #expect(added == (garminFirst ? [3, 1] : [2, 2]))
      let runs = try store.storedEvents(EventSelection(kind: EventKind("Workout")))
        .filter { $0.event.timestamp.localDate == LocalDate(year: 2026, month: 3, day: 4) }
      #expect(runs.count == 1)
      // The one stored first is kept.
      #expect(
        runs.first?.event.timestamp.iso8601.hasPrefix(
          garminFirst ? "2026-03-04T18:05:11" : "2026-03-04T18:05:30") == true)
    }
  }

  @Test func theSameNightFromTwoAppsCountsOnceAndReimportsAddNothing() throws {
    let directory = TemporaryDirectory()
    let store = try store(directory)
    let first = try importApp(store, Self.fixture("sleep-export.csv"), .sleepAsAndroid)
    #expect(first.added == 6)
    // Fitbit's nights of 4-5 and 5-6 March overlap Sleep as Android's by far more than half.
    let second = try importApp(store, Self.fixture("fitbit-sleep.csv"), .fitbit)
    #expect((second.added, second.alreadyPresent) == (0, 4))
    let again = try importApp(store, Self.fixture("sleep-export.csv"), .sleepAsAndroid)
    #expect((again.added, again.alreadyPresent) == (0, 6))
    #expect(try store.storedEvents(EventSelection()).count == 6)
  }

  @Test func sessionsThatOverlapByLessThanHalfAreBothKept() {
    let stored = StoredSpans([SessionSpan(start: 0, end: 3600)])
    #expect(stored.containsSame(as: SessionSpan(start: 1800, end: 5400)))
    #expect(!stored.containsSame(as: SessionSpan(start: 1801, end: 5400)))
    #expect(!stored.containsSame(as: SessionSpan(start: 3600, end: 7200)))
    // Under a minute: starts within a minute.
    let short = StoredSpans([SessionSpan(start: 100, end: 130)])
    #expect(short.containsSame(as: SessionSpan(start: 160, end: 170)))
    #expect(!short.containsSame(as: SessionSpan(start: 161, end: 170)))
  }
}
