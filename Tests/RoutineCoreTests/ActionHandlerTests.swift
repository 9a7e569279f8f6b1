import Foundation
import RoutineCore
import Testing

/// What an answer to a notification does (docs/delivery.md, "Answer"; NoAlc in
/// docs/reminders.md).
struct ActionHandlerTests {
  let berlin = zone("Europe/Berlin")
  let handler = ActionHandler(clock: .twentyFourHour)

  static func target(
    _ id: String, category: NotificationCategory.ID, origin: RequestOrigin, title: String,
    body: String = "", kind: String?, at occurrence: String, link: RequestMetadata.Link? = nil
  ) -> AnswerTarget {
    AnswerTarget(
      requestID: id, occurrence: epoch(occurrence), category: category, origin: origin,
      title: title, body: body,
      metadata: kind.map { RequestMetadata(eventKind: $0, link: link) })
  }

  static let leavingWork = target(
    "routine_LeavingWork-weekday-2", category: .routineReminder, origin: .learned,
    title: "Time for Leaving Work",
    body: "You left work between 17:13 and 17:31 on 5 of the last 5 weekdays.",
    kind: "Leaving Work", at: "2026-04-27T17:17+02:00")

  static let noAlc = target(
    "reminder-4-weekday-4", category: .noalc, origin: .reminder, title: "NoAlc",
    body: "How was yesterday: steady, easy or wild?", kind: "Alcohol",
    at: "2026-05-06T09:00+02:00")

  func answer(
    _ action: String, to target: AnswerTarget, at now: String, handler: ActionHandler? = nil,
    in timeZone: Zone? = nil
  ) throws -> ActionOutcome {
    try (handler ?? self.handler).answer(
      action, to: target, now: epoch(now), in: timeZone ?? berlin)
  }

  static func logged(
    _ kind: String, at text: String, value: Double? = nil, note: String? = nil
  ) -> ActionEffect {
    .log(
      Event(
        kind: EventKind(kind)!, timestamp: stamp(text), value: value, note: note,
        source: .notification))
  }

  // MARK: I'm on it, dismiss, open, start

  @Test func imOnItLogsTheRequestsKindNow() throws {
    let outcome = try answer("onit", to: Self.leavingWork, at: "2026-04-27T17:23:00+02:00")
    #expect(outcome.action == "onit")
    #expect(outcome.effects == [Self.logged("Leaving Work", at: "2026-04-27T17:23:00+02:00")])
    #expect(outcome.message == "Logged! Leaving Work recorded at 17:23.")
    let twelve = try answer(
      "onit", to: Self.leavingWork, at: "2026-04-27T17:23:00+02:00",
      handler: ActionHandler(clock: .twelveHour))
    #expect(twelve.message == "Logged! Leaving Work recorded at 5:23 PM.")
  }

  @Test func imOnItLogsWithTheOffsetOfTheUsersZoneNow() throws {
    let outcome = try answer(
      "onit", to: Self.leavingWork, at: "2026-04-27T17:23:00-04:00",
      in: zone("America/New_York"))
    #expect(outcome.effects == [Self.logged("Leaving Work", at: "2026-04-27T17:23:00-04:00")])
    guard case .log(let event) = outcome.effects.first else {
      Issue.record("nothing logged")
      return
    }
    #expect(event.timestamp.utcOffsetSeconds == -4 * 3600)
  }

  @Test func dismissAndOpenLogNothing() throws {
    let dismissed = try answer("dismiss", to: Self.leavingWork, at: "2026-04-27T17:20+02:00")
    #expect(dismissed.effects.isEmpty)
    #expect(dismissed.message == "Dismissed 'Time for Leaving Work'; nothing logged.")
    let opened = try answer("open", to: Self.leavingWork, at: "2026-04-27T17:20+02:00")
    #expect(opened.effects.isEmpty)
    #expect(opened.message == "Would open routine at 'Time for Leaving Work'; nothing logged.")
    // Every category offers both.
    for category in NotificationCategory.all {
      #expect(category.actionIDs.contains("dismiss") && category.actionIDs.last == "open")
    }
  }

