import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// The checks after each logged event (docs/delivery.md, "After every logged event"): the
/// outlier check looks at events of the last 24 hours only, so a bulk import of history raises
/// no alert, and a late entry of this morning does.
struct AfterLoggingTests {
  let directory = TemporaryDirectory()
  let berlin = Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)
  let now = Timestamp(iso8601: "2026-04-28T12:00:00+02:00")!.secondsSince1970

  func store() throws -> EventStore {
    let store = try EventStore(path: directory.path("r.db"))
    try store.saveLearnedRoutines([
      LearnedRoutine(
        kind: EventKind("Wake Up")!, time: TimeOfDay(hour: 7, minute: 15)!, weekdays: .everyDay,
        toleranceSeconds: 1800, thresholdSeconds: 3600)
    ])
    return store
  }

  func wakeUp(_ text: String) -> Event {
    Event(
      kind: EventKind("Wake Up")!, timestamp: Timestamp(iso8601: text)!, value: nil, note: nil,
      source: .cli)
  }

  @Test func theOutlierCheckLooksBack24Hours() throws {
    let store = try store()
    // 23 hours before now, 105 minutes off 07:15: an alert.
    let recent = wakeUp("2026-04-27T13:00:00+02:00")
    _ = try store.insert(recent)
    let alerted = try store.afterLogging([recent], now: now, in: berlin, clock: .twentyFourHour)
    #expect(alerted.alerts.count == 1)
    // 25 hours before now, as far off: history, no alert.
    let old = wakeUp("2026-04-27T11:00:00+02:00")
    _ = try store.insert(old)
    let quiet = try store.afterLogging([old], now: now, in: berlin, clock: .twentyFourHour)
    #expect(quiet.alerts.isEmpty)
    // An event well ahead of now (a mistyped date) raises none either.
    let ahead = wakeUp("2026-04-29T05:00:00+02:00")
    _ = try store.insert(ahead)
    #expect(
      try store.afterLogging([ahead], now: now, in: berlin, clock: .twentyFourHour).alerts.isEmpty)
    #expect(try store.requests().filter { $0.origin == .outlier }.count == 1)
  }
}
