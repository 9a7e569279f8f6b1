import Foundation

/// The local dates around a range of instants in one zone, each with its UTC offset worked out
/// once: turning a wall-clock time on such a date into an instant is then a subtraction, not the
/// three offset look-ups of ``WallClock/resolve(localSeconds:in:)``. An agenda of a thousand
/// reminders over a month needs thirty days resolved, not thirty thousand times.
///
/// A date whose offset changes during it (a daylight-saving night, or a zone that changes at
/// midnight) is marked irregular, and its times go through ``WallClock`` with its gap and repeat
/// rules, so the results are always those of ``WallClock/instant(on:at:in:)``.
public struct ZoneDays: Sendable {
  /// The zone.
  public let zone: Zone
  /// The first date covered.
  public let first: LocalDate
  /// The last date covered.
  public let last: LocalDate
  /// Each date's offset in seconds, or `nil` when it changes during the date.
  private let offsets: [Int32?]

  /// The dates on which instants in `from..<to` can fall in `zone`, with a day either side.
  public init(_ zone: Zone, from: Int64, to: Int64) {
    self.init(
      zone,
      dates: WallClock.localDate(at: from, in: zone).adding(
        days: -1)...WallClock.localDate(
          at: max(from, to), in: zone
        ).adding(days: 1))
  }

  /// The dates `dates` in `zone`.
  public init(_ zone: Zone, dates: ClosedRange<LocalDate>) {
    self.zone = zone
    first = dates.lowerBound
    last = dates.upperBound
    var offsets: [Int32?] = []
    offsets.reserveCapacity(last.daysSince1970 - first.daysSince1970 + 1)
    var date = first
    while date <= last {
      // Regular when its first and last second each happen once, with the same offset: real
      // zones never change twice within a day, so no change happens between them.
      let start = Int64(date.daysSince1970) * 86_400
      var offset: Int32?
      if case .unique(let opening) = WallClock.resolve(localSeconds: start, in: zone),
        case .unique(let closing) = WallClock.resolve(localSeconds: start + 86_399, in: zone),
        start - opening == start + 86_399 - closing
      {
        offset = Int32(start - opening)
      }
      offsets.append(offset)
      date = date.adding(days: 1)
    }
    self.offsets = offsets
  }

  /// The instant of `time` on `date` by the time rules (as ``WallClock/instant(on:at:in:)``).
  public func instant(on date: LocalDate, at time: TimeOfDay) -> Int64 {
    let index = date.daysSince1970 - first.daysSince1970
    guard index >= 0, index < offsets.count, let offset = offsets[index] else {
      return WallClock.instant(on: date, at: time, in: zone)
    }
    return WallClock.localSeconds(on: date, at: time) - Int64(offset)
  }
}
