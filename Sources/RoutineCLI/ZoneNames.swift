import Foundation
import RoutineCore
import RoutineStore

/// IANA time zone names as people type them, and as routine shows them.
enum ZoneNames {
  /// The name to show for `zone`: its identifier, but `UTC` for its aliases (a system's
  /// `/etc/localtime` is often `Etc/UTC`; Foundation calls UTC `GMT`, which looked like another
  /// zone).
  static func display(_ zone: Zone) -> String {
    utcAliases.contains(zone.identifier) ? "UTC" : zone.identifier
  }

  /// The names of UTC without daylight saving.
  private static let utcAliases: Set<String> = [
    "GMT", "UTC", "UCT", "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
    "Etc/Universal", "Etc/Zulu", "Etc/Greenwich", "Universal", "Zulu", "Greenwich", "GMT0",
  ]

  /// Every name `database` or Foundation knows, plus the aliases people use for UTC. Read only
  /// for suggestions: it loads Foundation's zone data.
  static func known(in database: ZoneDatabase) -> [String] {
    var seen = Set<String>()
    return (database.names + TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"]).filter {
      seen.insert($0).inserted
    }
  }

  /// `"; did you mean 'Europe/Berlin'?"` for a near miss, or nothing.
  static func suggestion(for name: String, in database: ZoneDatabase) -> String {
    // "GMT+5": the nearest name would be GMT+0, a wrong zone. Its sign is the trap: say so, and
    // give the tz database's name for the offset most likely meant (UTC+05:00 is Etc/GMT-5).
    if ZoneDatabase.isOffsetName(name) { return offsetNameAdvice(name) }
    // Compare the city part too: "Berln" should find "Europe/Berlin".
    let candidates = known(in: database)
    if let near = Suggestion.nearest(to: name, among: candidates) {
      return "; did you mean '\(near)'?"
    }
    let city = name.split(separator: "/").last.map(String.init) ?? name
    let byCity = Dictionary(
      candidates.map { ($0.split(separator: "/").last.map(String.init) ?? $0, $0) },
      uniquingKeysWith: { first, _ in first })
    if let near = Suggestion.nearest(to: city, among: byCity.keys.sorted()), let full = byCity[near]
    {
      return "; did you mean '\(full)'?"
    }
    return ""
  }

  /// Why an offset written as a name (`GMT+5`, `UTC-03:30`) is refused, and what to give.
  static func offsetNameAdvice(_ name: String) -> String {
    let upper = name.uppercased()
    let rest = upper.drop { $0.isLetter }
    var text =
      "; an offset is not a zone name (POSIX and the tz database read its sign backwards:"
      + " Etc/GMT+5 is five hours behind UTC): give the place, like Asia/Karachi"
    if let sign = rest.first, let hours = Int(rest.dropFirst()), (0...14).contains(hours) {
      // The tz database's Etc names carry the POSIX sign: Etc/GMT-5 is UTC+05:00.
      let utc = "UTC\(sign)\(hours < 10 ? "0" : "")\(hours):00"
      text += ", or 'Etc/GMT\(sign == "+" ? "-" : "+")\(hours)' for \(utc)"
    }
    return text
  }

  /// The message for an unknown zone `name` read from `source` (`--tz`, `TZ`), followed by
  /// `advice` when given.
  static func unknown(
    _ name: String, source: String, advice: String? = nil, in database: ZoneDatabase
  ) -> String {
    let hint = suggestion(for: name, in: database)
    let text =
      "\(source): unknown time zone '\(name)'"
      + (hint.isEmpty ? "; expected an IANA name like Europe/Berlin" : hint)
    guard let advice else { return text }
    return text + (hint.isEmpty ? ". " : " ") + advice
  }

  /// The message for zone data that cannot be used: `error`, read for `name` from `source`.
  static func damaged(_ name: String, source: String, error: ZoneDataError) -> String {
    "\(source): time zone '\(name)': \(error); reinstall the system's tz data (tzdata), or set TZDIR to a good copy"
  }
}
