// The simulation of issue 31 (docs/delivery.md "Held while you are away", docs/performance.md):
//
//   .build/release/routine-bench --simulate-holds [--people N] [--days N] [--seed S] [--work DIR]
//
// People with office days and weekends live with eight desktop reminders and a morning pills
// alarm, through the real CLI in this process (`deliver` every minute while something is due or
// held, `respond` when they answer the alarm), once for each of three settings: nothing held,
// `--hold-while-idle 5`, and that with quiet hours 22:30-07:00. What the desktop says comes from
// the person's day, minute by minute, through `ProcessEnvironment.presence` (the seam the real
// desktop reader sits behind): at the desk (input within the last minute), in a call with do not
// disturb on, away (idle since they left; the screen locks after 10 minutes), or asleep (locked).
// A reminder is *seen* when it is delivered while the person is at the desk; one delivered while
// they are away, in a call or asleep times out unseen (dunst's 10 seconds); an alarm stays until
// answered and is answered when they are next at the desk.
import Foundation
import RoutineCLI
import RoutineCore
import RoutineStore

/// Where a simulated person is, minute by minute.
enum DeskState: UInt8 {
  case present, call, away, asleep
}

/// One simulated person's days, a minute at a time.
struct DeskLife {
  /// `states[day * 1440 + minute]`.
  var states: [DeskState]

  /// The person's days: office days Monday to Friday, weekends at home, from `seed`.
  init(days: Int, start: RoutineCore.LocalDate, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func normal(_ mean: Double, _ sigma: Double) -> Int {
      let u1 = max(Double.random(in: 0..<1, using: &random), 1e-12)
      let u2 = Double.random(in: 0..<1, using: &random)
      return Int(
        (mean + sigma * (-2 * Foundation.log(u1)).squareRoot() * cos(2 * .pi * u2)).rounded())
    }
    states = Array(repeating: .away, count: days * 1440)
    func fill(_ day: Int, _ from: Int, _ to: Int, _ state: DeskState) {
      let low = max(0, min(1440, from))
      for minute in low..<max(low, min(1440, to)) { states[day * 1440 + minute] = state }
    }
    for day in 0..<days {
      let weekday = start.adding(days: day).weekday
      let weekend = weekday == 1 || weekday == 7
      let wake = weekend ? normal(8 * 60, 40) : normal(7 * 60, 20)
      let sleep = weekend ? normal(23 * 60 + 30, 40) : normal(23 * 60, 30)
      fill(day, 0, wake, .asleep)
      fill(day, sleep, 1440, .asleep)
      if weekend {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let from = Int.random(in: 10 * 60...20 * 60, using: &random)
          fill(day, from, from + Int.random(in: 30...90, using: &random), .present)
        }
        continue
      }
      let arrive = normal(8 * 60 + 45, 20)
      let lunch = normal(12 * 60 + 15, 15)
      let back = lunch + normal(45, 10)
      let leave = normal(17 * 60 + 30, 30)
      fill(day, arrive, lunch, .present)
      fill(day, back, leave, .present)
      // Coffee and other short breaks.
      for _ in 0..<3 {
        let from = Int.random(in: arrive...max(arrive, leave - 20), using: &random)
        fill(day, from, from + Int.random(in: 5...15, using: &random), .away)
      }
      // Meetings: half in a call at the desk with do not disturb on, half in a meeting room.
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        let from = Int.random(in: 9 * 60...16 * 60, using: &random) / 30 * 30
        let length = Bool.random(using: &random) ? 30 : 60
        fill(day, from, from + length, Bool.random(using: &random) ? .call : .away)
      }
      if Double.random(in: 0..<1, using: &random) < 0.6 {
        let from = normal(20 * 60, 45)
        fill(day, from, min(from + Int.random(in: 60...120, using: &random), sleep), .present)
      }
    }
  }

  subscript(_ day: Int, _ minute: Int) -> DeskState { states[day * 1440 + minute] }

  /// What the desktop says at `minute` of `day`, as the reader would: input within the last
  /// minute at the desk and in a call; away, the minutes since the person left, locked after
  /// ten; asleep, locked.
  func presence(day: Int, minute: Int) -> Presence {
    let index = day * 1440 + minute
    switch states[index] {
    case .present: return Presence(source: "simulation", idleSeconds: 20)
    case .call: return Presence(source: "simulation", idleSeconds: 30, doNotDisturb: "dunst")
    case .asleep: return Presence(source: "simulation", idleSeconds: 8 * 3600, isLocked: true)
    case .away:
      var left = index
      while left > 0, states[left - 1] == .away { left -= 1 }
      let idle = Int64(index - left) * 60 + 20
      return Presence(source: "simulation", idleSeconds: idle, isLocked: idle >= 600)
    }
  }
}

