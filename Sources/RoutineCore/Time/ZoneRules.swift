/// The rules of one zone as the tz database gives them (a TZif file): a table of transitions,
/// the local time type in effect after each, and for instants past the table, the POSIX TZ
/// rule of the file's footer.
///
/// Which type applies when (RFC 8536, for TZif version 2 and later):
/// - before the first transition, ``initialType`` (the file's type 0);
/// - from a transition up to the next, the type of that transition;
/// - after the last transition, the footer's rule when there is one, else the last type;
/// - without transitions, the footer's rule when there is one, else ``initialType``.
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
  /// The type in effect before the first transition (and always, without transitions or footer).
  public let initialType: LocalTimeType
  /// The rule for instants after the last transition, when the file has one.
  public let footer: PosixZoneRule?
  /// What ``utcOffset(at:)`` reads, behind one reference (``Zone`` keeps it so too).
  let lookup: Lookup

  /// Rules from a transition table; `nil` when the table is inconsistent (indices out of range,
  /// transitions not ascending, no types and no footer).
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
    let initialType =

      initialType ?? types.first
      ?? footer.map {
        LocalTimeType(
          utcOffset: $0.standardOffset, isDaylightSaving: false, abbreviation: $0.standardName)
      }
      ?? LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC")
    self.initialType = initialType
    self.lookup = Lookup(
      transitions: transitions, offsets: typeIndices.map { types[$0].utcOffset },
      initialOffset: initialType.utcOffset, footer: footer)
  }

  /// Rules that are a POSIX TZ rule alone (a `$TZ` such as `CET-1CEST,M3.5.0,M10.5.0/3`).
  public init(rule: PosixZoneRule) {
    self.init(transitions: [], typeIndices: [], types: [], footer: rule)!
  }

  /// The local time type in effect at `instant`.
  public func localTimeType(at instant: Int64) -> LocalTimeType {
    let index = lookup.place(of: instant)
    if index < 0 { return initialType }
    if index < transitions.count { return types[typeIndices[index]] }
    return footer?.localTimeType(at: instant) ?? initialType
  }

  /// The offset from UTC at `instant`, in seconds.
  public func utcOffset(at instant: Int64) -> Int32 {
    lookup.utcOffset(at: instant)
  }

  /// Whether `lhs` and `rhs` are the same rules.
  public static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool {
    lhs.transitions == rhs.transitions && lhs.typeIndices == rhs.typeIndices
      && lhs.types == rhs.types && lhs.initialType == rhs.initialType && lhs.footer == rhs.footer
  }

  /// Hashes the rules.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(transitions)
    hasher.combine(typeIndices)
    hasher.combine(types)
    hasher.combine(initialType)
    hasher.combine(footer)
  }

  /// The offsets alone, as plain numbers behind one reference: asked for far more often than
  /// whole types (every wall-clock time resolved asks four times), they are read without
  /// copying an abbreviation or retaining more than this object.
  final class Lookup: Sendable {
    let transitions: [Int64]
    /// For each transition, the offset from it on.
    let offsets: [Int32]
    let initialOffset: Int32
    let hasFooter: Bool
    let footerOffset: Int32
    let footerSchedule: PosixZoneRule.Schedule?

    init(transitions: [Int64], offsets: [Int32], initialOffset: Int32, footer: PosixZoneRule?) {
      self.transitions = transitions
      self.offsets = offsets
      self.initialOffset = initialOffset
      self.hasFooter = footer != nil
      self.footerOffset = footer?.standardOffset ?? 0
      self.footerSchedule = footer?.schedule
    }

    /// Where `instant` falls: -1 before the first transition, the index of the last transition
    /// at or before it, or `transitions.count` past the table when the footer decides.
    func place(of instant: Int64) -> Int {
      let count = transitions.count
      guard count > 0 else { return hasFooter ? 0 : -1 }
      guard instant >= transitions[0] else { return -1 }
      if instant > transitions[count - 1] {
        // Past the table the footer continues it; at the last transition the table decides.
        return hasFooter ? count : count - 1
      }
      var low = 0
      var high = count - 1
      while low < high {
        let middle = (low + high + 1) / 2
        if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
      }
      return low
    }

    func utcOffset(at instant: Int64) -> Int32 {
      let index = place(of: instant)
      if index < 0 { return initialOffset }
      if index < offsets.count { return offsets[index] }
      return footerSchedule?.utcOffset(at: instant) ?? footerOffset
    }
  }
}
