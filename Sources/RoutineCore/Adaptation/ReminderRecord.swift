/// A firing as delivery recorded it: the request as it was when it fired, and what became of it.
public struct RecordedFiring: Hashable, Sendable {
  /// The request, as it fired (its words, look-back and act window).
  public var request: NotificationRequest
  /// The firing.
  public var occurrence: Occurrence
  /// 0 for the firing, 1, 2, ... for an alarm's further rings.
  public var attempt: Int
  /// What delivery recorded.
  public var state: FiringRecordState

  /// A recorded firing.
  public init(
    request: NotificationRequest, occurrence: Occurrence, attempt: Int, state: FiringRecordState
  ) {
    self.request = request
    self.occurrence = occurrence
    self.attempt = attempt
    self.state = state
  }
}

/// A reminder's record, day by day: what became of its firings and whether its act was done
/// (``Adaptation/Day``), from what delivery recorded, the answers and the log.
///
/// Each day is judged by the wall clock it was lived on: a recorded firing keeps its local date
/// and time (its slot), and an event its own UTC offset, so after a trip the days before it are
/// read in the zone they were in, not in today's (a 07:00 coffee in Berlin is no 01:00 coffee in
/// New York).
public struct ReminderRecord: Sendable {
  /// The reminder's requests now (its days and times, for days nothing was recorded).
  public var requests: [NotificationRequest]
  /// Its recorded firings (first deliveries; alarms' further rings left out), oldest first.
  public var firings: [RecordedFiring]
  /// The deliveries of its snoozed copies, oldest first.
  public var copies: [RecordedFiring]
  /// The answers to its firings and copies, by occurrence.
  public var answers: [Occurrence: [PriorAnswer]]
  /// The events that do its act (its kind and those counting as it), in order of instant.
  public var acts: [Timestamp]

  /// A record.
  public init(
    requests: [NotificationRequest], firings: [RecordedFiring], copies: [RecordedFiring] = [],
    answers: [Occurrence: [PriorAnswer]] = [:], acts: [Timestamp] = []
  ) {
    self.requests = requests
    self.firings = firings
    self.copies = copies
    self.answers = answers
    self.acts = acts
  }

