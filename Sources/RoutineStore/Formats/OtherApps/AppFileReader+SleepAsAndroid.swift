import RoutineCore

// Sleep as Android's sleep-export.csv (docs.sleep.urbandroid.org/devs/csv.html): every record
// is a header line (`Id,Tz,From,To,Sched,Hours,...` then one column per actigraphy period), a
// line of values, and for tracked nights a line of noise levels. Each record's From and To are
// local times in its Tz.
extension AppFileReader {
  static let sleepAsAndroidHeader = "Id,Tz,From,To,Sched,Hours,Rating,Comment,..."

  func readSleepAsAndroid(into records: inout AppRecords, _ summary: inout Summary) throws {
    struct Columns {
      var tz: Int
      var from: Int
      var to: Int
    }
    var columns: Columns?
    // Whether the values of the current header's record have been read: what follows them,
    // up to the next header, is the noise line (or the events of newer versions), not a record.
    var recordRead = true
    var zones: [String: Zone] = [:]
    try forEachRow(&summary) { row, summary in
      if row.text(0) == "Id" {
        let names = HeaderColumns(row.texts())
        guard let tz = names["Tz"], let from = names["From"], let to = names["To"] else {
          throw error(
            row.line,
            "expected a Sleep as Android header line '\(Self.sleepAsAndroidHeader)', found no "
              + "\(names["Tz"] == nil ? "Tz" : names["From"] == nil ? "From" : "To") column")
        }
        columns = Columns(tz: tz, from: from, to: to)
        recordRead = false
        return
      }
      guard let columns else {
        throw error(
          row.line,
          "expected a Sleep as Android header line '\(Self.sleepAsAndroidHeader)', found "
            + "\(quoted(row.text(0)))")
      }
      if recordRead { return }
      recordRead = true
      summary.records += 1
      let name = row.text(columns.tz)
      let zone: Zone
      if let known = zones[name] {
        zone = known
      } else if let found = zoneNamed(name) {
        zones[name] = found
        zone = found
      } else {
        try fail(
          error(
            row.line,
            "column 'Tz': expected a time zone name such as Europe/Berlin, found \(quoted(name))"),
          &summary)
        return
      }
      func time(_ index: Int, _ label: String) throws -> Timestamp? {
        let text = row.text(index)
        guard let reading = ClockScanner.dottedDayFirst(text),
          let stamp = reading.timestamp(in: zone)
        else {
          try fail(
            error(
              row.line,
              "column '\(label)': expected a date and time such as 04. 03. 2026 23:30, found \(quoted(text))"
            ), &summary)
          return nil
        }
        return stamp
      }
      guard let start = try time(columns.from, "From"), let end = try time(columns.to, "To") else {
        return
      }
      guard end.secondsSince1970 > start.secondsSince1970 else {
        try fail(
          error(
            row.line,
            "expected 'To' after 'From', found \(row.text(columns.from)) to \(row.text(columns.to))"
          ),
          &summary)
        return
      }
      records.sleep(from: start, to: end)
    }
  }
}

/// `'text'`, for messages (long texts cut), or "an empty field".
func quoted(_ text: String) -> String {
  if text.isEmpty { return "an empty field" }
  let shown = text.count > 60 ? text.prefix(60) + "..." : Substring(text)
  return "'\(shown)'"
}
