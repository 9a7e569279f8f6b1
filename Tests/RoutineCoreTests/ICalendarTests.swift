import Foundation
import RoutineCore
import Testing

/// The physical lines of a document, without their CRLF.
private func lines(_ writer: ICalendarWriter) -> [String] {
  var text = writer.text
  #expect(text.hasSuffix("\r\n"))
  text.removeLast()
  return text.components(separatedBy: "\r\n")
}

/// The content lines of a document, unfolded (RFC 5545, 3.1), on bytes: a fold may come before
/// a combining character, which as a `String` would merge with the fold's space.
private func unfolded(_ writer: ICalendarWriter) -> [String] {
  var result: [[UInt8]] = []
  for line in writer.bytes.split(separator: 0x0A) {
    let content = Array(line.dropLast())  // the CR
    if content.first == 0x20 {
      result[result.count - 1] += content.dropFirst()
    } else {
      result.append(content)
    }
  }
  return result.map { String(decoding: $0, as: UTF8.self) }
}

/// The VEVENTs of a document, each as its content lines (sub-components included).
private func events(_ writer: ICalendarWriter) -> [[String]] {
  var result: [[String]] = []
  var current: [String]?
  for line in unfolded(writer) {
    if line == "BEGIN:VEVENT" { current = [] }
    if line == "END:VEVENT", let event = current {
      result.append(event)
      current = nil
    } else if line != "BEGIN:VEVENT" {
      current?.append(line)
    }
  }
  return result
}

/// Checks BEGIN/END nesting and the properties RFC 5545 requires.
private func expectValidStructure(_ writer: ICalendarWriter) {
  var stack: [String] = []
  var properties: [[String]] = []
  for line in unfolded(writer) {
    if line.hasPrefix("BEGIN:") {
      stack.append(String(line.dropFirst(6)))
      properties.append([])
    } else if line.hasPrefix("END:") {
      #expect(stack.last == String(line.dropFirst(4)), "\(line) closes \(stack)")
      let name = stack.removeLast()
      let names = properties.removeLast()
      let required: [String]
      switch name {
      case "VCALENDAR": required = ["VERSION", "PRODID"]
      case "VEVENT": required = ["UID", "DTSTAMP", "DTSTART"]
      case "VALARM": required = ["ACTION", "TRIGGER", "DESCRIPTION"]
      case "VTIMEZONE": required = ["TZID"]
      case "STANDARD", "DAYLIGHT": required = ["DTSTART", "TZOFFSETFROM", "TZOFFSETTO"]
      default: required = []
      }
      for property in required {
        #expect(names.contains(property), "\(name) lacks \(property)")
      }
    } else {
      let name = line.prefix { $0 != ":" && $0 != ";" }
      #expect(!stack.isEmpty, "\(line) outside VCALENDAR")
      if !properties.isEmpty { properties[properties.count - 1].append(String(name)) }
    }
  }
  #expect(stack.isEmpty)
}

private func request(
  _ id: String, _ trigger: Trigger, title: String = "Pills", body: String = "Take them.",
  origin: RequestOrigin = .reminder, isAlarm: Bool = false
) -> NotificationRequest {
  NotificationRequest(
    id: id, origin: origin, category: .reminder, title: title, body: body, trigger: trigger,
    metadata: RequestMetadata(eventKind: title, isAlarm: isAlarm))
}

private func daily(_ hour: Int, _ minute: Int) -> Trigger {
  .calendar(CalendarTrigger(hour: hour, minute: minute))
}