  /// The days from `first` through `last` the reminder was on, oldest first: a day with a
  /// recorded firing is judged by it (``FiringOutcome/classify(_:)``, with the answers to its
  /// snoozed copies); a day without is on when one of its requests fires that day now.
  ///
  /// `calendar`, when given, holds the zone's days of the range (one for every reminder of a
  /// plan, instead of one per reminder).
  ///
  /// Days before `detailedFrom` (the strength's long tail) are judged by their date alone: done
  /// when an act fell on it, by the act's own clock, without working out its window.
  public func days(
    from first: LocalDate, through last: LocalDate, now: Int64, in zone: Zone,
    calendar: ZoneDays? = nil, detailedFrom: LocalDate? = nil
  )
    -> [Adaptation.Day]
  {
    guard first <= last else { return [] }
    // Arrays by day of the range rather than dictionaries by date: a plan judges 90 days of a
    // thousand reminders, and hashing dates was most of it.
    let base = first.daysSince1970
    let count = last.daysSince1970 - base + 1
    func index(_ date: LocalDate) -> Int? {
      let index = date.daysSince1970 - base
      return index >= 0 && index < count ? index : nil
    }
    var recorded = [Int?](repeating: nil, count: count)
    for position in firings.indices where firings[position].attempt == 0 {
      let occurrence = firings[position].occurrence
      let date = occurrence.slot?.date ?? WallClock.localDate(at: occurrence.at, in: zone)
      if let day = index(date), recorded[day] == nil { recorded[day] = position }
    }
    // The offset each date was lived at, by the events of the kind logged on it, and the
    // first act of each date (for the days judged by their date alone).
    var lived = [Int32?](repeating: nil, count: count)
    var firstActs = [Timestamp?](repeating: nil, count: count)
    for act in acts {
      guard let day = index(act.localDate), lived[day] == nil else { continue }
      lived[day] = act.utcOffsetSeconds
      firstActs[day] = act
    }
    // The firings the requests make now, over the whole range at once (in today's zone).
    let start = WallClock.instant(on: first, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let end = WallClock.instant(
      on: last.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    var planned = [(request: Int, at: Int64)?](repeating: nil, count: count)
    let zoneDays = calendar ?? ZoneDays(zone, from: start, to: end)
    for (position, request) in requests.enumerated() {
      for firing in request.trigger.firings(from: start, to: end, days: zoneDays) {
        let date = firing.slot?.date ?? WallClock.localDate(at: firing.at, in: zone)
        guard let day = index(date) else { continue }
        if planned[day].map({ $0.at > firing.at }) ?? true { planned[day] = (position, firing.at) }
      }
    }
    let detailed = detailedFrom.map { max(0, $0.daysSince1970 - base) } ?? 0
    var days: [Adaptation.Day] = []
    days.reserveCapacity(count)
    for day in 0..<count {
      let date = LocalDate(daysSince1970: base + day)
      if let position = recorded[day] {
        days.append(self.day(of: firings[position], on: date, now: now, in: zone))
        continue
      }
      guard var found = planned[day] else { continue }
      if day < detailed {
        days.append(Adaptation.Day(date: date, firing: found.at, act: firstActs[day]))
        continue
      }
      var dayZone = zone
      // A day lived at another offset than today's zone gives (after a trip): its firings in
      // the zone it was lived in.
      if let offset = lived[day], WallClock.offset(at: found.at, in: zone) != Int64(offset) {
        dayZone = Zone(identifier: "UTC\(offset)", fixedOffset: offset)
        let dayStart = WallClock.instant(
          on: date, at: TimeOfDay(secondsSinceMidnight: 0), in: dayZone)
        var earliest: (request: Int, at: Int64)?
        for (position, request) in requests.enumerated() {
          for firing in request.trigger.firings(from: dayStart, to: dayStart + 86_400, in: dayZone)
          where earliest.map({ $0.at > firing.at }) ?? true {
            earliest = (position, firing.at)
          }
        }
        guard let earliest else { continue }
        found = earliest
      }
      let window = ActWindow.window(for: requests[found.request], at: found.at, in: dayZone)
      days.append(Adaptation.Day(date: date, firing: found.at, act: firstAct(in: window)))
    }
    return days
  }

  /// The zone a recorded firing fired in: the offset between its slot and its instant.
  static func zone(of firing: RecordedFiring, otherwise zone: Zone) -> Zone {
    guard let slot = firing.occurrence.slot else { return zone }
    let offset = Int32(clamping: slot.localSeconds - firing.occurrence.at)
    return Zone(identifier: "UTC\(offset)", fixedOffset: offset)
  }

  /// The day of a recorded firing: its outcome, with the answers to its snoozed copies and the
  /// acts in its window (in the zone it fired in).
  public func day(of firing: RecordedFiring, on date: LocalDate, now: Int64, in zone: Zone)
    -> Adaptation.Day
  {
    let at = firing.occurrence.at
    let window = ActWindow.window(
      for: firing.request, at: at, in: ReminderRecord.zone(of: firing, otherwise: zone))
    var given = answers[firing.occurrence] ?? []
    for copy in copies
    where copy.occurrence.at > at && copy.occurrence.at <= window.upperBound {
      given += answers[copy.occurrence] ?? []
    }
    given.sort { $0.answeredAt < $1.answeredAt }
    let tied = firing.request.isTiedToKind
    let outcome = FiringOutcome.classify(
      FiringOutcome.Facts(
        firing: at, state: firing.state, answers: given, isTiedToKind: tied,
        acts: tied ? acts(in: window).map(\.secondsSince1970) : [], window: window, now: now))
    return Adaptation.Day(
      date: date, firing: at, outcome: outcome,
      snoozed: given.contains { $0.action == NotificationCategory.snooze.id && !$0.isUndone },
      answered: given.contains { FiringOutcome.doingActions.contains($0.action) && !$0.isUndone },
      act: tied ? firstAct(in: window) : nil)
  }

  /// The acts in `window`.
  func acts(in window: ClosedRange<Int64>) -> [Timestamp] {
    var low = 0
    var high = acts.count
    while low < high {
      let middle = (low + high) / 2
      if acts[middle].secondsSince1970 < window.lowerBound {
        low = middle + 1
      } else {
        high = middle
      }
    }
    var result: [Timestamp] = []
    var index = low
    while index < acts.count, acts[index].secondsSince1970 <= window.upperBound {
      result.append(acts[index])
      index += 1
    }
    return result
  }

  /// The first act in `window`.
  func firstAct(in window: ClosedRange<Int64>) -> Timestamp? {
    acts(in: window).first
  }
}
