// The simulation of issue 28 (docs/reminders.md#the-simulation, docs/performance.md):
//
//   .build/release/routine-bench --simulate [--people N] [--days N] [--seed S] [--work DIR]
//
// People with routines of different strength and regularity live 90 days with routine, through
// the real CLI in this process (RoutineCLI.run: plan every night, deliver when something is due,
// log what they do, respond to what they are reminded of) on a store of their own each, once
// with adaptation off (`settings --adapt false`) and once on, with the same people and seeds.
// A person does a routine unaided with a probability that is its habit strength; the strength
// grows with unaided repetitions, less with prompted ones, and fades on missed days (Lally 2010;
// Stawarz 2015; Renfree 2016). A reminder is acted on more when it comes near the time the
// person would act, and less the more often it, and all of routine's reminders together, came
// lately (prompt fatigue: HeartSteps; alert fatigue is about the volume a person gets); one that
// comes too early is snoozed by people who snooze; one that comes after the act was logged is
// wasted and annoying. Annoyance builds with ignored, dismissed and wasted reminders and decays
// by day; a person quick to mute mutes the app once it passes their limit.
import Foundation
import RoutineCLI
import RoutineCore

/// A routine of a simulated person.
struct SimulatedRoutine {
  var kind: String
  /// Minutes since midnight, local.
  var minute: Int
  var days: WeekdaySet
  /// How much the time varies day to day (minutes, standard deviation).
  var sigma: Double
  /// The probability of doing it on a day without being reminded.
  var strength: Double
  /// `strong`, `medium`, `weak` or `new`: how it is reported.
  var group: String
  /// A reminder the person defined for it (`reminders add` arguments), if any.
  var defined: [String]? = nil
  /// From this day on, the routine is `moveMinutes` later (a new job).
  var moveDay: Int? = nil
  var moveMinutes = 0

  func minute(onDay day: Int) -> Int {
    minute + ((moveDay.map { day >= $0 } ?? false) ? moveMinutes : 0)
  }
}

/// A simulated person.
struct SimulatedPerson {
  var name: String
  var routines: [SimulatedRoutine]
  /// How readily a reminder is acted on when the person would not have done it anyway.
  var responsiveness = 0.4
  var snoozeTendency = 0.2
  var dismissTendency = 0.45
  /// Annoyance past which the person mutes routine for good; `nil`: never.
  var muteLimit: Double? = nil
  /// Days away (nothing done, nothing delivered: the laptop is off).
  var holiday: ClosedRange<Int>? = nil
  /// Days in New York (the zone setting changes; routines keep their local times).
  var trip: ClosedRange<Int>? = nil
  /// An alarm for pills at 21:00, answered 'done'.
  var pills = false
  /// Days on which a task falls due at 17:00, with a reminder an hour before.
  var tasks: [Int] = []