@Suite struct ICalendarWriterTests {
  @Test func textValuesEscapeBackslashSemicolonCommaAndLineBreaks() {
    #expect(ICalendarWriter.escaped(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
    #expect(ICalendarWriter.escaped("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
    #expect(ICalendarWriter.escaped("tab\tstays") == "tab\tstays")
    #expect(
      ICalendarWriter.escaped("bell\u{07}esc\u{1B}del\u{7F}")
        == "bell\u{FFFD}esc\u{FFFD}del\u{FFFD}")
    #expect(ICalendarWriter.escaped("Kaffee ☕️ café") == "Kaffee ☕️ café")
  }

  @Test func parameterValuesAreQuotedWhenTheyHoldSeparators() {
    #expect(ICalendarWriter.parameterValue("Europe/Berlin") == "Europe/Berlin")
    #expect(
      ICalendarWriter.parameterValue("CET-1CEST,M3.5.0,M10.5.0/3")
        == "\"CET-1CEST,M3.5.0,M10.5.0/3\"")
    #expect(ICalendarWriter.parameterValue("a\"b:c") == "\"a'b:c\"")
  }

  @Test(arguments: ["a", "é", "☕️", "𝄞", "👩‍👩‍👧‍👦"])
  func linesFoldAt75OctetsWithoutSplittingACharacter(_ unit: String) {
    for count in [1, 30, 74, 75, 76, 200, 2000] {
      var writer = ICalendarWriter()
      let text = String(repeating: unit, count: count)
      writer.text("SUMMARY", text)
      // Each physical line decodes on its own: no UTF-8 sequence was cut.
      let physical = writer.bytes.split(separator: 0x0A).map { Array($0.dropLast()) }
      for line in physical {
        #expect(line.count <= 75)
        #expect(String(validating: line, as: UTF8.self) != nil)
      }
      for line in lines(writer) {
        #expect(line.utf8.count <= 75)
        // Each physical line decodes on its own: no UTF-8 sequence was cut.
      }
      #expect(unfolded(writer) == ["SUMMARY:" + text])
    }
  }

  @Test func everyLineEndsInCRLF() {
    let export = ICalendarExport(
      zone: zone("Europe/Berlin"), now: stamp("2026-03-01T12:00Z").secondsSince1970,
      from: stamp("2026-03-01T12:00Z").secondsSince1970)
    let bytes = export.document(for: [request("r", daily(2, 30), body: "two\nlines")]).bytes
    for (index, byte) in bytes.enumerated() {
      if byte == 0x0A { #expect(index > 0 && bytes[index - 1] == 0x0D) }
      if byte == 0x0D { #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A) }
    }
    #expect(bytes.suffix(2) == [0x0D, 0x0A])
  }

  @Test func timesOffsetsAndDurationsAreWrittenAsRFC5545Says() {
    #expect(ICalendarTime.utc(stamp("2026-03-29T01:30Z").secondsSince1970) == "20260329T013000Z")
    #expect(ICalendarTime.local(-1) == "19691231T235959")
    #expect(ICalendarTime.offset(3600) == "+0100")
    #expect(ICalendarTime.offset(-34_200) == "-0930")
    #expect(ICalendarTime.offset(45_900 + 12) == "+124512")
    #expect(ICalendarTime.duration(seconds: 300) == "PT5M")
    #expect(ICalendarTime.duration(seconds: 0) == "PT0S")
    #expect(ICalendarTime.duration(seconds: 3725) == "PT1H2M5S")
  }
}

@Suite struct ICalendarExportTests {
  let now = stamp("2026-03-01T12:00:00+01:00").secondsSince1970

  @Test func rulesSayWhatTheTriggersDo() {
    #expect(ICalendarExport.rule(CalendarTrigger(hour: 7, minute: 0)) == "FREQ=DAILY")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: .everyDay, hour: 7, minute: 0))
        == "FREQ=DAILY")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: .weekdays, hour: 7, minute: 0))
        == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: WeekdaySet([1, 7]), hour: 7, minute: 0))
        == "FREQ=WEEKLY;BYDAY=SA,SU")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: .none, dayOfMonth: 31, hour: 9, minute: 0))
        == "FREQ=MONTHLY;BYMONTHDAY=-1")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: .none, dayOfMonth: 30, hour: 9, minute: 0))
        == "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1")
    #expect(
      ICalendarExport.rule(CalendarTrigger(weekdays: .none, dayOfMonth: 15, hour: 9, minute: 0))
        == "FREQ=MONTHLY;BYMONTHDAY=15")
    #expect(
      ICalendarExport.rule(
        CalendarTrigger(weekdays: WeekdaySet([2]), dayOfMonth: 30, hour: 9, minute: 0))
        == nil)
  }

  /// The override's RECURRENCE-ID is the instant RFC 5545 reads the gap's 02:30 as (with the
  /// offset before the gap), in UTC, since libical reads a wall-clock 02:30 there with the offset
  /// after it; its DTSTART the end of the gap, in UTC.
  @Test(arguments: [
    ("Europe/Berlin", 2, 30, "20260329T013000Z", "20260329T010000Z", 3),
    ("America/New_York", 2, 30, "20260308T073000Z", "20260308T070000Z", 2),
    ("Australia/Lord_Howe", 2, 15, "20261003T154500Z", "20261003T153000Z", 2),
  ])
  func aTimeInAGapGetsAnOverrideAtTheEndOfTheGap(
    _ name: String, _ hour: Int, _ minute: Int, _ nominal: String, _ fires: String,
    _ count: Int
  ) {
    let zone = zone(name)
    let export = ICalendarExport(
      zone: zone, now: now, from: now, to: now + 366 * 86_400)
    let document = export.document(for: [request("r", daily(hour, minute))])
    expectValidStructure(document)
    let all = events(document)
    // Berlin's 02:30 also exists twice in October: a second override.
    #expect(all.count == count)
    #expect(all.first?.contains("RRULE:FREQ=DAILY;COUNT=366") == true)
    let override = all.first { $0.contains("RECURRENCE-ID:\(nominal)") } ?? []
    #expect(override.contains("DTSTART:\(fires)"))
    #expect(override.contains("UID:r@routine"))
    #expect(override.contains("SUMMARY:Pills"))
  }

  /// libical and khal read a repeated wall-clock time as the second of the two: an override
  /// named by the wall-clock time (each reader finds its own recurrence by it) starts at the
  /// first, in UTC.
  @Test(arguments: [
    ("Europe/Berlin", "TZID=Europe/Berlin:20261025T024500", "20261025T004500Z"),
    ("America/New_York", "TZID=America/New_York:20261101T013000", "20261101T053000Z"),
    ("Asia/Kolkata", nil, nil),
  ])
  func aTimeThatRepeatsGetsAnOverrideAtTheFirstOfTheTwo(
    _ name: String, _ nominal: String?, _ fires: String?
  ) {
    let export = ICalendarExport(zone: zone(name), now: now, from: now, to: now + 366 * 86_400)
    // 01:30 repeats in New York, 02:45 in Berlin (where it is also in the spring gap); 02:45 is
    // in New York's gap.
    let document = export.document(for: [
      request("a", daily(1, 30)), request("b", daily(2, 45), title: "Other"),
    ])
    let overrides = events(document).filter { $0.contains { $0.hasPrefix("RECURRENCE-ID") } }
    #expect(overrides.count == (nominal == nil ? 0 : 2), "\(name)")
    if let nominal, let fires {
      let repeated = overrides.first { $0.contains("RECURRENCE-ID;\(nominal)") }
      #expect(repeated?.contains("DTSTART:\(fires)") == true, "\(overrides)")
    }
  }

  @Test func aOneTimeFiringAtARepeatedTimeIsWrittenInUTC() {
    let zone = zone("Europe/Berlin")
    // 02:30 on 2026-10-25 fires at the first of the two, 02:30 CEST: 00:30 UTC.
    let trigger = Trigger.local(
      LocalDate(year: 2026, month: 10, day: 25)!, TimeOfDay(parsing: "02:30")!)
    let export = ICalendarExport(zone: zone, now: now, from: now, to: now + 366 * 86_400)
    let document = export.document(for: [request("once", trigger)]).text
    #expect(document.contains("DTSTART:20261025T003000Z\r\n"))
    // A day later, the same time exists once: a wall-clock time.
    let later = Trigger.local(
      LocalDate(year: 2026, month: 10, day: 26)!, TimeOfDay(parsing: "02:30")!)
    let other = export.document(for: [request("once", later)]).text
    #expect(other.contains("DTSTART;TZID=Europe/Berlin:20261026T023000\r\n"))
  }

  @Test func overridesReachTheHorizonWithoutAnEnd() {
    let export = ICalendarExport(zone: zone("Europe/Berlin"), now: now, from: now)
    let document = export.document(for: [request("r", daily(2, 30))])
    let all = events(document)
    #expect(all.first?.contains("RRULE:FREQ=DAILY") == true)
    // 2026 to 2030, and March 2031 is past the five years from 2026-03-01.
    // A gap and a repeated hour each year.
    let ids = all.compactMap { $0.first { $0.hasPrefix("RECURRENCE-ID") } }
    #expect(
      ids.map { String($0.split(separator: ":").last!.prefix(4)) }
        == ["2026", "2026", "2027", "2027", "2028", "2028", "2029", "2029", "2030", "2030"])
  }

  @Test func skippedFiringsAreExdatesOnTheirWallClockTime() {
    let zone = zone("Europe/Berlin")
    let trigger = daily(7, 0)
    let firings = trigger.firings(from: now, to: now + 3 * 86_400, in: zone)
    let export = ICalendarExport(
      zone: zone, now: now, from: now, to: now + 30 * 86_400, excluded: ["r": [firings[1]]])
    let event = events(export.document(for: [request("r", trigger)]))[0]
    #expect(event.contains("EXDATE;TZID=Europe/Berlin:20260303T070000"))
    #expect(event.contains("RRULE:FREQ=DAILY;COUNT=30"))
  }

  @Test func oneTimeTriggersAreSingleEventsAtTheTimeTheyFire() {
    let zone = zone("Europe/Berlin")
    let export = ICalendarExport(zone: zone, now: now, from: now)
    let document = export.document(for: [
      request("gap", .local(date(2026, 3, 29), TimeOfDay(hour: 2, minute: 15)!)),
      request("instant", .date(stamp("2026-04-01T10:00Z").secondsSince1970)),
      request("past", .local(date(2026, 2, 1), TimeOfDay(hour: 9, minute: 0)!)),
      request("snooze", .date(now + 300), origin: .snooze),
    ])
    let all = events(document)
    #expect(all.count == 2)
    #expect(all[0].contains("DTSTART;TZID=Europe/Berlin:20260329T030000"))
    #expect(all[1].contains("DTSTART:20260401T100000Z"))
    #expect(all.allSatisfy { !$0.contains { $0.hasPrefix("RRULE") } })
  }

  @Test func alarmsRingAgainAndUIDsStayTheSameAcrossExports() {
    let zone = zone("America/New_York")
    let requests = [
      request("alarm", daily(6, 0), isAlarm: true), request("routine_Tea", daily(16, 0)),
    ]
    let first = ICalendarExport(zone: zone, now: now, from: now).document(for: requests)
    let later = ICalendarExport(zone: zone, now: now + 3600, from: now).document(for: requests)
    let alarm = events(first)[0]
    #expect(alarm.contains("REPEAT:\(Reminder.alarmRepeats)"))
    #expect(alarm.contains("DURATION:PT\(Reminder.alarmInterval)M"))
    // Only DTSTAMP differs.
    let differing = zip(unfolded(first), unfolded(later)).filter { $0 != $1 }
    #expect(!differing.isEmpty && differing.allSatisfy { $0.0.hasPrefix("DTSTAMP:") })
    #expect(
      unfolded(first).filter { $0.hasPrefix("UID:") } == [
        "UID:alarm@routine", "UID:routine_Tea@routine",
      ])
  }

  @Test func hostileTextStaysInsideItsProperty() {
    let title = String(repeating: "é;,\\\n\u{1B}[31m👩‍👩‍👧‍👦", count: 500)
    let export = ICalendarExport(zone: zone("Europe/Berlin"), now: now, from: now)
    let document = export.document(for: [request("r", daily(7, 0), title: title, body: title)])
    expectValidStructure(document)
    #expect(
      document.bytes.split(separator: 0x0A).allSatisfy { $0.count <= 76 && !$0.contains(0x1B) })
    #expect(
      unfolded(document).filter { $0.hasPrefix("SUMMARY:") } == [
        "SUMMARY:" + ICalendarWriter.escaped(title)
      ])
  }

  @Test func aZoneFromAPosixRuleIsQuotedAndCarriesItsYearlyRules() {
    let text = "CET-1CEST,M3.5.0,M10.5.0/3"
    let zone = Zone(posixRule: PosixZoneRule(text)!, text: text)
    let export = ICalendarExport(zone: zone, now: now, from: now, to: now + 40 * 86_400)
    let document = export.document(for: [request("r", daily(2, 30))])
    expectValidStructure(document)
    let content = unfolded(document)
    #expect(content.contains("TZID:\(ICalendarWriter.escaped(text))"))
    #expect(content.contains("DTSTART;TZID=\"\(text)\":20260302T023000"))
    #expect(content.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))
    #expect(content.contains("RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"))
    #expect(content.contains("DTSTART:20261025T030000"))
  }

  @Test func utcIsWrittenInUTCWithoutATimeZone() {
    let export = ICalendarExport(zone: .utc, now: now, from: now)
    let content = unfolded(export.document(for: [request("r", daily(7, 0))]))
    #expect(!content.contains("BEGIN:VTIMEZONE"))
    #expect(content.contains("DTSTART:20260302T070000Z"))
  }
}

