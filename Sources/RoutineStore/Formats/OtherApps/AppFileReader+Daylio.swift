import RoutineCore

// Daylio's daylio_export.csv: `full_date,date,weekday,time,mood,activities,note_title,note`,
// activities separated by ` | `. Each activity of an entry becomes an event at the entry's
// date and time; the mood and the notes are not imported.
extension AppFileReader {
  private static let daylioHeader = "full_date,date,weekday,time,mood,activities,note_title,note"

  func readDaylio(into records: inout AppRecords, _ summary: inout Summary) throws {
    var columns: (date: Int, time: Int, activities: Int)?
    var kinds: [String: EventKind] = [:]
    try forEachRow(&summary) { row, summary in
      guard let columns else {
        let names = HeaderColumns(row.texts())
        guard let date = names["full_date"], let time = names["time"],
          let activities = names["activities"]
        else {
          throw error(
            row.line,
            "expected a Daylio header '\(Self.daylioHeader)', found "
              + row.texts().joined(separator: ","))
        }
        columns = (date, time, activities)
        return
      }
      summary.records += 1
      let dateText = row.text(columns.date)
      guard let date = ClockScanner.date(dateText) else {
        try fail(
          error(
            row.line,
            "column 'full_date': expected a date such as 2026-03-04, found \(quoted(dateText))"),
          &summary)
        return
      }
      let timeText = row.text(columns.time)
      guard let time = ClockScanner.timeOfDay(timeText),
        let stamp = ClockReading(
          year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute,
          second: time.second
        ).timestamp(in: zone)
      else {
        try fail(
          error(
            row.line,
            "column 'time': expected a time such as 20:15 or 8:15 pm, found \(quoted(timeText))"),
          &summary)
        return
      }
      for name in row.text(columns.activities).split(separator: "|") {
        let trimmed = name.trimmingSpaces
        guard !trimmed.isEmpty else { continue }
        if let kind = kinds[trimmed] {
          records.event(kind, at: stamp)
        } else if let kind = EventKind(trimmed) {
          kinds[trimmed] = kind
          records.event(kind, at: stamp)
        }
      }
    }
  }
}