  static func population(_ count: Int) -> [SimulatedPerson] {
    let weekdays = WeekdaySet.weekdays
    let weekends = WeekdaySet.weekends
    let everyDay = WeekdaySet.everyDay
    let gym = WeekdaySet([2, 4, 6])
    func strong(_ kind: String, _ at: Int, _ days: WeekdaySet = everyDay, sigma: Double = 10)
      -> SimulatedRoutine
    {
      SimulatedRoutine(
        kind: kind, minute: at, days: days, sigma: sigma, strength: 0.93, group: "strong")
    }
    func medium(_ kind: String, _ at: Int, _ days: WeekdaySet = everyDay, sigma: Double = 15)
      -> SimulatedRoutine
    {
      SimulatedRoutine(
        kind: kind, minute: at, days: days, sigma: sigma, strength: 0.65, group: "medium")
    }
    func weak(_ kind: String, _ at: Int, _ days: WeekdaySet = everyDay, new: Bool = false)
      -> SimulatedRoutine
    {
      let clock = String(format: "%02d:%02d", at / 60, at % 60)
      var defined = ["reminders", "add", "--activity", kind, "--at", clock, "--lookback", "12"]
      if days != everyDay { defined += ["--days", days == weekdays ? "weekdays" : "mon,wed,fri"] }
      return SimulatedRoutine(
        kind: kind, minute: at, days: days, sigma: 12, strength: new ? 0.12 : 0.3,
        group: new ? "new" : "weak", defined: defined)
    }
    var people: [SimulatedPerson] = [
      SimulatedPerson(
        name: "steady",
        routines: [
          strong("Wake Up", 405, weekdays, sigma: 8), strong("Wake Up", 510, weekends, sigma: 20),
          strong("Coffee", 430), strong("Meditation", 1290), strong("Workout", 1110, gym),
        ]),
      SimulatedPerson(
        name: "steady commuter",
        routines: [
          strong("Wake Up", 390, weekdays, sigma: 6),
          strong("Leaving Home", 465, weekdays, sigma: 6),
          strong("Lunch", 750, weekdays), strong("Reading", 1335),
        ]),
      SimulatedPerson(
        name: "mixed",
        routines: [
          strong("Wake Up", 420, weekdays), medium("Meditation", 1260), weak("Stretch", 450),
          weak("Workout", 1080, gym),
        ]),
      SimulatedPerson(
        name: "new habits",
        routines: [
          strong("Wake Up", 400, weekdays), weak("Journal", 1260, new: true),
          weak("Vitamins", 480, new: true), weak("Walk", 750, weekdays, new: true),
        ]),
      SimulatedPerson(
        name: "snoozer",
        routines: [
          strong("Wake Up", 410, weekdays, sigma: 25), strong("Coffee", 440, sigma: 25),
          medium("Meditation", 1290, sigma: 25),
        ], snoozeTendency: 0.75),
      SimulatedPerson(
        name: "ignorer",
        routines: [
          medium("Wake Up", 420, weekdays), medium("Coffee", 450), medium("Reading", 1320),
        ], responsiveness: 0.1, snoozeTendency: 0.05, dismissTendency: 0.1),
      SimulatedPerson(
        name: "quick to mute",
        routines: [
          strong("Wake Up", 420, weekdays), strong("Coffee", 445), medium("Meditation", 1275),
          weak("Stretch", 460),
        ], muteLimit: 6),
      SimulatedPerson(
        name: "new job",
        routines: [
          strong("Wake Up", 390, weekdays, sigma: 6),
          {
            var leaving = strong("Leaving Home", 450, weekdays, sigma: 6)
            leaving.moveDay = 30
            leaving.moveMinutes = 90
            return leaving
          }(),
          strong("Coffee", 420),
        ]),
      SimulatedPerson(
        name: "traveller",
        routines: [
          strong("Wake Up", 420, weekdays), strong("Coffee", 440), medium("Meditation", 1290),
        ], trip: 60...66),
      SimulatedPerson(
        name: "holiday",
        routines: [
          strong("Wake Up", 410, weekdays), strong("Coffee", 430), strong("Reading", 1320),
        ], holiday: 40...47),
      SimulatedPerson(
        name: "dismisser",
        routines: [
          medium("Wake Up", 420, weekdays), medium("Coffee", 450), weak("Stretch", 470),
        ], responsiveness: 0.25, dismissTendency: 0.7, muteLimit: 9),
      SimulatedPerson(
        name: "alarms and tasks",
        routines: [
          strong("Wake Up", 400, weekdays), strong("Coffee", 430), weak("Journal", 1260),
        ], muteLimit: 12, pills: true, tasks: [20, 50, 75]),
    ]
    while people.count < count {
      var copy = people[people.count % 12]
      copy.name += " \(people.count / 12 + 1)"
      people.append(copy)
    }
    return Array(people.prefix(count))
  }
}

/// What one mode's run of one person came to.
struct SimulationResult {
  var days = 0
  /// Per routine group: on-days, days done, days done on time (within 30 minutes).
  var adherence: [String: (on: Int, done: Int, onTime: Int)] = [:]
  /// First deliveries of reminders (not snoozed copies or alarm rings), by day.
  var remindersByDay: [Int: Int] = [:]
  /// Every notification delivered (copies and rings too).
  var notifications = 0
  /// By the product's own classification (`history --json` "result"): acted, snoozed then
  /// acted, dismissed, ignored, pre-empted.
  var results: [String: Int] = [:]
  /// First deliveries after the act was logged that day (since 04:00), of once-a-day routines.
  var wasted = 0
  var wastedSeveral = 0
  /// The day the person muted routine.
  var mutedOn: Int?
  /// Alarms and task reminders delivered.
  var alarms = 0
  var tasks = 0
  /// Days from the routine's move until a reminder first fired within 20 minutes before its
  /// new time.
  var followedMoveAfter: Int?
}

