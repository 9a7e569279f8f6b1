import RoutineCore

// The Health Auto Export app (github.com/Lybron/health-auto-export): its JSON export is
// `{"data": {"metrics": [...], "workouts": [{"name", "start", "end", ...}]}}` with dates like
// `2026-03-04 18:05:11 +0100`; its workouts CSV has the columns `Workout Type`, `Start` and `End`
// among others. A workout's minutes come from its start and end (the duration's unit has
// changed between versions; the span has not). Metrics are not imported.
extension AppFileReader {
  func readHealthAutoExport(into records: inout AppRecords, _ summary: inout Summary) throws {
    let head = try ChunkedFile(path: path)
    _ = try head.fill()
    let first = head.unread.first {
      $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
    }
    if first == UInt8(ascii: "{") {
      try readHealthAutoExportJSON(into: &records, &summary)
    } else {
      try readHealthAutoExportCSV(into: &records, &summary)
    }
  }

  /// The start and end of a workout, or the message saying what was wrong with `label`.
  private func span(_ start: String, _ end: String, labels: (String, String)) -> Result<
    (Timestamp, Timestamp), FormatMessage
  > {
    var stamps: [Timestamp] = []
    for (text, label) in [(start, labels.0), (end, labels.1)] {
      guard let reading = ClockScanner.isoLike(text), let stamp = reading.timestamp(in: zone) else {
        return .failure(
          FormatMessage(
            "\(label): expected a date and time such as 2026-03-04 18:05:11 +0100, found \(quoted(text))"
          ))
      }
      stamps.append(stamp)
    }
    guard stamps[1].secondsSince1970 >= stamps[0].secondsSince1970 else {
      return .failure(FormatMessage("expected \(labels.1) at or after \(labels.0)"))
    }
    return .success((stamps[0], stamps[1]))
  }

  private func readHealthAutoExportCSV(
    into records: inout AppRecords, _ summary: inout Summary
  ) throws {
    var columns: (type: Int, start: Int, end: Int)?
    try forEachRow(&summary) { row, summary in
      guard let columns else {
        let names = HeaderColumns(row.texts())
        guard let type = names["Workout Type"], let start = names["Start"], let end = names["End"]
        else {
          throw error(
            row.line,
            "expected a Health Auto Export workouts header with the columns 'Workout Type', 'Start' and 'End', found "
              + row.texts().prefix(8).joined(separator: ","))
        }
        columns = (type, start, end)
        return
      }
      summary.records += 1
      let activity = row.text(columns.type).trimmingSpaces
      guard !activity.isEmpty else {
        try fail(
          error(row.line, "column 'Workout Type': expected a workout, found an empty field"),
          &summary)
        return
      }
      switch span(
        row.text(columns.start), row.text(columns.end), labels: ("column 'Start'", "column 'End'"))
      {
      case .failure(let problem): try fail(error(row.line, problem.text), &summary)
      case .success(let (start, end)): records.workout(activity, from: start, to: end)
      }
    }
  }

  private func readHealthAutoExportJSON(
    into records: inout AppRecords, _ summary: inout Summary
  ) throws {
    let (document, lines) = try readJSON()
    guard case .array(let workouts)? = document["data"]?["workouts"] else {
      throw error(1, "expected a Health Auto Export object {\"data\": {\"workouts\": [...]}}")
    }
    // Objects before the first workout, in document order: the root, "data", the metrics.
    var objectIndex = 2
    if let data = document["data"], case .object(let members) = data {
      for member in members {
        if member.key == "workouts" { break }
        objectIndex += Self.objectCount(member.value)
      }
    }
    for workout in workouts {
      let line = objectIndex < lines.count ? lines[objectIndex] : 1
      objectIndex += Self.objectCount(workout)
      summary.records += 1
      guard case .string(let name)? = workout["name"], !name.trimmingSpaces.isEmpty else {
        try fail(
          error(
            line,
            "\"name\": expected the workout's name, found \(Self.shown(workout["name"]))"
          ), &summary)
        continue
      }
      guard case .string(let start)? = workout["start"], case .string(let end)? = workout["end"]
      else {
        try fail(
          error(line, "expected \"start\" and \"end\" dates such as \"2026-03-04 18:05:11 +0100\""),
          &summary)
        continue
      }
      switch span(start, end, labels: ("\"start\"", "\"end\"")) {
      case .failure(let problem): try fail(error(line, problem.text), &summary)
      case .success(let (from, to)): records.workout(name.trimmingSpaces, from: from, to: to)
      }
    }
  }
}

/// A message for a ``FormatError`` whose line the caller knows.
struct FormatMessage: Error {
  var text: String

  init(_ text: String) {
    self.text = text
  }
}
