import Foundation

/// When triggers fire: the time rules of docs/time.md, through ``WallClock``.
///
/// A calendar trigger fires on each local date it matches (every date, its weekdays, or its day
/// of the month), at its wall-clock time in `timeZone`: in a daylight-saving gap at the first
/// instant after the gap, in a repeated hour at the first of the two instants. Calendar and
/// local triggers store wall-clock times, not instants, so when the user's zone changes they keep
/// their wall-clock time in the new zone. Date triggers are instants and do not move.
extension Trigger {
  /// The first instant strictly after `instant` at which this trigger fires, or `nil` (a
  /// one-time trigger already past).
  public func nextFire(after instant: Int64, in timeZone: Zone) -> Int64? {
    nextFiring(after: instant, in: timeZone)?.at
  }

  /// The first firing strictly after `instant`, with its slot, or `nil` (a one-time trigger
  /// already past).
  public func nextFiring(after instant: Int64, in timeZone: Zone) -> Firing? {
    switch self {
    case .date(let at):
      return at > instant ? Firing(at: at, slot: nil) : nil
    case .local(let date, let time):
      let at = WallClock.instant(on: date, at: time, in: timeZone)
      return at > instant ? Firing(at: at, slot: FiringSlot(date: date, time: time)) : nil
    case .calendar(let calendar):
      return calendar.nextFiring(after: instant, in: timeZone)
    }
  }

  /// Every instant in `from..<to` at which this trigger fires, in order. A calendar trigger that
  /// does not repeat fires once, at its first match at or after `from`.
  public func occurrences(from: Int64, to: Int64, in timeZone: Zone) -> [Int64] {
    firings(from: from, to: to, in: timeZone).map(\.at)
  }

  /// ``occurrences(from:to:in:)`` with the days of the range worked out once, for many triggers.
  public func occurrences(from: Int64, to: Int64, days: ZoneDays) -> [Int64] {
    firings(from: from, to: to, days: days).map(\.at)
  }

  /// Every firing in `from..<to`, in order, each with the local date and wall-clock time it
  /// belongs to (its ``FiringSlot``) when the trigger is a wall-clock time.
  public func firings(from: Int64, to: Int64, in timeZone: Zone) -> [Firing] {
    guard from < to else { return [] }
    return firings(from: from, to: to, days: ZoneDays(timeZone, from: from, to: to))
  }

  /// ``firings(from:to:in:)`` with the days of the range worked out once, for many triggers.
  public func firings(from: Int64, to: Int64, days: ZoneDays) -> [Firing] {
    Array(firingSequence(from: from, to: to, days: days))
  }

  /// The firings of ``firings(from:to:days:)`` one at a time, in order, without holding them
  /// all: an agenda over a year of many requests merges these (``Agenda/Items``).
  public func firingSequence(from: Int64, to: Int64, days: ZoneDays) -> Firings {
    Firings(trigger: self, from: from, to: to, days: days)
  }

  /// The firings of a trigger in a range, computed as they are asked for.
  public struct Firings: Sequence, IteratorProtocol, Sendable {
    private enum State: Sendable {
      /// One firing left (or none).
      case single(Firing?)
      /// The dates from `date` on, each checked against the trigger.
      case daily(CalendarTrigger, date: LocalDate)
      /// The months from `month` (year * 12 + month - 1) on: one date each.
      case monthly(CalendarTrigger, day: Int, month: Int)
    }

    private let from: Int64
    private let to: Int64
    private let days: ZoneDays
    private var state: State

    init(trigger: Trigger, from: Int64, to: Int64, days: ZoneDays) {
      self.from = from
      self.to = to
      self.days = days
      guard from < to else {
        state = .single(nil)
        return
      }
      switch trigger {
      case .date(let at):
        state = .single(at >= from && at < to ? Firing(at: at, slot: nil) : nil)
      case .local(let date, let time):
        let at = days.instant(on: date, at: time)
        state = .single(
          at >= from && at < to ? Firing(at: at, slot: FiringSlot(date: date, time: time)) : nil)
      case .calendar(let calendar):
        if !calendar.repeats {
          // A calendar trigger that does not repeat fires once, at its first match from `from`.
          let firing = calendar.nextFiring(after: from - 1, in: days.zone)
          state = .single(firing.flatMap { $0.at < to ? $0 : nil })
        } else if let dayOfMonth = calendar.dayOfMonth {
          // One date a month: step through the months, not the days.
          let (year, month, _) = days.first.components
          state = .monthly(calendar, day: dayOfMonth, month: year * 12 + month - 1)
        } else {
          state = .daily(calendar, date: days.first)
        }
      }
    }

