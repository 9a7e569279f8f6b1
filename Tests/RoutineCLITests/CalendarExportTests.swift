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
    try runPython("python3", script: script, [ics, agenda, from, to])
  }

  /// Runs `script` with `python` (a path, or a name looked up in `PATH`) and returns its status
  /// and its output.
  static func runPython(_ python: String, script: String, _ arguments: [String]) throws -> (
    Int32, String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, "-c", script] + arguments
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

    def dates(event, name, zone):
        found = event.get(name)
        groups = found if isinstance(found, list) else ([found] if found is not None else [])
        # A UTC value names an instant: as a wall-clock time in the event's zone.
        return [d.dt.astimezone(zone).replace(tzinfo=None) if d.dt.tzinfo == UTC
                else d.dt.replace(tzinfo=None) for group in groups for d in group.dts]

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
            locals_ += dates(event, 'RDATE', zone)
            excluded = set(dates(event, 'EXDATE', zone))
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

/// libical, the library of Evolution and GNOME Calendar, through its GObject bindings (Debian's
/// `gir1.2-ical-3.0` and `python3-gi`, for the system's Python): its RRULE iterator, its reading
/// of each TZID (the calendar's VTIMEZONE), and overrides matched to their recurrence as
/// Evolution's expansion matches them, by instant.
enum LibicalReader {
  static let python = "/usr/bin/python3"

