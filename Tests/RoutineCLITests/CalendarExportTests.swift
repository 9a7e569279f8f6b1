import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// A real iCalendar parser: Python's `icalendar` with `recurring_ical_events` (`.ci/run`
/// installs them), and an expansion of RFC 5545 as written (dateutil's RRULE on wall-clock
/// times, a time in a gap read with the offset before it, PEP 495's `fold=0`).
enum CalendarParser {
  static let isAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import icalendar, recurring_ical_events, dateutil"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  static let skipReason: Comment =
    "skipped: no iCalendar parser (pip install icalendar recurring-ical-events; .ci/run does)"

  /// Expands `ics` over `from..<to` with both readers and compares each with the firings of
  /// `agenda --json` that are not skipped. Returns the script's status and its report.
  static func compare(ics: String, agenda: String, from: String, to: String) throws -> (
    Int32, String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, ics, agenda, from, to]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static let script = #"""
    import sys, json, datetime, zoneinfo
    import icalendar, recurring_ical_events
    from dateutil import rrule

    UTC = datetime.timezone.utc

    def aware(prop):
        value = prop.dt
        if not isinstance(value, datetime.datetime) or value.tzinfo is None:
            raise SystemExit('a floating or all-day time: %r' % (value,))
        tzid = prop.params.get('TZID')
        return value.replace(tzinfo=zoneinfo.ZoneInfo(tzid), fold=0) if tzid else value

    def dates(event, name):
        found = event.get(name)
        groups = found if isinstance(found, list) else ([found] if found is not None else [])
        return [d.dt.replace(tzinfo=None) for group in groups for d in group.dts]

    def strict(cal, lo, hi):
        masters, overrides = {}, {}
        for event in cal.walk('VEVENT'):
            uid = str(event['UID'])
            if 'RECURRENCE-ID' in event:
                overrides.setdefault(uid, {})[aware(event['RECURRENCE-ID']).astimezone(UTC)] = event
            else:
                if uid in masters: raise SystemExit('two events with UID ' + uid)
                masters[uid] = event
        result = []
        for uid, event in masters.items():
            start = aware(event['DTSTART'])
            zone, naive = start.tzinfo, start.replace(tzinfo=None)
            if 'RRULE' in event:
                rule = rrule.rrulestr(event['RRULE'].to_ical().decode(), dtstart=naive)
                end = hi.astimezone(UTC).replace(tzinfo=None) + datetime.timedelta(days=2)
                locals_ = [d for d in rule.between(naive, end, inc=True)]
            else:
                locals_ = [naive]
            locals_ += dates(event, 'RDATE')
            excluded = set(dates(event, 'EXDATE'))
            for local in locals_:
                if local in excluded: continue
                instant = local.replace(tzinfo=zone, fold=0).astimezone(UTC)
                chosen = overrides.get(uid, {}).get(instant)
                if chosen is not None:
                    instant = aware(chosen['DTSTART']).astimezone(UTC)
                if lo <= instant < hi:
                    result.append((int(instant.timestamp()), str((chosen or event)['SUMMARY'])))
        return result

    def library(cal, lo, hi):
        result = []
        for event in recurring_ical_events.of(cal).between(lo, hi):
            start = event['DTSTART'].dt
            if start.tzinfo is None: raise SystemExit('a floating time')
            if lo <= start < hi:
                result.append((int(start.timestamp()), str(event['SUMMARY'])))
        return result

