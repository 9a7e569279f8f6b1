/// Derives the notification requests of the reminders people define (docs/reminders.md).
///
/// Pure: definitions in, requests out; called whenever requests are needed (`pending`,
/// `agenda`, `deliver`), so an edit, a disabled reminder or a task whose due date moved takes
/// effect at once. Identifiers follow the original designs: `<reminderID>-weekday-<1..7>` for
/// each day of an activity reminder, `<reminderID>` for the others.
public struct ReminderPlanner: Sendable {
  /// How times are written in texts.
  public var clock: ClockStyle
  /// The user's zone, when the texts are to be delivered: a task reminder's "in 90 minutes" is
  /// then the real time left at its firing, which a clock change between the two shortens or
  /// lengthens. Without it, the lead as given.
  public var zone: Zone?

  /// A planner writing times in `clock`'s style, and real leads in `zone` when given.
  public init(clock: ClockStyle, zone: Zone? = nil) {
    self.clock = clock
    self.zone = zone
  }

  /// Why a reminder yields no request.
  public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Its habit or task is gone.
    case missingLink(String)
    /// "Minutes before the window" or "at the window's start" for a habit without a window.
    case habitWithoutWindow(String)
    /// No day of the week is on.
    case noDays
    /// Minutes before the window of a monthly habit reach into the evening before its day,
    /// which a day of the month cannot name (the day before the 1st is the 28th to the 31st).
    case eveningBeforeMonthlyDay(String)
    /// The definition breaks a rule (``Reminder/validate()``).
    case invalid(DefinitionProblem)

