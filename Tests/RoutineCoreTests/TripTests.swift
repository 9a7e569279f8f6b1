import Foundation
import RoutineCore
import Testing

/// A trip (docs/delivery.md, "A change of zone"): a reminder fires at most once per local date
/// and slot, whatever the zone did in between, and a firing a change of zone moved into the past
/// is delivered late within the grace period or recorded missed, never dropped.
struct TripTests {
  let policy = DeliveryPolicy(graceMinutes: 15)

  /// What a simulated store remembers: each claim, unique by its slot, or by its instant when it
  /// has none, as the store's unique indexes make it.
  struct Claims {
    var bySlot: [String: Set<FiringSlot>] = [:]
    var byInstant: Set<Occurrence> = []
    var records: [(due: DueOccurrence, outcome: DeliveryOutcome, at: Int64)] = []

    mutating func claim(_ due: DueOccurrence, _ outcome: DeliveryOutcome, at now: Int64) {
      if let slot = due.slot {
        guard bySlot[due.occurrence.requestID, default: []].insert(slot).inserted else { return }
      } else {
        guard byInstant.insert(due.occurrence).inserted else { return }
      }
      records.append((due, outcome, now))
    }
  }

  /// Delivery runs at `runs` (ascending instants), the zone changing from `before` to `after`
  /// at `change`, as `deliver` makes them: the due firings since the last run's wall clock,
  /// decided and claimed.
  func simulate(
    _ requests: [NotificationRequest], runs: [Int64], before: Zone, after: Zone, change: Int64
  ) -> Claims {
    var claims = Claims()
    var checked: DeliveryWatermark?
    for now in runs {
      let zone = now < change ? before : after
      for item in policy.due(requests, checked: checked, now: now, in: zone) {
        guard
          let (outcome, _) = policy.decide(
            item, facts: FiringFacts(), now: now, in: zone, clock: .twentyFourHour)
        else { continue }
        claims.claim(item, outcome, at: now)
      }
      checked = DeliveryWatermark(instant: now, in: zone)
    }
    return claims
  }

  // MARK: The cases

