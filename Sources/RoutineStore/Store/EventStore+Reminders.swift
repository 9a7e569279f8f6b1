import RoutineCore

/// Why a definition could not be stored.
public enum DefinitionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The identifier belongs to something removed: nothing brings it back.
  case deleted(String)
  /// Another definition has the identifier (or a habit the name).
  case exists(String)
  /// No such reminder, habit or task.
  case unknown(String)

  /// A sentence.
  public var description: String {
    switch self {
    case .deleted(let id): "'\(id)' was removed and stays removed; add it anew to get a new one"
    case .exists(let id): "'\(id)' exists already"
    case .unknown(let id): "there is no '\(id)'"
    }
  }
}

extension EventStore {
  // MARK: Reminders

  private static let reminderColumns = """
    id, type, enabled, kind_key, kind_name, preset, title, message, style, repetition, time,
    window_end, weekdays, day_of_month, once_day, look_back, link, habit_timing, timing_value,
    minutes_before, changed_at, adapt, hold
    """

  /// Every reminder, in the order they were added.
  public func reminders() throws -> [Reminder] {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.reminderColumns) FROM reminders ORDER BY seq")
      var result: [Reminder] = []
      while try select.step() { result.append(EventStore.reminder(from: select)) }
      return result
    }
  }

  /// The enabled reminders an event of `kind` counts for (activity and habit reminders): an
  /// indexed query, for the check after each logged event.
  public func reminders(watching kind: EventKind) throws -> [Reminder] {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.reminderColumns) FROM reminders WHERE kind_key = ? AND enabled = 1 ORDER BY seq"
      )
      try select.bind(kind.key, at: 1)
      var result: [Reminder] = []
      while try select.step() { result.append(EventStore.reminder(from: select)) }
      return result
    }
  }

  /// The reminder `id`, if there is one.
  public func reminder(id: String) throws -> Reminder? {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.reminderColumns) FROM reminders WHERE id = ?")
      try select.bind(id, at: 1)
      return try select.step() ? EventStore.reminder(from: select) : nil
    }
  }

  private static func reminder(from row: Statement) -> Reminder {
    func int(_ column: Int32) -> Int? { row.isNull(at: column) ? nil : Int(row.int(at: column)) }
    func time(_ column: Int32) -> TimeOfDay? {
      int(column).map(TimeOfDay.init(secondsSinceMidnight:))
    }
    let kind = Reminder.Kind(rawValue: row.text(at: 1) ?? "") ?? .general
    var schedule: ReminderSchedule?
    if let repetition = row.text(at: 9).flatMap(Repetition.init(rawValue:)), let at = time(10) {
      schedule = ReminderSchedule(
        repetition: repetition, time: at, windowEnd: time(11),
        weekdays: WeekdaySet(rawValue: UInt8(truncatingIfNeeded: int(12) ?? 0)),
        dayOfMonth: int(13), date: int(14).map(LocalDate.init(daysSince1970:)))
    }
    var habitTiming: HabitTiming?
    switch row.text(at: 17) {
    case "at": habitTiming = .at(time(18) ?? TimeOfDay(secondsSinceMidnight: 0))
    case "windowStart": habitTiming = .windowStart
    case "beforeWindow": habitTiming = .beforeWindow(minutes: int(18) ?? 0)
    default: habitTiming = nil
    }
    return Reminder(
      id: row.text(at: 0) ?? "", kind: kind, isEnabled: row.int(at: 2) != 0,
      title: row.text(at: 6), message: row.text(at: 7),
      style: Reminder.Style(rawValue: row.text(at: 8) ?? "") ?? .notification,
      activity: kind == .activity
        ? row.text(at: 4).flatMap { name in
          row.text(at: 3).map { EventKind(name: name, key: $0) }
        } : nil,
      preset: row.text(at: 5).flatMap(ActivityPreset.init(rawValue:)), lookBackHours: int(15),
      schedule: schedule, link: row.text(at: 16), habitTiming: habitTiming,
      minutesBefore: int(19), changedAt: Int64(row.int(at: 20)),
      adapt: row.text(at: 21).flatMap(AdaptationMode.init(rawValue:)) ?? .auto,
      hold: row.text(at: 22).map { $0 == "on" })
  }

  /// Adds `reminder` at `now` (its ``Reminder/changedAt``); an empty id gets the next
  /// `reminder-N`. Returns it as stored. A removed id is refused: nothing brings a removed
  /// reminder back.
  @discardableResult
  public func addReminder(_ reminder: Reminder, now: Int64) throws -> Reminder {
    try write {
      var reminder = reminder
      reminder.changedAt = now
      if !reminder.id.isEmpty {
        if try isDeleted(reminder.id) { throw DefinitionError.deleted(reminder.id) }
        if try self.reminder(id: reminder.id) != nil { throw DefinitionError.exists(reminder.id) }
      }
      let placeholder = reminder.id.isEmpty ? "new" : reminder.id
      try saveReminder(reminder, id: placeholder, insert: true)
      if reminder.id.isEmpty {
        reminder.id = try assignID(prefix: "reminder", table: "reminders")
      }
      return reminder
    }
  }

  /// Replaces the stored reminder with `reminder`'s id at `now`; returns whether there was one.
  /// Its cancellations go (its times may have changed).
  @discardableResult
  public func updateReminder(_ reminder: Reminder, now: Int64) throws -> Bool {
    var reminder = reminder
    reminder.changedAt = now
    return try write {
      guard try self.reminder(id: reminder.id) != nil else { return false }
      try saveReminder(reminder, id: reminder.id, insert: false)
      try deleteCancellations(reminderID: reminder.id)
      return true
    }
  }

  private func saveReminder(_ reminder: Reminder, id: String, insert: Bool) throws {
    let sql =
      insert
      ? """
      INSERT INTO reminders (id, type, enabled, kind_key, kind_name, preset, title, message, style,
        repetition, time, window_end, weekdays, day_of_month, once_day, look_back, link,
        habit_timing, timing_value, minutes_before, changed_at, adapt, hold, created_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
        ?19, ?20, ?21, ?22, ?23, strftime('%s', 'now'))
      """
      : """
      UPDATE reminders SET type = ?2, enabled = ?3, kind_key = ?4, kind_name = ?5, preset = ?6,
        title = ?7, message = ?8, style = ?9, repetition = ?10, time = ?11, window_end = ?12,
        weekdays = ?13, day_of_month = ?14, once_day = ?15, look_back = ?16, link = ?17,
        habit_timing = ?18, timing_value = ?19, minutes_before = ?20, changed_at = ?21,
        adapt = ?22, hold = ?23
      WHERE id = ?1
      """
    let statement = try connection.prepare(sql)
    try statement.bind(id, at: 1)
    try statement.bind(reminder.kind.rawValue, at: 2)
    try statement.bind(reminder.isEnabled ? 1 : 0, at: 3)
    // The kind whose events count: the activity's, or the habit's or task's name.
    let watched = try watchedKind(of: reminder)
    try statement.bind(watched?.key, at: 4)
    try statement.bind(watched?.name, at: 5)
    try statement.bind(reminder.preset?.rawValue, at: 6)
    try statement.bind(reminder.title, at: 7)
    try statement.bind(reminder.message, at: 8)
    try statement.bind(reminder.style.rawValue, at: 9)
    if let schedule = reminder.schedule {
      try statement.bind(schedule.repetition.rawValue, at: 10)
      try statement.bind(Int64(schedule.time.secondsSinceMidnight), at: 11)
      if let end = schedule.windowEnd {
        try statement.bind(Int64(end.secondsSinceMidnight), at: 12)
      }
      try statement.bind(Int64(schedule.weekdays.rawValue), at: 13)
      if let day = schedule.dayOfMonth { try statement.bind(Int64(day), at: 14) }
      if let date = schedule.date { try statement.bind(Int64(date.daysSince1970), at: 15) }
    }
    if let hours = reminder.lookBackHours { try statement.bind(Int64(hours), at: 16) }
    try statement.bind(reminder.link, at: 17)
    switch reminder.habitTiming {
    case .at(let time):
      try statement.bind("at", at: 18)
      try statement.bind(Int64(time.secondsSinceMidnight), at: 19)
    case .windowStart:
      try statement.bind("windowStart", at: 18)
    case .beforeWindow(let minutes):
      try statement.bind("beforeWindow", at: 18)
      try statement.bind(Int64(minutes), at: 19)
    case nil:
      break
    }
    if let minutes = reminder.minutesBefore { try statement.bind(Int64(minutes), at: 20) }
    try statement.bind(reminder.changedAt ?? 0, at: 21)
    try statement.bind(reminder.adapt == .auto ? nil : reminder.adapt.rawValue, at: 22)
    try statement.bind(reminder.hold.map { $0 ? "on" : "off" }, at: 23)
    try statement.step()
  }

  private func watchedKind(of reminder: Reminder) throws -> EventKind? {
    switch reminder.kind {
    case .activity: return reminder.activity ?? reminder.preset?.kind
    case .general: return nil
    case .habit: return try reminder.link.flatMap { try habit(id: $0) }?.name
    case .task: return try reminder.link.flatMap { try task(id: $0) }?.name
    }
  }

  /// Removes reminder `id` with its cancellations, and puts its id on the deleted list; returns
  /// whether there was one.
  @discardableResult
  public func removeReminder(id: String) throws -> Bool {
    try write {
      let delete = try connection.prepare("DELETE FROM reminders WHERE id = ?")
      try delete.bind(id, at: 1)
      try delete.step()
      guard connection.changes > 0 else { return false }
      try markDeleted(id)
      try deleteCancellations(reminderID: id)
      try deleteAdaptation(key: id)
      return true
    }
  }

  /// Sets whether reminder `id` adapts (its definition's ``Reminder/adapt``), leaving the rest
  /// of it, its cancellations and when it fires from, as they are.
  public func setAdaptMode(of id: String, _ mode: AdaptationMode) throws {
    try write {
      let update = try connection.prepare("UPDATE reminders SET adapt = ? WHERE id = ?")
      try update.bind(mode == .auto ? nil : mode.rawValue, at: 1)
      try update.bind(id, at: 2)
      try update.step()
    }
  }

  /// Whether `id` was removed.
  public func isDeleted(_ id: String) throws -> Bool {
    try read {
      let select = try connection.prepare("SELECT 1 FROM deleted_ids WHERE id = ?")
      try select.bind(id, at: 1)
      return try select.step()
    }
  }

  /// Renames the row just inserted as 'new' to `prefix-N`, N its row number or, when an
  /// imported definition holds that id already (or held it and was removed), the next free one.
  private func assignID(prefix: String, table: String) throws -> String {
    var number = connection.lastInsertRowID
    let taken = try connection.prepare("SELECT 1 FROM \(table) WHERE id = ?")
    while true {
      let id = "\(prefix)-\(number)"
      taken.reset()
      try taken.bind(id, at: 1)
      if try !taken.step(), try !isDeleted(id) {
        let rename = try connection.prepare("UPDATE \(table) SET id = ? WHERE id = 'new'")
        try rename.bind(id, at: 1)
        try rename.step()
        return id
      }
      number += 1
    }
  }

  private func markDeleted(_ id: String) throws {
    let insert = try connection.prepare(
      "INSERT OR IGNORE INTO deleted_ids (id, deleted_at) VALUES (?, strftime('%s', 'now'))")
    try insert.bind(id, at: 1)
    try insert.step()
  }

  // MARK: Habits

  private static let habitColumns =
    "id, name, kind_key, repetition, weekdays, day_of_month, window_start, window_end"

  /// Every habit, in the order added.
  public func habits() throws -> [Habit] {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.habitColumns) FROM habits ORDER BY seq")
      var result: [Habit] = []
      while try select.step() { result.append(EventStore.habit(from: select)) }
      return result
    }
  }

  /// The habit `id`, or the one named `id` (as kinds match: case and spacing ignored); the one
  /// added first when both are.
  public func habit(id: String) throws -> Habit? {
    try definition(in: "habits", columns: EventStore.habitColumns, id: id, EventStore.habit(from:))
  }

  /// The row of `table` (habits or tasks) whose id is `id` or whose name's key is `id`'s, the
  /// one added first, decoded by `decode`. Both columns are indexed: no scan of every row (an
  /// import of thousands of habit and task reminders looks up each one's link).
  private func definition<T>(
    in table: String, columns: String, id: String, _ decode: (Statement) -> T
  ) throws -> T? {
    try read {
      let select = try connection.prepare(
        """
        SELECT \(columns) FROM \(table) WHERE id = ?1 OR kind_key = ?2
        ORDER BY seq LIMIT 1
        """)
      try select.bind(id, at: 1)
      try select.bind(EventKind(id)?.key, at: 2)
      return try select.step() ? decode(select) : nil
    }
  }

  private static func habit(from row: Statement) -> Habit {
    var window: ClosedRange<TimeOfDay>?
    if !row.isNull(at: 6), !row.isNull(at: 7) {
      let start = TimeOfDay(secondsSinceMidnight: Int(row.int(at: 6)))
      let end = TimeOfDay(secondsSinceMidnight: Int(row.int(at: 7)))
      window = start...max(start, end)
    }
    return Habit(
      id: row.text(at: 0) ?? "",
      name: EventKind(name: row.text(at: 1) ?? "", key: row.text(at: 2) ?? ""),
      repetition: Repetition(rawValue: row.text(at: 3) ?? "") ?? .daily,
      weekdays: WeekdaySet(rawValue: UInt8(truncatingIfNeeded: row.int(at: 4))),
      dayOfMonth: row.isNull(at: 5) ? nil : Int(row.int(at: 5)), window: window)
  }

  /// Adds `habit`, an empty id getting the next `habit-N`; returns it as stored.
  @discardableResult
  public func addHabit(_ habit: Habit) throws -> Habit {
    try write {
      var habit = habit
      if try self.habit(id: habit.name.name) != nil {
        throw DefinitionError.exists(habit.name.name)
      }
      if !habit.id.isEmpty, try isDeleted(habit.id) { throw DefinitionError.deleted(habit.id) }
      try saveHabit(habit, id: habit.id.isEmpty ? "new" : habit.id, insert: true)
      if habit.id.isEmpty {
        habit.id = try assignID(prefix: "habit", table: "habits")
      }
      return habit
    }
  }

  /// Replaces the habit with `habit`'s id; its reminders follow (their watched kind too).
  @discardableResult
  public func updateHabit(_ habit: Habit) throws -> Bool {
    try write {
      guard try self.habit(id: habit.id) != nil else { return false }
      try saveHabit(habit, id: habit.id, insert: false)
      try renameLinkedReminders(type: "habit", link: habit.id, to: habit.name)
      return true
    }
  }

  /// Points the reminders of `type` linked to `link` at its name (it may be new): they watch
  /// for events of that kind.
  private func renameLinkedReminders(type: String, link: String, to name: EventKind) throws {
    let follow = try connection.prepare(
      "UPDATE reminders SET kind_key = ?, kind_name = ? WHERE type = ? AND link = ?")
    try follow.bind(name.key, at: 1)
    try follow.bind(name.name, at: 2)
    try follow.bind(type, at: 3)
    try follow.bind(link, at: 4)
    try follow.step()
  }

  private func saveHabit(_ habit: Habit, id: String, insert: Bool) throws {
    let statement = try connection.prepare(
      insert
        ? """
        INSERT INTO habits (id, name, kind_key, repetition, weekdays, day_of_month, window_start,
          window_end, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, strftime('%s', 'now'))
        """
        : """
        UPDATE habits SET name = ?2, kind_key = ?3, repetition = ?4, weekdays = ?5,
          day_of_month = ?6, window_start = ?7, window_end = ?8
        WHERE id = ?1
        """)
    try statement.bind(id, at: 1)
    try statement.bind(habit.name.name, at: 2)
    try statement.bind(habit.name.key, at: 3)
    try statement.bind(habit.repetition.rawValue, at: 4)
    try statement.bind(Int64(habit.weekdays.rawValue), at: 5)
    if let day = habit.dayOfMonth { try statement.bind(Int64(day), at: 6) }
    if let window = habit.window {
      try statement.bind(Int64(window.lowerBound.secondsSinceMidnight), at: 7)
      try statement.bind(Int64(window.upperBound.secondsSinceMidnight), at: 8)
    }
    try statement.step()
  }

  /// Removes habit `id` and its reminders (their ids go on the deleted list too); returns the
  /// removed reminders' ids, or `nil` when there was no such habit.
  public func removeHabit(id: String) throws -> [String]? {
    try write {
      guard let habit = try habit(id: id) else { return nil }
      return try removeLinked(habit.id, table: "habits")
    }
  }

  private func removeLinked(_ id: String, table: String) throws -> [String] {
    let linked = try reminders().filter { $0.link == id }.map(\.id)
    for reminder in linked { try removeReminder(id: reminder) }
    let delete = try connection.prepare("DELETE FROM \(table) WHERE id = ?")
    try delete.bind(id, at: 1)
    try delete.step()
    try markDeleted(id)
    return linked
  }

  // MARK: Tasks

  private static let taskColumns =
    "id, name, kind_key, due_at, due_offset, done_at, done_offset, due_pinned"

  /// Every task, in the order added.
  public func tasks() throws -> [TodoTask] {
    try read {
      let select = try connection.prepare(
        "SELECT \(EventStore.taskColumns) FROM tasks ORDER BY seq")
      var result: [TodoTask] = []
      while try select.step() { result.append(EventStore.task(from: select)) }
      return result
    }
  }

  private static func task(from row: Statement) -> TodoTask {
    TodoTask(
      id: row.text(at: 0) ?? "",
      name: EventKind(name: row.text(at: 1) ?? "", key: row.text(at: 2) ?? ""),
      due: EventStore.due(
        .stored(at: row.int(at: 3), offset: row.int(at: 4)), pinned: row.int(at: 7) != 0),
      doneAt: row.isNull(at: 5) ? nil : .stored(at: row.int(at: 5), offset: row.int(at: 6)))
  }

  /// The due time stored as `at` and `offset` (see `saveTask`).
  static func due(_ stored: Timestamp, pinned: Bool) -> DueTime {
    let local = stored.secondsSince1970 + Int64(stored.utcOffsetSeconds)
    if pinned { return DueTime(pinnedTo: stored) }
    let days = Int((local - (local % 86_400 + 86_400) % 86_400) / 86_400)
    return DueTime(
      date: LocalDate(daysSince1970: days),
      time: TimeOfDay(secondsSinceMidnight: Int(local - Int64(days) * 86_400)))
  }

  /// The task `id`, or the one named `id`; the one added first when several are.
  public func task(id: String) throws -> TodoTask? {
    try definition(in: "tasks", columns: EventStore.taskColumns, id: id, EventStore.task(from:))
  }

  /// Adds `task`, an empty id getting the next `task-N`; returns it as stored.
  @discardableResult
  public func addTask(_ task: TodoTask) throws -> TodoTask {
    try write {
      var task = task
      if !task.id.isEmpty, try isDeleted(task.id) { throw DefinitionError.deleted(task.id) }
      try saveTask(task, id: task.id.isEmpty ? "new" : task.id, insert: true)
      if task.id.isEmpty {
        task.id = try assignID(prefix: "task", table: "tasks")
      }
      return task
    }
  }

  /// Replaces the task with `task`'s id (its reminders follow the due date: they are derived
  /// from it); returns whether there was one.
  @discardableResult
  public func updateTask(_ task: TodoTask) throws -> Bool {
    try write {
      guard try self.task(id: task.id) != nil else { return false }
      try saveTask(task, id: task.id, insert: false)
      try renameLinkedReminders(type: "task", link: task.id, to: task.name)
      return true
    }
  }

  private func saveTask(_ task: TodoTask, id: String, insert: Bool) throws {
    let statement = try connection.prepare(
      insert
        ? """
        INSERT INTO tasks (id, name, kind_key, due_at, due_offset, done_at, done_offset, due_pinned,
          created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, strftime('%s', 'now'))
        """
        : """
        UPDATE tasks SET name = ?2, kind_key = ?3, due_at = ?4, due_offset = ?5, done_at = ?6,
          done_offset = ?7, due_pinned = ?8
        WHERE id = ?1
        """)
    try statement.bind(id, at: 1)
    try statement.bind(task.name.name, at: 2)
    try statement.bind(task.name.key, at: 3)
    // due_at + due_offset is the due date's local date and time; with due_pinned, due_at is
    // the instant and due_offset the offset it was given with.
    let offset = task.due.pinnedOffset ?? 0
    try statement.bind(
      WallClock.localSeconds(on: task.due.date, at: task.due.time) - Int64(offset), at: 4)
    try statement.bind(Int64(offset), at: 5)
    try statement.bind(task.due.isPinned ? 1 : 0, at: 8)
    if let done = task.doneAt {
      try statement.bind(done.secondsSince1970, at: 6)
      try statement.bind(Int64(done.utcOffsetSeconds), at: 7)
    }
    try statement.step()
  }

  /// Removes task `id` and its reminders; returns their ids, or `nil` when there was no task.
  public func removeTask(id: String) throws -> [String]? {
    try write {
      guard let task = try task(id: id) else { return nil }
      return try removeLinked(task.id, table: "tasks")
    }
  }
}
