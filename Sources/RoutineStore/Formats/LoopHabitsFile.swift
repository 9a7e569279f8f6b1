import RoutineCore

/// Loop Habit Tracker's CSV export (docs/formats.md, "Loop Habit Tracker"): `Checkmarks.csv`,
/// a column of dates and one column per habit, and `Habits.csv`, the habits.
///
/// Loop writes a checkmark per habit and day: 2 done (`YES_MANUAL`), 1 not done but not due
/// either (`YES_AUTO`, its frequency allowed a rest), 0 not done, -1 unknown, 3 (or -3 in later
/// versions) skipped. Only 2 is a day done: 1 is Loop's own inference, not something the person
/// did. Dates are days (`2026-03-04`) without a time; they become ``DayMark``s, never events.
/// The files are a few thousand lines (a row per day): they are read whole.
public enum LoopHabitsFile {
  /// Which of Loop's files.
  public enum Kind: Sendable, Equatable {
    /// `Checkmarks.csv`: the days.
    case checkmarks
    /// `Habits.csv`: the habits.
    case habits
  }

  /// What `Checkmarks.csv` holds.
  public struct Checkmarks: Sendable {
    /// The habits, in the file's order.
    public var habits: [EventKind] = []
    /// The days done (value 2), one per habit and date.
    public var marks: [DayMark] = []
    /// Rows (days) read.
    public var days = 0
    /// Checkmarks that are not a day done (0, 1, -1, 3, -3), left out.
    public var notDone = 0
    /// Days done before the first date asked for, left out.
    public var beforeFirstDate = 0
    /// Invalid rows skipped (when asked to skip them).
    public var skipped: [FormatError] = []
  }

  /// One habit of `Habits.csv`.
  public struct HabitRow: Sendable, Equatable {
    /// The line it is on.
    public var line: Int
    /// Its name.
    public var name: EventKind
    /// Loop's frequency: `repetitions` times in `interval` days (1 in 1: daily).
    public var repetitions: Int
    /// The days of the frequency.
    public var interval: Int
  }

  /// The largest Loop file read: 64 MiB (a row a day for a century is about 3 MiB per 10 habits).
  static let maximumBytes = 64 << 20

  /// Which of Loop's files `path` is, from its header and first rows; `nil` when neither.
  /// Standard input is not looked at (reading it would consume it): `--format loop` names it.
  public static func detect(_ path: String) -> Kind? {
    guard path != "-", let file = try? ChunkedFile(path: path), (try? file.fill()) != nil else {
      return nil
    }
    var head = Array(file.unread.prefix(64 << 10))
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { head.removeFirst(3) }
    // A row cut by the prefix is dropped: only whole lines are judged.
    if let lastBreak = head.lastIndex(of: 0x0A), file.unread.count > head.count {
      head.removeSubrange((lastBreak + 1)...)
    }
    guard let records = try? SimpleCSV.records(head), let header = records.first else {
      return nil
    }
    let names = header.fields.map { $0.lowercased() }
    if names.first == "position", names.contains("name"),
      names.contains("interval") || names.contains("frequencydenominator")
    {
      return .habits
    }
    let columns = trailingTrimmed(header.fields)
    guard names.first == "date", columns.count >= 2, records.count >= 2 else { return nil }
    for record in records.dropFirst().prefix(50) {
      guard parseDate(record.fields[0]) != nil else { return nil }
      for field in record.fields.dropFirst() where !field.isEmpty {
        guard Value(field) != nil else { return nil }
      }
    }
    return .checkmarks
  }

  /// A checkmark's value.
  enum Value: Int {
    case skippedLater = -3
    case unknown = -1
    case notDone = 0
    case notDue = 1
    case done = 2
    case skipped = 3

    init?(_ text: String) {
      guard let number = Int(text) else { return nil }
      self.init(rawValue: number)
    }
  }