  /// Lisbon, an 08:00 alarm delivered and answered; New York from 09:00Z: nothing at 08:00 New
  /// York (12:00Z) the same day.
  @Test func westwardTheSlotDeliveredInLisbonIsNotDeliveredAgainInNewYork() {
    let pills = dailyRequest("reminder-1", kind: "Take the pills", at: "08:00")
    let runs = [
      epoch("2026-03-26T08:00:30Z"), epoch("2026-03-26T12:00:30Z"),
      epoch("2026-03-26T12:05:30Z"), epoch("2026-03-27T12:00:30Z"),
    ]
    let claims = simulate(
      [pills], runs: runs, before: zone("Europe/Lisbon"), after: zone("America/New_York"),
      change: epoch("2026-03-26T09:00Z"))
    #expect(
      claims.records.map(\.due.dueAt) == [epoch("2026-03-26T08:00Z"), epoch("2026-03-27T12:00Z")])
    #expect(claims.records.map(\.outcome) == [.deliver(late: false), .deliver(late: false)])
  }

  /// Lisbon 09:00 not yet come at 08:29:30Z; Berlin from 08:30Z (09:30 there): the 09:00 slot
  /// the jump passed over is recorded (30 minutes late: missed), not dropped.
  @Test func eastwardTheSlotTheJumpPassedOverIsRecordedMissed() {
    let pills = dailyRequest("reminder-1", kind: "Take the pills", at: "09:00")
    let runs = [
      epoch("2026-03-26T08:29:30Z"), epoch("2026-03-26T08:30:30Z"), epoch("2026-03-26T09:00:30Z"),
    ]
    let claims = simulate(
      [pills], runs: runs, before: zone("Europe/Lisbon"), after: zone("Europe/Berlin"),
      change: epoch("2026-03-26T08:30Z"))
    #expect(claims.records.map(\.due.dueAt) == [epoch("2026-03-26T08:00Z")])
    #expect(claims.records.map(\.outcome) == [.missed])
    #expect(claims.records.map(\.at) == [epoch("2026-03-26T08:30:30Z")])
  }

  /// East by less than the grace period: the slot comes late, once.
  @Test func eastwardASlotJustPassedIsDeliveredLate() {
    let coffee = dailyRequest("reminder-2", kind: "Coffee", at: "07:30")
    // Kolkata 07:25 (01:55Z); Kathmandu is 15 minutes ahead: 07:40 at 01:55Z.
    let runs = [epoch("2026-03-26T01:55:00Z"), epoch("2026-03-26T01:56:00Z")]
    let claims = simulate(
      [coffee], runs: runs, before: zone("Asia/Kolkata"), after: zone("Asia/Kathmandu"),
      change: epoch("2026-03-26T01:55:30Z"))
    #expect(claims.records.map(\.outcome) == [.deliver(late: true)])
    #expect(
      claims.records.first?.due.slot == FiringSlot(date: date(2026, 3, 26), time: wallTime("07:30"))
    )
  }

  // MARK: The property, over many trips

  static let zones = [
    "Europe/Lisbon", "Europe/Berlin", "America/New_York", "America/Los_Angeles", "Asia/Kolkata",
    "Asia/Kathmandu", "Australia/Lord_Howe", "Australia/Sydney", "Pacific/Honolulu", "Asia/Tokyo",
    "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns", "UTC",
  ]

  /// For random trips (any two zones, east, west, across midnight and the date line, changes
  /// near daylight-saving transitions) and runs at random intervals: every slot of the days
  /// between is recorded exactly once, and a slot the change moved into the past is late within
  /// the grace period or missed.
  @Test func everySlotIsRecordedExactlyOnceWhateverTheTrip() {
    var random = SplitMix64(seed: 17)
    let times = ["00:10", "02:30", "07:00", "08:00", "09:00", "12:45", "18:00", "23:50"]
    let requests = times.enumerated().map { index, time in
      dailyRequest("r\(index)", kind: "K\(index)", at: time)
    }
    // Around 2026's transitions (Europe's and America's springs and autumns, Australia's) and
    // ordinary days.
    let anchors = [
      "2026-03-08T09:00Z", "2026-03-29T00:30Z", "2026-04-05T15:00Z", "2026-06-10T12:00Z",
      "2026-10-04T15:00Z", "2026-10-25T00:30Z", "2026-11-01T05:30Z", "2026-12-31T23:00Z",
    ].map(epoch)
    var failures: [String] = []
    var trips = 0
    for _ in 0..<240 {
      let before = zone(Self.zones[random.integer(in: 0...(Self.zones.count - 1))])
      let after = zone(Self.zones[random.integer(in: 0...(Self.zones.count - 1))])
      let change =
        anchors[random.integer(in: 0...(anchors.count - 1))]
        + Int64(random.integer(in: -36 * 60...36 * 60)) * 60
      let start = change - 2 * 86_400
      let end = change + 2 * 86_400
      var runs: [Int64] = []
      var now = start + Int64(random.integer(in: 0...59))
      while now < end {
        runs.append(now)
        // Mostly every minute; now and then a gap (a laptop asleep).
        now += random.chance(0.9) ? 60 : Int64(random.integer(in: 2...40)) * 60
      }
      let claims = simulate(requests, runs: runs, before: before, after: after, change: change)
      trips += 1
      let trip = "\(before.identifier)→\(after.identifier) at \(change)"
      // At most once per slot: the claims guarantee it; the policy must not rely on luck for
      // the rest, so check that the records say so.
      var seen: [String: Set<FiringSlot>] = [:]
      for record in claims.records {
        guard let slot = record.due.slot else { continue }
        if !seen[record.due.occurrence.requestID, default: []].insert(slot).inserted {
          failures.append("\(trip): \(record.due.occurrence.requestID) \(slot) twice")
        }
      }
      // Never dropped: each slot of the days well inside the simulation is recorded.
      let first = WallClock.localDate(at: start, in: before).adding(days: 1)
      let last = WallClock.localDate(at: end, in: after).adding(days: -1)
      var day = first
      while day <= last {
        for (index, time) in times.enumerated() {
          let slot = FiringSlot(date: day, time: wallTime(time))
          if seen["r\(index)"]?.contains(slot) != true {
            failures.append("\(trip): r\(index) \(slot) never recorded")
          }
        }
        day = day.adding(days: 1)
      }
      // Late within the grace period, or missed; never delivered later than that.
      for record in claims.records {
        let lateness = record.at - record.due.dueAt
        let expected: DeliveryOutcome =
          lateness > policy.graceSeconds ? .missed : .deliver(late: lateness > 60)
        if record.outcome != expected || lateness < 0 {
          failures.append("\(trip): \(record.due.occurrence) \(record.outcome) at \(record.at)")
        }
      }
    }
    #expect(trips == 240)
    #expect(failures.isEmpty, "\(failures.count) failures: \(failures.prefix(5))")
  }
}
