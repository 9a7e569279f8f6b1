import Foundation

/// An instant together with the UTC offset of the clock it was read from.
///
/// Events keep the offset they happened at, so that "07:05 in Berlin in summer" stays 07:05 when
/// the user later travels or daylight-saving time ends: the usual time of day of an event is its
/// own local wall-clock time.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Seconds since 1970-01-01T00:00:00Z.
  public var secondsSince1970: Int64
  /// Offset of the local clock from UTC in seconds (positive east of Greenwich).
  public var utcOffsetSeconds: Int32

  /// The instant `secondsSince1970` as read on a clock `utcOffsetSeconds` ahead of UTC.
  public init(secondsSince1970: Int64, utcOffsetSeconds: Int32) {
    self.secondsSince1970 = secondsSince1970
    self.utcOffsetSeconds = utcOffsetSeconds
  }

  /// The instant `date` as read on a clock in `timeZone` (seconds are truncated).
  public init(_ date: Date, in timeZone: Zone) {
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
    self.init(
      secondsSince1970: seconds,
      utcOffsetSeconds: Int32(timeZone.offset(at: seconds)))
  }

  /// The local wall-clock time as seconds since 1970-01-01T00:00 *local* (no zone applied).
  public var localSeconds: Int64 { secondsSince1970 + Int64(utcOffsetSeconds) }

  /// The local calendar date.
  public var localDate: LocalDate {
    LocalDate(daysSince1970: floorDiv(Int(localSeconds), TimeOfDay.secondsPerDay))
  }

  /// The local wall-clock time of day.
  public var timeOfDay: TimeOfDay {
    TimeOfDay(secondsSinceMidnight: floorMod(Int(localSeconds), TimeOfDay.secondsPerDay))
  }

  /// The instant as a `Date`.
  public var date: Date { Date(timeIntervalSince1970: Double(secondsSince1970)) }

  /// ISO 8601 / RFC 3339 with seconds and the offset: `2026-04-20T07:05:00+02:00`.
  public var description: String { iso8601 }

  /// ISO 8601 / RFC 3339 with seconds and the offset: `2026-04-20T07:05:00+02:00`.
  ///
  /// A zero offset is written `+00:00`, not `Z`: it is the offset of a local clock (London in
  /// winter), which RFC 3339 distinguishes from "UTC, local offset unknown".
  public var iso8601: String {
    let local = Int(localSeconds)
    let date = LocalDate(daysSince1970: floorDiv(local, 86_400))
    let second = floorMod(local, 86_400)
    let (year, month, day) = date.components
    let offset = Int(utcOffsetSeconds)
    let sign = offset < 0 ? "-" : "+"
    let offsetMinutes = abs(offset) / 60
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(second / 3600, 2)):"
      + "\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))"
      + "\(sign)\(pad(offsetMinutes / 60, 2)):\(pad(offsetMinutes % 60, 2))"
  }

  /// The offset as ISO 8601 writes it: `+02:00`, `-03:30`.
  public var offsetText: String { String(iso8601.suffix(6)) }

  /// Orders by instant, then by offset so that equal instants have a stable order.
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    (lhs.secondsSince1970, lhs.utcOffsetSeconds) < (rhs.secondsSince1970, rhs.utcOffsetSeconds)
  }
}

extension Timestamp {
  /// What an ISO 8601 timestamp looks like, for error messages.
  public static let expectedFormat =
    "an ISO 8601 timestamp with a UTC offset (like 2026-04-20T07:05:00+02:00 or 2026-04-20T05:05Z)"

  /// Parses an ISO 8601 / RFC 3339 timestamp that carries its UTC offset.
  ///
  /// Accepted: `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `±HH:MM`, `±HHMM` or `±HH`;
  /// `T` may also be a space. Fractions of a second are accepted and dropped. A timestamp
  /// without an offset is rejected: its instant would depend on the reader's zone.
  public init?(iso8601 text: String) {
    var text = text
    let parsed = text.withUTF8 { Timestamp.parse(UnsafeRawBufferPointer($0)) }
    guard let parsed else { return nil }
    self = parsed
  }

  /// Parses ISO 8601 bytes (see ``init(iso8601:)``).
  public static func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
    var parser = TimestampParser()
    return parser.parse(bytes)
  }
}

/// Parses ISO 8601 timestamps (see ``Timestamp/init(iso8601:)``) in the hot loop of the file
/// readers. Logs are in time order, so consecutive timestamps usually share their date: the parser
/// remembers the last date's day number instead of recomputing and revalidating it.
///
/// Given a zone, it also reads local times without an offset (`2026-04-27 07:55`, as spreadsheets
/// and phones export them) as wall-clock times in that zone, by the rules of ``WallClock``.
public struct TimestampParser: Sendable {
  private var cachedPrefix: UInt64 = 0
  private var cachedSuffix: UInt16 = 0
  private var cachedDays = Int.min
  private var local: LocalTimeResolver?

  /// A parser with an empty cache; with `zone`, local times are read in that zone.
  public init(assumingZone zone: Zone? = nil) {
    local = zone.map(LocalTimeResolver.init)
  }