/// What became of the reminders (not the alarm) under one setting.
struct HoldOutcome {
  var firings = 0
  var seen = 0
  var unseenAway = 0
  var unseenCall = 0
  var unseenAsleep = 0
  var missed = 0
  /// Delivered within a minute of the person sitting down after five minutes or more away.
  var atTheInstantOfReturn = 0
  /// Minutes from the reminder's time to its delivery, for those seen.
  var delays: [Int] = []
  /// Minutes from the alarm's time to its answer.
  var alarmDelays: [Int] = []
}

/// A simulated person living with one setting.
struct HeldLife {
  let life: DeskLife
  let days: Int
  let settings: [String]
  let store: String
  let start = RoutineCore.LocalDate(year: 2026, month: 9, day: 7)!
  let zone: Zone

  /// The reminders: `reminders add` arguments.
  static let reminders: [[String]] = [
    ["--text", "Drink water", "--at", "10:00", "--days", "mon-fri"],
    ["--text", "Stretch", "--at", "11:30", "--days", "mon-fri"],
    ["--text", "Drink water", "--at", "14:30", "--days", "mon-fri"],
    ["--text", "Stand up", "--at", "16:00", "--days", "mon-fri"],
    ["--text", "Plan tomorrow", "--at", "17:15", "--days", "mon-fri"],
    ["--text", "Call family", "--at", "18:00", "--days", "sat,sun"],
    ["--text", "Read", "--at", "21:30"],
    ["--text", "Lights out", "--at", "22:45"],
    ["--text", "Pills", "--at", "08:30", "--style", "alarm"],
  ]

  func instant(day: Int, minute: Int, second: Int = 0) -> Int64 {
    WallClock.instant(
      on: start.adding(days: day), at: TimeOfDay(secondsSinceMidnight: minute * 60 + second),
      in: zone)
  }

  @discardableResult
  func cli(_ arguments: [String], at now: Int64, presence: Presence = .unknown) -> String {
    let output = Output()
    let environment = ProcessEnvironment(
      variables: [
        "ROUTINE_STORE": store,
        "ROUTINE_NOW": Timestamp(
          secondsSince1970: now, utcOffsetSeconds: Int32(WallClock.offset(at: now, in: zone))
        ).iso8601,
        "TZ": "Europe/Berlin", "LANG": "C", "HOME": NSTemporaryDirectory(),
      ],
      clock: { Date(timeIntervalSince1970: Double(now)) }, systemTimeZone: { Zone.utc },
      presence: { _ in (presence, []) })
    _ = RoutineCLI.run(arguments, environment: environment, output: output, errors: Output())
    return output.text
  }

  /// Removes the store and the files SQLite keeps beside it.
  func removeStore() {
    for suffix in ["", "-wal", "-shm", "-journal"] {
      try? FileManager.default.removeItem(atPath: store + suffix)
    }
  }

  func run() throws -> HoldOutcome {
    removeStore()
    defer { removeStore() }
    let setup = instant(day: -1, minute: 12 * 60)
    cli(["settings", "--time-zone", "Europe/Berlin"] + settings, at: setup)
    for reminder in HeldLife.reminders { cli(["reminders", "add"] + reminder, at: setup) }
    let database = try EventStore(path: store)
    // The minutes a reminder fires at, by weekday kind.
    let times = [
      10 * 60, 11 * 60 + 30, 14 * 60 + 30, 16 * 60, 17 * 60 + 15, 18 * 60, 21 * 60 + 30,
      22 * 60 + 45, 8 * 60 + 30,
    ]
    var outcome = HoldOutcome()
    var alarmRang: Int64?
    for day in 0..<days {
      for minute in 0..<1440 {
        let due = times.contains(minute)
        let now = instant(day: day, minute: minute, second: 10)
        let unansweredAlarm = alarmRang != nil
        guard try due || unansweredAlarm || !database.heldDeliveries().isEmpty else { continue }
        let presence = life.presence(day: day, minute: minute)
        let text = cli(["deliver"], at: now, presence: presence)
        for line in text.split(separator: "\n") {
          guard
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8))
              as? [String: Any],
            let occurrence = (object["occurrence"] as? String).flatMap(Timestamp.init(iso8601:))
          else { continue }
          if object["alarm"] as? Bool == true {
            if object["attempt"] as? Int == 0 { alarmRang = occurrence.secondsSince1970 }
            continue
          }
          let delay = Int((now - occurrence.secondsSince1970) / 60)
          switch life[day, minute] {
          case .present:
            outcome.seen += 1
            outcome.delays.append(delay)
            if minute >= 5, (1...5).allSatisfy({ life[day, minute - $0] != .present }) {
              outcome.atTheInstantOfReturn += 1
            }
          case .call: outcome.unseenCall += 1
          case .away: outcome.unseenAway += 1
          case .asleep: outcome.unseenAsleep += 1
          }
        }
        // The alarm stays on screen until the person is at the desk and answers it.
        if let rang = alarmRang, life[day, minute] == .present {
          cli(["respond", "reminder-9", "done"], at: now + 20)
          outcome.alarmDelays.append(Int((now + 20 - rang) / 60))
          alarmRang = nil
        }
      }
    }
    let history = cli(
      ["history", "--json", "--from", "2026-09-01", "--to", "2027-12-31"],
      at: instant(day: days, minute: 12 * 60))
    if let object = try? JSONSerialization.jsonObject(with: Data(history.utf8)) as? [String: Any],
      let entries = object["entries"] as? [[String: Any]]
    {
      for entry in entries where entry["type"] as? String == "delivery" {
        guard entry["id"] as? String != "reminder-9", entry["attempt"] as? Int == 0 else {
          continue
        }
        outcome.firings += 1
        if entry["outcome"] as? String == "missed" { outcome.missed += 1 }
      }
    }
    return outcome
  }
}

