// routine-bench --changes [--people N] [--log FILE]...
//
// What a changing life does to the forecasts (docs/analytics.md, "A moved routine" and "When
// logging stops"), on generated people (120 days each, sample seeds 1...N, in UTC) and on each
// real log given:
//
// - A moved routine: the person's surest every-day or weekday routine (between 04:00 and 21:00)
//   moves 90 minutes later from the middle of the log on; for the four weeks after, each day's
//   analysis (7-day window) says whether a routine above 0.6 is at the new time (within 30
//   minutes) and whether the old one still is. Prints the days of the routine done at the new
//   time before it was followed, and before the old time stopped, with change points followed
//   and without (AnalysisConfiguration.followsMoves).
// - Logging stops: the log is cut at the same day; for each of the 10 days after, the learned
//   reminders that day would have (routines above 0.6 on that day's kind of day; none while
//   learned reminders pause), with the decay and the pause and without them.
//
// Exit status: 0, 64 for a bad option, 65 or 66 for a log that cannot be read.
import Foundation
import RoutineCore
import RoutineStore

func runChanges(_ arguments: [String]) -> Int32 {
  func fail(_ message: String, _ status: Int32 = 64) -> Int32 {
    FileHandle.standardError.write(Data("routine-bench --changes: \(message)\n".utf8))
    return status
  }
  var people = 20
  var files: [String] = []
  var index = 1
  while index < arguments.count {
    let name = arguments[index]
    if name == "--changes" {
      index += 1
      continue
    }
    guard name == "--people" || name == "--log" else { return fail("unknown option '\(name)'") }
    guard index + 1 < arguments.count else { return fail("\(name): expected a value") }
    let value = arguments[index + 1]
    index += 2
    if name == "--log" {
      files.append(value)
    } else if let number = Int(value), (0...1000).contains(number) {
      people = number
    } else {
      return fail("--people: expected a whole number from 0 to 1000, found '\(value)'")
    }
  }
  var subjects: [(name: String, log: EventLog)] = []
  let start = RoutineCore.LocalDate(daysSince1970: 20_454)  // 2026-01-01
  for seed in 0..<people {
    var events: [(EventKind, Timestamp)] = []
    SampleGenerator(
      options: .init(
        seed: UInt64(seed + 1), start: start, days: 120, kinds: 12, timeZone: .utc)
    ).generate { events.append(($0.kind, $0.timestamp)) }
    subjects.append(("generated \(seed + 1)", EventLog(events)))
  }
  for path in files {
    var log = EventLog()
    do {
      _ = try EventLogLoader(
        days: RoutineCore.LocalDate(
          daysSince1970: -1_000_000)...RoutineCore.LocalDate(daysSince1970: 1_000_000)
      ).load([EventFileReader(path: path, skipsInvalid: true)], into: &log)
    } catch {
      return fail("\(path): \(error)", FileManager.default.fileExists(atPath: path) ? 65 : 66)
    }
    log.sort()
    subjects.append((URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, log))
  }

  print(
    "| subject | routine | followed after (days at the new time) | old time stopped after | without change points: followed / stopped |"
  )
  print("| --- | --- | --- | --- | --- |")
  var followed: [Int] = []
  var stopped: [Int] = []
  var followedBefore: [Int] = []
  var stoppedBefore: [Int] = []
  var silence = [[Double]](repeating: [], count: 2)
  var silenceDays = 0
  for subject in subjects {
    guard let range = subject.log.dateRange else { continue }
    let span = range.upperBound.daysSince1970 - range.lowerBound.daysSince1970
    guard span >= 75 else {
      print("| \(subject.name) | (fewer than 75 days) | | | |")
      continue
    }
    // The middle, or six weeks in for a short log.
    let moveDay = range.lowerBound.adding(days: max(49, span / 2))
    guard let routine = mainRoutine(subject.log, on: moveDay) else {
      print("| \(subject.name) | (no every-day or weekday routine above 0.6) | | | |")
      continue
    }
    let moved = shifted(subject.log, kind: routine.kind, from: moveDay, by: 90 * 60)
    let after = measureMove(moved, routine: routine, from: moveDay, followsMoves: true)
    let before = measureMove(moved, routine: routine, from: moveDay, followsMoves: false)
    func text(_ days: Int?) -> String { days.map(String.init) ?? "not within 4 weeks" }
    print(
      "| \(subject.name) | \(routine.kind.name) \(routine.time) \(routine.dayKind.name) | \(text(after.followed)) | \(text(after.stopped)) | \(text(before.followed)) / \(text(before.stopped)) |"
    )
    followed.append(after.followed ?? 99)
    stopped.append(after.stopped ?? 99)
    followedBefore.append(before.followed ?? 99)
    stoppedBefore.append(before.stopped ?? 99)

    let cut = truncated(subject.log, before: moveDay)
    for (position, decays) in [true, false].enumerated() {
      var configuration = AnalysisConfiguration()
      configuration.decaysWhenSilent = decays
      let analyzer = RoutineAnalyzer(configuration: configuration)
      var counts: [Double] = []
      for day in 0..<10 {
        let today = moveDay.adding(days: day)
        let analysis = analyzer.analyze(cut, window: window(today))
        let paused = decays && analysis.silence.pausesLearned
        counts.append(
          paused
            ? 0
            : Double(
              analysis.routines.filter {
                $0.confidence > 0.6 && $0.dayKind.contains(today) && !$0.kind.isArrival
              }.count))
      }
      if silence[position].isEmpty {
        silence[position] = counts
      } else {
        silence[position] = zip(silence[position], counts).map(+)
      }
    }
    silenceDays += 1
  }
  func summary(_ values: [Int]) -> String {
    guard !values.isEmpty else { return "none" }
    let sorted = values.sorted()
    let missing = sorted.filter { $0 == 99 }.count
    let found = sorted.filter { $0 != 99 }
    let median = sorted[sorted.count / 2]
    return "median \(median == 99 ? "over 4 weeks" : String(median))"
      + (found.isEmpty ? "" : ", \(found.first!) to \(found.last!)")
      + (missing > 0 ? "; \(missing) of \(sorted.count) not within 4 weeks" : "")
  }
  print("")
  print("Followed after: \(summary(followed)) (without change points: \(summary(followedBefore)))")
  print("Old time stopped after: \(summary(stopped)) (without: \(summary(stoppedBefore)))")
  guard silenceDays > 0 else { return 0 }
  print("")
  print("Learned reminders a day after the last event (mean of \(silenceDays) subjects):")
  print(
    "| days since the last day with events | " + (1...10).map(String.init).joined(separator: " | ")
      + " |")
  print("| --- |" + String(repeating: " --- |", count: 10))
  for (position, name) in ["decay and pause", "neither (before)"].enumerated() {
    let means = silence[position].map { String(format: "%.1f", $0 / Double(silenceDays)) }
    print("| \(name) | " + means.joined(separator: " | ") + " |")
  }
  return 0
}

