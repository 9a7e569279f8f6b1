import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

struct PlannerStoreTests {
  let directory = TemporaryDirectory()
  let berlin = Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)
  let now = Timestamp(iso8601: "2026-04-27T04:00:00+02:00")!.secondsSince1970

  func request(
    _ id: String, origin: RequestOrigin = .learned, trigger: Trigger,
    metadata: RequestMetadata? = nil
  )
    -> NotificationRequest
  {
    NotificationRequest(
      id: id, origin: origin, category: origin == .learned ? .routineReminder : .earlyWarning,
      title: "Time for \(id)",
      body: "Body of \(id), with \"quotes\"", trigger: trigger, metadata: metadata)
  }

  @Test func requestsRoundTripWithEveryKindOfTrigger() throws {
    let store = try EventStore(path: directory.path("a.db"))
    let requests = [
      request(
        "routine_A", trigger: .calendar(CalendarTrigger(hour: 6, minute: 41)),
        metadata: RequestMetadata(
          eventKind: "Wake Up", suggestedTime: TimeOfDay(parsing: "06:46"), confidence: 0.815)),
      request(
        "routine_B-weekday-2",
        trigger: .calendar(CalendarTrigger(weekday: 2, hour: 23, minute: 59, repeats: false))),
      request(
        "alert_C_1777269900", origin: .snooze, trigger: .date(1_777_269_900),
        metadata: RequestMetadata(eventKind: "C")),
    ]
    for request in requests { #expect(try !store.schedule(request)) }
    #expect(try store.requests() == requests.sorted { $0.id < $1.id })
    #expect(try store.schedule(requests[0]))
    #expect(try store.cancelRequest(id: "routine_A"))
    #expect(try !store.cancelRequest(id: "routine_A"))
    #expect(try store.requests().count == 2)
  }

  @Test func settingsPersistAndTurningThemOffClearsLearnedRequests() throws {
    let path = directory.path("b.db")
    let store = try EventStore(path: path)
    #expect(try store.settings() == PlannerSettings())
    try store.schedule(
      request("routine_A", trigger: .calendar(CalendarTrigger(hour: 7, minute: 0))))
    try store.schedule(request("alert_A_1", origin: .snooze, trigger: .date(1)))
    var settings = PlannerSettings()
    settings.threshold = 0.7
    settings.leadMinutes = 10
    settings.bufferMinutes = 0
    settings.windowDays = 28
    settings.timeZone = "Australia/Lord_Howe"
    try store.save(settings)
    #expect(try EventStore(path: path).settings() == settings)
    #expect(try store.requests().count == 2)
    settings.timeZone = nil
    settings.locale = "de_DE"
    try store.save(settings)
    #expect(try EventStore(path: path).settings() == settings)
    let update = try store.updateSettings { $0.isEnabled = false }
    #expect(update.removedRequests == 1)
    #expect(try EventStore(path: path).settings() == update.after)
    #expect(try store.requests().map(\.id) == ["alert_A_1"])
  }

  @Test func reconcilingWritesTheChangeAndADryRunWritesNothing() throws {
    let store = try EventStore(path: directory.path("c.db"))
    let wanted = [
      request("routine_A", trigger: .calendar(CalendarTrigger(hour: 7, minute: 0))),
      request("routine_B", trigger: .calendar(CalendarTrigger(hour: 8, minute: 0))),
    ]
    let dry = try store.reconcile(wanted: wanted, now: now, timeZone: berlin, dryRun: true)
    #expect(dry.added.count == 2)
    #expect(try store.requests().isEmpty)
    _ = try store.reconcile(wanted: wanted, now: now, timeZone: berlin)
    #expect(try store.requests() == wanted)
    let again = try store.reconcile(wanted: wanted, now: now, timeZone: berlin)
    #expect(again.isEmpty)
    let fewer = try store.reconcile(wanted: [wanted[1]], now: now, timeZone: berlin)
    #expect(fewer.removed.map(\.id) == ["routine_A"])
    #expect(try store.requests().map(\.id) == ["routine_B"])
  }

  @Test func clearingRemovesWhatWasAskedFor() throws {
    let store = try EventStore(path: directory.path("d.db"))
    try store.schedule(
      request("routine_A", trigger: .calendar(CalendarTrigger(hour: 7, minute: 0))))
    try store.schedule(request("outlier_1", origin: .outlier, trigger: .date(1)))
    for (id, at) in [("routine_A", 1_000), ("routine_A", 2_000)] as [(String, Int64)] {
      _ = try store.claim(
        DueOccurrence(
          request: request(id, trigger: .date(at)), occurrence: Occurrence(requestID: id, at: at),
          attempt: 0, dueAt: at), outcome: .delivered, late: false, reason: nil, sink: "stdout",
        at: at)
    }
    #expect(try store.clearRequests(origin: .learned) == 1)
    #expect(try store.requests().map(\.id) == ["outlier_1"])
    // The history is forgotten; a week's claims stay, without their words, so that a clock set
    // back cannot deliver a firing again; older ones go.
    let now: Int64 = 2_000 + DeliveryPolicy.horizonSeconds + 86_400 - 500
    #expect(try store.clearDeliveries(now: now) == 2)
    #expect(try store.deliveries().isEmpty)
    let again = try store.claim(
      DueOccurrence(
        request: request("routine_A", trigger: .date(2_000)),
        occurrence: Occurrence(requestID: "routine_A", at: 2_000), attempt: 0, dueAt: 2_000),
      outcome: .delivered, late: false, reason: nil, sink: "stdout", at: now)
    #expect(again == nil)
    #expect(try store.clearRequests() == 1)
    #expect(try store.requests().isEmpty)
  }
}