  static let isAvailable: Bool = {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [
      "-c", "import gi; gi.require_version('ICalGLib', '3.0'); from gi.repository import ICalGLib",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  static let skipReason: Comment =
    "skipped: libical's GObject bindings are missing (apt install gir1.2-ical-3.0 python3-gi; .ci/run does)"

  /// The file's firings in `from..<to` as libical expands them, compared with the agenda's.
  static func compare(ics: String, agenda: String, from: String, to: String, zone: String)
    throws -> (Int32, String)
  {
    try CalendarParser.runPython(python, script: script, [ics, agenda, from, to, zone])
  }

  static let script = #"""
    import sys, json, datetime, gi
    gi.require_version('ICalGLib', '3.0')
    from gi.repository import ICalGLib as I

    UTC = I.Timezone.get_utc_timezone()

    def stamp(t):
        u = t.clone()
        u.convert_to_zone_inplace(UTC)
        return u.as_timet()

    def zoned(cal, prop, t):
        # As icalcomponent_get_dtstart: the TZID names the calendar's VTIMEZONE (else a built-in).
        if t.is_utc(): return t
        param = prop.get_first_parameter(I.ParameterKind.TZID_PARAMETER)
        if param is None: raise SystemExit('a floating time: ' + t.as_ical_string())
        zone = cal.get_timezone(param.get_tzid()) or I.Timezone.get_builtin_timezone(param.get_tzid())
        if zone is None: raise SystemExit('an unknown TZID: ' + param.get_tzid())
        t = t.clone()
        t.set_timezone(zone)
        return t

    def each(comp, kind):
        p = comp.get_first_property(kind)
        while p:
            yield p
            p = comp.get_next_property(kind)

    def expand(cal, lo, hi):
        masters, overrides = {}, {}
        event = cal.get_first_component(I.ComponentKind.VEVENT_COMPONENT)
        while event:
            uid = event.get_uid()
            rid = event.get_first_property(I.PropertyKind.RECURRENCEID_PROPERTY)
            if rid:
                overrides.setdefault(uid, {})[stamp(zoned(cal, rid, rid.get_recurrenceid()))] = event
            elif uid in masters:
                raise SystemExit('two events with UID ' + uid)
            else:
                masters[uid] = event
            event = cal.get_next_component(I.ComponentKind.VEVENT_COMPONENT)
        result = []
        for uid, event in masters.items():
            start = zoned(cal, event.get_first_property(I.PropertyKind.DTSTART_PROPERTY),
                          event.get_dtstart())
            instants = []
            rule = event.get_first_property(I.PropertyKind.RRULE_PROPERTY)
            if rule:
                iterator = I.RecurIterator.new(rule.get_rrule(), start)
                t = iterator.next()
                while t and not t.is_null_time() and stamp(t) < hi + 2 * 86400:
                    instants.append(stamp(t))
                    t = iterator.next()
            else:
                instants.append(stamp(start))
            instants += [stamp(zoned(cal, p, p.get_rdate().get_time()))
                         for p in each(event, I.PropertyKind.RDATE_PROPERTY)]
            excluded = {stamp(zoned(cal, p, p.get_exdate()))
                        for p in each(event, I.PropertyKind.EXDATE_PROPERTY)}
            for instant in instants:
                if instant in excluded: continue
                chosen = overrides.get(uid, {}).get(instant)
                if chosen is not None:
                    instant = stamp(zoned(cal, chosen.get_first_property(
                        I.PropertyKind.DTSTART_PROPERTY), chosen.get_dtstart()))
                if lo <= instant < hi:
                    result.append((instant, (chosen or event).get_summary()))
        return result

    ics, agenda, start, end = sys.argv[1:5]
    cal = I.Component.new_from_string(open(ics, encoding='utf-8').read())
    lo = int(datetime.datetime.fromisoformat(start).timestamp())
    hi = int(datetime.datetime.fromisoformat(end).timestamp())
    want = sorted((int(datetime.datetime.fromisoformat(i['at']).timestamp()), i['title'])
                  for i in json.load(open(agenda))['items'] if i['skipped'] is None)
    got = sorted(expand(cal, lo, hi))
    # libical's RRULE iterator (3.0.16) carries the spring change's shift to the next recurrence:
    # a daily 02:30 that fires in the gap shows at 03:30 the day after as well (docs/calendar.md).
    # No override can fix it for libical without adding an event for every other reader, so
    # exactly that difference is allowed: a firing shown later by at most the change, within
    # two days after a spring change, and nothing else.
    import zoneinfo
    zone = zoneinfo.ZoneInfo(sys.argv[5])
    def offset(instant):
        return datetime.datetime.fromtimestamp(instant, zone).utcoffset().total_seconds()
    g, w = set(got), set(want)
    carried = set()
    for instant, title in sorted(w - g):
        change = offset(instant) - offset(instant - 2 * 86400)
        if 0 < change and (instant + int(change), title) in g - w:
            carried.add((instant, title))
    missing = sorted(w - g - carried)
    extra = sorted(g - w - {(i + int(offset(i) - offset(i - 2 * 86400)), t) for i, t in carried})
    if missing or extra:
        print(json.dumps({'parser': 'libical', 'missing': missing[:5], 'extra': extra[:5],
                          'got': len(got), 'want': len(want)}))
        sys.exit(1)
    print('%d firings, %d carried past a spring change' % (len(want), len(carried)))
    """#
}

/// khal, the terminal calendar (Debian's `khal`): the file imported into a calendar of a
/// configuration of its own, then `khal list` over the range, in UTC.
enum KhalReader {
  static let isAvailable = BrowserHarness.which("khal") != nil

  static let skipReason: Comment = "skipped: khal is missing (apt install khal; .ci/run does)"

  /// The file's firings in `from..<to` as khal lists them, compared with the agenda's.
  static func compare(ics: String, agenda: String, from: String, to: String, directory: URL)
    throws -> (Int32, String)
  {
    try CalendarParser.runPython(
      "python3", script: script,
      [ics, agenda, from, to, directory.path, BrowserHarness.which("khal")!])
  }

  static let script = #"""
    import sys, os, json, datetime, subprocess
    ics, agenda, start, end, directory, khal = sys.argv[1:7]
    home = os.path.join(directory, 'khal')
    os.makedirs(os.path.join(home, 'calendar'), exist_ok=True)
    config = os.path.join(home, 'config')
    with open(config, 'w') as f:
        f.write('\n'.join([
            '[calendars]', '[[routine]]', 'path = ' + os.path.join(home, 'calendar'),
            'type = calendar', '[locale]', 'timeformat = %H:%M', 'dateformat = %Y-%m-%d',
            'longdateformat = %Y-%m-%d', 'datetimeformat = %Y-%m-%dT%H:%M',
            'longdatetimeformat = %Y-%m-%dT%H:%M', 'local_timezone = UTC',
            'default_timezone = UTC', '[sqlite]', 'path = ' + os.path.join(home, 'khal.db'), '']))
    # Debian's khal with Debian's Python modules, not a newer icalendar in the user's site.
    env = dict(os.environ, PYTHONNOUSERSITE='1', HOME=home)
    subprocess.run([khal, '-c', config, 'import', '--batch', '-a', 'routine', ics], env=env,
                   check=True)
    lo, hi = datetime.datetime.fromisoformat(start), datetime.datetime.fromisoformat(end)
    UTC = datetime.timezone.utc
    day = lambda t: t.astimezone(UTC).strftime('%Y-%m-%d')
    listing = subprocess.run(
        [khal, '-c', config, 'list', '--format', '{start}\t{title}', '--day-format', '',
         day(lo - datetime.timedelta(days=1)), day(hi + datetime.timedelta(days=1))],
        env=env, check=True, capture_output=True, text=True).stdout
    got = []
    for line in listing.splitlines():
        if not line.strip(): continue
        when, title = line.split('\t', 1)
        instant = datetime.datetime.strptime(when, '%Y-%m-%dT%H:%M').replace(tzinfo=UTC)
        if lo <= instant < hi: got.append((int(instant.timestamp()), title))
    got.sort()
    want = sorted((int(datetime.datetime.fromisoformat(i['at']).timestamp()), i['title'])
                  for i in json.load(open(agenda))['items'] if i['skipped'] is None)
    if got != want:
        g, w = set(got), set(want)
        print(json.dumps({'parser': 'khal', 'missing': sorted(w - g)[:5],
                          'extra': sorted(g - w)[:5], 'got': len(got), 'want': len(want)}))
        sys.exit(1)
    print('%d firings' % len(want))
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

  /// The store of `zoneCase` exported over a year from its `now`, with and without `--to`,
  /// and its agenda over that year as JSON.
  struct Exported {
    var sandbox: Sandbox
    var from: String
    var to: String
    var agenda: String
    /// The file with `--to` (`true`) and the one without.
    var files: [(bounded: Bool, path: String)]
  }

  static func exported(_ zoneCase: CalendarZoneCase) throws -> Exported {
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
    var files: [(Bool, String)] = []
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
        // A gap's override is named in UTC, a repeated hour's by its wall-clock time.
        #expect(text.contains("RECURRENCE-ID;TZID=\(zoneCase.zone):"), "\(zoneCase.zone)")
        #expect(text.contains("RECURRENCE-ID:"), "\(zoneCase.zone)")
      }
      files.append((bounded, path))
    }
    return Exported(sandbox: sandbox, from: from, to: to, agenda: agendaPath, files: files)
  }

