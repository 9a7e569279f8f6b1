import Foundation
import Testing

/// `routine import --columns`: other applications' CSV, their date and time forms, and the
/// errors that name the column and the line.
struct OtherAppsCSVTests {
  static let phoneColumns = "timestamp=Date+Time,event=Activity,value=Amount,note=Comment"

  /// The events of the sandbox's store as `timestamp event value note source` lines.
  func events(_ sandbox: Sandbox) -> [String] {
    let list = sandbox.run("events", "--json").json["events"] as? [[String: Any]] ?? []
    return list.map { event in
      [
        event["timestamp"] as? String ?? "", event["event"] as? String ?? "",
        (event["value"] as? Double).map { "\($0)" } ?? "-", event["note"] as? String ?? "-",
        event["source"] as? String ?? "",
      ].joined(separator: " ")
    }
  }

  @Test func aPhoneExportIsReadThroughItsColumns() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "phone.csv",
      """
      Date,Time,Activity,Amount,Comment,Device
      2026-04-27,7:05 PM,Coffee,1.5,"oat, milk",phone
      27/04/2026,07:30,Tea,,,phone
      04/28/2026,12:00 AM,Wake Up,,,watch
      28.04.2026,12:30 pm,Lunch,,,phone
      2026-04-28,13:15:30,Walk,2,,phone
      2026-04-28,14:00+00:00,Call,,offset wins,phone

      """)
    let result = sandbox.run(
      "import", file, "--columns", Self.phoneColumns, "--assume-zone", "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      events(sandbox) == [
        "2026-04-27T07:30:00+02:00 Tea - - import",
        "2026-04-27T19:05:00+02:00 Coffee 1.5 oat, milk import",
        "2026-04-28T00:00:00+02:00 Wake Up - - import",
        "2026-04-28T12:30:00+02:00 Lunch - - import",
        "2026-04-28T13:15:30+02:00 Walk 2.0 - import",
        "2026-04-28T14:00:00+00:00 Call - offset wins import",
      ])
  }

  @Test func anUnknownHeaderShowsTheColumnsFoundAndTheOptionThatReadsThem() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "phone.csv", "Date,Time,Activity,Amount,Comment\n2026-04-27,07:05,Coffee,1,\n")
    let result = sandbox.run("import", file)
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "line 1: expected the columns timestamp and event; found Date, Time, Activity, Amount, Comment. To read them, add: --columns \"timestamp=Date+Time,event=Activity,value=Amount,note=Comment\""
      ), "\(result.stderr)")
    // No guess for an event's name: a template to fill in.
    let other = sandbox.file("other.csv", "When,Colour\n2026-04-27 07:05,red\n")
    let template = sandbox.run("import", other)
    #expect(
      template.stderr.contains(
        "found When, Colour. To read them, name the columns that hold each field: --columns \"timestamp=DATE+TIME,event=NAME,value=AMOUNT,note=COMMENT\""
      ), "\(template.stderr)")
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test(arguments: [
    (
      "2026-04-27,25:61,Coffee\n",
      "line 2: column 'Time': expected a time such as 07:05 or 7:05 PM, found '25:61'"
    ),
    (
      "2026-04-27,13:05 PM,Coffee\n",
      "line 2: column 'Time': expected a time such as 07:05 or 7:05 PM, found '13:05 PM'"
    ),
    (
      "2026-04-27,,Coffee\n",
      "line 2: column 'Time': expected a time such as 07:05 or 7:05 PM, found an empty field"
    ),
    (
      "2026-02-30,07:05,Coffee\n",
      "line 2: column 'Date': expected a date such as 2026-04-27, 27/04/2026 or 04/27/2026, found '2026-02-30'"
    ),
    (
      "04/05/2026,07:05,Coffee\n",
      "line 2: column 'Date': '04/05/2026' could be day 4 of month 5 or day 5 of month 4; give --date-order dmy (day first) or --date-order mdy (month first)"
    ),
    (
      "27/04/26,07:05,Coffee\n",
      "line 2: column 'Date': expected a four-digit year (27/04/2026), found '27/04/26'"
    ),
    (
      "2026-04-27,07:05,Coffee,\"1,5\"\n",
      "line 2: column 'Amount': expected a number, found '1,5'; write decimals with a point (1.5), or declare the thousands separator (--thousands ,)"
    ),
  ])
  func aValueThatDoesNotParseNamesItsColumnAndLine(row: String, message: String) {
    let sandbox = Sandbox()
    let file = sandbox.file("phone.csv", "Date,Time,Activity,Amount\n" + row)
    let result = sandbox.run(
      "import", file, "--columns", "timestamp=Date+Time,event=Activity,value=Amount",
      "--assume-zone", "UTC")
    #expect(result.status == 65)
    #expect(result.stderr.contains("phone.csv' \(message)"), "\(result.stderr)")
  }

  @Test func theDateOrderSettlesAmbiguousDatesAndUnambiguousOnesNeedNone() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "d.csv", "Date,Time,Activity\n04/05/2026,07:05,Tea\n13/05/2026,07:05,Tea\n")
    let dmy = sandbox.run(
      "import", file, "--columns", "timestamp=Date+Time,event=Activity", "--date-order", "dmy",
      "--assume-zone", "UTC")
    #expect(dmy.status == 0, "\(dmy.stderr)")
    #expect(events(sandbox).map { String($0.prefix(10)) } == ["2026-05-04", "2026-05-13"])
    let mdy = Sandbox()
    let us = mdy.file("d.csv", "Date,Time,Activity\n04/05/2026,07:05,Tea\n")
    _ = mdy.run(
      "import", us, "--columns", "timestamp=Date+Time,event=Activity", "--date-order", "MDY",
      "--assume-zone", "UTC")
    #expect(events(mdy).map { String($0.prefix(10)) } == ["2026-04-05"])
    let wrong = mdy.run("import", us, "--date-order", "ymd")
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr.contains(
        "--date-order: expected dmy (day first) or mdy (month first), found 'ymd'"))
  }

  @Test(arguments: [
    ("Europe/Berlin", "2026-03-29", "02:30 AM", "2026-03-29T03:00:00+02:00"),
    ("Europe/Berlin", "10/25/2026", "2:30 AM", "2026-10-25T02:30:00+02:00"),
    ("America/New_York", "2026-11-01", "1:30 AM", "2026-11-01T01:30:00-04:00"),
    ("Australia/Lord_Howe", "2026-04-05", "1:45 AM", "2026-04-05T01:45:00+11:00"),
    ("Asia/Tokyo", "2026-04-27", "11:59 PM", "2026-04-27T23:59:00+09:00"),
  ])
  func localTimesInDaylightSavingChangesFollowTheTimeRules(
    zone: String, date: String, time: String, expected: String
  ) {
    let sandbox = Sandbox()
    let file = sandbox.file("d.csv", "Date,Time,Activity\n\(date),\(time),Tea\n")
    let result = sandbox.run(
      "import", file, "--columns", "timestamp=Date+Time,event=Activity", "--assume-zone", zone)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(events(sandbox).first?.hasPrefix(expected) == true, "\(events(sandbox))")
  }

  @Test func localTimesWithoutAZoneAreRefusedWithTheOptionThatReadsThem() {
    let sandbox = Sandbox()
    let file = sandbox.file("d.csv", "Date,Time,Activity\n2026-04-27,7:05 PM,Tea\n")
    let result = sandbox.run("import", file, "--columns", "timestamp=Date+Time,event=Activity")
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "line 2: columns 'Date' and 'Time': expected a time with a UTC offset, found the local time '2026-04-27 19:05:00' (give --assume-zone ZONE to read local times)"
      ), "\(result.stderr)")
  }

  @Test(arguments: [
    ("timestamp=Date", "--columns: expected the fields timestamp and event, found no event"),
    (
      "timestamp=Date,event=A,colour=B",
      "--columns: expected a field timestamp, event, value, note, source, start or end before '=', found 'colour'"
    ),
    ("timestamp=Date,event=A,event=B", "--columns: the field event is named twice"),
    ("timestamp=Date,event=A+B", "--columns: only timestamp, start and end join columns"),
    ("timestamp=D+T+Z,event=A", "--columns: only timestamp, start and end join columns"),
    ("timestamp=Date,event=", "--columns: expected a header name, found nothing"),
    ("timestamp=Date,event=\"A", "--columns: expected a closing '\"' after \"A"),
    ("Date", "--columns: expected field=Header pairs separated by commas, found 'Date'"),
  ])
  func aBadColumnsOptionIsAUsageError(text: String, message: String) {
    let sandbox = Sandbox()
    let file = sandbox.file("d.csv", "Date,A\n2026-04-27T07:05Z,Tea\n")
    let result = sandbox.run("import", file, "--columns", text)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func headersAreMatchedIgnoringCaseAndSpacesAndMayBeQuoted() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "d.csv",
      "\" Start = when \",WHAT,\"Comment, private\"\n2026-04-27T07:05:00+02:00,Tea,\"a, b\"\n")
    let result = sandbox.run(
      "import", file, "--columns", "timestamp=\"start = when\",event=what,note=\"Comment, private\""
    )
    #expect(result.status == 0, "\(result.stderr)")
    #expect(events(sandbox) == ["2026-04-27T07:05:00+02:00 Tea - a, b import"])
    let missing = sandbox.run("import", file, "--columns", "timestamp=Date,event=what")
    #expect(missing.status == 65)
    #expect(
      missing.stderr.contains(
        "line 1: expected a column 'Date' (--columns names it), found 'Start = when', 'WHAT', 'Comment, private'"
      ), "\(missing.stderr)")
  }

  @Test(arguments: [
    "timestamp=\" Start \",event=\" Spaced \"", "timestamp=Start,event=Spaced",
    "timestamp=\"start\" , event= \"\tSPACED\t\"",
  ])
  func aQuotedHeaderWithSpacesAroundItMatchesAsTheFilesHeaderDoes(columns: String) {
    // The file's own header text, pasted in quotes, must match it: spaces around a header are
    // dropped inside quotes as outside, in the map as in the file.
    let sandbox = Sandbox()
    let file = sandbox.file(
      "s.csv", "\" Start \",\" Spaced \"\n2026-04-27T07:05:00+02:00,Tea\n")
    let result = sandbox.run("import", file, "--columns", columns)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(events(sandbox) == ["2026-04-27T07:05:00+02:00 Tea - - import"])
  }

  @Test func aSourceColumnIsReadAndAnUnknownSourceIsBadData() {
    let sandbox = Sandbox()
    let good = sandbox.file(
      "s.csv",
      "timestamp,event,source\n2026-04-27T07:05Z,Tea,cli\n2026-04-27T08:05Z,Tea,\n2026-04-27T09:05Z,Tea,notification\n"
    )
    #expect(sandbox.run("import", good).status == 0)
    #expect(
      events(sandbox).map { $0.split(separator: " ").last! } == ["cli", "import", "notification"])
    let bad = sandbox.file("b.csv", "timestamp,event,source\n2026-04-27T07:05Z,Tea,watch\n")
    let result = sandbox.run("import", bad)
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "b.csv' line 2: expected cli, import or notification for source, found 'watch'"))
    let json = sandbox.file(
      "b.jsonl",
      "{\"timestamp\": \"2026-04-27T07:05Z\", \"event\": \"Tea\", \"source\": \"Watch\"}\n")
    #expect(
      sandbox.run("import", json).stderr.contains(
        "b.jsonl' line 1: expected cli, import or notification for \"source\", found 'Watch'"))
  }

  /// A file of another kind given to import says what it seems to be and what reads it,
  /// instead of offering --columns for a header of binary garbage.
  @Test func aFileOfAnotherKindSaysWhatReadsIt() throws {
    let sandbox = Sandbox()
    let semicolons = sandbox.file("semi.csv", "Date;Time;Activity\n27/04/2026;07:05;Tea\n")
    let tabs = sandbox.file("tabs.csv", "Date\tTime\tActivity\n27/04/2026\t07:05\tTea\n")
    let xml = sandbox.file(
      "health.txt", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n")
    let zip = sandbox.file("archive.bin", "PK\u{3}\u{4}\u{14}\u{0}rest of an archive\n")
    #expect(sandbox.run("log", "Tea").status == 0)
    let copy = sandbox.directory.appendingPathComponent("copy.db").path
    #expect(sandbox.run("backup", copy).status == 0)
    let cases: [([String], String)] = [
      ([semicolons], "the columns seem to be separated by semicolons"),
      ([tabs], "the columns seem to be separated by tabs"),
      (
        [xml, "--format", "csv"],
        "this looks like XML, as an Apple Health export.xml is: read it with --format apple-health"
      ),
      ([xml, "--format", "jsonl"], "this looks like XML"),
      ([zip, "--format", "csv"], "this looks like a ZIP archive"),
      ([zip, "--format", "jsonl"], "this looks like a ZIP archive"),
      (
        [copy],
        "this is a SQLite database, as a routine store or backup is: use it with --store FILE"
      ),
    ]
    for (arguments, message) in cases {
      let run = sandbox.run(["import"] + arguments)
      #expect(run.status == 65, "\(arguments)")
      #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
      #expect(!run.stderr.contains("--columns"), "\(arguments): \(run.stderr)")
    }
  }

  /// --from takes only recent history from any file, by each event's own local date.
  @Test(arguments: ["csv", "jsonl"])
  func fromLeavesOutEventsBeforeItsDateInEveryFormat(format: String) throws {
    let sandbox = Sandbox()
    let lines =
      format == "csv"
      ? "timestamp,event\n2026-04-19T23:30:00+02:00,Tea\n2026-04-19T22:30:00Z,Tea\n"
        + "2026-04-20T00:10:00+02:00,Tea\n"
      : #"{"timestamp": "2026-04-19T23:30:00+02:00", "event": "Tea"}"# + "\n"
        + #"{"timestamp": "2026-04-19T22:30:00Z", "event": "Tea"}"# + "\n"
        + #"{"timestamp": "2026-04-20T00:10:00+02:00", "event": "Tea"}"# + "\n"
    let file = sandbox.file("recent.\(format)", lines)
    let run = sandbox.run("import", file, "--from", "2026-04-20")
    #expect(run.status == 0, "\(run.stderr)")
    // 22:30Z is 00:30 on the 20th in Berlin, but the 19th at its own offset: left out.
    #expect(
      run.stdout.hasSuffix(
        "3 events read, 1 added, 0 already present, 2 before 2026-04-20 left out.\n"))
    #expect(sandbox.run("events").stdout == "2026-04-20T00:10:00+02:00  Tea  (import)\n")
    let again = sandbox.run("import", file, "--json")
    let files = try #require(again.json["files"] as? [[String: Any]])
    #expect(files.first?["added"] as? Int == 2)
    #expect(files.first?["beforeFrom"] as? Int == 0)
    #expect(sandbox.run("import", file, "--from", "2026-02-30").status == 64)
  }

  @Test func columnsWithJSONLinesIsRefusedRatherThanIgnored() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "events.jsonl", #"{"timestamp": "2026-04-20T07:05Z", "event": "Tea"}"# + "\n")
    let run = sandbox.run("import", file, "--columns", "timestamp=When,event=What")
    #expect(run.status == 65)
    #expect(run.stderr.contains("found JSON Lines, whose keys are timestamp, event"))
    #expect(sandbox.run("import", file).status == 0)
  }

  @Test func hostileInputIsRefusedNotCrashedOn() {
    let sandbox = Sandbox()
    // Digits without end, a time of nothing but separators, a date of a huge year.
    let file = sandbox.file(
      "h.csv",
      "Date,Time,Activity\n99999999999999999999/1/2026,7:05,Tea\n2026-04-27,::,Tea\n"
        + "10000-01-01,07:05,Tea\n2026-04-27,7:05 PMX,Tea\n2026-04-27,07:05+99:00,Tea\n")
    let result = sandbox.run(
      "import", file, "--columns", "timestamp=Date+Time,event=Activity", "--assume-zone", "UTC",
      "--skip-invalid")
    #expect(result.status == 0)
    #expect(result.stderr.components(separatedBy: "(skipped)").count - 1 == 5, "\(result.stderr)")
    #expect(events(sandbox).isEmpty)
  }

  @Test func routineOwnFilesAlsoReadOtherDateFormsAndEventsJSONGetsAHint() {
    let sandbox = Sandbox()
    let file = sandbox.file("own.csv", "timestamp,event\n04/27/2026 7:05 PM,Tea\n")
    #expect(sandbox.run("import", file, "--assume-zone", "UTC").status == 0)
    #expect(events(sandbox) == ["2026-04-27T19:05:00+00:00 Tea - - import"])
    let document = sandbox.file("events.json", sandbox.run("events", "--json").stdout)
    let result = sandbox.run("import", document)
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        "line 1: expected a key in double quotes, found the end of the line; this looks like one JSON document (as 'routine events --json' prints): import reads JSON Lines, one event per line, as 'routine export --format jsonl' writes"
      ), "\(result.stderr)")
  }
}
