/// The nightly decision of reminders that listen: each reminder's record read into its state
/// (``Adaptation``), its strength and streak (``HabitScore``), and the learned requests moved,
/// paused into check-ins, or made to follow a moved routine (``ChangePoint``). Pure: the plan
/// gathers the facts, this decides, the plan stores the records and reconciles the requests.
public struct AdaptationPlanner: Sendable {
  /// The settings (`adapts`, the snooze minutes).
  public var settings: PlannerSettings
  /// The user's zone.
  public let zone: Zone
  /// Now.
  public let now: Int64
  /// The zone's days the rules look at.
  let calendar: ZoneDays

  /// A planner at `now`.
  public init(settings: PlannerSettings, zone: Zone, now: Int64) {
    self.settings = settings
    self.zone = zone
    self.now = now
    calendar = AdaptationPlanner.calendar(now: now, in: zone)
  }

  /// What the plan knows.
  public struct Input: Sendable {
    /// The learned requests this plan wants, as the learner made them.
    public var learned: [NotificationRequest]
    /// The learned requests pending before this plan (a routine the learner lost while it
    /// moves is followed from them).
    public var previousLearned: [NotificationRequest]
    /// The requests of the reminders you defined, as their definitions make them.
    public var defined: [NotificationRequest]
    /// The adaptation mode of each reminder you defined, by id.
    public var modes: [String: AdaptationMode]
    /// The records of the last plan, by key.
    public var records: [String: AdaptationRecord]
    /// Each reminder's record: its firings and answers of the last 28 days and its acts of the
    /// last 90, by key (``NotificationRequest/adaptationKey``).
    public var histories: [String: ReminderRecord]
    /// The latest time each learned routine is usually done (its usual time plus its spread), by
    /// key: a reminder never moves past it, and a paused one checks in there.
    public var latest: [String: TimeOfDay]

    /// An input.
    public init(
      learned: [NotificationRequest], previousLearned: [NotificationRequest] = [],
      defined: [NotificationRequest] = [], modes: [String: AdaptationMode] = [:],
      records: [String: AdaptationRecord] = [:], histories: [String: ReminderRecord] = [:],
      latest: [String: TimeOfDay] = [:]
    ) {
      self.learned = learned
      self.previousLearned = previousLearned
      self.defined = defined
      self.modes = modes
      self.records = records
      self.histories = histories
      self.latest = latest
    }
  }

  /// What the plan does.
  public struct Output: Sendable {
    /// The learned requests to reconcile: moved, paused into check-ins, following moves.
    public var learned: [NotificationRequest]
    /// The records to store.
    public var records: [AdaptationRecord]
  }