  /// Reads `Checkmarks.csv` at `path`: the days done from `firstDate` on (all when `nil`).
  /// Throws ``FormatError`` for a row that is not a date and checkmarks (unless `skipsInvalid`:
  /// then the row is skipped and listed), and `FileError` when the file cannot be read.
  public static func readCheckmarks(
    _ path: String, from firstDate: LocalDate? = nil, skipsInvalid: Bool = false
  ) throws -> Checkmarks {
    let records = try SimpleCSV.records(readAll(path), path: path)
    guard let header = records.first else { return Checkmarks() }
    let names = trailingTrimmed(header.fields)
    guard names.first?.lowercased() == "date", names.count >= 2 else {
      throw FormatError(
        file: path, line: header.line,
        message:
          "expected Loop Habit Tracker's Checkmarks.csv header 'Date,' and the habits' names, found '\(header.fields.joined(separator: ","))'"
      )
    }
    var result = Checkmarks()
    for (index, name) in names.enumerated().dropFirst() {
      guard let kind = EventKind(name) else {
        throw FormatError(
          file: path, line: header.line,
          message: "column \(index + 1): expected a habit's name, found '\(name)'")
      }
      result.habits.append(kind)
    }
    var seen = Set<DayMark>()
    rows: for record in records.dropFirst() {
      func fail(_ message: String) throws {
        let error = FormatError(file: path, line: record.line, message: message)
        guard skipsInvalid else { throw error }
        result.skipped.append(error)
      }
      guard let date = parseDate(record.fields[0]) else {
        try fail("expected a date such as 2026-03-04, found '\(record.fields[0])'")
        continue
      }
      let extra = record.fields.dropFirst(names.count)
      if extra.contains(where: { !$0.isEmpty }) {
        try fail(
          "expected \(names.count) columns (Date and the habits), found \(record.fields.count)")
        continue
      }
      var marks: [DayMark] = []
      var notDone = 0
      for (index, field) in record.fields.enumerated().dropFirst().prefix(names.count - 1) {
        guard !field.isEmpty else { continue }
        guard let value = Value(field) else {
          try fail(
            "column '\(names[index])': expected a Loop checkmark (2 done; 0 not done, 1 not due, -1 unknown, 3 skipped), found '\(field)'"
          )
          continue rows
        }
        if value == .done {
          marks.append(DayMark(kind: result.habits[index - 1], date: date))
        } else {
          notDone += 1
        }
      }
      result.days += 1
      result.notDone += notDone
      for mark in marks {
        if let firstDate, mark.date < firstDate {
          result.beforeFirstDate += 1
        } else if seen.insert(mark).inserted {
          result.marks.append(mark)
        }
      }
    }
    return result
  }

  /// Reads `Habits.csv` at `path`: each habit's name and frequency, in the file's order.
  public static func readHabits(_ path: String) throws -> [HabitRow] {
    let records = try SimpleCSV.records(readAll(path), path: path)
    guard let header = records.first else { return [] }
    let names = header.fields.map { $0.lowercased() }
    guard let nameColumn = names.firstIndex(of: "name") else {
      throw FormatError(
        file: path, line: header.line,
        message:
          "expected Loop Habit Tracker's Habits.csv header (Position,Name,...), found '\(header.fields.joined(separator: ","))'"
      )
    }
    let repetitionsColumn =
      names.firstIndex(of: "numrepetitions") ?? names.firstIndex(of: "frequencynumerator")
    let intervalColumn =
      names.firstIndex(of: "interval") ?? names.firstIndex(of: "frequencydenominator")
    var result: [HabitRow] = []
    for record in records.dropFirst() {
      func number(_ column: Int?) throws -> Int {
        guard let column, column < record.fields.count, !record.fields[column].isEmpty else {
          return 1
        }
        guard let value = Int(record.fields[column]), value >= 1 else {
          throw FormatError(
            file: path, line: record.line,
            message:
              "column '\(header.fields[column])': expected a whole number of at least 1, found '\(record.fields[column])'"
          )
        }
        return value
      }
      let text = nameColumn < record.fields.count ? record.fields[nameColumn] : ""
      guard let name = EventKind(text) else {
        throw FormatError(
          file: path, line: record.line,
          message: "column '\(header.fields[nameColumn])': expected a habit's name, found '\(text)'"
        )
      }
      result.append(
        HabitRow(
          line: record.line, name: name,
          repetitions: try number(repetitionsColumn),
          interval: try number(intervalColumn)))
    }
    return result
  }

