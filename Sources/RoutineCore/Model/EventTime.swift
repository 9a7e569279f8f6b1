/// When an event happened, packed into 8 bytes for analytics over millions of events: local
/// wall-clock seconds in the high 48 bits, the UTC offset in minutes in the low 16.
///
/// Ordering by the raw value orders by local wall-clock time. Offsets are whole minutes, which
/// is all an ISO 8601 offset (`±HH:MM`) can express.
public struct EventTime: Hashable, Comparable, Sendable {
  /// The packed representation.
  public let rawValue: Int64

  /// The event time of `timestamp` (its offset rounded down to whole minutes).
  public init(_ timestamp: Timestamp) {
    let offsetMinutes = Int64(floorDiv(Int(timestamp.utcOffsetSeconds), 60))
    let local = timestamp.secondsSince1970 + offsetMinutes * 60
    rawValue = local << 16 | (offsetMinutes & 0xFFFF)
  }

  /// Local wall-clock seconds since 1970-01-01T00:00 local.
  public var localSeconds: Int64 { rawValue >> 16 }

  /// The UTC offset in minutes.
  public var utcOffsetMinutes: Int { Int(Int16(truncatingIfNeeded: rawValue)) }

  /// The event's instant, seconds since 1970-01-01T00:00Z.
  public var secondsSince1970: Int64 { localSeconds - Int64(utcOffsetMinutes) * 60 }

  /// The timestamp with its offset.
  public var timestamp: Timestamp {
    Timestamp(
      secondsSince1970: secondsSince1970, utcOffsetSeconds: Int32(utcOffsetMinutes * 60))
  }

  /// The local calendar date.
  public var localDate: LocalDate {
    LocalDate(daysSince1970: floorDiv(Int(localSeconds), 86_400))
  }

  /// The local time of day.
  public var timeOfDay: TimeOfDay {
    TimeOfDay(secondsSinceMidnight: floorMod(Int(localSeconds), 86_400))
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: EventTime, rhs: EventTime) -> Bool { lhs.rawValue < rhs.rawValue }
}