  /// Decides for every reminder of `input`.
  public func plan(_ input: Input) -> Output {
    let today = WallClock.localDate(at: now, in: zone)
    let wantedKeys = Set(input.learned.compactMap(\.adaptationKey))
    var groups = Dictionary(grouping: input.learned) { $0.adaptationKey ?? $0.id }
    // A routine the learner lost while it moves: followed from the requests pending before.
    for (key, previous) in Dictionary(
      grouping: input.previousLearned, by: { $0.adaptationKey ?? $0.id })
    where !wantedKeys.contains(key) {
      guard let history = input.histories[key], let usual = previous.first?.metadata?.suggestedTime,
        move(days(history, today: today).filter { $0.date < today }, usual: usual) != nil,
        !covered(previous, by: input.learned)
      else { continue }
      groups[key] = previous
    }
    // Each reminder is decided on its own: on all cores, in the order of their keys.
    let learnedGroups = groups.sorted { $0.key < $1.key }
    let decided = parallelMap(learnedGroups.count) { index in
      let (key, requests) = learnedGroups[index]
      let previous = input.records[key] ?? fresh(key)
      let policy = AdaptationPolicy.of(requests, enabled: settings.adapts, mode: previous.mode)
      let history = input.histories[key] ?? ReminderRecord(requests: requests, firings: [])
      let what = requests.first?.actKind?.name ?? requests.first?.title ?? key
      let days = self.days(history, today: today)
      var record = decide(
        previous, days: days, tied: history.requests.contains { $0.isTiedToKind },
        policy: policy, today: today, what: what)
      var moved: ChangePoint.Move?
      if policy.timing, let usual = requests.first?.metadata?.suggestedTime {
        moved = move(days.filter { $0.date < today }, usual: usual)
        if let moved {
          record.offsetMinutes = 0
          record.offsetSince = now
          record.explanations.insert(
            "moved to \(moved.time): you did \(what) around \(moved.time) on \(moved.agreeing) of the last \(moved.of) days it was on",
            at: 0)
        }
      }
      let adjusted = requests.map {
        adjust($0, record: record, moved: moved, latest: input.latest[key])
      }
      return (record, adjusted)
    }
    let definedGroups = Dictionary(grouping: input.defined) { $0.adaptationKey ?? $0.id }
      .sorted { $0.key < $1.key }
    let definedRecords = parallelMap(definedGroups.count) { index in
      let (key, requests) = definedGroups[index]
      let previous = input.records[key] ?? fresh(key)
      let mode = input.modes[key] ?? .auto
      let policy = AdaptationPolicy.of(requests, enabled: settings.adapts, mode: mode)
      let history = input.histories[key] ?? ReminderRecord(requests: requests, firings: [])
      let what = requests.first?.actKind?.name ?? requests.first?.title ?? key
      var record = decide(
        previous, days: self.days(history, today: today),
        tied: history.requests.contains { $0.isTiedToKind }, policy: policy, today: today,
        what: what)
      record.mode = .auto
      return record
    }
    return Output(
      learned: decided.flatMap(\.1).sorted { $0.id < $1.id },
      records: decided.map(\.0) + definedRecords)
  }

  /// The record of a reminder first seen now: it fires for a week before it may pause.
  func fresh(_ key: String) -> AdaptationRecord {
    var record = AdaptationRecord(key: key)
    record.startedAt = now
    return record
  }

  /// The days of a reminder's record the rules look at: the last 90 through today (read once;
  /// the rules take the last 28, the move the last few).
  func days(_ history: ReminderRecord, today: LocalDate) -> [Adaptation.Day] {
    history.days(
      from: today.adding(days: -Adaptation.strengthDays), through: today, now: now, in: zone,
      calendar: calendar, detailedFrom: today.adding(days: -Adaptation.historyDays))
  }

  /// The zone's days of the 90 days the rules look at, worked out once for every reminder.
  static func calendar(now: Int64, in zone: Zone) -> ZoneDays {
    let today = WallClock.localDate(at: now, in: zone)
    let first = today.adding(days: -Adaptation.strengthDays)
    return ZoneDays(
      zone, from: WallClock.instant(on: first, at: TimeOfDay(secondsSinceMidnight: 0), in: zone),
      to: WallClock.instant(
        on: today.adding(days: 1), at: TimeOfDay(secondsSinceMidnight: 0), in: zone))
  }

  /// The record of a reminder after its days (``days(_:today:)``), with its strength and streak
  /// when it is `tied` to an event kind.
  func decide(
    _ previous: AdaptationRecord, days: [Adaptation.Day], tied: Bool, policy: AdaptationPolicy,
    today: LocalDate, what: String
  ) -> AdaptationRecord {
    let first = today.adding(days: -Adaptation.historyDays)
    var record = Adaptation.update(
      previous, days: days.filter { $0.date >= first && $0.date < today }, policy: policy,
      today: today, now: now, snoozeMinutes: settings.snoozeMinutes, what: what)
    if tied {
      let score = HabitScore.score(days.map(\.isDone), lastIsToday: days.last?.date == today)
      record.strength = score.strength
      record.streak = score.streak
    } else {
      record.strength = nil
      record.streak = nil
    }
    return record
  }

