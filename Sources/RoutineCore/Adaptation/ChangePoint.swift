/// When a routine has moved: the last few days it was on agree on another time than its usual
/// one (a new job: leaving at 09:00 instead of 07:30). One rule for the reminders that follow a
/// moved routine and for the learner (docs/analytics.md, docs/reminders.md).
public enum ChangePoint {
  /// How many of the last days it was on are looked at: 4.
  public static let days = 4
  /// How many of them must agree on the new time: 3.
  public static let agreeing = 3
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

  /// The new time of a routine usually at `usual`, when at least ``agreeing`` of the last
  /// ``days`` days it was on (`recent`, oldest first, `nil` for a day it was not done) were done
  /// within ``spreadSeconds`` of one time at least ``minimumShiftSeconds`` from `usual`.
  public static func move(recent: [TimeOfDay?], usual: TimeOfDay) -> Move? {
    let last = recent.suffix(days)
    let away = last.compactMap { $0 }.filter { $0.distance(to: usual) >= minimumShiftSeconds }
    guard away.count >= agreeing else { return nil }
    var best: [TimeOfDay] = []
    for center in away {
      let near = away.filter { $0.distance(to: center) <= spreadSeconds }
      if near.count > best.count { best = near }
    }
    guard best.count >= agreeing, let mean = TimeOfDay.circularMean(best),
      best.allSatisfy({ $0.distance(to: mean) <= spreadSeconds }),
      mean.distance(to: usual) >= minimumShiftSeconds
    else { return nil }
    return Move(time: mean, agreeing: best.count, of: last.count)
  }
}
