import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// `routine analyze --cohort` and `routine backtest --cohort`: each person as `--log` reads
/// their file alone, in person order, a bad person failing alone (docs/cohort.md).
struct CohortTests {
  /// A sandbox whose temporary files go to its own `tmp` (to see that a split leaves nothing).
  static func sandbox() -> Sandbox {
    let sandbox = Sandbox()
    let temporary = sandbox.directory.appendingPathComponent("tmp").path
    try! FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
    sandbox.variables["TMPDIR"] = temporary
    return sandbox
  }

  /// Writes persons `personas` of the generated population, 60 days up to the sandbox's
  /// yesterday, as `cohort/NAME.csv`; returns the directory and the names.
  static func cohort(
    _ sandbox: Sandbox, _ names: [String] = ["p1", "p2", "p3"], personas: [Int] = [0, 1, 2]
  ) -> String {
    let directory = sandbox.directory.appendingPathComponent("cohort").path
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, persona) in zip(names, personas) {
      let result = sandbox.run(
        "sample", "--persona", "\(persona)", "--days", "60", "--start", "2026-02-26", "--output",
        directory + "/\(name).csv")
      #expect(result.status == 0, "\(result.stderr)")
    }
    return directory
  }

  /// The JSON Lines of `text`, each line an object.
  static func objects(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").map {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
    }
  }

  /// The lines of a CSV log without its header.
  static func records(_ path: String) -> [String] {
    let text = try! String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").dropFirst().map(String.init)
  }

  /// One CSV with a `person` column (between the timestamp and the event) of the cohort's
  /// files, their lines taken in turn; returns its path.
  static func cohortFile(_ sandbox: Sandbox, _ directory: String, names: [String], column: String)
    -> String
  {
    let logs = names.map { records(directory + "/\($0).csv") }
    var lines = ["timestamp,\(column),event,value,note"]
    for index in 0..<(logs.map(\.count).max() ?? 0) {
      for (name, log) in zip(names, logs) where index < log.count {
        let fields = log[index].split(
          separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
        lines.append("\(fields[0]),\(name),\(fields[1])")
      }
    }
    return sandbox.file("cohort.csv", lines.joined(separator: "\n") + "\n")
  }

  /// What the sandbox's temporary directory holds.
  static func leftovers(_ sandbox: Sandbox) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: sandbox.variables["TMPDIR"]!)) ?? []
  }

  @Test func theNextSplitClearsThePartsAKilledRunLeft() throws {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox, ["p1", "p2"], personas: [0, 1])
    let file = Self.cohortFile(sandbox, directory, names: ["p1", "p2"], column: "person")
    // A process that is gone: a child that has exited.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let temporary = sandbox.variables["TMPDIR"]!
    let dead = temporary + "/routine-cohort-\(child.processIdentifier)-abc123"
    let alive = temporary + "/routine-cohort-\(ProcessInfo.processInfo.processIdentifier)-def456"
    for left in [dead, alive] {
      try FileManager.default.createDirectory(atPath: left, withIntermediateDirectories: false)
      _ = FileManager.default.createFile(atPath: left + "/part-1", contents: Data("x".utf8))
    }
    #expect(sandbox.run("analyze", "--cohort", file, "--json").status == 0)
    // The dead run's parts are gone; a live process's (here this test's own) are not touched.
    #expect(!FileManager.default.fileExists(atPath: dead))
    #expect(FileManager.default.fileExists(atPath: alive + "/part-1"))
  }

  // MARK: analyze

  @Test func aDirectoryCohortPrintsEachPersonAsAnalyzeLogDoes() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 3)
    for (line, name) in zip(lines, ["p1", "p2", "p3"]) {
      // "person" first, then exactly what `analyze --json --log` prints for the file.
      #expect(line.hasPrefix("{\"person\":\"\(name)\",\"window\":"))
      var cohort = Self.objects(String(line))[0]
      #expect(cohort.removeValue(forKey: "person") as? String == name)
      let alone = sandbox.run("analyze", "--log", directory + "/\(name).csv", "--json")
      #expect(alone.status == 0)
      #expect(NSDictionary(dictionary: cohort) == NSDictionary(dictionary: alone.json))
      #expect(!(alone.json["routines"] as? [Any] ?? []).isEmpty)
    }
  }

  @Test func aFileWithAPersonColumnPrintsWhatTheDirectoryPrints() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let file = Self.cohortFile(sandbox, directory, names: ["p1", "p2", "p3"], column: "person")
    let fromDirectory = sandbox.run("analyze", "--cohort", directory, "--json")
    let fromFile = sandbox.run("analyze", "--cohort", file, "--json")
    #expect(fromFile.status == 0)
    #expect(fromFile.stderr == "")
    #expect(fromFile.stdout == fromDirectory.stdout)
    #expect(Self.leftovers(sandbox).isEmpty)
  }

  @Test func personColumnNamesAnotherColumnOrKey() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let expected = sandbox.run("analyze", "--cohort", directory, "--json").stdout
    let csv = Self.cohortFile(sandbox, directory, names: ["p1", "p2", "p3"], column: "Who")
    let fromCSV = sandbox.run("analyze", "--cohort", csv, "--person-column", "who", "--json")
    #expect(fromCSV.status == 0)
    #expect(fromCSV.stdout == expected)
    // JSON Lines keep the key; the reader skips it in each person's part.
    var lines: [String] = []
    for name in ["p3", "p1", "p2"] {
      for record in Self.records(directory + "/\(name).csv") {
        let fields = record.split(separator: ",", omittingEmptySubsequences: false)
        lines.append(
          "{\"member\": {\"id\": [1, \"x\"]}, \"who\": \"\(name)\", \"timestamp\": \"\(fields[0])\", "
            + "\"event\": \"\(fields[1])\"}")
      }
    }
    let jsonl = sandbox.file("cohort.jsonl", lines.joined(separator: "\n") + "\n")
    let fromJSONL = sandbox.run("analyze", "--cohort", jsonl, "--person-column", "who", "--json")
    #expect(fromJSONL.status == 0)
    #expect(fromJSONL.stdout == expected)
    // Without it, the file has no person column.
    let missing = sandbox.run("analyze", "--cohort", csv, "--json")
    #expect(missing.status == 65)
    #expect(
      missing.stderr.hasPrefix(
        "error: '\(csv)' line 1: expected a column 'person' naming the person of each event "
          + "(--person-column names another), found 'timestamp', 'Who', 'event', 'value', 'note'"))
    #expect(Self.leftovers(sandbox).isEmpty)
  }

  @Test func aCohortFileNeedsRoutinesColumnsBesideThePerson() {
    let sandbox = Self.sandbox()
    let file = sandbox.file(
      "cohort.csv", "Person,Date,Activity\nann,2026-04-25T07:00:00+02:00,Wake Up\n")
    let result = sandbox.run("analyze", "--cohort", file, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(file)' line 1: expected the columns timestamp and event (and value, note, "
        + "source) beside 'Person', found 'Date', 'Activity'\n")
    #expect(result.stdout == "")
    #expect(Self.leftovers(sandbox).isEmpty)
  }

  @Test func peopleComeSortedByTheBytesOfTheirNames() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox, ["b", "a", "C"])
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["C", "a", "b"])
  }

  @Test func theTextHasAHeadingPerPerson() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let result = sandbox.run("analyze", "--cohort", directory)
    #expect(result.status == 0)
    var expected: [String] = []
    for name in ["p1", "p2", "p3"] {
      let alone = sandbox.run("analyze", "--log", directory + "/\(name).csv")
      expected.append("Person '\(name)':\n" + alone.stdout)
    }
    #expect(result.stdout == expected.joined(separator: "\n"))
  }

  @Test func aBadLineFailsItsPersonOnlyAndNamesTheLine() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    var lines = try! String(contentsOfFile: directory + "/p2.csv", encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    lines[11] = "2026-13-01T07:00:00+02:00,Coffee,,"
    _ = sandbox.file("cohort/p2.csv", lines.joined(separator: "\n"))
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: person 'p2' ('\(directory)/p2.csv') line 12: expected an ISO 8601 timestamp "
        + "with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z), found "
        + "'2026-13-01T07:00:00+02:00'\n")
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["p1", "p3"])
    // --skip-invalid: the line is reported and skipped, as with --log.
    let skipping = sandbox.run("analyze", "--cohort", directory, "--json", "--skip-invalid")
    #expect(skipping.status == 0)
    #expect(
      skipping.stderr.hasPrefix("warning: person 'p2' ('\(directory)/p2.csv') line 12: expected"))
    #expect(skipping.stderr.hasSuffix(" (skipped)\n"))
    #expect(Self.objects(skipping.stdout).count == 3)
  }

  @Test func aBadLineOfACohortFileNamesItsLineInThatFile() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let file = Self.cohortFile(sandbox, directory, names: ["p1", "p2", "p3"], column: "person")
    var lines = try! String(contentsOfFile: file, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Line 41 is p1's 14th record (the people take turns); line 42 is p2's.
    #expect(lines[41].contains(",p2,"))
    lines[41] = "2026-03-01T07:00:00,p2,Coffee,,"
    _ = sandbox.file("cohort.csv", lines.joined(separator: "\n"))
    let result = sandbox.run("analyze", "--cohort", file, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr.hasPrefix(
        "error: person 'p2' ('\(file)') line 42: expected an ISO 8601 timestamp"))
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["p1", "p3"])
    #expect(Self.leftovers(sandbox).isEmpty)
  }

  @Test func emptyPersonValuesNameTheirLines() {
    let sandbox = Self.sandbox()
    let file = sandbox.file(
      "cohort.csv",
      """
      person,timestamp,event
      ann,2026-04-25T07:00:00+02:00,Wake Up
      ,2026-04-25T07:05:00+02:00,Wake Up
      "",2026-04-26T07:05:00+02:00,Wake Up
      ann,2026-04-26T07:00:00+02:00,Wake Up

      """)
    let result = sandbox.run("analyze", "--cohort", file, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(file)' line 3: expected a person in column 'person', found an empty field\n"
        + "error: '\(file)' line 4: expected a person in column 'person', found an empty field\n"
    )
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["ann"])
    let skipping = sandbox.run("analyze", "--cohort", file, "--json", "--skip-invalid")
    #expect(skipping.status == 0)
    #expect(
      skipping.stderr.contains(
        "line 3: expected a person in column 'person', found an empty field (skipped)"))
    #expect(Self.objects(skipping.stdout).count == 1)
  }

  @Test func anEmptyLogIsAWarningAndItsPersonIsStillShown() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    _ = sandbox.file("cohort/quiet.csv", "")
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 0)
    #expect(result.stderr == "warning: person 'quiet': '\(directory)/quiet.csv' holds no events\n")
    let quiet = Self.objects(result.stdout).first { $0["person"] as? String == "quiet" }
    #expect((quiet?["routines"] as? [Any])?.isEmpty == true)
    #expect(Self.objects(result.stdout).count == 4)
  }

  @Test func aFileThatIsNoLogFailsItsPersonOnly() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    _ = sandbox.file("cohort/p0.csv", "SQLite format 3\u{0}\u{1}\u{2}")
    _ = sandbox.file("cohort/notes.txt", "Remember the milk.\n")
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "error: person 'notes' ('\(directory)/notes.txt') line 1: expected the columns timestamp and event"
      ))
    #expect(
      result.stderr.contains(
        "error: person 'p0' ('\(directory)/p0.csv') line 1: expected CSV or JSON Lines events; "
          + "this is a SQLite database"))
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["p1", "p2", "p3"])
  }

  @Test func twoFilesNamingOnePersonFailThatPerson() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    _ = sandbox.file(
      "cohort/p2.jsonl", "{\"timestamp\": \"2026-04-20T07:00:00+02:00\", \"event\": \"Tea\"}\n")
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: person 'p2': 2 files name this person, '\(directory)/p2.csv' and "
        + "'\(directory)/p2.jsonl'; keep one (or join them into one log)\n")
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["p1", "p3"])
  }

  @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"])
  func aLogThatMovesAcrossZonesIsReadAsLogReadsIt(zone: String) {
    let sandbox = Self.sandbox()
    sandbox.variables["TZ"] = zone
    let directory = Self.cohort(sandbox, ["home"], personas: [0])
    // Three weeks at home (+02:00), then a week in New York (-04:00), waking at 07:00 there.
    var lines = ["timestamp,event"]
    for day in 1...21 { lines.append(String(format: "2026-04-%02dT07:00:00+02:00,Wake Up", day)) }
    for day in 20...26 { lines.append(String(format: "2026-04-%02dT07:00:00-04:00,Wake Up", day)) }
    let trip = sandbox.file("cohort/trip.csv", lines.joined(separator: "\n") + "\n")
    let result = sandbox.run("analyze", "--cohort", directory, "--json")
    #expect(result.status == 0)
    let objects = Self.objects(result.stdout)
    #expect(objects.map { $0["person"] as? String } == ["home", "trip"])
    var cohort = objects[1]
    cohort.removeValue(forKey: "person")
    let alone = sandbox.run("analyze", "--log", trip, "--json")
    #expect(NSDictionary(dictionary: cohort) == NSDictionary(dictionary: alone.json))
  }

  @Test(.timeLimit(.minutes(3)))
  func aHundredThousandPeopleWithOneEventEach() {
    let sandbox = Self.sandbox()
    var text = "person,timestamp,event\n"
    for index in 0..<100_000 {
      text += String(format: "u%06d,2026-04-26T07:%02d:00+02:00,Coffee\n", index, index % 60)
    }
    let file = sandbox.file("cohort.csv", text)
    let result = sandbox.run("analyze", "--cohort", file, "--json")
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n")
    #expect(lines.count == 100_000)
    #expect(lines.first?.hasPrefix("{\"person\":\"u000000\",") == true)
    #expect(lines.last?.hasPrefix("{\"person\":\"u099999\",") == true)
    #expect(Self.leftovers(sandbox).isEmpty)
  }

  // MARK: Exit statuses

  @Test func cohortWithLogIsAUsageError() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    for command in ["analyze", "backtest"] {
      let result = sandbox.run(command, "--cohort", directory, "--log", directory + "/p1.csv")
      #expect(result.status == 64)
      #expect(result.stderr.hasPrefix("error: --cohort and --log do not combine"))
      #expect(result.stdout == "")
    }
    let column = sandbox.run("analyze", "--cohort", directory, "--person-column", "who")
    #expect(column.status == 64)
    let alone = sandbox.run("analyze", "--person-column", "who")
    #expect(alone.status == 64)
  }

  @Test func aMissingCohortIsMissingInput() {
    let sandbox = Self.sandbox()
    for command in ["analyze", "backtest"] {
      let result = sandbox.run(command, "--cohort", "nowhere", "--json")
      #expect(result.status == 66)
      #expect(result.stderr == "error: cannot open 'nowhere': No such file or directory\n")
    }
  }

  @Test func theBinaryPrintsEveryPersonAndExitsWithTheFirstFailure() throws {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    _ = sandbox.file("cohort/p0.csv", "timestamp,event\nyesterday,Coffee\n")
    let result = try sandbox.runBinary(["analyze", "--cohort", "cohort", "--json"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("error: person 'p0' ('cohort/p0.csv') line 2: expected"))
    #expect(Self.objects(result.stdout).map { $0["person"] as? String } == ["p1", "p2", "p3"])
    _ = directory
  }

  // MARK: backtest

  @Test func backtestPrintsEachPersonThenTheSumsOfTheirCounts() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    let result = sandbox.run("backtest", "--cohort", directory, "--json")
    #expect(result.status == 0)
    let objects = Self.objects(result.stdout)
    #expect(objects.map { $0["person"] as? String } == ["p1", "p2", "p3", nil])
    for (object, name) in zip(objects, ["p1", "p2", "p3"]) {
      var cohort = object
      cohort.removeValue(forKey: "person")
      let alone = sandbox.run("backtest", "--log", directory + "/\(name).csv", "--json")
      #expect(NSDictionary(dictionary: cohort) == NSDictionary(dictionary: alone.json))
    }
    let people = objects.dropLast()
    let pooled = objects.last!
    #expect(pooled["person"] is NSNull)
    #expect(pooled["people"] as? Int == 3)
    func sum(_ key: String) -> Int { people.reduce(0) { $0 + ($1[key] as? Int ?? 0) } }
    for key in ["hits", "reminders", "eventDays", "eventDaysHit", "predictions", "days"] {
      #expect(pooled[key] as? Int == sum(key), "\(key)")
    }
    #expect(sum("reminders") > 0)
    // Ratios of the sums, not means of the people's ratios.
    let precision = Double(sum("hits")) / Double(sum("reminders"))
    let recall = Double(sum("eventDaysHit")) / Double(sum("eventDays"))
    #expect(abs((pooled["precision"] as? Double ?? -1) - precision) < 0.00005)
    #expect(abs((pooled["recall"] as? Double ?? -1) - recall) < 0.00005)
    let meanPrecision = people.reduce(0.0) { $0 + ($1["precision"] as? Double ?? 0) } / 3
    #expect(abs(meanPrecision - precision) > 0.001)
    // Each bin's predictions add up too.
    let bins = pooled["reliability"] as? [[String: Any]] ?? []
    #expect(bins.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == sum("predictions"))
  }

  @Test func backtestTextEndsWithAllPeople() {
    let sandbox = Self.sandbox()
    let directory = Self.cohort(sandbox)
    _ = sandbox.file("cohort/p4.csv", "timestamp,event\nnot a time,Coffee\n")
    let result = sandbox.run("backtest", "--cohort", directory)
    #expect(result.status == 65)
    #expect(result.stdout.hasPrefix("Person 'p1':\nBacktest with 7-day windows"))
    #expect(result.stdout.contains("\n\nAll 3 people (1 person failed, left out):\nBacktest with"))
    #expect(!result.stdout.contains("Person 'p4'"))
  }
}
