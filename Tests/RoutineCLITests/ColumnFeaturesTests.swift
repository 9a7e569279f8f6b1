import Foundation
import Testing

/// `--columns` beyond one column per field: a fixed kind, a session's start and end, a declared
/// date pattern, thousands separators, a preamble, a repeated header and JSON arrays.
struct ColumnFeaturesTests {
  /// The events of the sandbox's store as `timestamp event value note` lines.
  func events(_ sandbox: Sandbox) -> [String] {
    let list = sandbox.run("events", "--json").json["events"] as? [[String: Any]] ?? []
    return list.map { event in
      [
        event["timestamp"] as? String ?? "", event["event"] as? String ?? "",
        (event["value"] as? Double).map { "\($0)" } ?? "-", event["note"] as? String ?? "-",
      ].joined(separator: " ")
    }
  }

  @Test func aFixedKindAndNoteGoToEveryRow() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "rides.csv", "Date,Calories\n2026-03-04 18:10,410\n2026-03-05 18:20,380\n")
    let result = sandbox.run(
      "import", file, "--columns",
      "timestamp=Date,event='Cycling',value=Calories,note='from the bike computer'",
      "--assume-zone", "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      events(sandbox) == [
        "2026-03-04T18:10:00+01:00 Cycling 410.0 from the bike computer",
        "2026-03-05T18:20:00+01:00 Cycling 380.0 from the bike computer",
      ])
  }

  @Test func aSessionBecomesTwoEventsWithTheirKinds() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "sleep.csv",
      "Start Time,End Time,Minutes Asleep\n2026-03-04 23:12,2026-03-05 07:02,440\n")
    let night = sandbox.run(
      "import", file, "--columns", "start=Start Time,end=End Time,value=Minutes Asleep",
      "--assume-zone", "Europe/Berlin")
    #expect(night.status == 0, "\(night.stderr)")
    #expect(night.stdout.contains("2 events read, 2 added"), "\(night.stdout)")
    #expect(
      events(sandbox) == [
        "2026-03-04T23:12:00+01:00 Bed Time 440.0 -", "2026-03-05T07:02:00+01:00 Wake Up - -",
      ])
    let naps = Sandbox()
    let nap = naps.file("naps.csv", "From,To\n2026-03-07 13:10,2026-03-07 13:40\n")
    let named = naps.run(
      "import", nap, "--columns", "start=From:'Nap Start',end=To:'Nap End'", "--assume-zone",
      "Europe/Berlin")
    #expect(named.status == 0, "\(named.stderr)")
    #expect(
      events(naps) == [
        "2026-03-07T13:10:00+01:00 Nap Start - -", "2026-03-07T13:40:00+01:00 Nap End - -",
      ])
  }

  /// One date and two times: a night's end before its start is the next morning, on the wall
  /// clock (across the spring change too: 07:00 stays 07:00).
  @Test func aNightWrittenWithOneDateEndsTheNextMorning() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "nights.csv",
      "Date,From,To\n2026-03-09,23:30,07:00\n2026-03-28,23:00,07:00\n2026-03-10,13:00,13:30\n")
    let result = sandbox.run(
      "import", file, "--columns", "start=Date+From,end=Date+To", "--assume-zone",
      "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      events(sandbox) == [
        "2026-03-09T23:30:00+01:00 Bed Time - -", "2026-03-10T07:00:00+01:00 Wake Up - -",
        "2026-03-10T13:00:00+01:00 Bed Time - -", "2026-03-10T13:30:00+01:00 Wake Up - -",
        "2026-03-28T23:00:00+01:00 Bed Time - -", "2026-03-29T07:00:00+02:00 Wake Up - -",
      ])
  }

  @Test func anEndBeforeItsStartIsNamed() {
    let sandbox = Sandbox()
    let file = sandbox.file("sleep.csv", "From,To\n2026-03-05 07:00,2026-03-04 23:00\n")
    let result = sandbox.run(
      "import", file, "--columns", "start=From,end=To", "--assume-zone", "Europe/Berlin")
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "error: '\(file)' line 2: column 'To': expected the end at or after the start (2026-03-05T07:00:00+01:00), found 2026-03-04T23:00:00+01:00\n"
    )
  }

  @Test(arguments: [
    (
      "start=From",
      "--columns: a session needs both start and end (start=From,end=To), found no end"
    ),
    (
      "start=From,end=To,event=Kind",
      "--columns: start and end replace timestamp and event: each row gives a start event and an end event, their kinds after ':' (start=From:'Bed Time',end=To:'Wake Up'); found event"
    ),
    (
      "timestamp=Date,event=Kind:'Tea'",
      "--columns: only start and end take a kind after ':' (start=From:'Bed Time'); found event"
    ),
    (
      "timestamp='Now',event=Kind",
      "--columns: only event and note take a fixed text in single quotes; timestamp names a column (timestamp=Header)"
    ),
    ("timestamp=Date,event='Tea", "--columns: expected a closing \"'\" after 'Tea"),
    (
      "timestamp=Date",
      "--columns: expected the fields timestamp and event, found no event (event=Header reads a column, event='Kind' gives every row that kind)"
    ),
  ])
  func aBadMapIsAUsageError(map: String, message: String) {
    let sandbox = Sandbox()
    let file = sandbox.file("a.csv", "Date,Kind\n2026-03-04 07:00,Tea\n")
    let result = sandbox.run("import", file, "--columns", map)
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("error: \(message)"), "\(result.stderr)")
  }

  @Test func aDeclaredDatePatternReadsWhatTheUsualFormsDoNot() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "sleep.csv", "Von,Bis\n04. 03. 2026 23:30,05. 03. 2026 07:10\n")
    let result = sandbox.run(
      "import", file, "--columns", "start=Von,end=Bis", "--date-format", "dd. MM. yyyy HH:mm",
      "--assume-zone", "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      events(sandbox) == [
        "2026-03-04T23:30:00+01:00 Bed Time - -", "2026-03-05T07:10:00+01:00 Wake Up - -",
      ])
    let bad = sandbox.file("bad.csv", "Von,Bis\n2026-03-04 23:30,05. 03. 2026 07:10\n")
    let refused = sandbox.run(
      "import", bad, "--columns", "start=Von,end=Bis", "--date-format", "dd. MM. yyyy HH:mm",
      "--assume-zone", "Europe/Berlin")
    #expect(refused.status == 65)
    #expect(
      refused.stderr
        == "error: '\(bad)' line 2: column 'Von': expected a date and time in the pattern 'dd. MM. yyyy HH:mm' (--date-format), found '2026-03-04 23:30'\n"
    )
    let pattern = sandbox.run("import", file, "--date-format", "dd.MM.yy")
    #expect(pattern.status == 64)
    #expect(
      pattern.stderr.hasPrefix(
        "error: --date-format: 'yy' is not a pattern field; expected yyyy"), "\(pattern.stderr)")
  }

  @Test func aDatePatternReadsADateAndATimeColumnJoined() {
    let sandbox = Sandbox()
    let file = sandbox.file("log.csv", "Day,Clock,What\n3/4/2026,7:05 pm,Tea\n")
    let result = sandbox.run(
      "import", file, "--columns", "timestamp=Day+Clock,event=What", "--date-format",
      "M/d/yyyy h:mm a", "--assume-zone", "America/New_York")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(events(sandbox) == ["2026-03-04T19:05:00-05:00 Tea - -"])
  }

  @Test func thousandsSeparatorsAreReadOnlyWhenDeclared() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "rides.csv", "Date,Calories\n2026-03-04 18:10,\"1,250\"\n2026-03-05 18:20,980\n")
    let columns = "timestamp=Date,event='Cycling',value=Calories"
    let undeclared = sandbox.run(
      "import", file, "--columns", columns, "--assume-zone", "Europe/Berlin")
    #expect(undeclared.status == 65)
    #expect(
      undeclared.stderr
        == "error: '\(file)' line 2: column 'Calories': expected a number, found '1,250'; write decimals with a point (1.5), or declare the thousands separator (--thousands ,)\n"
    )
    let declared = sandbox.run(
      "import", file, "--columns", columns, "--assume-zone", "Europe/Berlin", "--thousands", ",")
    #expect(declared.status == 0, "\(declared.stderr)")
    #expect(
      events(sandbox) == [
        "2026-03-04T18:10:00+01:00 Cycling 1250.0 -", "2026-03-05T18:20:00+01:00 Cycling 980.0 -",
      ])
    let bad = sandbox.file("bad.csv", "Date,Calories\n2026-03-06 18:10,\"1,25\"\n")
    let misplaced = sandbox.run(
      "import", bad, "--columns", columns, "--assume-zone", "Europe/Berlin", "--thousands", ",")
    #expect(misplaced.status == 65)
    #expect(
      misplaced.stderr
        == "error: '\(bad)' line 2: column 'Calories': expected a number with ',' between thousands (1,250), found '1,25'\n"
    )
    #expect(sandbox.run("import", file, "--thousands", ";").status == 64)
  }

  @Test func aPreambleIsSkippedAndARepeatedHeaderIsNoRecord() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "sleep.csv",
      """
      Sleep
      Start Time,End Time
      2026-03-04 23:12,2026-03-05 07:02
      Start Time,End Time
      2026-03-05 23:30,2026-03-06 06:50

      """)
    let columns = "start=Start Time,end=End Time"
    let title = sandbox.run("import", file, "--columns", columns, "--assume-zone", "Europe/Berlin")
    #expect(title.status == 65)
    #expect(
      title.stderr
        == "error: '\(file)' line 1: expected a column 'Start Time' (--columns names it), found 'Sleep'; if this line is a title before the header, --skip-lines 1 skips it\n"
    )
    let result = sandbox.run(
      "import", file, "--columns", columns, "--assume-zone", "Europe/Berlin", "--skip-lines", "1")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("4 events read, 4 added"), "\(result.stdout)")
    #expect(events(sandbox).count == 4)
    // Routine's own header repeated (two exports concatenated) is skipped too.
    let own = sandbox.file(
      "own.csv",
      "timestamp,event\n2026-03-07T08:00:00+01:00,Tea\ntimestamp,event\n2026-03-08T08:00:00+01:00,Tea\n"
    )
    let joined = sandbox.run("import", own)
    #expect(joined.status == 0, "\(joined.stderr)")
    #expect(joined.stdout.contains("2 events read, 2 added"), "\(joined.stdout)")
  }

  @Test func aJSONArrayIsReadThroughItsKeys() {
    let sandbox = Sandbox()
    let file = sandbox.file(
      "sleep-2026-03-04.json",
      """
      [
        {"dateOfSleep": "2026-03-05", "startTime": "2026-03-04T23:12:30.000",
         "endTime": "2026-03-05T07:02:30.000", "minutesAsleep": 440,
         "levels": {"summary": {"deep": {"minutes": 80}}}},
        {"dateOfSleep": "2026-03-06", "startTime": "2026-03-05T23:30:00.000",
         "endTime": "2026-03-06T06:50:00.000", "minutesAsleep": "1,010"}
      ]

      """)
    let result = sandbox.run(
      "import", file, "--columns", "start=startTime,end=endTime,value=minutesAsleep",
      "--date-format", "yyyy-MM-dd'T'HH:mm:ss.SSS", "--thousands", ",", "--assume-zone",
      "Europe/Berlin")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      events(sandbox) == [
        "2026-03-04T23:12:30+01:00 Bed Time 440.0 -", "2026-03-05T07:02:30+01:00 Wake Up - -",
        "2026-03-05T23:30:00+01:00 Bed Time 1010.0 -", "2026-03-06T06:50:00+01:00 Wake Up - -",
      ])
    // Without --columns, routine's own keys.
    let own = sandbox.file(
      "own.json", "[{\"timestamp\": \"2026-03-07T08:00:00+01:00\", \"event\": \"Tea\"}]")
    #expect(sandbox.run("import", own).status == 0)
    // Errors name the line the object starts on and its key.
    let bad = sandbox.file(
      "bad.json",
      "[\n {\"start\": \"2026-03-04T23:00\", \"end\": \"2026-03-05T07:00\"},\n {\"start\": \"soon\", \"end\": \"2026-03-06T07:00\"}\n]\n"
    )
    let refused = sandbox.run(
      "import", bad, "--columns", "start=start,end=end", "--assume-zone", "Europe/Berlin")
    #expect(refused.status == 65)
    #expect(refused.stderr.hasPrefix("error: '\(bad)' line 3: key 'start': "), "\(refused.stderr)")
    let open = sandbox.file(
      "open.json", "[{\"timestamp\": \"2026-03-07T08:00:00+01:00\", \"event\": \"Tea\"}")
    let unclosed = sandbox.run("import", open)
    #expect(unclosed.status == 65)
    #expect(
      unclosed.stderr
        == "error: '\(open)' line 1: expected the array to end with ']', found the end of the file\n"
    )
  }
}
