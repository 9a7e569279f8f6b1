import Foundation

/// The one place that turns wall-clock times into instants in a time zone.
///
/// Reminders and `--at HH:MM` are wall-clock times. Two wall-clock times need a rule:
/// - **gap** (spring forward, 02:30 does not exist in Berlin on the last Sunday of March): the
///   time resolves to the first instant after the gap, the transition itself (03:00 local), so a
///   reminder is never silently skipped;
/// - **repeat** (fall back, 02:30 happens twice): the time resolves to the first of the two
///   instants, so a reminder fires once.
///
/// See `docs/time.md`.
public enum WallClock {
  /// How a wall-clock time maps onto instants in a zone.
  public enum Resolution: Equatable, Sendable {
    /// The wall-clock time happens exactly once.
    case unique(Int64)
    /// The wall-clock time happens twice (a repeated hour); the instants in order.
    case repeated(first: Int64, second: Int64)
    /// The wall-clock time does not exist; `transition` is the first instant after the gap.
    case skipped(transition: Int64)

    /// The instant the time rules choose: the only one, the first of two, or the end of a gap.
    public var instant: Int64 {
      switch self {
      case .unique(let instant): instant
      case .repeated(let first, _): first
      case .skipped(let transition): transition
      }
    }
  }

  /// How the local wall-clock time `localSeconds` (seconds since 1970-01-01T00:00 local, no zone
  /// applied) maps onto instants in `timeZone`.
  public static func resolve(localSeconds: Int64, in timeZone: Zone) -> Resolution {
    // Every instant whose wall time is `localSeconds` lies in [local - 18h, local + 18h]
    // (offsets never exceed 18 hours). Real zones change offset at most once in any 36 hours,
    // so the offsets at both ends of that range are the only candidates.
    let early = offset(at: localSeconds - 64_800, in: timeZone)
    let late = offset(at: localSeconds + 64_800, in: timeZone)
    let earlyInstant = localSeconds - early
    let lateInstant = localSeconds - late
    let earlyValid = offset(at: earlyInstant, in: timeZone) == early
    let lateValid = offset(at: lateInstant, in: timeZone) == late
    switch (earlyValid, lateValid) {
    case (true, true) where earlyInstant != lateInstant:
      return .repeated(
        first: min(earlyInstant, lateInstant), second: max(earlyInstant, lateInstant))
    case (true, _):
      return .unique(earlyInstant)
    case (false, true):
      return .unique(lateInstant)
    case (false, false):
      // A gap: the offset jumps from `early` to a larger `late` between the two candidates.
      return .skipped(
        transition: firstInstant(
          from: min(earlyInstant, lateInstant), to: max(earlyInstant, lateInstant),
          withOffset: late, in: timeZone))
    }
  }

  /// The instant the time rules choose for a wall-clock `time` on the local `date` in `timeZone`.
  public static func instant(on date: LocalDate, at time: TimeOfDay, in timeZone: Zone)
    -> Int64
  {
    resolve(localSeconds: localSeconds(on: date, at: time), in: timeZone).instant
  }

  /// Naive local seconds of `time` on `date`.
  public static func localSeconds(on date: LocalDate, at time: TimeOfDay) -> Int64 {
    Int64(date.daysSince1970) * 86_400 + Int64(time.secondsSinceMidnight)
  }

  /// The offset of `timeZone` from UTC at `instant`, in seconds.
  public static func offset(at instant: Int64, in timeZone: Zone) -> Int64 {
    timeZone.offset(at: instant)
  }

  /// The local calendar date in `timeZone` at `instant`.
  public static func localDate(at instant: Int64, in timeZone: Zone) -> LocalDate {
    let local = Int(instant + offset(at: instant, in: timeZone))
    return LocalDate(daysSince1970: floorDiv(local, 86_400))
  }

  /// The first instant in `(low, high]` at which `timeZone` has `offset`, by bisection: Foundation's
  /// own transition search differs between platforms, bisection on the offset does not.
  private static func firstInstant(
    from low: Int64, to high: Int64, withOffset target: Int64, in timeZone: Zone
  ) -> Int64 {
    var low = low
    var high = high
    while high - low > 1 {
      let middle = low + (high - low) / 2
      if offset(at: middle, in: timeZone) == target { high = middle } else { low = middle }
    }
    return high
  }
}