  @Test(arguments: [
    (NotificationCategory.ID.workout, "Workout", "the workout"),
    (.mindfulness, "Meditation", "the meditation timer"),
  ])
  func startSaysWhatWouldOpenAndLogsNothing(
    category: NotificationCategory.ID, kind: String, what: String
  ) throws {
    let target = Self.target(
      "reminder-1-weekday-2", category: category, origin: .reminder, title: kind, kind: kind,
      at: "2026-05-04T18:00+02:00")
    let outcome = try answer("start", to: target, at: "2026-05-04T18:01+02:00")
    #expect(outcome.effects.isEmpty)
    #expect(
      outcome.message
        == "Would open \(what); nothing logged. Log it when it is done: routine log \(kind)")
  }

  // MARK: Snooze

  @Test func snoozingALearnedReminderSchedulesAnEarlyWarningFiveMinutesLater() throws {
    let outcome = try answer("snooze", to: Self.leavingWork, at: "2026-04-27T17:17:10+02:00")
    // docs/delivery.md: answered at 17:17:10, the alert is alert_LeavingWork_1777303330.
    #expect(epoch("2026-04-27T17:22:10+02:00") == 1_777_303_330)
    // The copy looks back to the firing it copies (17:17, 5 minutes before it): Leaving Work
    // logged since keeps it quiet, and logging it removes the copy.
    var metadata = Self.leavingWork.metadata
    metadata?.lookBack = .minutes(5)
    #expect(
      outcome.effects == [
        .schedule(
          NotificationRequest(
            id: "alert_LeavingWork_1777303330", origin: .snooze, category: .earlyWarning,
            title: "Reminder: Time for Leaving Work", body: Self.leavingWork.body,
            trigger: .date(1_777_303_330), metadata: metadata))
      ])
    #expect(outcome.message == "Snoozed: 'Time for Leaving Work' comes back at 17:22:10.")
    #expect(NotificationCategory.category(.earlyWarning).actionIDs == ["onit", "dismiss", "open"])
  }

  @Test func theSnoozeIsConfigurable() throws {
    let outcome = try answer(
      "snooze", to: Self.leavingWork, at: "2026-04-27T17:17:10+02:00",
      handler: ActionHandler(snoozeMinutes: 10, clock: .twentyFourHour))
    let fire = epoch("2026-04-27T17:27:10+02:00")
    guard case .schedule(let alert) = outcome.effects.first else {
      Issue.record("nothing scheduled")
      return
    }
    #expect(alert.id == "alert_LeavingWork_\(fire)")
    #expect(alert.trigger == .date(fire))
    #expect(outcome.message == "Snoozed: 'Time for Leaving Work' comes back at 17:27:10.")
  }

  @Test func snoozingAReminderYouDefinedKeepsItsButtons() throws {
    let outcome = try answer("snooze", to: Self.pills, at: "2026-05-06T09:02+02:00")
    let fire = epoch("2026-05-06T09:07+02:00")
    guard case .schedule(let alert) = outcome.effects.first else {
      Issue.record("nothing scheduled")
      return
    }
    #expect(alert.id == "alert_Takethepills_\(fire)")
    #expect(alert.category == .reminder)
    #expect(alert.origin == .snooze)
    #expect(alert.title == "Reminder: Take the pills")
    // Snoozed again: still its buttons, and the title is not prefixed twice.
    let again = Self.target(
      alert.id, category: alert.category, origin: alert.origin, title: alert.title,
      kind: "Take the pills", at: "2026-05-06T09:07+02:00")
    let second = try answer("snooze", to: again, at: "2026-05-06T09:08+02:00")
    guard case .schedule(let alert2) = second.effects.first else {
      Issue.record("nothing scheduled")
      return
    }
    #expect(alert2.category == .reminder)
    #expect(alert2.title == "Reminder: Take the pills")
    #expect(alert2.trigger == .date(epoch("2026-05-06T09:13+02:00")))
    // NoAlc's alert would keep its levels.
    let noAlcAlert = NotificationRequest.snoozeAlert(of: Self.noAlc, firingAt: fire)
    #expect(noAlcAlert.category == .noalc)
    #expect(noAlcAlert.id == "alert_Alcohol_\(fire)")
  }

  static let pills = target(
    "reminder-11", category: .reminder, origin: .reminder, title: "Take the pills",
    kind: "Take the pills", at: "2026-05-06T09:00+02:00")

  // MARK: NoAlc

  @Test(arguments: [("steady", 0.0), ("easy", 1), ("wild", 2)])
  func aMorningNoAlcAnswerLogsTheLevelAt2359TheDayBefore(action: String, value: Double) throws {
    let outcome = try answer(action, to: Self.noAlc, at: "2026-05-06T09:02+02:00")
    #expect(
      outcome.effects == [
        Self.logged("Alcohol", at: "2026-05-05T23:59:00+02:00", value: value, note: action)
      ])
    #expect(outcome.message == "Logged Alcohol (\(action)) for Tue 2026-05-05.")
  }

  @Test(arguments: [
    ("2026-05-06T11:59:59+02:00", "2026-05-05T23:59:00+02:00", "Tue 2026-05-05"),
    ("2026-05-06T12:00:00+02:00", "2026-05-06T12:00:00+02:00", "Wed 2026-05-06"),
    ("2026-05-06T00:30:00+02:00", "2026-05-05T23:59:00+02:00", "Tue 2026-05-05"),
    ("2026-05-06T22:15:00+02:00", "2026-05-06T22:15:00+02:00", "Wed 2026-05-06"),
  ])
  func beforeNoonCountsForTheDayBeforeFromNoonForToday(
    now: String, loggedAt: String, day: String
  ) throws {
    let outcome = try answer("wild", to: Self.noAlc, at: now)
    #expect(outcome.effects == [Self.logged("Alcohol", at: loggedAt, value: 2, note: "wild")])
    #expect(outcome.message == "Logged Alcohol (wild) for \(day).")
  }

  @Test func theDayBeforeIsLoggedWithThatDaysOffsetAcrossADaylightSavingChange() throws {
    // Sunday 2026-03-29 09:00 is +02:00; Saturday 23:59 was +01:00.
    let outcome = try answer("steady", to: Self.noAlc, at: "2026-03-29T09:00+02:00")
    #expect(
      outcome.effects == [
        Self.logged("Alcohol", at: "2026-03-28T23:59:00+01:00", value: 0, note: "steady")
      ])
    guard case .log(let event) = outcome.effects.first else { return }
    #expect(event.timestamp.utcOffsetSeconds == 3600)
  }

  // MARK: Done

  @Test func doneOnATaskLogsItAndMarksTheTaskDone() throws {
    let task = Self.target(
      "reminder-10", category: .taskReminder, origin: .reminder, title: "Tax return is due",
      kind: "Tax return", at: "2026-05-10T12:00+02:00",
      link: RequestMetadata.Link(id: "task-1", name: "Tax return"))
    let outcome = try answer("done", to: task, at: "2026-05-10T12:05:00+02:00")
    #expect(
      outcome.effects == [
        Self.logged("Tax return", at: "2026-05-10T12:05:00+02:00"),
        .completeTask(id: "task-1", at: stamp("2026-05-10T12:05:00+02:00")),
      ])
    #expect(outcome.message == "Done! Tax return marked done at 12:05.")
  }

  @Test func doneOnAHabitOrAnActivityLogsItAndOnATextReminderNothing() throws {
    let habit = Self.target(
      "reminder-9", category: .habitReminder, origin: .reminder, title: "Do Journal",
      kind: "Journal", at: "2026-05-06T20:45+02:00",
      link: RequestMetadata.Link(id: "habit-1", name: "Journal"))
    let journal = try answer("done", to: habit, at: "2026-05-06T20:50:00+02:00")
    #expect(journal.effects == [Self.logged("Journal", at: "2026-05-06T20:50:00+02:00")])
    #expect(journal.message == "Logged! Journal recorded at 20:50.")

    let reading = Self.target(
      "reminder-2-weekday-2", category: .activityReminder, origin: .reminder,
      title: "Time for Reading", kind: "Reading", at: "2026-05-04T09:00+02:00")
    #expect(
      try answer("done", to: reading, at: "2026-05-04T09:01:00+02:00").effects == [
        Self.logged("Reading", at: "2026-05-04T09:01:00+02:00")
      ])

    let text = Self.target(
      "reminder-5", category: .reminder, origin: .reminder, title: "Call the dentist",
      kind: "Call the dentist", at: "2026-05-07T09:00+02:00")
    let dentist = try answer("done", to: text, at: "2026-05-07T09:10+02:00")
    #expect(dentist.effects.isEmpty)
    #expect(dentist.message == "Done: 'Call the dentist'.")
  }

  // MARK: Not offered

  @Test func anActionTheNotificationDoesNotOfferIsRejectedListingTheValidOnes() throws {
    let alert = Self.target(
      "alert_LeavingWork_1777303330", category: .earlyWarning, origin: .snooze,
      title: "Reminder: Time for Leaving Work", kind: "Leaving Work",
      at: "2026-04-27T17:22:10+02:00")
    let error = #expect(throws: ActionError.self) {
      try answer("wild", to: alert, at: "2026-04-27T17:24+02:00")
    }
    #expect(error?.action == "wild")
    #expect(error?.requestID == "alert_LeavingWork_1777303330")
    #expect(error?.valid == ["onit", "dismiss", "open"])
    // docs/delivery.md, word for word.
    #expect(
      error?.description
        == "'alert_LeavingWork_1777303330' offers onit, dismiss and open, not 'wild'")
    // An early warning cannot be snoozed; a workout reminder has no "I'm on it".
    #expect(throws: ActionError.self) {
      try answer("snooze", to: alert, at: "2026-04-27T17:24+02:00")
    }
    let workout = Self.target(
      "reminder-3-weekday-2", category: .workout, origin: .reminder, title: "Workout",
      kind: "Workout", at: "2026-05-04T18:00+02:00")
    let onIt = #expect(throws: ActionError.self) {
      try answer("onit", to: workout, at: "2026-05-04T18:01+02:00")
    }
    #expect(onIt?.valid == ["start", "snooze", "dismiss", "open"])
    #expect(
      onIt?.description
        == "'reminder-3-weekday-2' offers start, snooze, dismiss and open, not 'onit'"
    )
    #expect(throws: ActionError.self) { try answer("", to: workout, at: "2026-05-04T18:01+02:00") }
  }
}
