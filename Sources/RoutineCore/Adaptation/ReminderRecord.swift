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
public struct ReminderRecord: Sendable {
  /// The reminder's requests now (its days and times, for days nothing was recorded).
  public var requests: [NotificationRequest]
  /// Its recorded firings (first deliveries; alarms' further rings left out), oldest first.
  public var firings: [RecordedFiring]
  /// The deliveries of its snoozed copies, oldest first.
  public var copies: [RecordedFiring]
  /// The answers to its firings and copies, by occurrence.
  public var answers: [Occurrence: [PriorAnswer]]
  /// The instants of the events that do its act (its kind and those counting as it), in order.
  public var acts: [Int64]

  /// A record.
  public init(
    requests: [NotificationRequest], firings: [RecordedFiring], copies: [RecordedFiring] = [],
    answers: [Occurrence: [PriorAnswer]] = [:], acts: [Int64] = []
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
  public func days(from first: LocalDate, through last: LocalDate, now: Int64, in zone: Zone)
    -> [Adaptation.Day]
  {
    guard first <= last else { return [] }
    var recorded: [LocalDate: RecordedFiring] = [:]
    for firing in firings where firing.attempt == 0 {
      let date =
        firing.occurrence.slot?.date ?? WallClock.localDate(at: firing.occurrence.at, in: zone)
      if recorded[date] == nil { recorded[date] = firing }
    }
    let start = WallClock.instant(on: first, at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    let end = WallClock.instant(
      on: last.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone)
    var planned: [LocalDate: (NotificationRequest, Int64)] = [:]
    for request in requests {
      for firing in request.trigger.firings(from: start, to: end, in: zone) {
        let date = firing.slot?.date ?? WallClock.localDate(at: firing.at, in: zone)
        if planned[date].map({ $0.1 > firing.at }) ?? true { planned[date] = (request, firing.at) }
      }
    }
    var days: [Adaptation.Day] = []
    var date = first
    while date <= last {
      defer { date = date.adding(days: 1) }
      if let firing = recorded[date] {
        days.append(day(of: firing, on: date, now: now, in: zone))
      } else if let (request, at) = planned[date] {
        let window = ActWindow.window(for: request, at: at, in: zone)
        days.append(Adaptation.Day(date: date, firing: at, act: firstAct(in: window)))
      }
    }
    return days
  }

  /// The day of a recorded firing: its outcome, with the answers to its snoozed copies and the
  /// acts in its window.
  public func day(of firing: RecordedFiring, on date: LocalDate, now: Int64, in zone: Zone)
    -> Adaptation.Day
  {
    let at = firing.occurrence.at
    let window = ActWindow.window(for: firing.request, at: at, in: zone)
    var given = answers[firing.occurrence] ?? []
    for copy in copies
    where copy.occurrence.at > at && copy.occurrence.at <= window.upperBound {
      given += answers[copy.occurrence] ?? []
    }
    given.sort { $0.answeredAt < $1.answeredAt }
    let tied = firing.request.actKind != nil
    let outcome = FiringOutcome.classify(
      FiringOutcome.Facts(
        firing: at, state: firing.state, answers: given, isTiedToKind: tied,
        acts: tied ? acts(in: window) : [], window: window, now: now))
    return Adaptation.Day(
      date: date, firing: at, outcome: outcome,
      snoozed: given.contains { $0.action == NotificationCategory.snooze.id && !$0.isUndone },
      act: tied ? firstAct(in: window) : nil)
  }

  /// The acts in `window`.
  func acts(in window: ClosedRange<Int64>) -> [Int64] {
    var low = 0
    var high = acts.count
    while low < high {
      let middle = (low + high) / 2
      if acts[middle] < window.lowerBound { low = middle + 1 } else { high = middle }
    }
    var result: [Int64] = []
    var index = low
    while index < acts.count, acts[index] <= window.upperBound {
      result.append(acts[index])
      index += 1
    }
    return result
  }

  /// The first act in `window`.
  func firstAct(in window: ClosedRange<Int64>) -> Int64? {
    acts(in: window).first
  }
}
