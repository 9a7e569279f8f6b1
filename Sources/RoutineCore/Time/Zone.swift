import Foundation

/// A time zone: its IANA name and the rules that give its UTC offset at any instant.
///
/// Everything that turns instants into wall-clock times, or back, asks a `Zone` (through
/// ``WallClock``), so one source of rules decides every offset (docs/time.md). The rules come from
/// the system's tz database when it has the zone (``ZoneRules``, read from its TZif file by the
/// store module), and from Foundation's own copy only for a zone the system lacks: Foundation on
/// Linux carries a frozen copy of the rules and never reads `/usr/share/zoneinfo`, so a system
/// update would never reach routine.
public struct Zone: Hashable, Sendable, CustomStringConvertible {
  /// Where a zone's rules come from.
  public enum Source: Hashable, Sendable {
    /// A TZif file of the system's tz database (its path).
    case database(path: String)
    /// Foundation's built-in rules (ICU): the zone is not in the system's database.
    case foundation
    /// A POSIX TZ rule given as text (`TZ=CET-1CEST,M3.5.0,M10.5.0/3`), not a database zone.
    case posixRule
    /// A fixed offset (UTC).
    case fixed
  }

  /// The IANA name (`Europe/Berlin`), `UTC` for UTC.
  public let identifier: String
  /// Where the rules come from.
  public let source: Source
  private let rules: Rules

  private enum Rules: Hashable, Sendable {
    case fixed(Int32)
    case table(Table)
    case foundation(TimeZone)
  }

  /// Rules behind one reference: a ``ZoneRules`` is several arrays and a footer, which a switch
  /// over `Rules` would copy, retaining each, for every offset asked for (`agenda` asks for
  /// millions); the offsets are read from its lookup.
  private final class Table: Hashable, Sendable {
    let rules: ZoneRules
    let lookup: ZoneRules.Lookup

    init(_ rules: ZoneRules) {
      self.rules = rules
      self.lookup = rules.lookup
    }

    static func == (lhs: Table, rhs: Table) -> Bool { lhs === rhs || lhs.rules == rhs.rules }

    func hash(into hasher: inout Hasher) { hasher.combine(rules) }
  }

  /// The zone `identifier` with `rules` read from the TZif file at `path`.
  public init(identifier: String, rules: ZoneRules, path: String) {
    self.identifier = identifier
    self.source = .database(path: path)
    self.rules = .table(Table(rules))
  }

  /// The zone a POSIX TZ rule describes, named by the rule's text.
  public init(posixRule rule: PosixZoneRule, text: String) {
    self.identifier = text
    self.source = .posixRule
    self.rules = .table(Table(ZoneRules(rule: rule)))
  }

  /// The zone Foundation knows as `timeZone`, with Foundation's rules.
  public init(foundation timeZone: TimeZone) {
    self.identifier = timeZone.identifier
    self.source = .foundation
    self.rules = .foundation(timeZone)
  }

  /// A zone `seconds` ahead of UTC all year, named `identifier`.
  public init(identifier: String, fixedOffset seconds: Int32) {
    self.identifier = identifier
    self.source = .fixed
    self.rules = .fixed(seconds)
  }

  /// UTC.
  public static let utc = Zone(identifier: "UTC", fixedOffset: 0)

  /// The offset from UTC at `instant` (seconds since 1970), in seconds; positive east of
  /// Greenwich.
  public func offset(at instant: Int64) -> Int64 {
    switch rules {
    case .fixed(let seconds):
      return Int64(seconds)
    case .table(let table):
      return Int64(table.lookup.utcOffset(at: instant))
    case .foundation(let zone):
      return Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }
  }

  /// Whether daylight-saving time is in effect at `instant`.
  public func isDaylightSavingTime(at instant: Int64) -> Bool {
    switch rules {
    case .fixed: return false
    case .table(let table): return table.rules.localTimeType(at: instant).isDaylightSaving
    case .foundation(let zone):
      return zone.isDaylightSavingTime(for: Date(timeIntervalSince1970: Double(instant)))
    }
  }

  /// The abbreviation in use at `instant` (`CET`, `CEST`), when the rules name one.
  public func abbreviation(at instant: Int64) -> String? {
    switch rules {
    case .fixed: return identifier == "UTC" ? "UTC" : nil
    case .table(let table):
      let name = table.rules.localTimeType(at: instant).abbreviation
      return name.isEmpty ? nil : name
    case .foundation(let zone):
      return zone.abbreviation(for: Date(timeIntervalSince1970: Double(instant)))
    }
  }

  /// The tz database's rules (or a POSIX rule's), when they decide the offsets; `nil` for a
  /// fixed offset and for Foundation's rules.
  public var zoneRules: ZoneRules? {
    if case .table(let table) = rules { return table.rules }
    return nil
  }

  /// The identifier.
  public var description: String { identifier }
}
