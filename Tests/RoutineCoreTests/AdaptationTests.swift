import Foundation
import Testing

@testable import RoutineCore

/// Issue 28: the rules of reminders that listen, each on the pure decision (docs/reminders.md).
struct AdaptationTests {
  let berlin = zone("Europe/Berlin")
  let today = date(2026, 5, 20)
  let everything = AdaptationPolicy(timing: true, dose: true, fading: true)

  /// An instant as logged in Berlin in May (+02:00).
  func berlinTime(_ instant: Int64) -> Timestamp {
    Timestamp(secondsSince1970: instant, utcOffsetSeconds: 7200)
  }

  /// `count` days before today, oldest first, each made by `make(index)`.
  func days(_ count: Int, _ make: (Int, LocalDate, Int64) -> Adaptation.Day) -> [Adaptation.Day] {
    (0..<count).map { index in
      let date = today.adding(days: index - count)
      let firing = WallClock.instant(on: date, at: wallTime("07:00"), in: berlin)
      return make(index, date, firing)
    }
  }

  func update(
    _ days: [Adaptation.Day], record: AdaptationRecord = AdaptationRecord(key: "routine_Coffee"),
    policy: AdaptationPolicy? = nil
  ) -> AdaptationRecord {
    Adaptation.update(
      record, days: days, policy: policy ?? everything, today: today,
      now: epoch("2026-05-20T03:15+02:00"), snoozeMinutes: 5, what: "Coffee")
  }

  // MARK: Timing

  @Test func snoozedFourOfTheLastFiveItMovesLater() {
    let record = update(
      days(5) { index, date, firing in
        Adaptation.Day(
          date: date, firing: firing, outcome: index == 2 ? .acted(minutes: 1) : .ignored,
          snoozed: index != 2, answered: index == 2)
      })
    #expect(record.offsetMinutes == 10)
    #expect(record.explanations.first == "moved 10 min later: you snoozed 4 of the last 5")
    #expect(record.offsetSince == epoch("2026-05-20T03:15+02:00"))
  }

  @Test func actingLateConsistentlyMovesItByTheMedianRoundedToFive() {
    let lateness = [12, 22, 18, 3, 17]
    let record = update(
      days(5) { index, date, firing in
        Adaptation.Day(
          date: date, firing: firing, outcome: .acted(minutes: lateness[index]),
          act: berlinTime(firing + Int64(lateness[index] * 60)))
      })
    // 12, 17, 18, 22 are late: median 17, rounded to 15.
    #expect(record.offsetMinutes == 15)
    #expect(record.explanations.first?.hasPrefix("moved 15 min later: you did it a median") == true)
  }