@Suite struct VTimeZoneTests {
  /// The onsets a VTIMEZONE lists (DTSTART and RDATE of each observance, in UTC by its
  /// TZOFFSETFROM), with the offset after each.
  private func onsets(_ writer: ICalendarWriter) -> [(Int64, Int64)] {
    var result: [(Int64, Int64)] = []
    var locals: [Int64] = []
    var from: Int64 = 0
    func seconds(_ text: Substring) -> Int64 {
      let sign: Int64 = text.hasPrefix("-") ? -1 : 1
      let digits = Array(text.dropFirst())
      let hours = Int64(String(digits[0..<2]))!
      let minutes = Int64(String(digits[2..<4]))!
      return sign * (hours * 3600 + minutes * 60)
    }
    func local(_ text: Substring) -> Int64 {
      let characters = Array(text)
      func number(_ range: Range<Int>) -> Int { Int(String(characters[range]))! }
      let day = date(number(0..<4), number(4..<6), number(6..<8))
      return Int64(day.daysSince1970) * 86_400 + Int64(number(9..<11) * 3600 + number(11..<13) * 60)
    }
    for line in unfolded(writer) {
      if line.hasPrefix("DTSTART:") || line.hasPrefix("RDATE:") {
        locals.append(local(line.split(separator: ":")[1]))
      } else if line.hasPrefix("TZOFFSETFROM:") {
        from = seconds(line.split(separator: ":")[1])
      } else if line.hasPrefix("TZOFFSETTO:") {
        let to = seconds(line.split(separator: ":")[1])
        result += locals.map { ($0 - from, to) }
        locals = []
      }
    }
    return result.sorted { $0.0 < $1.0 }
  }

  @Test(arguments: [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham",
    "America/Sao_Paulo", "Australia/Sydney",
  ])
  func theComponentListsEveryChangeOfTheRange(_ name: String) {
    let zone = zone(name)
    let from = stamp("2026-01-01T00:00Z").secondsSince1970
    let to = stamp("2028-01-01T00:00Z").secondsSince1970
    var writer = ICalendarWriter()
    VTimeZone.write(
      zone, from: from, to: to, transitions: zone.transitions(from: from - 400 * 86_400, to: to),
      into: &writer)
    expectValidStructure(writer)
    let listed = onsets(writer)
    // Foundation's transitions, found independently; each listed with the offset after it.
    let expected = transitions2026And2027(in: zone)
    #expect(listed.map(\.0).filter { $0 > from } == expected, "\(name)")
    for (at, offset) in listed where at > from {
      #expect(zone.offset(at: at) == offset && zone.offset(at: at - 1) != offset, "\(name)")
    }
    // The observance in effect at the start is there, with the offset of the start.
    let opening = listed.last { $0.0 <= from }
    #expect(opening?.1 == zone.offset(at: from), "\(name)")
  }
}
