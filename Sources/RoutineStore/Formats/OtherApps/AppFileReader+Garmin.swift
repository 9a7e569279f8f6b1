import RoutineCore

// Garmin Connect's Activities.csv: `Activity Type,Date,Favorite,Title,Distance,Calories,Time,...`
// where Date is the local start (`2026-03-04 18:05:11`) and Time the duration (`01:02:03`).
// Only those three columns are read: the others (distances and calories with thousands
// separators, `--` for none) are left alone.
extension AppFileReader {
  private static let garminHeader = "Activity Type,Date,Favorite,Title,Distance,Calories,Time,..."

  func readGarmin(into records: inout AppRecords, _ summary: inout Summary) throws {
    var columns: (type: Int, date: Int, time: Int)?
    try forEachRow(&summary) { row, summary in
      guard let columns else {
        let names = HeaderColumns(row.texts())
        guard let type = names["Activity Type"], let date = names["Date"], let time = names["Time"]
        else {
          throw error(
            row.line,
            "expected a Garmin Connect header '\(Self.garminHeader)', found "
              + row.texts().prefix(8).joined(separator: ","))
        }
        columns = (type, date, time)
        return
      }
      summary.records += 1
      let activity = row.text(columns.type).trimmingSpaces
      guard !activity.isEmpty else {
        try fail(
          error(row.line, "column 'Activity Type': expected an activity, found an empty field"),
          &summary)
        return
      }
      let dateText = row.text(columns.date)
      guard let reading = ClockScanner.isoLike(dateText), let start = reading.timestamp(in: zone)
      else {
        try fail(
          error(
            row.line,
            "column 'Date': expected the start such as 2026-03-04 18:05:11, found \(quoted(dateText))"
          ),
          &summary)
        return
      }
      let timeText = row.text(columns.time)
      guard let seconds = ClockScanner.duration(timeText) else {
        try fail(
          error(
            row.line,
            "column 'Time': expected a duration such as 01:02:03 (hours, minutes, seconds), found \(quoted(timeText))"
          ), &summary)
        return
      }
      let end = Timestamp(
        secondsSince1970: start.secondsSince1970 + Int64(seconds.rounded()),
        utcOffsetSeconds: start.utcOffsetSeconds)
      records.workout(activity, from: start, to: end, minutes: seconds / 60)
    }
  }
}