  @Test(arguments: cases)
  func theCalendarExpandsToTheAgendaOverAYear(_ zoneCase: CalendarZoneCase) throws {
    let exported = try Self.exported(zoneCase)
    for (bounded, path) in exported.files {
      let (status, report) = try CalendarParser.compare(
        ics: path, agenda: exported.agenda, from: exported.from, to: exported.to)
      #expect(status == 0, "\(zoneCase.zone) bounded: \(bounded): \(report)")
    }
  }

  /// libical (Evolution, GNOME Calendar) read the repeated hour's 02:30 as the second one and
  /// an explicit 02:30 in a gap an hour early (libical/libical#1402): the overrides must make
  /// it agree with the agenda all the same.
  @Test(.enabled(if: LibicalReader.isAvailable, LibicalReader.skipReason), arguments: cases)
  func libicalExpandsTheCalendarToTheAgenda(_ zoneCase: CalendarZoneCase) throws {
    let exported = try Self.exported(zoneCase)
    for (bounded, path) in exported.files {
      let (status, report) = try LibicalReader.compare(
        ics: path, agenda: exported.agenda, from: exported.from, to: exported.to,
        zone: zoneCase.zone)
      #expect(status == 0, "\(zoneCase.zone) bounded: \(bounded): \(report)")
    }
  }

  /// khal reads a repeated wall-clock time as the second of the two, as libical does.
  @Test(.enabled(if: KhalReader.isAvailable, KhalReader.skipReason), arguments: cases)
  func khalListsTheAgenda(_ zoneCase: CalendarZoneCase) throws {
    let exported = try Self.exported(zoneCase)
    for (bounded, path) in exported.files {
      let directory = exported.sandbox.directory.appendingPathComponent("khal-\(bounded)")
      let (status, report) = try KhalReader.compare(
        ics: path, agenda: exported.agenda, from: exported.from, to: exported.to,
        directory: directory)
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
