import RoutineCore

/// What `routine report` shows, gathered from the store and worked out, with no I/O left: the
/// page and the SVG are pure functions of it (``ReportPage``, ``ReportTimeline``).
struct ReportModel {
  /// `Mon 2026-04-27 08:00`, when the report was made (its `now`).
  var generated: String
  /// The user's zone, as `analyze` names it.
  var zoneName: String
  /// The days the timelines show: the analysis window and the day of `now`.
  var days: ClosedRange<LocalDate>
  /// Days with at least one event in ``days``.
  var daysLogged: Int
  /// The routines learned, in `analyze`'s order.
  var routines: [ReportRoutine]
  /// The firings of the next 7 days, in order.
  var upcoming: [ReportFiring]
  /// What became of the firings in ``days``, per reminder (or request).
  var outcomes: [ReportOutcome]
  /// The reminders the person defined.
  var reminders: [ReportReminder]
  /// The firings in ``days`` that were held while the person was away, busy or in quiet hours,
  /// latest last (at most ``ReportHold/limit``).
  var holds: [ReportHold] = []
}

/// One firing that was held (docs/delivery.md "Held while you are away").
struct ReportHold {
  /// The most a report lists (the latest).
  static let limit = 50
  /// `Tue 2026-04-28 07:00`.
  var at: String
  var id: String
  var title: String
  /// "held now", "released after 12 minutes", "missed: held past its time", "not needed".
  var state: String
  /// Why it was held.
  var reason: String
}

/// One routine and the events of its days.
struct ReportRoutine {
  var routine: Routine
  /// The routine's days in the report's range (only those of its day kind), oldest first.
  var days: [ReportDay]
}

/// One day's events of a routine's kind, as marks on its row.
struct ReportDay {
  var date: LocalDate
  /// The local times of the day's events of the kind.
  var marks: [ReportMark]
}

/// One event on a timeline.
struct ReportMark {
  var time: TimeOfDay
  /// Signed minutes from the routine's time when `analyze` calls the event an outlier.
  var outlierMinutes: Int?
}

/// One upcoming firing.
struct ReportFiring {
  /// `Tue 2026-04-28 07:00`.
  var at: String
  var title: String
  var body: String
  /// Why it will be skipped, or `nil` when it fires.
  var skipped: String?
}

/// What became of one reminder's (or learned reminder's) firings, by ``FiringOutcome``.
struct ReportOutcome {
  /// The reminder's id, or a learned reminder's key (`routine_WakeUp`).
  var id: String
  var title: String
  var delivered = 0
  /// Answers by action, most given first.
  var answers: [(action: String, count: Int)] = []
  /// Delivered and acted on (answered, or its kind logged after it in its act window).
  var acted = 0
  /// Acted on after a snooze (counted in ``acted`` too).
  var snoozedThenActed = 0
  var dismissed = 0
  var ignored = 0
  /// Delivered after its kind was logged earlier that day: not needed.
  var preEmpted = 0
  /// Not delivered: already done, or by a rule (superseded, backing off, paused, the cap).
  var skipped = 0
  /// Not delivered: the machine was off or asleep, or the sink failed.
  var missed = 0
  var failed = 0
  /// Delivered after being held (counted in ``delivered`` too).
  var released = 0
  /// Missed because it was held past its time (counted in ``missed`` too).
  var missedWhileHeld = 0
  /// Held now, waiting for the person.
  var heldNow = 0
  /// Where adaptation left it: "active, strength 72%, streak 5 days".
  var standing: String?
}

/// One reminder a person defined.
struct ReportReminder {
  var id: String
  var subject: String
  var schedule: String
  var isEnabled: Bool
  /// `Tue 2026-04-28 07:00`, or `nil` when it will not fire again.
  var next: String?
  var nextSkipped: String?
}
