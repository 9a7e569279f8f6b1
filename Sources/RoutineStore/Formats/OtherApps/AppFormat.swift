/// The exports of other apps that `routine import` reads by name (docs/formats.md#other-apps).
///
/// The one list of them: a new format is a case here, its detection rule in ``detect(_:)``,
/// and its reader in ``AppFileReader``.
public enum AppFormat: String, Sendable, CaseIterable {
  /// Sleep as Android's `sleep-export.csv`: a header line before every record.
  case sleepAsAndroid = "sleep-as-android"
  /// Fitbit's sleep CSV (a first line `Sleep`) or a Google Takeout `sleep-YYYY-MM-DD.json`.
  case fitbit
  /// Garmin Connect's `Activities.csv`.
  case garmin
  /// The Health Auto Export app's workouts, as CSV or JSON.
  case healthAutoExport = "health-auto-export"
  /// Daylio's `daylio_export.csv`: each activity of an entry becomes an event.
  case daylio

  /// The app's name, for summaries.
  public var appName: String {
    switch self {
    case .sleepAsAndroid: "Sleep as Android"
    case .fitbit: "Fitbit"
    case .garmin: "Garmin Connect"
    case .healthAutoExport: "Health Auto Export"
    case .daylio: "Daylio"
    }
  }

  /// How many bytes of a file ``detect(_:)`` needs to see.
  public static let detectionBytes = 8192

  /// The format the first bytes of a file show (a byte order mark is skipped), or `nil` for
  /// anything else (routine's own CSV and JSON Lines among them). Each rule looks at the first
  /// line or the first keys only, so a file is recognised before any record is read:
  /// - `Id,Tz,From,To`: Sleep as Android;
  /// - `Sleep` alone, or `Start Time,End Time,Minutes Asleep`: Fitbit's CSV; a JSON array whose
  ///   first object has `logId` or `dateOfSleep`: Fitbit's JSON;
  /// - `Activity Type,Date,`: Garmin Connect;
  /// - a JSON object whose `data` holds `workouts`, or a header with `Workout Type`, `Start`
  ///   and `End`: Health Auto Export;
  /// - `full_date,date,weekday,time,mood,activities`: Daylio.
  public static func detect<Bytes: Collection>(_ head: Bytes) -> AppFormat?
  where Bytes.Element == UInt8 {
    var bytes = Array(head.prefix(detectionBytes))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let text = String(decoding: bytes, as: UTF8.self)
    let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    if trimmed.hasPrefix("[") {
      return trimmed.contains("\"logId\"") || trimmed.contains("\"dateOfSleep\"") ? .fitbit : nil
    }
    if trimmed.hasPrefix("{") {
      let compact = trimmed.filter { !$0.isWhitespace }
      return compact.hasPrefix("{\"data\":{") && compact.contains("\"workouts\":[")
        ? .healthAutoExport : nil
    }
    let firstLine = trimmed.prefix { $0 != "\n" && $0 != "\r" }
    let header = firstLine.replacingOccurrences(of: "\"", with: "")
    if header.hasPrefix("Id,Tz,From,To") { return .sleepAsAndroid }
    if header.trimmingSpaces == "Sleep" || header.hasPrefix("Start Time,End Time,Minutes Asleep") {
      return .fitbit
    }
    if header.hasPrefix("Activity Type,Date,") { return .garmin }
    if header.hasPrefix("full_date,date,weekday,time,mood,activities") { return .daylio }
    let names = header.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
    if names.contains("workout type"), names.contains("start"), names.contains("end") {
      return .healthAutoExport
    }
    return nil
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    // On the bytes: called for fields of every record.
    let text = String(self)
    let bytes = text.utf8
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 {
      start = bytes.index(after: start)
    }
    while end > start {
      let last = bytes.index(before: end)
      guard bytes[last] == 0x20 || bytes[last] == 0x09 else { break }
      end = last
    }
    return String(text[start..<end])
  }
}