  @Test func doneBeforeItOnFourOfFiveItMovesEarlier() {
    let record = update(
      days(5) { index, date, firing in
        Adaptation.Day(
          date: date, firing: firing,
          outcome: index == 0 ? .acted(minutes: 2) : .preEmpted(doneAt: firing - 20 * 60),
          act: berlinTime(index == 0 ? firing + 120 : firing - 20 * 60))
      }, policy: AdaptationPolicy(timing: true, dose: true, fading: false))
    #expect(record.offsetMinutes == -20)
    #expect(
      record.explanations.first == "moved 20 min earlier: you did it before it on 4 of the last 5")
  }

  @Test func threeOfFiveAreNotEnoughAndTheMoveIsBoundedAtThirtyMinutes() {
    let mixed = update(
      days(5) { index, date, firing in
        Adaptation.Day(date: date, firing: firing, outcome: .ignored, snoozed: index < 3)
      })
    #expect(mixed.offsetMinutes == 0)
    var moved = AdaptationRecord(key: "routine_Coffee")
    moved.offsetMinutes = 25
    let record = update(
      days(5) { _, date, firing in
        Adaptation.Day(date: date, firing: firing, outcome: .ignored, snoozed: true)
      }, record: moved)
    #expect(record.offsetMinutes == Adaptation.maximumOffsetMinutes)
  }

  @Test func firingsBeforeTheLastMoveAreNoEvidence() {
    var moved = AdaptationRecord(key: "routine_Coffee")
    moved.offsetMinutes = 10
    moved.offsetSince = epoch("2026-05-18T03:15+02:00")
    let record = update(
      days(5) { _, date, firing in
        Adaptation.Day(date: date, firing: firing, outcome: .ignored, snoozed: true)
      }, record: moved)
    // Only the last two firings came after the move: not enough to move again.
    #expect(record.offsetMinutes == 10)
  }

  // MARK: Dose

  @Test(arguments: [(2, 1), (3, 2), (6, 2), (7, 3), (12, 3)])
  func unheededFiringsInARowBackItOff(unheeded: Int, spacing: Int) {
    let record = update(
      days(20) { index, date, firing in
        let recent = index >= 20 - unheeded
        return Adaptation.Day(
          date: date, firing: firing,
          outcome: recent ? (index % 2 == 0 ? .ignored : .dismissed) : .acted(minutes: 3),
          answered: !recent, act: recent ? nil : berlinTime(firing + 180))
      }, policy: AdaptationPolicy(timing: false, dose: true, fading: false))
    #expect(record.spacing == spacing)
    #expect(record.state == (spacing > 1 ? .backingOff : .active))
    if spacing > 1 {
      #expect(
        record.explanations.last?.hasPrefix("backing off: \(unheeded) in a row went unanswered")
          == true)
    }
  }

  @Test func anAnswerBringsItBackToFullDose() {
    var backing = AdaptationRecord(key: "routine_Coffee")
    backing.state = .backingOff
    backing.spacing = 2
    let record = update(
      days(6) { index, date, firing in
        Adaptation.Day(
          date: date, firing: firing, outcome: index == 5 ? .acted(minutes: 1) : .ignored,
          answered: index == 5, act: index == 5 ? berlinTime(firing + 60) : nil)
      }, record: backing, policy: AdaptationPolicy(timing: false, dose: true, fading: false))
    #expect(record.state == .active)
    #expect(record.spacing == 1)
  }

  @Test func aMissedActOnAQuietDayBringsBackAHabitThatWasKept() {
    var backing = AdaptationRecord(key: "routine_Coffee")
    backing.state = .backingOff
    backing.spacing = 2
    backing.since = today.adding(days: -4).daysSince1970
    let made = days(20) { index, date, firing in
      if index < 16 {
        // Kept before the back-off (done, unanswered: by the person).
        return Adaptation.Day(
          date: date, firing: firing, outcome: .acted(minutes: 4), act: berlinTime(firing + 240))
      }
      if index == 17 {
        return Adaptation.Day(date: date, firing: firing, outcome: .skipped(.backingOff))
      }
      return Adaptation.Day(date: date, firing: firing, outcome: .ignored)
    }
    let record = update(
      made, record: backing, policy: AdaptationPolicy(timing: false, dose: true, fading: false))
    #expect(record.state == .active)
    #expect(record.explanations.first?.hasPrefix("back to full dose: Coffee was missed on") == true)
    // Someone who never did it stays backed off: quiet days missed are no news.
    let never = days(20) { index, date, firing in
      Adaptation.Day(
        date: date, firing: firing, outcome: index == 17 ? .skipped(.backingOff) : .ignored)
    }
    #expect(
      update(
        never, record: backing, policy: AdaptationPolicy(timing: false, dose: true, fading: false)
      ).state == .backingOff)
  }

  @Test func whileBackingOffItFiresEverySpacingDaysFromTheLastDelivery() {
    var record = AdaptationRecord(key: "routine_Coffee")
    record.state = .backingOff
    record.spacing = 2
    record.anchorDay = today.adding(days: -1).daysSince1970
    let weekdaysOnly = { (date: LocalDate) in !date.isWeekend }
    let fires = (0..<8).map { offset in
      Adaptation.firesWhileBackingOff(
        on: today.adding(days: offset), record: record, isOn: weekdaysOnly)
    }
    // Today (Wednesday) is a day after the last delivery: quiet; Thursday fires; Friday quiet;
    // the weekend is off; Monday fires (two days after Friday would have been Saturday).
    #expect(fires == [false, true, false, false, false, true, false, true])
    record.spacing = 3
    #expect(
      (0..<7).map {
        Adaptation.firesWhileBackingOff(on: today.adding(days: $0), record: record) { _ in true }
      }
        == [false, false, true, false, false, true, false])
  }

  // MARK: Fading

  @Test func doneOnYourOwnTwelveOfFourteenDaysItPausesAndTwoMissesBringItBack() {
    let own = days(14) { index, date, firing in
      // Logged after it without touching it, or before it; two days not done.
      if index == 3 || index == 9 {
        return Adaptation.Day(date: date, firing: firing, outcome: .ignored)
      }
      return Adaptation.Day(
        date: date, firing: firing,
        outcome: index % 2 == 0 ? .acted(minutes: 6) : .preEmpted(doneAt: firing - 600),
        act: berlinTime(index % 2 == 0 ? firing + 360 : firing - 600))
    }
    let paused = update(own)
    #expect(paused.state == .paused)
    #expect(
      paused.stateText
        == "paused: done on your own on 12 of the last 14 days; it comes back if you miss 2 days in a row"
    )
    // Answered with "I'm on it": the reminder did it, so the days are not the person's own.
    let answered = days(14) { _, date, firing in
      Adaptation.Day(
        date: date, firing: firing, outcome: .acted(minutes: 1), answered: true,
        act: berlinTime(firing + 60))
    }
    #expect(update(answered).state == .active)
    // Two days missed in a row end the pause.
    let slipped = days(16) { index, date, firing in
      index >= 14
        ? Adaptation.Day(date: date, firing: firing, outcome: .ignored)
        : Adaptation.Day(
          date: date, firing: firing, outcome: .acted(minutes: 6), act: berlinTime(firing + 360))
    }
    var record = paused
    record.since = today.adding(days: -3).daysSince1970
    let back = update(slipped, record: record)
    #expect(back.state == .active)
    #expect(back.explanations.contains("back from its pause: Coffee was missed 2 days in a row"))
  }

  @Test func aNewReminderFiresForAWeekBeforeItMayPauseAndAfterAResumeOnlyLaterDaysCount() {
    let own = days(20) { _, date, firing in
      Adaptation.Day(date: date, firing: firing, act: berlinTime(firing - 600))
    }
    var fresh = AdaptationRecord(key: "routine_Coffee")
    fresh.startedAt = epoch("2026-05-15T03:15+02:00")
    #expect(update(own, record: fresh).state == .active)
    // A week on, the days before it appeared count too: done without it.
    fresh.startedAt = epoch("2026-05-13T03:15+02:00")
    #expect(update(own, record: fresh).state == .paused)
    var resumed = fresh
    resumed.countsSince = epoch("2026-05-15T03:15+02:00")
    #expect(update(own, record: resumed).state == .active)
  }

  @Test func offAdaptsNothing() {
    var moved = AdaptationRecord(key: "routine_Coffee")
    moved.offsetMinutes = 20
    moved.state = .paused
    let record = update(
      days(20) { _, date, firing in Adaptation.Day(date: date, firing: firing, outcome: .ignored) },
      record: moved, policy: AdaptationPolicy.none)
    #expect(record.state == .active && record.offsetMinutes == 0 && record.spacing == 1)
  }

  // MARK: What may adapt

  @Test func alarmsTasksAndMonthlyRemindersNeverAdaptAndDefinedOnesOnlyBackOffByDefault() {
    let learned = NotificationRequest(
      id: "routine_Coffee", origin: .learned, category: .routineReminder, title: "Time for Coffee",
      body: "", trigger: .calendar(CalendarTrigger(hour: 7, minute: 0)),
      metadata: RequestMetadata(eventKind: "Coffee"))
    #expect(AdaptationPolicy.of(learned, enabled: true, mode: .auto) == everything)
    #expect(AdaptationPolicy.of(learned, enabled: true, mode: .off) == .none)
    #expect(AdaptationPolicy.of(learned, enabled: false, mode: .auto) == .none)
    var defined = dailyRequest("reminder-1-weekday-2", kind: "Stretch", at: "07:30")
    defined.trigger = .calendar(CalendarTrigger(weekdays: .everyDay, hour: 7, minute: 30))
    #expect(
      AdaptationPolicy.of(defined, enabled: true, mode: .auto)
        == AdaptationPolicy(timing: false, dose: true, fading: false))
    #expect(AdaptationPolicy.of(defined, enabled: true, mode: .on) == everything)
    var alarm = defined
    alarm.metadata?.isAlarm = true
    #expect(AdaptationPolicy.of(alarm, enabled: true, mode: .on) == .none)
    var task = defined
    task.category = .taskReminder
    #expect(AdaptationPolicy.of(task, enabled: true, mode: .on) == .none)
    var monthly = defined
    monthly.trigger = .calendar(CalendarTrigger(weekdays: .none, dayOfMonth: 1, hour: 9, minute: 0))
    #expect(AdaptationPolicy.of(monthly, enabled: true, mode: .auto).dose == false)
    var once = defined
    once.trigger = .local(date(2026, 5, 21), wallTime("09:00"))
    #expect(AdaptationPolicy.of(once, enabled: true, mode: .on) == .none)
    var text = defined
    text.category = .reminder
    #expect(AdaptationPolicy.of(text, enabled: true, mode: .on).fading == false)
  }

  // MARK: Strength and streak

  @Test func strengthIsAnExponentiallyWeightedShareAndTheStreakCountsBackFromTheLast() {
    let always = HabitScore.score(Array(repeating: true, count: 90))
    #expect(always.strength > 0.99 && always.streak == 90)
    let never = HabitScore.score(Array(repeating: false, count: 90))
    #expect(never.strength == 0 && never.streak == 0)
    // The last 13 days carry half of it.
    let recent = HabitScore.score(
      Array(repeating: false, count: 77) + Array(repeating: true, count: 13))
    #expect(abs(recent.strength - 0.5) < 0.01)
    // Today not done yet does not break the streak.
    let today = HabitScore.score([true, true, false, true, true, false], lastIsToday: true)
    #expect(today.streak == 2)
    #expect(HabitScore.score([true, true, false, true, true, false]).streak == 0)
  }

  // MARK: A moved routine

  @Test func theLastTwoDaysAgreeingOnANewTimeIsAMove() {
    let usual = wallTime("07:30")
    let move = ChangePoint.move(
      recent: [
        wallTime("07:28"), wallTime("09:02"), wallTime("08:55"), nil, wallTime("09:10"),
        wallTime("09:00"),
      ],
      usual: usual)
    // The last four: 08:55, a day not done, 09:10, 09:00.
    #expect(move?.time.description == "09:02")
    #expect(move?.agreeing == 3)
    #expect(move?.of == 4)
    // Three of the last four at the new time are counted.
    #expect(
      ChangePoint.move(
        recent: [wallTime("09:01"), wallTime("07:31"), wallTime("09:03"), wallTime("08:58")],
        usual: usual)?.agreeing == 3)
    // One odd day is no move, nor a last day not done, nor two far apart, nor near the usual
    // time.
    #expect(
      ChangePoint.move(
        recent: [wallTime("07:30"), wallTime("07:35"), wallTime("09:00")], usual: usual) == nil)
    #expect(
      ChangePoint.move(recent: [wallTime("09:00"), wallTime("09:05"), nil], usual: usual) == nil)
    #expect(ChangePoint.move(recent: [wallTime("10:30"), wallTime("09:00")], usual: usual) == nil)
    #expect(ChangePoint.move(recent: [wallTime("08:05"), wallTime("08:10")], usual: usual) == nil)
    // Across midnight: a bed time moved from 23:30 to 01:00.
    #expect(
      ChangePoint.move(
        recent: [wallTime("23:31"), wallTime("00:58"), wallTime("01:05")], usual: wallTime("23:30"))?
        .time.description == "01:02")
  }
}
