import RoutineCore

// Fitbit's data export: a CSV of sections, each a title line (`Sleep`) then a header
// (`Start Time,End Time,Minutes Asleep,...`) and rows with times like `2026-03-04 11:12PM`;
// and Google Takeout's `sleep-YYYY-MM-DD.json`, an array of sleep logs with `startTime` and
// `endTime` like `2026-03-04T23:12:30.000`. Both are local times without an offset.
extension AppFileReader {
  func readFitbit(into records: inout AppRecords, _ summary: inout Summary) throws {
    let head = try ChunkedFile(path: path)
    _ = try head.fill()
    let first = head.unread.first {
      $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
    }
    if first == UInt8(ascii: "[") {
      try readFitbitJSON(into: &records, &summary)
    } else {
      try readFitbitCSV(into: &records, &summary)
    }
  }

  private static let fitbitHeader = "Start Time,End Time,Minutes Asleep,..."

  private func readFitbitCSV(into records: inout AppRecords, _ summary: inout Summary) throws {
    // nil: before any section; "": in a section other than Sleep (its rows skipped).
    var section: String?
    var columns: (start: Int, end: Int)?
    try forEachRow(&summary) { row, summary in
      let firstField = row.text(0)
      if row.count == 1, !firstField.isEmpty, firstField.first?.isNumber == false {
        section = firstField == "Sleep" ? "Sleep" : ""
        columns = nil
        return
      }
      if firstField == "Start Time" {
        let names = HeaderColumns(row.texts())
        guard let start = names["Start Time"], let end = names["End Time"] else {
          throw error(
            row.line,
            "expected a Fitbit sleep header '\(Self.fitbitHeader)', found no 'End Time' column")
        }
        if section == nil { section = "Sleep" }
        columns = section == "Sleep" ? (start, end) : nil
        return
      }
      if section == "" { return }
      guard let columns else {
        throw error(
          row.line,
          "expected a Fitbit sleep header '\(Self.fitbitHeader)' (after a line 'Sleep'), found "
            + quoted(firstField))
      }
      summary.records += 1
      func time(_ index: Int, _ label: String) throws -> Timestamp? {
        let text = row.text(index)
        guard let reading = ClockScanner.isoLike(text), let stamp = reading.timestamp(in: zone)
        else {
          try fail(
            error(
              row.line,
              "column '\(label)': expected a date and time such as 2026-03-04 11:12PM, found \(quoted(text))"
            ), &summary)
          return nil
        }
        return stamp
      }
      guard let start = try time(columns.start, "Start Time"),
        let end = try time(columns.end, "End Time")
      else { return }
      guard end.secondsSince1970 > start.secondsSince1970 else {
        try fail(error(row.line, "expected 'End Time' after 'Start Time'"), &summary)
        return
      }
      records.sleep(from: start, to: end)
    }
  }

  private func readFitbitJSON(into records: inout AppRecords, _ summary: inout Summary) throws {
    let (document, lines) = try readJSON()
    guard case .array(let logs) = document else {
      throw error(1, "expected a JSON array of Fitbit sleep logs")
    }
    var objectIndex = 0
    for log in logs {
      let line = objectIndex < lines.count ? lines[objectIndex] : 1
      objectIndex += Self.objectCount(log)
      summary.records += 1
      guard case .object = log else {
        try fail(error(line, "expected a sleep log object, found \(Self.shown(log))"), &summary)
        continue
      }
      func time(_ key: String) throws -> Timestamp? {
        guard case .string(let text)? = log[key], let reading = ClockScanner.isoLike(text),
          let stamp = reading.timestamp(in: zone)
        else {
          let found = Self.shown(log[key])
          try fail(
            error(
              line,
              "\"\(key)\": expected a date and time such as \"2026-03-04T23:12:30.000\", found \(found)"
            ), &summary)
          return nil
        }
        return stamp
      }
      guard let start = try time("startTime"), let end = try time("endTime") else { continue }
      guard end.secondsSince1970 > start.secondsSince1970 else {
        try fail(error(line, "expected \"endTime\" after \"startTime\""), &summary)
        continue
      }
      records.sleep(from: start, to: end)
    }
  }

  /// How many objects `value` holds, itself included (to follow ``objectLines(_:)``).
  static func objectCount(_ value: JSONValue) -> Int {
    switch value {
    case .object(let members): 1 + members.reduce(0) { $0 + objectCount($1.value) }
    case .array(let items): items.reduce(0) { $0 + objectCount($1) }
    default: 0
    }
  }
}