  /// Whether `bytes` are a valid local date and time without an offset (for error messages).
  public static func isLocalTime(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var withZone = TimestampParser(assumingZone: Zone.utc)
    var withoutZone = TimestampParser()
    return withZone.parse(bytes) != nil && withoutZone.parse(bytes) == nil
  }

  /// The timestamp `bytes` spell, or `nil` when they are not a valid ISO 8601 timestamp with an
  /// offset (or, given a zone, a valid local date and time).
  public mutating func parse(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
    let count = bytes.count
    guard count >= 16 else { return nil }
    @inline(__always) func digit(_ i: Int) -> Int {
      let value = Int(bytes[i]) &- 48
      return (value >= 0 && value <= 9) ? value : -1_000_000
    }
    @inline(__always) func two(_ i: Int) -> Int { digit(i) &* 10 &+ digit(i &+ 1) }

    let prefix = bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
    let suffix = bytes.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    var days = cachedDays
    if days == Int.min || prefix != cachedPrefix || suffix != cachedSuffix {
      let year = two(0) &* 100 &+ two(2)
      let month = two(5)
      let day = two(8)
      guard year >= 0, bytes[4] == 0x2D, bytes[7] == 0x2D, month >= 1, month <= 12, day >= 1,
        day <= LocalDate.daysIn(month: month, year: year)
      else { return nil }
      days = LocalDate.days(year: year, month: month, day: day)
      cachedPrefix = prefix
      cachedSuffix = suffix
      cachedDays = days
    }
    let hour = two(11)
    let minute = two(14)
    let separator = bytes[10]
    guard separator == 0x54 || separator == 0x20 || separator == 0x74, bytes[13] == 0x3A,
      hour >= 0, hour <= 23, minute >= 0, minute <= 59
    else { return nil }

    var index = 16
    var second = 0
    guard count > 16 || local != nil else { return nil }
    if index < count, bytes[index] == 0x3A {
      guard index + 2 < count else { return nil }
      second = two(index + 1)
      guard second >= 0, second <= 59 else { return nil }
      index += 3
      if index < count, bytes[index] == 0x2E || bytes[index] == 0x2C {
        index += 1
        let start = index
        while index < count, digit(index) >= 0 { index += 1 }
        guard index > start else { return nil }
      }
    }
    guard index < count else {
      guard local != nil else { return nil }
      return local!.timestamp(
        localSeconds: Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second))
    }

    var offset = 0
    let marker = bytes[index]
    if marker == 0x5A || marker == 0x7A {  // Z
      guard index + 1 == count else { return nil }
    } else if marker == 0x2B || marker == 0x2D {  // + or -
      let rest = count - index - 1
      let hours = rest >= 2 ? two(index + 1) : -1
      var minutes = 0
      switch rest {
      case 2: break
      case 4: minutes = two(index + 3)
      case 5:
        guard bytes[index + 3] == 0x3A else { return nil }
        minutes = two(index + 4)
      default: return nil
      }
      guard hours >= 0, hours <= 18, minutes >= 0, minutes <= 59 else { return nil }
      offset = (hours * 60 + minutes) * 60
      if marker == 0x2D { offset = -offset }
    } else {
      return nil
    }

    let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return Timestamp(secondsSince1970: local - Int64(offset), utcOffsetSeconds: Int32(offset))
  }
}

/// Turns local wall-clock times into timestamps in one zone, remembering the offset of the last
/// hour resolved: a file of local times is in time order, and resolving each one from scratch
/// costs several zone look-ups.
struct LocalTimeResolver: Sendable {
  let zone: Zone
  private var cachedHour = Int64.min
  private var cachedOffset: Int64 = 0

  init(zone: Zone) {
    self.zone = zone
  }

  /// The timestamp of the wall-clock time `localSeconds` (seconds since 1970-01-01T00:00 local):
  /// in a daylight-saving gap the end of the gap, in a repeated hour the first instant.
  mutating func timestamp(localSeconds: Int64) -> Timestamp {
    let hour = localSeconds >= 0 ? localSeconds / 3600 : (localSeconds - 3599) / 3600
    if hour == cachedHour {
      return Timestamp(
        secondsSince1970: localSeconds - cachedOffset, utcOffsetSeconds: Int32(cachedOffset))
    }
    let instant = WallClock.resolve(localSeconds: localSeconds, in: zone).instant
    let offset = WallClock.offset(at: instant, in: zone)
    // The hour can be cached when it holds no transition: both its ends resolve uniquely, with
    // the offset found (a gap or repeat shorter than an hour still shows at one end).
    let start = hour * 3600
    if case .unique(let first) = WallClock.resolve(localSeconds: start, in: zone),
      start - first == offset,
      case .unique(let last) = WallClock.resolve(localSeconds: start + 3599, in: zone),
      start + 3599 - last == offset
    {
      cachedHour = hour
      cachedOffset = offset
    }
    return Timestamp(secondsSince1970: instant, utcOffsetSeconds: Int32(offset))
  }
}
