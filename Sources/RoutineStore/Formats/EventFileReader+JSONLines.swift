import RoutineCore

// JSON Lines: one object per line.
extension EventFileReader {
  // MARK: JSON Lines

  /// What a JSON Lines scan carries from one region to the next.
  struct JSONState {
    var parser = JSONLineParser()
    var timestamps: TimestampParser
    var loose: LooseDateTime
    var line = 1

    init(zone: Zone?, order: DateOrder?) {
      timestamps = TimestampParser(assumingZone: zone)
      loose = LooseDateTime(order: order, zone: zone)
    }

    func deallocate() { parser.deallocate() }
  }

  /// Scans JSON Lines records until `stop`; returns whether the scan ended between records.
  func scanJSONL<Sink: RecordSink>(
    _ file: ChunkedFile, _ state: inout JSONState, until stop: Stop, into sink: inout Sink
  ) throws -> Bool {
    while true {
      let atEnd = file.isAtEnd && stop != .endOfRegion
      let window = file.unread
      var offset = 0
      while let (content, next) = window.line(from: offset, atEnd: atEnd) {
        offset = next
        defer { state.line += 1 }
        if trim(content).isEmpty { continue }
        switch state.parser.parse(content) {
        case .failure(var message):
          if state.line == 1, trim(content).elementsEqual([UInt8(ascii: "{")]) {
            message +=
              "; this looks like one JSON document (as 'routine events --json' prints): import "
              + "reads JSON Lines, one event per line, as 'routine export --format jsonl' writes"
          } else if let hint = Self.foreignFormat(trim(content)) {
            message += "; \(hint)"
          } else if ![UInt8(ascii: "{"), UInt8(ascii: "[")].contains(trim(content).first ?? 0) {
            message +=
              "; this does not look like JSON Lines: is it CSV? "
              + (format == .jsonl
                ? "(--format jsonl was given)" : "(--format csv reads it as CSV)")
          }
          try fail(FormatError(file: path, line: state.line, message: message), &sink)
        case .success(let fields):
          var timestamp: Timestamp
          if let parsed = state.timestamps.parse(fields.timestamp) {
            timestamp = parsed
          } else {
            switch state.loose.parse(fields.timestamp) {
            case .success(let parsed): timestamp = parsed
            case .failure(let problem):
              let message = looseProblem(
                problem, date: fields.timestamp, time: nil, dateLabel: nil, timeLabel: nil,
                field: " for \"timestamp\"")
              try fail(FormatError(file: path, line: state.line, message: message), &sink)
              continue
            }
          }
          let kind = trim(fields.event)
          if let problem = checkText(kind: kind, note: fields.note) {
            try fail(FormatError(file: path, line: state.line, message: problem), &sink)
            continue
          }
          try deliver(
            RawRecord(
              line: state.line, timestamp: timestamp, kind: kind, value: fields.value,
              note: fields.note, source: fields.source),
            to: &sink)
        }
      }
      file.start += offset
      if file.isAtEnd && (atEnd || stop == .endOfRegion) { return file.unread.isEmpty }
      try fill(file, line: state.line)
    }
  }
}