    /// The next firing, or `nil` when the range holds no more.
    public mutating func next() -> Firing? {
      while true {
        switch state {
        case .single(let firing):
          state = .single(nil)
          return firing
        case .daily(let calendar, let date):
          guard date <= days.last else {
            state = .single(nil)
            return nil
          }
          state = .daily(calendar, date: date.adding(days: 1))
          if let firing = firing(of: calendar, on: date) { return firing }
        case .monthly(let calendar, let dayOfMonth, let index):
          let (year, month) = (index / 12, index % 12 + 1)
          let day = Swift.min(dayOfMonth, LocalDate.daysIn(month: month, year: year))
          guard let date = LocalDate(year: year, month: month, day: day), date <= days.last else {
            state = .single(nil)
            return nil
          }
          state = .monthly(calendar, day: dayOfMonth, month: index + 1)
          if date >= days.first, let firing = firing(of: calendar, on: date) { return firing }
        }
      }
    }

    /// The firing of `calendar` on `date`, when it matches and falls in the range.
    private func firing(of calendar: CalendarTrigger, on date: LocalDate) -> Firing? {
      guard calendar.matches(date) else { return nil }
      let time = calendar.time
      let fire = days.instant(on: date, at: time)
      guard fire >= from, fire < to else { return nil }
      return Firing(at: fire, slot: FiringSlot(date: date, time: time))
    }
  }

  /// Whether it fires more than once: a stored request whose trigger does not repeat (a snooze
  /// or outlier alert) is used up by its firing.
  public var repeats: Bool {
    switch self {
    case .calendar(let calendar): calendar.repeats
    case .date, .local: false
    }
  }
}

extension CalendarTrigger {
  /// The instant this trigger fires on the local `date`, or `nil` when it does not match.
  public func fire(on date: LocalDate, in timeZone: Zone) -> Int64? {
    guard matches(date) else { return nil }
    return WallClock.instant(on: date, at: time, in: timeZone)
  }

  /// The first instant strictly after `instant` at which this trigger fires, for any distance
  /// ahead.
  public func nextFire(after instant: Int64, in timeZone: Zone) -> Int64? {
    nextFiring(after: instant, in: timeZone)?.at
  }

  /// The first firing strictly after `instant`, with its slot, for any distance ahead: a monthly
  /// trigger looks at the months ahead (at most 13 of them), others at the days (at most nine: a
  /// day either side of a week covers every weekday in every zone).
  public func nextFiring(after instant: Int64, in timeZone: Zone) -> Firing? {
    let today = WallClock.localDate(at: instant, in: timeZone)
    if let dayOfMonth {
      let (year, month, _) = today.adding(days: -1).components
      for ahead in 0...13 {
        let index = year * 12 + (month - 1) + ahead
        let (targetYear, targetMonth) = (index / 12, index % 12 + 1)
        let day = min(dayOfMonth, LocalDate.daysIn(month: targetMonth, year: targetYear))
        guard let date = LocalDate(year: targetYear, month: targetMonth, day: day),
          let fire = fire(on: date, in: timeZone), fire > instant
        else { continue }
        return Firing(at: fire, slot: FiringSlot(date: date, time: time))
      }
      return nil
    }
    // The firing instant of a date only grows with the date, and each weekday recurs within a
    // week; a day before today covers zones whose offset is ahead of the wall clock.
    for offset in -1...8 {
      let date = today.adding(days: offset)
      guard let fire = fire(on: date, in: timeZone), fire > instant else { continue }
      return Firing(at: fire, slot: FiringSlot(date: date, time: time))
    }
    return nil
  }
}