  /// `2026-03-04`, as Loop writes dates.
  static func parseDate(_ text: String) -> LocalDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  /// Loop ends every line with a comma: the empty names after the last habit are no habits.
  private static func trailingTrimmed(_ fields: [String]) -> [String] {
    var fields = fields
    while fields.last?.isEmpty == true { fields.removeLast() }
    return fields
  }

  /// The whole file (at most ``maximumBytes``), without a byte order mark.
  private static func readAll(_ path: String) throws -> [UInt8] {
    let file = try ChunkedFile(path: path)
    var bytes: [UInt8] = []
    while true {
      let more = try file.fill()
      bytes.append(contentsOf: file.unread)
      file.start = file.end
      guard bytes.count <= maximumBytes else {
        throw FormatError(
          file: path, line: 1,
          message:
            "expected a Loop Habit Tracker CSV file of at most 64 MiB, found a longer one; is it one?"
        )
      }
      if !more { break }
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    return bytes
  }
}

/// RFC 4180 records of a small file read whole, as strings (fields trimmed unless quoted).
enum SimpleCSV {
  /// One record: the line it starts on and its fields.
  struct Record {
    var line: Int
    var fields: [String]
  }

  /// The records of `bytes`, blank lines skipped. Throws ``FormatError`` for a quote left open,
  /// or text after a closing quote.
  static func records(_ bytes: [UInt8], path: String = "") throws -> [Record] {
    var records: [Record] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var isQuoted = false
    var line = 1
    var recordLine = 1
    var index = 0
    let quote = UInt8(ascii: "\"")
    func endField() throws {
      let text = String(decoding: field, as: UTF8.self)
      fields.append(isQuoted ? text : text.trimmed(of: " \t"))
      field.removeAll(keepingCapacity: true)
      isQuoted = false
    }
    func endRecord() throws {
      let wasQuoted = isQuoted
      try endField()
      if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) {
        records.append(Record(line: recordLine, fields: fields))
      }
      fields.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == quote, field.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        field.removeAll()
        isQuoted = true
        index += 1
        while true {
          guard index < bytes.count else {
            throw FormatError(
              file: path, line: recordLine,
              message: "expected a closing double quote, found the end of the file")
          }
          let inner = bytes[index]
          index += 1
          if inner == quote {
            if index < bytes.count, bytes[index] == quote {
              field.append(quote)
              index += 1
              continue
            }
            break
          }
          if inner == 0x0A { line += 1 }
          field.append(inner)
        }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        if index < bytes.count, ![UInt8(ascii: ","), 0x0A, 0x0D].contains(bytes[index]) {
          throw FormatError(
            file: path, line: recordLine,
            message:
              "expected a comma or the end of the line after a closing double quote, found '\(Character(UnicodeScalar(bytes[index])))'"
          )
        }
        continue
      }
      switch byte {
      case UInt8(ascii: ","):
        try endField()
      case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
        break
      case 0x0A:
        try endRecord()
        line += 1
        recordLine = line
      default:
        field.append(byte)
      }
      index += 1
    }
    if !field.isEmpty || !fields.isEmpty || isQuoted { try endRecord() }
    return records
  }
}

extension String {
  /// Without leading and trailing `characters`.
  fileprivate func trimmed(of characters: String) -> String {
    var text = Substring(self)
    while let first = text.first, characters.contains(first) { text.removeFirst() }
    while let last = text.last, characters.contains(last) { text.removeLast() }
    return String(text)
  }
}
