/// The local date and wall-clock time a firing of a wall-clock trigger belongs to: "08:00 on
/// 2026-03-26", whatever instant the user's zone made of it.
///
/// A reminder fires at most once per local date and slot (docs/delivery.md): after a trip
/// westward, the 08:00 already delivered in Lisbon is not delivered again at 08:00 in New York.
public struct FiringSlot: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The local date.
  public var date: LocalDate
  /// The wall-clock time the trigger names (02:30 on a spring-forward night, though it fires
  /// at 03:00).
  public var time: TimeOfDay

  /// A slot.
  public init(date: LocalDate, time: TimeOfDay) {
    self.date = date
    self.time = time
  }

  /// Naive local seconds since 1970-01-01T00:00 (no zone applied), for comparing with a wall
  /// clock.
  public var localSeconds: Int64 { WallClock.localSeconds(on: date, at: time) }

  /// Whether `lhs` comes before `rhs` on a wall clock.
  public static func < (lhs: FiringSlot, rhs: FiringSlot) -> Bool {
    lhs.localSeconds < rhs.localSeconds
  }

  /// `2026-03-26 08:00`.
  public var description: String { "\(date) \(time)" }
}

/// One firing of a trigger: its instant, and the slot it belongs to (`nil` for a trigger that is
/// an instant: a snooze or outlier alert, a task due at a pinned instant).
public struct Firing: Hashable, Sendable {
  /// When, seconds since 1970 UTC.
  public var at: Int64
  /// The local date and wall-clock time, for wall-clock triggers.
  public var slot: FiringSlot?

  /// A firing.
  public init(at: Int64, slot: FiringSlot?) {
    self.at = at
    self.slot = slot
  }
}
