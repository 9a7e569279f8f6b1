import Foundation

/// A wall-clock time of day, to the second, on a 24-hour circle.
///
/// Times of day are circular: 23:50 and 00:10 are twenty minutes apart and their mean is
/// midnight. ``distance(to:)`` and ``circularMean(_:)`` respect that.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Seconds in a day of wall-clock time.
  public static let secondsPerDay = 86_400

  /// Seconds since midnight, `0..<86400`.
  public let secondsSinceMidnight: Int

  /// The time `seconds` after midnight, wrapped onto the 24-hour circle.
  public init(secondsSinceMidnight seconds: Int) {
    self.secondsSinceMidnight = floorMod(seconds, TimeOfDay.secondsPerDay)
  }

  /// The time `hour`:`minute`:`second`, or `nil` when a component is out of range.
  public init?(hour: Int, minute: Int, second: Int = 0) {
    guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else {
      return nil
    }
    self.secondsSinceMidnight = hour * 3600 + minute * 60 + second
  }

  /// Parses `HH:MM` (24-hour clock), as typed on the command line.
  public init?(parsing text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2 || parts[0].count == 1, parts[1].count == 2,
      let hour = Int(parts[0]), let minute = Int(parts[1])
    else { return nil }
    self.init(hour: hour, minute: minute)
  }

  /// The hour, 0...23.
  public var hour: Int { secondsSinceMidnight / 3600 }
  /// The minute, 0...59.
  public var minute: Int { secondsSinceMidnight / 60 % 60 }

  /// The time rounded to the nearest minute (wrapping 23:59:30 to 00:00).
  public var roundedToMinute: TimeOfDay {
    TimeOfDay(secondsSinceMidnight: (secondsSinceMidnight + 30) / 60 * 60)
  }

  /// `HH:MM` on a 24-hour clock, rounded to the nearest minute.
  public var description: String {
    let rounded = roundedToMinute
    return "\(pad(rounded.hour, 2)):\(pad(rounded.minute, 2))"
  }

  /// The signed shortest way round the clock from `self` to `other`, in seconds, in
  /// `-43200..<43200`: positive when `other` is later.
  public func signedDistance(to other: TimeOfDay) -> Int {
    wrapSigned(other.secondsSinceMidnight - secondsSinceMidnight)
  }

  /// The shortest distance round the clock, in seconds, `0...43200`.
  public func distance(to other: TimeOfDay) -> Int {
    abs(signedDistance(to: other))
  }

  /// The time `seconds` later (earlier when negative), wrapping round midnight.
  public func adding(seconds: Int) -> TimeOfDay {
    TimeOfDay(secondsSinceMidnight: secondsSinceMidnight + seconds)
  }

  /// The circular mean of times of day, or `nil` when they have no mean direction (for
  /// example exactly opposite times such as 06:00 and 18:00).
  public static func circularMean(_ times: [TimeOfDay]) -> TimeOfDay? {
    circularMeanAndLength(times)?.mean
  }

  /// The circular mean of times of day and their mean resultant length (0...1: how tightly they
  /// gather round it), or `nil` when they have no mean direction.
  public static func circularMeanAndLength(_ times: [TimeOfDay]) -> (
    mean: TimeOfDay, resultantLength: Double
  )? {
    guard !times.isEmpty else { return nil }
    var sumSin = 0.0
    var sumCos = 0.0
    for time in times {
      let angle = Double(time.secondsSinceMidnight) / Double(secondsPerDay) * 2 * Double.pi
      sumSin += sin(angle)
      sumCos += cos(angle)
    }
    let squaredLength = sumSin * sumSin + sumCos * sumCos
    guard squaredLength > 1e-12 * Double(times.count * times.count) else { return nil }
    let angle = atan2(sumSin, sumCos)
    let seconds = (angle / (2 * Double.pi) * Double(secondsPerDay)).rounded()
    return (
      TimeOfDay(secondsSinceMidnight: Int(seconds)),
      min(squaredLength.squareRoot() / Double(times.count), 1)
    )
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
    lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
  }
}

/// Wraps a difference of seconds onto `-43200..<43200`.

func wrapSigned(_ seconds: Int) -> Int {
  floorMod(seconds + 43_200, 86_400) - 43_200
}