func runHoldSimulation(_ arguments: [String], work: String) -> Int32 {
  let people = integerOption(arguments, "--people", 10)
  let days = integerOption(arguments, "--days", 56)
  let seed = UInt64(integerOption(arguments, "--seed", 1))
  let directory = work + "/hold-simulation"
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  guard let zone = try? ZoneDatabase.shared(directory: nil).zone(named: "Europe/Berlin") else {
    print("error: the Europe/Berlin zone is not available")
    return 1
  }
  let policies: [(String, [String])] = [
    ("nothing held", []),
    ("--hold-while-idle 5", ["--hold-while-idle", "5"]),
    ("idle 5 + quiet 22:30-07:00", ["--hold-while-idle", "5", "--quiet", "22:30-07:00"]),
  ]
  var totals = Array(repeating: HoldOutcome(), count: policies.count)
  let started = Date()
  for person in 0..<people {
    let life = DeskLife(
      days: days, start: RoutineCore.LocalDate(year: 2026, month: 9, day: 7)!,
      seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ UInt64(person))
    for (index, policy) in policies.enumerated() {
      let held = HeldLife(
        life: life, days: days, settings: policy.1, store: "\(directory)/person-\(person).db",
        zone: zone)
      let outcome: HoldOutcome
      do {
        outcome = try held.run()
      } catch {
        print("error: the simulation of person \(person) failed: \(error)")
        return 1
      }
      totals[index].firings += outcome.firings
      totals[index].seen += outcome.seen
      totals[index].unseenAway += outcome.unseenAway
      totals[index].unseenCall += outcome.unseenCall
      totals[index].unseenAsleep += outcome.unseenAsleep
      totals[index].missed += outcome.missed
      totals[index].atTheInstantOfReturn += outcome.atTheInstantOfReturn
      totals[index].delays += outcome.delays
      totals[index].alarmDelays += outcome.alarmDelays
    }
    FileHandle.standardError.write(Data("simulated person \(person + 1) of \(people)\n".utf8))
  }
  func share(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "-" : String(format: "%.1f%%", Double(part) * 100 / Double(whole))
  }
  func percentile(_ values: [Int], _ p: Double) -> String {
    guard !values.isEmpty else { return "-" }
    let sorted = values.sorted()
    return "\(sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))])"
  }
  print(
    "Hold simulation: \(people) people, \(days) days each, seed \(seed), 8 reminders and a pills alarm (\(String(format: "%.0f", Date().timeIntervalSince(started))) s)."
  )
  print("")
  print(
    "| setting | firings | seen at the desk | unseen: away | in a call | asleep | missed (held past its time) | delivered the minute they sat down | delay of those seen, median / p90 (min) | alarm answered after, median / p90 (min) |"
  )
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  for (index, policy) in policies.enumerated() {
    let total = totals[index]
    print(
      "| \(policy.0) | \(total.firings) | \(share(total.seen, total.firings)) | \(share(total.unseenAway, total.firings)) | \(share(total.unseenCall, total.firings)) | \(share(total.unseenAsleep, total.firings)) | \(share(total.missed, total.firings)) | \(share(total.atTheInstantOfReturn, total.firings)) | \(percentile(total.delays, 0.5)) / \(percentile(total.delays, 0.9)) | \(percentile(total.alarmDelays, 0.5)) / \(percentile(total.alarmDelays, 0.9)) |"
    )
  }
  return 0
}