  /// The move of a routine usually at `usual`, from the acts of its last days before today.
  func move(_ days: [Adaptation.Day], usual: TimeOfDay) -> ChangePoint.Move? {
    // Each act by the wall clock where it was done (its own offset): a trip is no move.
    let recent: [TimeOfDay?] = days.suffix(ChangePoint.days).map { $0.act?.timeOfDay }
    return ChangePoint.move(recent: recent, usual: usual)
  }

  /// Whether the learner's `learned` requests hold the act `previous` reminded of: one of the
  /// same kind on a day in common, less than ``ActWindow/sameActSeconds`` away.
  func covered(_ previous: [NotificationRequest], by learned: [NotificationRequest]) -> Bool {
    previous.contains { old in
      guard let kind = old.actKind, case .calendar(let a) = old.trigger else { return false }
      return learned.contains { new in
        guard new.actKind == kind, case .calendar(let b) = new.trigger else { return false }
        let days =
          (a.weekdays.isEmpty ? .everyDay : a.weekdays).rawValue
          & (b.weekdays.isEmpty ? .everyDay : b.weekdays).rawValue
        return days != 0 && a.time.distance(to: b.time) < ActWindow.sameActSeconds
      }
    }
  }

  /// A learned request as adaptation leaves it: at its routine's new time when it moved, as a
  /// check-in at `latest` when paused, or moved by the record's offset (never past `latest`, and
  /// never across midnight: its days stay its days).
  func adjust(
    _ request: NotificationRequest, record: AdaptationRecord, moved: ChangePoint.Move?,
    latest: TimeOfDay?
  ) -> NotificationRequest {
    guard case .calendar(var trigger) = request.trigger, var metadata = request.metadata else {
      return request
    }
    let base = trigger.time.secondsSinceMidnight
    var target = base
    var note: String?
    if let moved, let usual = metadata.suggestedTime {
      let shift = usual.signedDistance(to: moved.time)
      target = base + shift
      metadata.suggestedTime = moved.time
      if case .since(let start) = metadata.lookBack {
        metadata.lookBack = .since(start.adding(seconds: shift).roundedToMinute)
      }
      metadata.actUntil = metadata.actUntil?.adding(seconds: shift).roundedToMinute
      note = record.explanations.first
    } else if record.state == .paused {
      let checkIn = latest ?? metadata.actUntil ?? trigger.time
      target = base + max(0, trigger.time.signedDistance(to: checkIn))
      note = record.explanations.first { $0.hasPrefix("paused") }
      var body = "Check-in: \(metadata.eventKind) is not logged yet today"
      if let usual = metadata.suggestedTime { body += " (usually around \(usual))" }
      return finish(
        request, trigger: &trigger, metadata: metadata, seconds: target, note: note,
        body: body + ".")
    } else if record.offsetMinutes != 0 {
      target = base + record.offsetMinutes * 60
      if let latest, target > base {
        target = min(target, base + max(0, trigger.time.signedDistance(to: latest)))
      }
      note = record.explanations.first
    }
    return finish(request, trigger: &trigger, metadata: metadata, seconds: target, note: note)
  }

  private func finish(
    _ request: NotificationRequest, trigger: inout CalendarTrigger, metadata: RequestMetadata,
    seconds: Int, note: String?, body: String? = nil
  ) -> NotificationRequest {
    // Its days stay its days: a move that would cross midnight stops at it.
    let clamped = max(0, min(86_340, seconds)) / 60 * 60
    var metadata = metadata
    metadata.adaptation = note
    trigger.hour = clamped / 3600
    trigger.minute = clamped / 60 % 60
    var request = request
    request.trigger = .calendar(trigger)
    request.metadata = metadata
    if let body { request.body = ReminderMessages.fit(body) }
    return request
  }
}
