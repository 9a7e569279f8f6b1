import Foundation
import RoutineCore
import Testing

/// The rules of answers that depend on the answers a firing already had (docs/delivery.md,
/// "Answer"): one answer per firing, snooze and open leave it open, an undone answer no longer
/// counts, and a closing answer takes the snoozed copies with it.
struct AnswerRulesTests {
  let berlin = zone("Europe/Berlin")
  let handler = ActionHandler(clock: .twentyFourHour)

  static let pills = AnswerTarget(
    requestID: "reminder-1", occurrence: epoch("2026-05-04T08:00+02:00"), category: .reminder,
    origin: .reminder, title: "Take the pills", body: "Every day at 08:00.",
    metadata: RequestMetadata(eventKind: "Take the pills", reminderID: "reminder-1"))

  func decide(_ action: String, given: [PriorAnswer], snoozes: [NotificationRequest] = [])
    throws(AnswerError) -> AnswerDecision
  {
    try handler.decide(
      action, to: Self.pills, given: given, pendingSnoozes: snoozes,
      now: epoch("2026-05-04T08:20+02:00"), in: berlin)
  }

  func answered(_ action: String, undone: Bool = false) -> PriorAnswer {
    PriorAnswer(action: action, answeredAt: epoch("2026-05-04T08:05+02:00"), isUndone: undone)
  }

  @Test func dismissClosesAFiringSoALaterDoneIsRefused() {
    #expect(throws: AnswerError.closed(by: answered("dismiss"))) {
      try decide("done", given: [answered("dismiss")])
    }
  }

  @Test func openLeavesAFiringOpenAndIsTakenAfterAClosingAnswer() throws {
    guard case .apply = try decide("done", given: [answered("open")]) else {
      Issue.record("done after open was not applied")
      return
    }
    guard case .apply(let opened) = try decide("open", given: [answered("done")]) else {
      Issue.record("open after done was not applied")
      return
    }
    #expect(opened.effects.isEmpty)
  }

  @Test func snoozeLeavesAFiringOpen() throws {
    guard case .apply = try decide("done", given: [answered("snooze")]) else {
      Issue.record("done after snooze was not applied")
      return
    }
  }

  @Test func theSameAnswerAgainChangesNothing() throws {
    #expect(try decide("done", given: [answered("done")]) == .unchanged(answered("done")))
  }

  @Test func anAnswerWhoseEventWasUndoneNoLongerCounts() throws {
    let undone = answered("done", undone: true)
    guard case .apply = try decide("dismiss", given: [undone]) else {
      Issue.record("an undone answer still closed the firing")
      return
    }
    // The same action again is a new answer, not a repeat.
    guard case .apply = try decide("done", given: [undone]) else {
      Issue.record("an undone answer counted as given")
      return
    }
  }

  @Test func anActionNotOfferedIsRefusedBeforeTheOneAnswerRule() {
    #expect(throws: AnswerError.self) { try decide("wild", given: [answered("dismiss")]) }
    do {
      _ = try decide("wild", given: [])
      Issue.record("wild was taken")
    } catch {
      guard case .notOffered(let refusal) = error else {
        Issue.record("expected notOffered, got \(error)")
        return
      }
      #expect(refusal.action == "wild")
    }
  }

  @Test func aClosingAnswerRemovesTheSnoozedCopiesOfTheSameReminderOnly() throws {
    let copy = NotificationRequest.snoozeAlert(
      of: Self.pills, firingAt: epoch("2026-05-04T08:10+02:00"))
    var other = Self.pills
    other.requestID = "reminder-2"
    other.metadata?.reminderID = "reminder-2"
    let unrelated = NotificationRequest.snoozeAlert(
      of: other, firingAt: epoch("2026-05-04T08:30+02:00"))
    guard
      case .apply(let done) = try decide(
        "done", given: [answered("snooze")], snoozes: [copy, unrelated])
    else {
      Issue.record("done was not applied")
      return
    }
    #expect(done.effects == [.unschedule(id: copy.id)])
    // Another snooze keeps the first copy.
    guard case .apply(let again) = try decide("open", given: [answered("snooze")], snoozes: [copy])
    else {
      Issue.record("open was not applied")
      return
    }
    #expect(again.effects.isEmpty)
  }

  // MARK: Which firing an answer names

  let daily = NotificationRequest(
    id: "reminder-1", origin: .reminder, category: .reminder, title: "Take the pills", body: "",
    trigger: .calendar(CalendarTrigger(hour: 8, minute: 0)), metadata: nil)

  @Test func withoutANameTheFiringDeliveredLastIsAnsweredElseTheLatestWithinADay() throws {
    let now = epoch("2026-05-05T07:00+02:00")
    #expect(
      try ActionHandler.firing(
        of: daily, named: nil, namedWasDelivered: false,
        lastDelivered: epoch("2026-05-03T08:00+02:00"), now: now, in: berlin)
        == epoch("2026-05-03T08:00+02:00"))
    #expect(
      try ActionHandler.firing(
        of: daily, named: nil, namedWasDelivered: false, lastDelivered: nil, now: now, in: berlin)
        == epoch("2026-05-04T08:00+02:00"))
    #expect(throws: FiringChoiceError.noRecentFiring) {
      try ActionHandler.firing(
        of: NotificationRequest(
          id: "x", origin: .reminder, category: .reminder, title: "", body: "",
          trigger: .date(epoch("2026-05-01T08:00+02:00")), metadata: nil),
        named: nil, namedWasDelivered: false, lastDelivered: nil, now: now, in: berlin)
    }
  }

  @Test func aNamedFiringMustHaveComeOrBeenDelivered() throws {
    let now = epoch("2026-05-05T07:00+02:00")
    let later = epoch("2026-05-05T08:00+02:00")
    #expect(throws: FiringChoiceError.notYet(later)) {
      try ActionHandler.firing(
        of: daily, named: later, namedWasDelivered: false, lastDelivered: nil, now: now, in: berlin)
    }
    let odd = epoch("2026-05-04T08:30+02:00")
    #expect(throws: FiringChoiceError.doesNotFire(odd, latest: epoch("2026-05-04T08:00+02:00"))) {
      try ActionHandler.firing(
        of: daily, named: odd, namedWasDelivered: false, lastDelivered: nil, now: now, in: berlin)
    }
    // A delivered firing is answered as named, whatever the trigger says now (an edit since).
    #expect(
      try ActionHandler.firing(
        of: daily, named: odd, namedWasDelivered: true, lastDelivered: nil, now: now, in: berlin)
        == odd)
  }
}
