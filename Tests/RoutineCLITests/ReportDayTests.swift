import Foundation
import Testing

@testable import RoutineCLI
@testable import RoutineCore

/// The report's rows for a routine near midnight, and the files `report --out` writes.
struct ReportDayTests {
  /// Four weeks of bed times in Berlin (the clocks go forward on 29 March): 23:20 to 23:50
  /// before a working day, 00:15 to 00:45 on Friday and Saturday nights.
  static func log() -> EventLog {
    let zone = Zone(foundation: TimeZone(identifier: "Europe/Berlin")!)
    let start = LocalDate(year: 2026, month: 3, day: 16)!
    var events: [(EventKind, Timestamp)] = []
    let late = [35, 15, 45, 25, 40, 20, 30, 32]
    let other = [-40, -25, -10, -30]
    for day in 0..<28 {
      let evening = start.adding(days: day)
      let minutes =
        evening.weekday >= 6 ? late[(day / 7 * 2 + (evening.weekday - 6)) % 8] : other[day % 4]
      let local = Int64(evening.daysSince1970 + 1) * 86_400 + Int64(minutes * 60)
      let instant = WallClock.resolve(localSeconds: local, in: zone).instant
      events.append(
        (
          EventKind("Bed Time")!,
          Timestamp(
            secondsSince1970: instant,
            utcOffsetSeconds: Int32(WallClock.offset(at: instant, in: zone)))
        ))
    }
    return EventLog(events)
  }

  @Test func theRowsOfARoutineNearMidnightShowTheDaysItCounted() {
    let log = Self.log()
    let window = AnalysisWindow(
      now: Date(timeIntervalSince1970: 1_776_074_400), days: 28,  // 2026-04-13T10:00Z
      zone: Zone(foundation: TimeZone(identifier: "Europe/Berlin")!))
    let analysis = RoutineAnalyzer().analyze(log, window: window)
    let tolerance = RoutineAnalyzer().configuration.toleranceSeconds
    let rows = ReportCommand.routines(
      analysis, log: log, days: window.learningDays, until: window.now)
    #expect(!rows.isEmpty)
    for row in rows {
      let matching = row.days.filter { day in
        day.marks.contains { abs($0.time.signedDistance(to: row.routine.time)) <= tolerance }
      }
      #expect(
        matching.count == row.routine.daysMatched,
        "\(row.routine.time) \(row.routine.dayKind): \(row.routine.reasoning)")
      // Each row's events are the night of that row's date at the routine's time.
      for day in row.days {
        for mark in day.marks {
          #expect(abs(mark.time.signedDistance(to: row.routine.time)) <= 3600)
        }
      }
    }
  }

  @Test(arguments: ["report.png", "report.pdf", "report", "report.html.txt"])
  func anOutFileOfAnotherKindIsRefused(_ name: String) {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent(name).path
    let result = sandbox.run("report", "--out", path)
    #expect(result.status == 64)
    #expect(result.stderr.contains("FILE.html"))
    #expect(result.stderr.contains("FILE.svg"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test(arguments: ["report.HTML", "page.htm", "lines.Svg"])
  func theTwoFormsAreWritten(_ name: String) {
    let sandbox = Sandbox()
    let path = sandbox.directory.appendingPathComponent(name).path
    let result = sandbox.run("report", "--out", path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(FileManager.default.fileExists(atPath: path))
  }
}
