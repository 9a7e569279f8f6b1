import Foundation
import RoutineCore

/// IANA time zone names as people type them.
enum ZoneNames {
  /// The zone `name` names, ignoring case (`europe/berlin`), or `nil`.
  static func zone(named name: String) -> Zone? {
    canonicalName(name).flatMap(TimeZone.init(identifier:)).map(Zone.init(foundation:))
  }

  /// `name` as the zone database spells it (`Europe/Berlin` for `europe/berlin`), or `nil` when
  /// no zone has that name.
  static func canonicalName(_ name: String) -> String? {
    if TimeZone(identifier: name) != nil { return name }
    // The list of names is read only when the exact name fails (it costs a few milliseconds).
    let lowered = name.lowercased()
    return known.first { $0.lowercased() == lowered } ?? linkedName(name)
  }

  /// `name` spelled as a file of the system's zone database, matching each part ignoring case:
  /// the old names the list above leaves out are links there (`US/Eastern`, `Etc/UTC`, `Zulu`).
  private static func linkedName(_ name: String) -> String? {
    var directory = "/usr/share/zoneinfo"
    var parts: [String] = []
    for part in name.split(separator: "/") where part != "." && part != ".." {
      guard
        let entry = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.first(
          where: { $0.lowercased() == part.lowercased() })
      else { return nil }
      parts.append(entry)
      directory += "/" + entry
    }
    let spelled = parts.joined(separator: "/")
    return parts.isEmpty || TimeZone(identifier: spelled) == nil ? nil : spelled
  }

  /// The name to show for `zone`: its identifier, but `UTC` for the zone Foundation calls
  /// `GMT` (asked for as `UTC`, shown as `GMT`, it looked like another zone).
  static func display(_ zone: Zone) -> String {
    utcAliases.contains(zone.identifier) ? "UTC" : zone.identifier
  }

  /// The names of UTC without daylight saving (a system's `/etc/localtime` is often `Etc/UTC`).
  private static let utcAliases: Set<String> = [
    "GMT", "UTC", "UCT", "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
    "Etc/Universal", "Etc/Zulu", "Etc/Greenwich", "Universal", "Zulu", "Greenwich", "GMT0",
  ]

  /// Every name Foundation knows, plus the aliases people use for UTC.
  static var known: [String] { TimeZone.knownTimeZoneIdentifiers + ["UTC", "GMT"] }

  /// `"; did you mean 'Europe/Berlin'?"` for a near miss, or nothing.
  static func suggestion(for name: String) -> String {
    // Compare the city part too: "Berln" should find "Europe/Berlin".
    let candidates = known
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

  /// The message for an unknown zone `name` read from `source` (`--tz`, `TZ`), followed by
  /// `advice` when given.
  static func unknown(_ name: String, source: String, advice: String? = nil) -> String {
    let hint = suggestion(for: name)
    let text =
      "\(source): unknown time zone '\(name)'"
      + (hint.isEmpty ? "; expected an IANA name like Europe/Berlin" : hint)
    guard let advice else { return text }
    return text + (hint.isEmpty ? ". " : " ") + advice
  }
}