    ics, agenda, start, end = sys.argv[1:5]
    cal = icalendar.Calendar.from_ical(open(ics, 'rb').read())
    lo, hi = datetime.datetime.fromisoformat(start), datetime.datetime.fromisoformat(end)
    want = sorted((int(datetime.datetime.fromisoformat(i['at']).timestamp()), i['title'])
                  for i in json.load(open(agenda))['items'] if i['skipped'] is None)
    status = 0
    for name, expand in [('recurring_ical_events', library), ('rfc5545', strict)]:
        got = sorted(expand(cal, lo, hi))
        if got != want:
            g, w = set(got), set(want)
            print(json.dumps({'parser': name, 'missing': sorted(w - g)[:5],
                              'extra': sorted(g - w)[:5], 'got': len(got), 'want': len(want)}))
            status = 1
    print('%d firings' % len(want))
    sys.exit(status)
    """#
}

/// A zone with the wall-clock times its changes skip and repeat, and a year to export.
struct CalendarZoneCase: Sendable, CustomStringConvertible {
  var zone: String
  var gap: String
  var repeated: String
  var now: String

  var description: String { zone }
}

@Suite(.enabled(if: CalendarParser.isAvailable, CalendarParser.skipReason))
struct CalendarExportParserTests {
  static let cases = [
    CalendarZoneCase(
      zone: "Europe/Berlin", gap: "02:30", repeated: "02:30", now: "2026-01-10T12:00:00+01:00"),
    CalendarZoneCase(
      zone: "America/New_York", gap: "02:30", repeated: "01:30",
      now: "2026-01-10T12:00:00-05:00"),
    CalendarZoneCase(
      zone: "Australia/Lord_Howe", gap: "02:15", repeated: "01:45",
      now: "2026-01-10T12:00:00+11:00"),
    CalendarZoneCase(
      zone: "Asia/Kolkata", gap: "02:30", repeated: "01:30", now: "2026-01-10T12:00:00+05:30"),
    CalendarZoneCase(
      zone: "Pacific/Chatham", gap: "03:00", repeated: "03:00", now: "2026-01-10T12:00:00+13:45"),
    CalendarZoneCase(
      zone: "Australia/Sydney", gap: "02:30", repeated: "02:30", now: "2026-01-10T12:00:00+11:00"),
    // Daylight-saving time until 2019, changing at midnight.
    CalendarZoneCase(
      zone: "America/Sao_Paulo", gap: "00:30", repeated: "23:30",
      now: "2018-06-10T12:00:00-03:00"),
  ]

  /// A store in `zone` with learned requests, reminders of every kind at the times its changes
  /// skip and repeat, and a cancellation.
  static func store(_ zoneCase: CalendarZoneCase) -> Sandbox {
    let sandbox = Sandbox(now: zoneCase.now, zone: zoneCase.zone)
    #expect(sandbox.run("settings", "--time-zone", zoneCase.zone).status == 0)
    let today = String(zoneCase.now.prefix(10))
    // Three weeks of a morning routine and a night one, for the planner.
    let first = LocalDate(
      year: Int(today.prefix(4))!, month: Int(today.dropFirst(5).prefix(2))!,
      day: Int(today.dropFirst(8).prefix(2))!)!
    for back in 1...21 {
      let day = first.adding(days: -back)
      #expect(sandbox.run("log", "Wake Up", "--at", "\(day) 07:0\(back % 5)").status == 0)
      #expect(sandbox.run("log", "Night Pills", "--at", "\(day) \(zoneCase.gap)").status == 0)
    }
    let plan = sandbox.run("plan")
    #expect(plan.status == 0, "\(plan.stderr)")
    let oneTimeDay = "\(first.components.year)-\(first.components.month < 6 ? "03" : "10")-15"
    for arguments in [
      ["--text", "Gap pills", "--at", zoneCase.gap],
      ["--text", "Repeat check", "--at", zoneCase.repeated, "--style", "alarm"],
      ["--text", "Gym, then stretch", "--at", "18:00", "--days", "mon,wed,fri"],
      ["--text", "Rent", "--at", "09:00", "--day", "31"],
      ["--text", "Bills", "--at", "09:00", "--day", "30"],
      ["--text", "Once", "--at", "\(oneTimeDay) 10:00"],
      ["--activity", "workout", "--at", "20:00", "--days", "daily"],
    ] {
      let added = sandbox.run(["reminders", "add"] + arguments)
      #expect(added.status == 0, "\(arguments): \(added.stderr)")
    }
    #expect(sandbox.run("tasks", "add", "Taxes", "--due", "\(oneTimeDay) 17:00").status == 0)
    #expect(sandbox.run("reminders", "add", "--task", "Taxes", "--before", "1d").status == 0)
    // A workout logged now cancels the workout reminder's next firing: an EXDATE.
    #expect(sandbox.run("log", "Workout").status == 0)
    return sandbox
  }

  @Test(arguments: cases)
  func theCalendarExpandsToTheAgendaOverAYear(_ zoneCase: CalendarZoneCase) throws {
    let sandbox = Self.store(zoneCase)
    let from = zoneCase.now
    // A year on, at local midnight (written with its offset for the parser).
    let today = String(from.prefix(10))
    let end = LocalDate(
      year: Int(today.prefix(4))! + 1, month: Int(today.dropFirst(5).prefix(2))!,
      day: Int(today.dropFirst(8).prefix(2))!)!
    let probe = Date(timeIntervalSince1970: Double(end.daysSince1970) * 86_400)
    let offset = Int64(TimeZone(identifier: zoneCase.zone)!.secondsFromGMT(for: probe))
    let to = Timestamp(
      secondsSince1970: Int64(end.daysSince1970) * 86_400 - offset,
      utcOffsetSeconds: Int32(offset)
    ).iso8601
    let agenda = sandbox.run("agenda", "--from", from, "--to", to, "--json")
    #expect(agenda.status == 0, "\(agenda.stderr)")
    let agendaPath = sandbox.file("agenda.json", agenda.stdout)
    // Skipped firings are in the agenda, marked: the cancellation must be one of them.
    #expect(agenda.stdout.contains(#""skipped": "Workout logged"#))
    for bounded in [true, false] {
      let path = sandbox.directory.appendingPathComponent("routine-\(bounded).ics").path
      let export = sandbox.run(
        ["export", "--format", "ics", "--out", path, "--from", from]
          + (bounded ? ["--to", to] : []))
      #expect(export.status == 0, "\(export.stderr)")
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.contains("EXDATE;TZID=\(zoneCase.zone):"), "\(zoneCase.zone)")
      #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:\(zoneCase.zone)\r\n"))
      if zoneCase.zone != "Asia/Kolkata" {
        #expect(text.contains("RECURRENCE-ID;TZID=\(zoneCase.zone):"), "\(zoneCase.zone)")
      }
      let (status, report) = try CalendarParser.compare(
        ics: path, agenda: agendaPath, from: from, to: to)
      #expect(status == 0, "\(zoneCase.zone) bounded: \(bounded): \(report)")
    }
  }
}

@Suite struct CalendarExportCommandTests {
  @Test func outWritesAPrivateFileAndRefusesTheStore() throws {
    let sandbox = Sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Tea", "--at", "16:00").status == 0)
    let path = sandbox.directory.appendingPathComponent("cal.ics").path
    #expect(sandbox.run("export", "--out", path).status == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(text.contains("SUMMARY:Tea\r\n"))

    let refused = sandbox.run("export", "--format", "ics", "--out", sandbox.storePath)
    #expect(refused.status == 64)
    #expect(refused.stderr.contains("is the store"))
    let backwards = sandbox.run("export", "--format", "ics", "--from", "tomorrow", "--to", "today")
    #expect(backwards.status == 64)
  }

  @Test func reExportingKeepsEveryUIDAndOnlyTheStampChanges() {
    let sandbox = Sandbox()
    #expect(sandbox.run("reminders", "add", "--text", "Tea", "--at", "16:00").status == 0)
    #expect(
      sandbox.run("reminders", "add", "--activity", "workout", "--days", "mon-fri").status == 0)
    let first = sandbox.run("export", "--format", "ics", "--from", "2026-05-01").stdout
    sandbox.variables["ROUTINE_NOW"] = "2026-04-27T09:30:00+02:00"
    let second = sandbox.run("export", "--format", "ics", "--from", "2026-05-01").stdout
    let firstLines = first.components(separatedBy: "\r\n")
    let secondLines = second.components(separatedBy: "\r\n")
    #expect(firstLines.count == secondLines.count)
    let differing = zip(firstLines, secondLines).filter { $0 != $1 }
    #expect(!differing.isEmpty && differing.allSatisfy { $0.0.hasPrefix("DTSTAMP:") })
    #expect(firstLines.filter { $0.hasPrefix("UID:") }.count == 6)
  }

  @Test func anEmptyStoreIsAnEmptyCalendar() {
    let sandbox = Sandbox()
    let result = sandbox.run("export", "--format", "ics")
    #expect(result.status == 0)
    #expect(!result.stdout.contains("BEGIN:VEVENT"))
    #expect(result.stdout.hasSuffix("END:VCALENDAR\r\n"))
  }
}