/// The analysis window at 00:01 UTC of `today`, 7 days.
private func window(_ today: RoutineCore.LocalDate) -> AnalysisWindow {
  AnalysisWindow(
    now: Date(timeIntervalSince1970: Double(today.daysSince1970) * 86_400 + 60), days: 7,
    zone: .utc)
}

/// The surest every-day or weekday routine above 0.6 between 04:00 and 21:00 on `day`.
private func mainRoutine(_ log: EventLog, on day: RoutineCore.LocalDate) -> Routine? {
  RoutineAnalyzer().analyze(log, window: window(day)).routines.filter {
    ($0.dayKind == .all || $0.dayKind == .weekdays) && $0.confidence > 0.6
      && (4 * 3600...21 * 3600).contains($0.time.secondsSinceMidnight)
  }.max { $0.confidence < $1.confidence }
}

/// `log` with every event of `kind` on or after `day` moved `seconds` later.
private func shifted(
  _ log: EventLog, kind: EventKind, from day: RoutineCore.LocalDate, by seconds: Int64
)
  -> EventLog
{
  var events: [(EventKind, Timestamp)] = []
  for (index, times) in log.times.enumerated() {
    let moves = log.kinds[index].key == kind.key
    for time in times {
      var stamp = time.timestamp
      if moves && time.localDate >= day { stamp.secondsSince1970 += seconds }
      events.append((log.kinds[index], stamp))
    }
  }
  return EventLog(events)
}

/// `log` without the events on or after `day`.
private func truncated(_ log: EventLog, before day: RoutineCore.LocalDate) -> EventLog {
  var events: [(EventKind, Timestamp)] = []
  for (index, times) in log.times.enumerated() {
    for time in times where time.localDate < day {
      events.append((log.kinds[index], time.timestamp))
    }
  }
  return EventLog(events)
}

/// The days of `routine`'s kind of day done at the new time (90 minutes later) before a routine
/// above 0.6 was there, and before none was left at the old time; `nil` when not within 28
/// days.
private func measureMove(
  _ log: EventLog, routine: Routine, from day: RoutineCore.LocalDate, followsMoves: Bool
) -> (followed: Int?, stopped: Int?) {
  var configuration = AnalysisConfiguration()
  configuration.followsMoves = followsMoves
  let analyzer = RoutineAnalyzer(configuration: configuration)
  let newTime = TimeOfDay(secondsSinceMidnight: routine.time.secondsSinceMidnight + 90 * 60)
  let kindIndex = log.index(ofKey: routine.kind.key)
  var followed: Int?
  var stopped: Int?
  var doneAtNewTime = 0
  for offset in 1...28 {
    let today = day.adding(days: offset)
    let yesterday = today.adding(days: -1)
    if routine.dayKind.contains(yesterday), let kindIndex,
      log.times[kindIndex].contains(where: {
        $0.localDate == yesterday && $0.timeOfDay.distance(to: newTime) <= 30 * 60
      })
    {
      doneAtNewTime += 1
    }
    guard routine.dayKind.contains(today) else { continue }
    let routines = analyzer.analyze(log, window: window(today)).routines.filter {
      $0.kind.key == routine.kind.key && $0.confidence > 0.6 && $0.dayKind.contains(today)
    }
    if followed == nil, routines.contains(where: { $0.time.distance(to: newTime) <= 30 * 60 }) {
      followed = doneAtNewTime
    }
    if stopped == nil, !routines.contains(where: { $0.time.distance(to: routine.time) <= 30 * 60 })
    {
      stopped = doneAtNewTime
    }
    if followed != nil && stopped != nil { break }
  }
  return (followed, stopped)
}