    /// A sentence.
    public var description: String {
      switch self {
      case .missingLink(let id): "'\(id)' does not exist"
      case .habitWithoutWindow(let name):
        "the habit '\(name)' has no time window, so there is no window to fire before or at; give it one with 'routine habits edit' or use --at"
      case .noDays: "no day of the week is on, so it never fires"
      case .eveningBeforeMonthlyDay(let name):
        "minutes before the window of the monthly habit '\(name)' fall on the evening before its day, which a day of the month cannot name; fire at or after midnight (fewer minutes) or use --at"
      case .invalid(let problem): problem.description
      }
    }
  }

  /// The requests of every enabled reminder, ordered by identifier, as adaptation left them
  /// (`adaptations`, by reminder id: a reminder that opted in moves by its record's offset, and
  /// checks in later while paused).
  public func requests(
    for reminders: [Reminder], habits: [Habit], tasks: [TodoTask],
    adaptations: [String: AdaptationRecord] = [:]
  )
    -> [NotificationRequest]
  {
    let habitsByID = Dictionary(habits.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let tasksByID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return reminders.flatMap { reminder -> [NotificationRequest] in
      guard reminder.isEnabled else { return [] }
      let link = reminder.link
      let made =
        (try? requests(
          for: reminder, habit: link.flatMap { habitsByID[$0] },
          task: link.flatMap { tasksByID[$0] })) ?? []
      guard reminder.adapt == .on, let record = adaptations[reminder.id] else { return made }
      return made.map { ReminderPlanner.adapted($0, by: record) }
    }
    .sorted { $0.id < $1.id }
  }

  /// How long after its time a paused reminder you defined checks in: 60 minutes.
  public static let checkInMinutes = 60

  /// `request` of a reminder that opted into adaptation, as its record leaves it: moved by the
  /// offset, or, paused, checking in ``checkInMinutes`` later (never across midnight).
  public static func adapted(_ request: NotificationRequest, by record: AdaptationRecord)
    -> NotificationRequest
  {
    let policy = AdaptationPolicy.of(request, enabled: true, mode: .on)
    guard case .calendar(var trigger) = request.trigger else { return request }
    var request = request
    var seconds = trigger.time.secondsSinceMidnight
    if record.state == .paused, policy.fading {
      seconds += checkInMinutes * 60
      request.metadata?.adaptation = record.explanations.first { $0.hasPrefix("paused") }
      request.body = ReminderMessages.fit("Check-in: not logged yet today. " + request.body)
    } else if record.offsetMinutes != 0, policy.timing {
      seconds += record.offsetMinutes * 60
      request.metadata?.adaptation = record.explanations.first
    } else {
      return request
    }
    let clamped = max(0, min(86_340, seconds)) / 60 * 60
    trigger.hour = clamped / 3600
    trigger.minute = clamped / 60 % 60
    request.trigger = .calendar(trigger)
    return request
  }

  /// The requests of one reminder (whether or not it is enabled), or why it has none.
  public func requests(for reminder: Reminder, habit: Habit?, task: TodoTask?) throws(Problem)
    -> [NotificationRequest]
  {
    do throws(DefinitionProblem) {
      try reminder.validate()
      try habit?.validate()
    } catch {
      throw .invalid(error)
    }
    switch reminder.kind {
    case .activity: return try activityRequests(reminder)
    case .general: return generalRequests(reminder)
    case .habit:
      guard let habit else { throw .missingLink(reminder.link ?? "?") }
      return try habitRequests(reminder, habit: habit)
    case .task:
      guard let task else { throw .missingLink(reminder.link ?? "?") }
      return taskRequests(reminder, task: task)
    }
  }

  private func request(
    _ reminder: Reminder, id: String, category: NotificationCategory.ID, title: String,
    body: String, trigger: Trigger, metadata: RequestMetadata
  ) -> NotificationRequest {
    var metadata = metadata
    metadata.reminderID = reminder.id
    metadata.isAlarm = reminder.style == .alarm
    metadata.activeSince = reminder.changedAt
    metadata.hold = reminder.hold
    return NotificationRequest(
      id: id, origin: .reminder, category: category,
      title: ReminderMessages.fit(title, maximum: ReminderMessages.maximumTitleLength),
      body: ReminderMessages.fit(body), trigger: trigger, metadata: metadata)
  }

  private func activityRequests(_ reminder: Reminder) throws(Problem) -> [NotificationRequest] {
    let preset = reminder.preset
    guard let kind = reminder.activity ?? preset?.kind, let schedule = reminder.schedule else {
      return []
    }
    guard !schedule.weekdays.isEmpty else { throw .noDays }
    let hours = reminder.lookBackHours ?? preset?.lookBackHours ?? 12
    let window = schedule.windowEnd.map { " (\(clock.format(schedule.time))-\(clock.format($0)))" }
    let body =
      preset.map { preset in
        // The window goes before the message's last mark ("...waiting (18:00-19:00).").
        window.map { "\(preset.message.dropLast())\($0)\(preset.message.suffix(1))" }
          ?? preset.message
      }
      ?? "You have not logged \(kind.name) in the last \(hours == 1 ? "hour" : "\(hours) hours")\(window ?? "")."
    return schedule.weekdays.map { weekday in
      request(
        reminder, id: "\(reminder.id)-weekday-\(weekday)",
        category: preset?.category ?? .activityReminder,
        title: reminder.title ?? preset?.title ?? "Time for \(kind.name)",
        body: reminder.message ?? body,
        trigger: .calendar(
          CalendarTrigger(weekday: weekday, hour: schedule.time.hour, minute: schedule.time.minute)),
        metadata: RequestMetadata(eventKind: kind.name, lookBack: .hours(hours)))
    }
  }

  private func generalRequests(_ reminder: Reminder) -> [NotificationRequest] {
    guard let schedule = reminder.schedule,
      let trigger = ReminderPlanner.trigger(schedule, time: schedule.time)
    else { return [] }
    // The text is the title, and the body says when it comes round; with a title of its own,
    // the text is the body.
    let text = reminder.message ?? "Reminder"
    return [
      request(
        reminder, id: reminder.id, category: .reminder, title: reminder.title ?? text,
        body: reminder.title == nil ? when(schedule) : text, trigger: trigger,
        metadata: RequestMetadata(eventKind: text))
    ]
  }

  private func habitRequests(_ reminder: Reminder, habit: Habit) throws(Problem)
    -> [NotificationRequest]
  {
    let pattern =
      reminder.schedule
      ?? ReminderSchedule(
        repetition: habit.repetition,
        time: habit.window?.lowerBound ?? TimeOfDay(hour: 9, minute: 0)!,
        weekdays: habit.repetition == .daily ? .everyDay : habit.weekdays,
        dayOfMonth: habit.dayOfMonth)
    var time: TimeOfDay
    switch reminder.habitTiming ?? .windowStart {
    case .at(let at):
      time = at
    case .windowStart:
      guard let window = habit.window else { throw .habitWithoutWindow(habit.name.name) }
      time = window.lowerBound
    case .beforeWindow(let minutes):
      guard let window = habit.window else { throw .habitWithoutWindow(habit.name.name) }
      time = window.lowerBound.adding(seconds: -minutes * 60)
    }
    // Minutes before a window early in the morning can fall on the evening before: the days
    // shift back by one, and nothing logged that evening counts yet for the next day (the
    // habit's day starts at its midnight, after the firing).
    var schedule = pattern
    schedule.time = time
    var lookBack: LookBack? = .sameDay
    if case .beforeWindow(let minutes) = reminder.habitTiming,
      let window = habit.window, window.lowerBound.secondsSinceMidnight - minutes * 60 < 0
    {
      guard schedule.repetition != .monthly else {
        throw .eveningBeforeMonthlyDay(habit.name.name)
      }
      schedule.weekdays = schedule.weekdays.shifted(by: -1)
      lookBack = nil
    }
    guard schedule.repetition != .weekly || !schedule.weekdays.isEmpty else { throw .noDays }
    guard let trigger = ReminderPlanner.trigger(schedule, time: time) else { return [] }
    let body: String
    if let window = habit.window {
      body =
        "\(habit.name.name) is due between \(clock.format(window.lowerBound)) and \(clock.format(window.upperBound)) today."
    } else {
      body = "Today is a \(habit.name.name) day."
    }
    return [
      request(
        reminder, id: reminder.id, category: .habitReminder,
        title: reminder.title ?? "Do \(habit.name.name)", body: reminder.message ?? body,
        trigger: trigger,
        metadata: RequestMetadata(
          eventKind: habit.name.name, lookBack: lookBack,
          link: RequestMetadata.Link(id: habit.id, name: habit.name.name)))
    ]
  }

  private func taskRequests(_ reminder: Reminder, task: TodoTask) -> [NotificationRequest] {
    guard task.doneAt == nil else { return [] }
    let minutes = reminder.minutesBefore ?? 60
    let due = task.due
    // A pinned instant is shown with its offset: the user's zone may read it otherwise.
    let offset =
      due.pinnedOffset.map {
        " (\(Timestamp(secondsSince1970: 0, utcOffsetSeconds: $0).offsetText))"
      }
      ?? ""
    let trigger = due.trigger(minutesBefore: minutes)
    let body =
      "Due \(due.date.weekdayName) \(due.date) \(clock.format(due.time))\(offset) (\(ReminderPlanner.lead(realMinutes(before: due, firing: trigger) ?? minutes)))."
    return [
      request(
        reminder, id: reminder.id, category: .taskReminder,
        title: reminder.title ?? "\(task.name.name) is due", body: reminder.message ?? body,
        trigger: trigger,
        metadata: RequestMetadata(
          eventKind: task.name.name, link: RequestMetadata.Link(id: task.id, name: task.name.name)))
    ]
  }

  /// The minutes from a wall-clock firing to a wall-clock due time as they will pass in
  /// ``zone``, when a clock change between the two makes them differ from the lead: 60 minutes
  /// before 03:30 on a spring-forward night fire at 03:00 (the 02:30 that does not exist), 30
  /// real minutes ahead. `nil` without a zone, for a pinned due time (its lead is real already),
  /// and for whole days, which are counted on the calendar ("in 1 day" from 09:00 Sunday to
  /// 09:00 Monday, 23 or 25 hours across a change).
  private func realMinutes(before due: DueTime, firing trigger: Trigger) -> Int? {
    guard let zone, due.pinnedOffset == nil, case .local(let date, let time) = trigger else {
      return nil
    }
    let dueAt = WallClock.instant(on: due.date, at: due.time, in: zone)
    let fires = WallClock.instant(on: date, at: time, in: zone)
    let minutes = floorDiv(Int(dueAt - fires), 60)
    let given = Int(
      (WallClock.localSeconds(on: due.date, at: due.time)
        - WallClock.localSeconds(on: date, at: time))
        / 60)
    return given % 1440 == 0 ? nil : max(0, minutes)
  }

  /// "in 1 hour", "in 1 day", "in 90 minutes".
  static func lead(_ minutes: Int) -> String {
    if minutes == 0 { return "now" }
    if minutes % 1440 == 0 {
      return "in \(minutes / 1440 == 1 ? "1 day" : "\(minutes / 1440) days")"
    }
    if minutes % 60 == 0 { return "in \(minutes / 60 == 1 ? "1 hour" : "\(minutes / 60) hours")" }
    return "in \(minutes == 1 ? "1 minute" : "\(minutes) minutes")"
  }

  /// "Every day at 18:00", "On Mondays and Wednesdays at 18:00": the body of a general reminder.
  private func when(_ schedule: ReminderSchedule) -> String {
    let time = clock.format(schedule.time)
    switch schedule.repetition {
    case .once:
      guard let date = schedule.date else { return "At \(time)." }
      return "\(date.weekdayName) \(date) at \(time)."
    case .daily:
      return "Every day at \(time)."
    case .weekly:
      return "\(ReminderPlanner.onDays(schedule.weekdays)) at \(time)."
    case .monthly:
      return "Every month on the \(ordinal(schedule.dayOfMonth ?? 1)) at \(time)."
    }
  }

  /// "Every day", "On weekdays", "On Mondays and Thursdays", Monday first.
  static func onDays(_ days: WeekdaySet) -> String {
    switch days {
    case .everyDay: return "Every day"
    case .weekdays: return "On weekdays"
    case .weekends: return "On weekends"
    default:
      let names = [
        "Sundays", "Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays",
      ]
      let listed = [2, 3, 4, 5, 6, 7, 1].filter(days.contains).map { names[$0 - 1] }
      guard let last = listed.last else { return "Never" }
      let head = listed.dropLast().joined(separator: ", ")
      return "On " + (head.isEmpty ? last : "\(head) and \(last)")
    }
  }

  /// The trigger of a schedule at `time`.
  static func trigger(_ schedule: ReminderSchedule, time: TimeOfDay) -> Trigger? {
    switch schedule.repetition {
    case .once:
      return schedule.date.map { .local($0, time) }
    case .daily:
      return .calendar(CalendarTrigger(weekdays: .none, hour: time.hour, minute: time.minute))
    case .weekly:
      return .calendar(
        CalendarTrigger(weekdays: schedule.weekdays, hour: time.hour, minute: time.minute))
    case .monthly:
      return .calendar(
        CalendarTrigger(
          weekdays: .none, dayOfMonth: schedule.dayOfMonth ?? 1, hour: time.hour,
          minute: time.minute))
    }
  }
}
