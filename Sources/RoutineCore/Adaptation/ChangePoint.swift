/// When a routine has moved: its last days agree on another time than its usual one (a new
/// job: leaving at 09:00 instead of 07:30). One rule for the reminders that follow a moved
/// routine and for the learner (docs/analytics.md, docs/reminders.md).
///
/// The last two days the routine was on must both have been done at the new time (within 30
/// minutes of each other, at least 45 minutes from the usual time): one odd day is no move, and
/// waiting for a third would leave a weekday routine that moved on a Thursday at its old time
/// until the Tuesday after. The learner asks a routine of fewer than five days a week (a
/// weekend's) for three.
public enum ChangePoint {
  /// How many of the last days it was on are looked at: 4.
  public static let days = 4
  /// How many of them must agree on the new time, the last ones among them: 2.
  public static let agreeing = 2
  /// How close they must be to one another: within 30 minutes of their mean.
  public static let spreadSeconds = 30 * 60
  /// How far the new time must be from the usual one: 45 minutes.
  public static let minimumShiftSeconds = 45 * 60

  /// A routine's new time.
  public struct Move: Hashable, Sendable {
    /// The time the recent days agree on.
    public var time: TimeOfDay
    /// How many of them agree.
    public var agreeing: Int
    /// Of how many days looked at.
    public var of: Int
  }

  /// The new time of a routine usually at `usual`, when the last ``agreeing`` days it was on
  /// (`recent`, oldest first, `nil` for a day it was not done) were done within
  /// ``spreadSeconds`` of one time at least ``minimumShiftSeconds`` from `usual`; the other
  /// days of the last ``days`` that agree are counted with them.
  /// A routine of few days a week asks for more (`agreeing`): a weekend routine's two days are
  /// one weekend, which one late morning can fill (docs/analytics.md, "A moved routine").
  public static func move(
    recent: [TimeOfDay?], usual: TimeOfDay, agreeing needed: Int = agreeing
  ) -> Move? {
    let last = Array(recent.suffix(days))
    let latest = last.suffix(needed).compactMap { $0 }
    guard latest.count == needed,
      latest.allSatisfy({ $0.distance(to: usual) >= minimumShiftSeconds }),
      let center = TimeOfDay.circularMean(latest),
      latest.allSatisfy({ $0.distance(to: center) <= spreadSeconds })
    else { return nil }
    let agreeing = last.compactMap { $0 }.filter { $0.distance(to: center) <= spreadSeconds }
    guard let mean = TimeOfDay.circularMean(agreeing),
      mean.distance(to: usual) >= minimumShiftSeconds
    else { return nil }
    return Move(time: mean, agreeing: agreeing.count, of: last.count)
  }
}
