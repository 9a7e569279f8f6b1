/// The rules of one zone as the tz database gives them (a TZif file): a table of transitions,
/// the local time type in effect after each, and for instants past the table, the POSIX TZ
/// rule of the file's footer.
public struct ZoneRules: Hashable, Sendable {
  /// A UTC offset, whether it is daylight-saving time, and its abbreviation.
  public struct LocalTimeType: Hashable, Sendable {
    /// Seconds ahead of UTC.
    public var utcOffset: Int32
    /// Whether it is daylight-saving time.
    public var isDaylightSaving: Bool
    /// `CET`, `CEST`, `+0530`.
    public var abbreviation: String

    /// A local time type.
    public init(utcOffset: Int32, isDaylightSaving: Bool, abbreviation: String) {
      self.utcOffset = utcOffset
      self.isDaylightSaving = isDaylightSaving
      self.abbreviation = abbreviation
    }
  }

  /// The instants (seconds since 1970) at which the local time type changes, ascending.
  public let transitions: [Int64]
  /// For each transition, the index in ``types`` of the type in effect from it on.
  public let typeIndices: [Int]
  /// The local time types.
  public let types: [LocalTimeType]
  /// The type in effect before the first transition (and always, without transitions).
  public let initialType: LocalTimeType
  /// The rule for instants after the last transition, when the file has one.
  public let footer: PosixZoneRule?

  /// Rules from a transition table; `nil` when the table is inconsistent (indices out of range,
  /// transitions not ascending, no types).
  public init?(
    transitions: [Int64], typeIndices: [Int], types: [LocalTimeType],
    initialType: LocalTimeType? = nil, footer: PosixZoneRule? = nil
  ) {
    guard transitions.count == typeIndices.count, !types.isEmpty || footer != nil,
      typeIndices.allSatisfy({ $0 >= 0 && $0 < types.count })
    else { return nil }
    for index in transitions.indices.dropFirst() where transitions[index - 1] >= transitions[index]
    {
      return nil
    }
    self.transitions = transitions
    self.typeIndices = typeIndices
    self.types = types
    self.footer = footer
    self.initialType =
      initialType ?? types.first
      ?? footer.map {
        LocalTimeType(
          utcOffset: $0.standardOffset, isDaylightSaving: false, abbreviation: $0.standardName)
      }
      ?? LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC")
  }

  /// The local time type in effect at `instant`.
  public func localTimeType(at instant: Int64) -> LocalTimeType {
    guard let last = transitions.last, instant >= last else {
      // Before the last transition: the table decides (the footer only continues it).
      guard let first = transitions.first, instant >= first else {
        return footer.map { transitions.isEmpty ? $0.localTimeType(at: instant) : initialType }
          ?? initialType
      }
      var low = 0
      var high = transitions.count - 1
      // The last transition at or before `instant`.
      while low < high {
        let middle = (low + high + 1) / 2
        if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
      }
      return types[typeIndices[low]]
    }
    if let footer { return footer.localTimeType(at: instant) }
    return types[typeIndices[transitions.count - 1]]
  }
}