/// One person living `days` days with routine, in one mode.
final class SimulatedLife {
  let person: SimulatedPerson
  let adapts: Bool
  let days: Int
  let seed: UInt64
  let store: String
  let start = RoutineCore.LocalDate(year: 2026, month: 3, day: 2)!
  let home = Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)
  let away = Zone(foundation: TimeZone(identifier: "America/New_York")!)
  var strengths: [Double]
  var annoyance = 0.0
  var muted = false
  var result = SimulationResult()
  /// The instants of the last prompts of each routine, for fatigue.
  var prompts: [[Int64]]
  /// The instants of every notification the person got, for fatigue.
  var allPrompts: [Int64] = []
  /// The defined reminders' ids, by routine index.
  var definedIDs: [Int: String] = [:]
  var pillsID: String?
  var taskReminders: Set<String> = []

  init(person: SimulatedPerson, adapts: Bool, days: Int, seed: UInt64, directory: String) {
    self.person = person
    self.adapts = adapts
    self.days = days
    self.seed = seed
    store =
      directory
      + "/\(person.name.replacingOccurrences(of: " ", with: "-"))-\(adapts ? "on" : "off").db"
    strengths = person.routines.map(\.strength)
    prompts = person.routines.map { _ in [] }
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: store + suffix)
    }
  }

  func zone(onDay day: Int) -> Zone {
    person.trip.map { $0.contains(day) } == true ? away : home
  }

  /// The instant of `minute` (past 1440: the next day) of `day`, in that day's zone.
  func instant(day: Int, minute: Int) -> Int64 {
    let date = start.adding(days: day + minute / 1440 - (minute < 0 ? 1 : 0))
    let minuteOfDay = ((minute % 1440) + 1440) % 1440
    return WallClock.instant(
      on: date, at: TimeOfDay(secondsSinceMidnight: minuteOfDay * 60), in: zone(onDay: day))
  }

  func stamp(_ instant: Int64, day: Int) -> String {
    let zone = zone(onDay: day)
    return Timestamp(
      secondsSince1970: instant, utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone))
    ).iso8601
  }

  /// Writes `text` to standard error when tracing this person (SIMULATION_TRACE=name).
  func trace(_ text: String) {
    guard ProcessInfo.processInfo.environment["SIMULATION_TRACE"] == person.name else { return }
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  /// Runs the CLI in this process at `now`.
  @discardableResult
  func cli(_ arguments: [String], at now: Int64, day: Int) -> (Int32, String) {
    let output = Output()
    let errors = Output()
    let environment = ProcessEnvironment(
      variables: [
        "ROUTINE_STORE": store, "ROUTINE_NOW": stamp(now, day: day), "TZ": "Europe/Berlin",
        "LANG": "C", "HOME": NSTemporaryDirectory(),
      ],
      clock: { Date(timeIntervalSince1970: Double(now)) }, systemTimeZone: { Zone.utc })
    let status = RoutineCLI.run(arguments, environment: environment, output: output, errors: errors)
    return (status, output.text)
  }

  /// A seeded generator for one decision: the same person, day and subject draw the same
  /// numbers in both modes.
  func generator(_ parts: Int...) -> SplitMix64 {
    var state = seed &* 0x9E37_79B9_7F4A_7C15
    for part in [person.name.hashValueStable] + parts {
      state = (state ^ UInt64(bitPattern: Int64(part))) &* 0xBF58_476D_1CE4_E5B9
    }
    return SplitMix64(seed: state)
  }

  func normal(_ generator: inout SplitMix64) -> Double {
    let u1 = max(Double.random(in: 0..<1, using: &generator), 1e-12)
    let u2 = Double.random(in: 0..<1, using: &generator)
    return (-2 * Foundation.log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// Four weeks of the person's log before the first day, imported.
  func history() {
    var lines = ["timestamp,event"]
    for day in -28..<0 {
      let date = start.adding(days: day)
      for (index, routine) in person.routines.enumerated()
      where routine.days.contains(date.weekday) {
        var random = generator(day, index, 1)
        guard Double.random(in: 0..<1, using: &random) < routine.strength else { continue }
        let minute = routine.minute + Int((normal(&random) * routine.sigma).rounded())
        lines.append("\(stamp(instant(day: day, minute: minute), day: 0)),\(routine.kind)")
      }
    }
    let file = store + ".history.csv"
    try? (lines.joined(separator: "\n") + "\n").write(
      toFile: file, atomically: true, encoding: .utf8)
    let now = instant(day: -1, minute: 23 * 60)
    cli(
      ["settings", "--time-zone", "Europe/Berlin", "--adapt", adapts ? "true" : "false"], at: now,
      day: 0)
    cli(["import", file], at: now, day: 0)
    try? FileManager.default.removeItem(atPath: file)
    for (index, routine) in person.routines.enumerated() {
      guard let defined = routine.defined else { continue }
      let (_, text) = self.cli(defined, at: now, day: 0)
      if let id = text.split(separator: " ").dropFirst().first?.dropLast() {
        definedIDs[index] = String(id)
      }
    }
    if person.pills {
      let (_, text) = cli(
        ["reminders", "add", "--text", "Take the pills", "--at", "21:00", "--style", "alarm"],
        at: now, day: 0)
      pillsID = text.split(separator: " ").dropFirst().first.map { String($0.dropLast()) }
    }
    for (number, due) in person.tasks.enumerated() {
      let date = start.adding(days: due)
      cli(["tasks", "add", "Task \(number + 1)", "--due", "\(date) 17:00"], at: now, day: 0)
      let (_, text) = cli(
        ["reminders", "add", "--task", "Task \(number + 1)", "--before", "1h"], at: now, day: 0)
      if let id = text.split(separator: " ").dropFirst().first?.dropLast() {
        taskReminders.insert(String(id))
      }
    }
  }

  enum Happening {
    case deliver
    case act(routine: Int)
    case respond(id: String, action: String, occurrence: String, routine: Int?)
  }

  func run() -> SimulationResult {
    history()
    var movedAt: Int?
    for day in 0..<days {
      let away = person.holiday.map { $0.contains(day) } ?? false
      let zone = self.zone(onDay: day)
      if let trip = person.trip, day == trip.lowerBound || day == trip.upperBound + 1 {
        cli(
          [
            "settings", "--time-zone",
            day == trip.lowerBound ? "America/New_York" : "Europe/Berlin",
          ],
          at: instant(day: day, minute: 190), day: day)
      }
      if away {
        // The laptop is off: nothing planned, delivered or done.
        dayEnd(day: day, done: [:], prompted: [])
        continue
      }
      let planAt = instant(day: day, minute: 195)
      cli(["plan"], at: planAt, day: day)
      var queue: [(Int64, Int, Happening)] = []
      var order = 0
      func push(_ at: Int64, _ happening: Happening) {
        queue.append((at, order, happening))
        order += 1
      }
      // The day ends at 03:15 the next morning, in this day's zone (a flight's hours between
      // two zones' days are no one's).
      let end = instant(day: day, minute: 1440 + 195)
      let (_, agendaText) = cli(
        ["agenda", "--json", "--from", stamp(planAt, day: day), "--to", stamp(end, day: day)],
        at: planAt, day: day)
      let agenda =
        (try? JSONSerialization.jsonObject(with: Data(agendaText.utf8))) as? [String: Any] ?? [:]
      var times = Set<Int64>()
      for case let item as [String: Any] in agenda["items"] as? [Any] ?? [] {
        guard let at = (item["at"] as? String).flatMap(Timestamp.init(iso8601:)) else { continue }
        times.insert(at.secondsSince1970 + 20)
        if let id = item["id"] as? String,
          let moved = person.routines.firstIndex(where: { $0.moveDay != nil }),
          movedAt == nil, day >= person.routines[moved].moveDay!,
          id.contains(compact(person.routines[moved].kind)),
          item["skipped"] is NSNull
        {
          let target = person.routines[moved].minute(onDay: day)
          let local = at.timeOfDay.secondsSinceMidnight / 60
          if target - local >= 0 && target - local <= 20 {
            movedAt = day - person.routines[moved].moveDay!
          }
        }
      }
      for time in times { push(time, .deliver) }
      // The day's acts the person does on their own.
      var planned: [Int: Int64] = [:]
      for (index, routine) in person.routines.enumerated()
      where routine.days.contains(start.adding(days: day).weekday) {
        var random = generator(day, index, 1)
        let unaided = Double.random(in: 0..<1, using: &random)
        let minute = routine.minute(onDay: day) + Int((normal(&random) * routine.sigma).rounded())
        if unaided < strengths[index] {
          planned[index] = instant(day: day, minute: minute)
          push(planned[index]!, .act(routine: index))
        }
      }
      var done: [Int: Int64] = [:]
      var prompted = Set<Int>()
      var lastDeliver: Int64 = 0
      while !queue.isEmpty {
        queue.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        let (at, _, happening) = queue.removeFirst()
        switch happening {
        case .deliver:
          guard at > lastDeliver else { continue }
          lastDeliver = at
          let (_, text) = cli(["deliver"], at: at, day: day)
          if let trace = ProcessInfo.processInfo.environment["SIMULATION_TRACE"],
            trace == person.name, !text.isEmpty
          {
            FileHandle.standardError.write(
              Data("day \(day) deliver at \(stamp(at, day: day)): \(text)".utf8))
          }
          for line in text.split(separator: "\n") {
            guard
              let note = (try? JSONSerialization.jsonObject(with: Data(line.utf8)))
                as? [String: Any]
            else { continue }
            react(
              note, at: at, day: day, planned: planned, done: &done, prompted: &prompted,
              push: push)
          }
        case .act(let index):
          guard done[index] == nil else { continue }
          cli(
            ["log", person.routines[index].kind, "--at", stamp(at, day: day)], at: at + 30,
            day: day)
          if ProcessInfo.processInfo.environment["SIMULATION_TRACE"] == person.name {
            FileHandle.standardError.write(
              Data("day \(day) log \(person.routines[index].kind) at \(stamp(at, day: day))\n".utf8)
            )
          }
          done[index] = at
        case .respond(let id, let action, let occurrence, let index):
          let (status, _) = cli(
            ["respond", id, action, "--occurrence", occurrence], at: at, day: day)
          if status == 0, let index, ["onit", "done"].contains(action), done[index] == nil {
            done[index] = at
            prompted.insert(index)
          }
        }
      }
      _ = zone
      dayEnd(day: day, done: done, prompted: prompted)
    }
    result.followedMoveAfter = movedAt
    judge()
    return result
  }

  /// `Leaving Home` as request ids spell it.
  func compact(_ kind: String) -> String { kind.filter { $0.isLetter || $0.isNumber } }

  /// The routine a notification is about, by its title or its reminder's id.
  func routineIndex(of note: [String: Any]) -> Int? {
    let id = note["id"] as? String ?? ""
    if let index = definedIDs.first(where: { id.hasPrefix($0.value + "-") || id == $0.value })?.key
    {
      return index
    }
    let title = (note["title"] as? String ?? "").replacingOccurrences(of: "Reminder: ", with: "")
    return person.routines.firstIndex { "Time for \($0.kind)" == title || $0.kind == title }
  }

  func react(
    _ note: [String: Any], at now: Int64, day: Int, planned: [Int: Int64], done: inout [Int: Int64],
    prompted: inout Set<Int>, push: (Int64, Happening) -> Void
  ) {
    let id = note["id"] as? String ?? ""
    let occurrence = note["occurrence"] as? String ?? ""
    let attempt = note["attempt"] as? Int ?? 0
    let isCopy = id.hasPrefix("alert_")
    result.notifications += 1
    let firing = Timestamp(iso8601: occurrence)?.secondsSince1970 ?? now
    var random = generator(day, Int(firing % 100_000), id.count, attempt)
    let roll = { Double.random(in: 0..<1, using: &random) }
    if id.hasPrefix("outlier_") { return }
    let actions = (note["actions"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    // An alarm (the pills) and task reminders: answered 'done' soon, unless muted.
    if let pillsID, id == pillsID || (isCopy && (note["alarm"] as? Bool ?? false)) {
      if attempt == 0 && !isCopy { result.alarms += 1 }
      // Unanswered, it rings again in 5 minutes (6 times at most): delivery must run then.
      if attempt < Reminder.alarmRepeats { push(now + 300, .deliver) }
      guard !muted, roll() < 0.85 else { return }
      push(
        now + Int64(60 + Int(roll() * 300)),
        .respond(id: id, action: "done", occurrence: occurrence, routine: nil))
      return
    }
    if taskReminders.contains(id) {
      result.tasks += 1
      guard !muted else { return }
      push(
        now + Int64(60 + Int(roll() * 1200)),
        .respond(id: id, action: "done", occurrence: occurrence, routine: nil))
      return
    }
    guard let index = routineIndex(of: note) else { return }
    if attempt == 0 && !isCopy {
      result.remindersByDay[day, default: 0] += 1
      if done[index] != nil {
        let kind = person.routines[index].kind
        let several =
          person.routines.filter { $0.kind == kind }.count > 1
          && person.routines.filter {
            $0.kind == kind && $0.days.contains(start.adding(days: day).weekday)
          }.count > 1
        if several { result.wastedSeveral += 1 } else { result.wasted += 1 }
        if ProcessInfo.processInfo.environment["SIMULATION_DEBUG"] != nil {
          FileHandle.standardError.write(
            Data(
              "wasted: \(person.name) day \(day) \(id) \(occurrence) done \(stamp(done[index]!, day: day))\n"
                .utf8))
        }
      }
    }
    prompts[index].append(now)
    allPrompts.append(now)
    guard !muted else { return }
    let doAction = actions.contains("onit") ? "onit" : actions.contains("done") ? "done" : nil
    if done[index] != nil {
      annoyance += 1.5
      trace("annoyance +1.5 line 505 \(person.routines[index].kind) \(id)")
      if roll() < 0.5, actions.contains("dismiss") {
        push(now + 60, .respond(id: id, action: "dismiss", occurrence: occurrence, routine: index))
      }
      return
    }
    if let later = planned[index], later > now {
      if later - now <= 600 {
        if let doAction, roll() < 0.3 {
          push(now + 60, .respond(id: id, action: doAction, occurrence: occurrence, routine: index))
        }
      } else if !isCopy, actions.contains("snooze"), roll() < person.snoozeTendency {
        push(now + 30, .respond(id: id, action: "snooze", occurrence: occurrence, routine: index))
        push(now + 30 + 60 * 5, .deliver)
        annoyance += 0.2
        trace("annoyance +0.2 line 519 \(person.routines[index].kind) \(id)")
      } else {
        annoyance += 0.3
        trace("annoyance +0.3 line 521 \(person.routines[index].kind) \(id)")
      }
      return
    }
    let recent = prompts[index].filter { $0 > now - 7 * 86_400 }.count
    let all = allPrompts.filter { $0 > now - 7 * 86_400 }.count
    let fatigue = exp(-Double(recent) / 10 - Double(all) / 25)
    let chance = person.responsiveness * fatigue * (isCopy ? 0.8 : 1)
    if let doAction, roll() < chance {
      push(
        now + Int64(Int(roll() * 180)),
        .respond(id: id, action: doAction, occurrence: occurrence, routine: index))
      annoyance = max(0, annoyance - 0.5)
    } else if !isCopy, actions.contains("snooze"), roll() < person.snoozeTendency {
      push(now + 30, .respond(id: id, action: "snooze", occurrence: occurrence, routine: index))
      push(now + 30 + 60 * 5, .deliver)
      annoyance += 0.3
      trace("annoyance +0.3 line 537 \(person.routines[index].kind) \(id)")
    } else if actions.contains("dismiss"), roll() < person.dismissTendency {
      push(now + 60, .respond(id: id, action: "dismiss", occurrence: occurrence, routine: index))
      annoyance += 1
      trace("annoyance +1 line 540 \(person.routines[index].kind) \(id)")
    } else {
      annoyance += 1
      trace("annoyance +1 line 542 \(person.routines[index].kind) \(id)")
    }
  }

  /// The day's adherence and the habits' change (Lally: unaided repetition builds the habit;
  /// a prompted one less; a missed day loses a little).
  func dayEnd(day: Int, done: [Int: Int64], prompted: Set<Int>) {
    result.days += 1
    let date = start.adding(days: day)
    let away = person.holiday.map { $0.contains(day) } ?? false
    for (index, routine) in person.routines.enumerated() where routine.days.contains(date.weekday) {
      if !away {
        var counts = result.adherence[routine.group] ?? (0, 0, 0)
        counts.on += 1
        if let at = done[index] {
          counts.done += 1
          let local = Int(at + WallClock.offset(at: at, in: zone(onDay: day))) / 60 % 1440
          let target = routine.minute(onDay: day)
          let distance = min(abs(local - target), 1440 - abs(local - target))
          if distance <= 30 { counts.onTime += 1 }
        }
        result.adherence[routine.group] = counts
      }
      var strength = strengths[index]
      if done[index] != nil {
        strength += (prompted.contains(index) ? 0.015 : 0.05) * (1 - strength)
      } else if !away {
        strength -= 0.03 * strength
      }
      strengths[index] = min(0.97, max(0.02, strength))
    }
    if ProcessInfo.processInfo.environment["SIMULATION_TRACE"] == person.name {
      FileHandle.standardError.write(
        Data(
          String(format: "day %d annoyance %.1f adapts %@\n", day, annoyance, adapts ? "on" : "off")
            .utf8))
    }
    annoyance *= 0.85
    if let limit = person.muteLimit, !muted, annoyance >= limit {
      muted = true
      result.mutedOn = day
    }
  }

  /// What became of the firings, as the product itself judges them (`history --json`).
  func judge() {
    let end = instant(day: days, minute: 200)
    let (_, text) = cli(
      [
        "history", "--json", "--from", stamp(instant(day: 0, minute: 0), day: 0), "--to",
        stamp(end, day: days),
      ],
      at: end, day: days)
    let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    for case let entry as [String: Any] in json["entries"] as? [Any] ?? [] {
      guard entry["type"] as? String == "delivery", entry["attempt"] as? Int == 0,
        let id = entry["id"] as? String, !id.hasPrefix("alert_"), !id.hasPrefix("outlier_"),
        let result = entry["result"] as? String
      else { continue }
      self.result.results[result, default: 0] += 1
    }
  }
}

extension String {
  /// A hash that is the same in every run (Swift's `hashValue` is seeded per process).
  var hashValueStable: Int {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01B3
    }
    return Int(truncatingIfNeeded: hash)
  }
}

/// `routine-bench --simulate`: runs the population with adaptation off and on and prints the
/// tables of docs/performance.md.
/// The whole number after `name` in `arguments`, or `fallback` (the simulations' options).
func integerOption(_ arguments: [String], _ name: String, _ fallback: Int) -> Int {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
    let value = Int(arguments[index + 1])
  else { return fallback }
  return value
}

func runSimulation(_ arguments: [String], work: String) -> Int32 {
  func option(_ name: String, _ fallback: Int) -> Int {
    integerOption(arguments, name, fallback)
  }
  let count = option("--people", 12)
  let days = option("--days", 90)
  let seed = UInt64(option("--seed", 1))
  let directory = work + "/simulation"
  try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let people = SimulatedPerson.population(count)
  var results: [(SimulatedPerson, SimulationResult, SimulationResult)] = []
  let started = Date()
  for person in people {
    let off = SimulatedLife(
      person: person, adapts: false, days: days, seed: seed, directory: directory
    ).run()
    let on = SimulatedLife(
      person: person, adapts: true, days: days, seed: seed, directory: directory
    ).run()
    results.append((person, off, on))
    FileHandle.standardError.write(Data("simulated \(person.name)\n".utf8))
  }
  print(
    "Simulation: \(count) people, \(days) days each, seed \(seed), adaptation off and on (\(String(format: "%.0f", Date().timeIntervalSince(started))) s)."
  )
  print("")
  print(
    "| person | reminders a day off | on | ratio | adherence off | on | wasted off | on | muted off | on |"
  )
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  func perDay(_ result: SimulationResult, _ range: Range<Int>? = nil) -> Double {
    let counted = result.remindersByDay.filter { range?.contains($0.key) ?? true }.values.reduce(
      0, +)
    let span = range.map { Double($0.count) } ?? Double(max(result.days, 1))
    return Double(counted) / span
  }
  func adherence(_ result: SimulationResult, _ groups: [String]? = nil) -> Double {
    let chosen = result.adherence.filter { groups?.contains($0.key) ?? true }.values
    let on = chosen.reduce(0) { $0 + $1.on }
    return Double(chosen.reduce(0) { $0 + $1.done }) / Double(max(on, 1))
  }
  for (person, off, on) in results {
    print(
      String(
        format: "| %@ | %.2f | %.2f | %.0f%% | %.3f | %.3f | %d | %d | %@ | %@ |", person.name,
        perDay(off), perDay(on), perDay(on) / max(perDay(off), 0.001) * 100, adherence(off),
        adherence(on), off.wasted, on.wasted, off.mutedOn.map { "day \($0)" } ?? "-",
        on.mutedOn.map { "day \($0)" } ?? "-"))
  }
  func total(_ pick: (SimulationResult, SimulationResult) -> SimulationResult) -> SimulationResult {
    var sum = SimulationResult()
    for (_, off, on) in results {
      let one = pick(off, on)
      sum.days += one.days
      for (key, value) in one.adherence {
        var counts = sum.adherence[key] ?? (0, 0, 0)
        counts.on += value.on
        counts.done += value.done
        counts.onTime += value.onTime
        sum.adherence[key] = counts
      }
      for (day, n) in one.remindersByDay { sum.remindersByDay[day, default: 0] += n }
      sum.notifications += one.notifications
      for (key, n) in one.results { sum.results[key, default: 0] += n }
      sum.wasted += one.wasted
      sum.wastedSeveral += one.wastedSeveral
      sum.alarms += one.alarms
      sum.tasks += one.tasks
    }
    return sum
  }
  let off = total { off, _ in off }
  let on = total { _, on in on }
  print("")
  print("| measure | adaptation off | adaptation on |")
  print("| --- | --- | --- |")
  let persons = Double(results.count)
  print(String(format: "| reminders a day per person | %.2f | %.2f |", perDay(off), perDay(on)))
  print(
    String(
      format: "| ... days 0-29 | %.2f | %.2f |", perDay(off, 0..<30) / persons,
      perDay(on, 0..<30) / persons))
  print(
    String(
      format: "| ... days 60-89 | %.2f | %.2f |", perDay(off, 60..<90) / persons,
      perDay(on, 60..<90) / persons))
  print(
    String(
      format: "| notifications a day (copies and rings too) | %.2f | %.2f |",
      Double(off.notifications) / Double(max(off.days, 1)),
      Double(on.notifications) / Double(max(on.days, 1))))
  for group in ["strong", "medium", "weak", "new"] {
    print(
      String(
        format: "| adherence, %@ routines | %.3f | %.3f |", group, adherence(off, [group]),
        adherence(on, [group])))
  }
  print(String(format: "| adherence, all | %.3f | %.3f |", adherence(off), adherence(on)))
  func onTime(_ result: SimulationResult) -> Double {
    let values = result.adherence.values
    return Double(values.reduce(0) { $0 + $1.onTime })
      / Double(max(values.reduce(0) { $0 + $1.done }, 1))
  }
  print(
    String(
      format: "| on-time share of acts (within 30 min) | %.3f | %.3f |", onTime(off), onTime(on)))
  let delivered = ["acted", "snoozed-then-acted", "dismissed", "ignored", "pre-empted", "open"]
  for key in delivered.dropLast() {
    func share(_ result: SimulationResult) -> Double {
      let all = delivered.reduce(0) { $0 + (result.results[$1] ?? 0) }
      return Double(result.results[key] ?? 0) / Double(max(all, 1))
    }
    print(String(format: "| share %@ | %.3f | %.3f |", key, share(off), share(on)))
  }
  print(
    "| wasted (after the act was logged that day), once-a-day routines | \(off.wasted) | \(on.wasted) |"
  )
  print("| wasted, kinds of several routines a day | \(off.wastedSeveral) | \(on.wastedSeveral) |")
  print(
    "| alarms delivered / task reminders delivered | \(off.alarms) / \(off.tasks) | \(on.alarms) / \(on.tasks) |"
  )
  print(
    "| people who muted routine | \(results.filter { $0.1.mutedOn != nil }.count) | \(results.filter { $0.2.mutedOn != nil }.count) |"
  )
  let strongPeople = results.filter { $0.0.routines.allSatisfy { $0.group == "strong" } }
  let strongOn = strongPeople.map { $0.2 }
  let early = strongOn.reduce(0.0) { $0 + perDay($1, 0..<30) }
  let late = strongOn.reduce(0.0) { $0 + perDay($1, 60..<90) }
  print(
    String(
      format: "| dose of people whose routines are all strong, days 60-89 / 0-29 | %.2f | %.2f |",
      strongPeople.map { $0.1 }.reduce(0.0) { $0 + perDay($1, 60..<90) }
        / max(strongPeople.map { $0.1 }.reduce(0.0) { $0 + perDay($1, 0..<30) }, 0.001),
      late / max(early, 0.001)))
  for (person, off, on) in results where person.routines.contains(where: { $0.moveDay != nil }) {
    print(
      "| \(person.name): days from the move to a reminder at the new time | \(off.followedMoveAfter.map(String.init) ?? "none") | \(on.followedMoveAfter.map(String.init) ?? "none") |"
    )
  }
  return 0
}
