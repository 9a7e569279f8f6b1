import Foundation
import Testing

@testable import RoutineCLI
@testable import RoutineCore

/// `routine report`: the page's content and escaping, its empty states, the SVG, and (where
/// Chromium and tidy are installed) the page in a real browser with the network off.
struct ReportTests {
  static let hostile = #"<script>alert("x")</script> & 'q'"#

  /// A routine of `kind` at `time` on weekdays with one day's events.
  static func routine(_ kind: String, at time: String, spread: Double = 7) -> Routine {
    Routine(
      kind: EventKind(kind)!, time: TimeOfDay(parsing: time)!, dayKind: .weekdays,
      confidence: 0.8, occurrences: 4, daysMatched: 4, daysObserved: 5,
      earliest: TimeOfDay(parsing: time)!, latest: TimeOfDay(parsing: time)!,
      spreadMinutes: spread, outlierThresholdSeconds: 3600, reasoning: "Because \(kind).")
  }

  static func model(routines: [ReportRoutine] = [], daysLogged: Int = 0) -> ReportModel {
    let day = LocalDate(year: 2026, month: 4, day: 27)!
    return ReportModel(
      generated: "Mon 2026-04-27 08:00", zoneName: "Europe/Berlin",
      days: day.adding(days: -28)...day, daysLogged: daysLogged, routines: routines,
      upcoming: [
        ReportFiring(at: "Tue 2026-04-28 07:00", title: hostile, body: hostile, skipped: hostile)
      ],
      outcomes: [ReportOutcome(id: hostile, title: hostile, delivered: 2, answers: [(hostile, 1)])],
      reminders: [
        ReportReminder(
          id: "reminder-1", subject: hostile, schedule: hostile, isEnabled: true,
          next: "Tue 2026-04-28 07:00", nextSkipped: hostile)
      ])
  }

  @Test func everyStringFromAPersonIsEscapedInThePageAndTheSVG() {
    let day = LocalDate(year: 2026, month: 4, day: 27)!
    let item = ReportRoutine(
      routine: Self.routine(Self.hostile, at: "07:00"),
      days: [
        ReportDay(
          date: day, marks: [ReportMark(time: TimeOfDay(parsing: "09:00")!, outlierMinutes: 120)])
      ])
    let page = ReportPage.html(Self.model(routines: [item], daysLogged: 5))
    let svg = ReportTimeline.document([item], emptyNote: "")
    for document in [page, svg] {
      #expect(!document.contains("<script"))
      #expect(!document.contains("'q'"))
      #expect(
        document.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"))
    }
    #expect(HTMLText.escaped("a\u{1B}[31m\u{0}b\nc") == "a[31mb\nc")
  }

  @Test func thePageFetchesNothingAndRunsNoScript() {
    let page = ReportPage.html(Self.model())
    #expect(
      page.contains(
        #"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">"#
      ))
    for forbidden in ["http://", "https://", "<script", "<link", "src=", "@import", "url("] {
      #expect(!page.contains(forbidden), "\(forbidden)")
    }
  }

  @Test func emptyStatesSaySoHonestly() {
    let few = ReportPage.html(Self.model(daysLogged: 2))
    #expect(few.contains("Not enough days yet: 2 days with events in the range"))
    let many = ReportPage.html(Self.model(daysLogged: 20))
    #expect(many.contains("No routine yet in these 28 days"))
    var empty = Self.model()
    empty.upcoming = []
    empty.outcomes = []
    empty.reminders = []
    let page = ReportPage.html(empty)
    #expect(page.contains("Nothing fires in the next 7 days"))
    #expect(page.contains("No firing recorded in the range yet"))
    #expect(page.contains("No reminders yet"))
    #expect(
      ReportTimeline.document([], emptyNote: "Not enough days yet.").contains(
        "Not enough days yet."))
  }

  @Test func outliersAreMarkedWithAShapeAndLabelledNotColouredOnly() {
    let day = LocalDate(year: 2026, month: 4, day: 27)!
    let item = ReportRoutine(
      routine: Self.routine("Wake Up", at: "07:00"),
      days: [
        ReportDay(
          date: day,
          marks: [
            ReportMark(time: TimeOfDay(parsing: "07:02")!, outlierMinutes: nil),
            ReportMark(time: TimeOfDay(parsing: "04:50")!, outlierMinutes: -130),
          ])
      ])
    let svg = ReportTimeline(routine: item, title: "t").svg()
    #expect(svg.contains("outlier −130 min"))
    #expect(svg.components(separatedBy: "<circle").count - 1 == 2)  // the dot and the legend's
    let page = ReportPage.html(Self.model(routines: [item], daysLogged: 5))
    #expect(page.contains("outliers: Mon 2026-04-27 04:50 (130 min early)"))
    #expect(page.contains("80% <span class=\"meter\" aria-hidden=\"true\">■■■■■■■■□□</span>"))
  }

  @Test(arguments: [("23:55", 20.0, 2), ("00:05", 20.0, 2), ("12:00", 20.0, 1)])
  func theSpreadWrapsAroundMidnight(time: String, spread: Double, bands: Int) {
    let item = ReportRoutine(routine: Self.routine("Bed Time", at: time, spread: spread), days: [])
    let svg = ReportTimeline(routine: item, title: "t").svg()
    // The legend's swatch is a rect too.
    #expect(svg.components(separatedBy: "<rect").count - 1 == bands + 1)
    #expect(svg.contains("No weekdays in the range."))
  }

  @Test func verdictsTellHelpfulRemindersFromIgnoredOnes() {
    #expect(ReportPage.verdict(ReportOutcome(id: "a", title: "a")) == "nothing fired yet")
    #expect(
      ReportPage.verdict(ReportOutcome(id: "a", title: "a", delivered: 4, acted: 3))
        == "helps: mostly acted on")
    #expect(
      ReportPage.verdict(ReportOutcome(id: "a", title: "a", delivered: 4, ignored: 3))
        == "mostly ignored")
    #expect(
      ReportPage.verdict(ReportOutcome(id: "a", title: "a", skipped: 3))
        == "not needed: done before it fired")
    // Issue 28: a reminder whose act was logged after each firing, without an answer, helps:
    // the verdict is by what became of the firings, not by the answers.
    #expect(
      ReportPage.verdict(ReportOutcome(id: "a", title: "a", delivered: 5, acted: 5))
        == "helps: mostly acted on")
    #expect(
      ReportPage.verdict(ReportOutcome(id: "a", title: "a", delivered: 4, preEmpted: 3))
        == "mostly not needed: done before it")
  }

  // MARK: End to end

  /// A store with the sample imported and planned, a reminder that fired and was answered.
  static func sandbox() -> Sandbox {
    let sandbox = Sandbox(now: "2026-04-27T08:00:00+02:00", zone: "Europe/Berlin")
    let sample = EndToEndTests.data.appendingPathComponent("sample.csv").path
    for arguments in [
      ["settings", "--time-zone", "Europe/Berlin"], ["import", sample], ["plan"],
      [
        "reminders", "add", "--text", hostile, "--at", "07:00", "--now",
        "2026-04-26T06:00:00+02:00",
      ],
      ["deliver", "--now", "2026-04-26T07:00:30+02:00"],
      ["respond", "reminder-1", "done", "--now", "2026-04-26T07:01:00+02:00"],
    ] {
      let result = sandbox.run(arguments)
      precondition(result.status == 0, "\(arguments): \(result.stderr)")
    }
    return sandbox
  }

  @Test func theReportShowsRoutinesWhatFiredAndTheReminders() throws {
    let sandbox = Self.sandbox()
    let path = sandbox.directory.appendingPathComponent("report.html").path
    let result = sandbox.run("report", "--out", path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("Wrote a report of 17 routines ("))
    let page = try String(contentsOfFile: path, encoding: .utf8)
    for heading in ["Routines", "Next 7 days", "What became of the reminders", "Your reminders"] {
      #expect(page.contains("<h2>\(heading)</h2>"))
    }
    #expect(page.contains("<h3>Wake Up <span class=\"days\">weekdays</span></h3>"))
    #expect(page.contains("outlier −113 min"))
    // The reminder was delivered once and answered 'done': acted on.
    #expect(
      page.contains(
        "<td data-label=\"Delivered\">1</td><td data-label=\"Acted on\">1 (1 × ‘done’)</td>"))
    #expect(page.contains("helps: mostly acted on"))
    #expect(page.contains("Tue 2026-04-28 07:00"))
    #expect(!page.contains("<script"))
    #expect(page.utf8.count < 1_000_000)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test func outSVGWritesTheTimelinesAlone() throws {
    let sandbox = Self.sandbox()
    let path = sandbox.directory.appendingPathComponent("report.svg").path
    let result = sandbox.run("report", "--out", path, "--from", "2026-04-13")
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("Wrote the timelines of "))
    let svg = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      svg.hasPrefix(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
    #expect(!svg.contains("<html"))
    #expect(svg.contains("Mon 04-13"))
    #expect(!svg.contains("Fri 04-10"))
  }

  @Test func withoutAStoreThePageSaysThereIsNothingYet() {
    let sandbox = Sandbox()
    let result = sandbox.run("report")
    #expect(result.status == 0)
    #expect(result.stdout.contains("Not enough days yet: 0 days with events in the range"))
    #expect(!FileManager.default.fileExists(atPath: sandbox.storePath))
  }

  @Test func badRangesAreUsageErrors() {
    let sandbox = Sandbox()
    let backwards = sandbox.run("report", "--from", "2026-04-27", "--to", "2026-04-20")
    #expect(backwards.status == 64)
    #expect(backwards.stderr.hasPrefix("error: --from must be a day before --to"))
    let long = sandbox.run("report", "--from", "2024-01-01")
    #expect(long.status == 64)
    #expect(long.stderr.hasPrefix("error: --from: a report spans at most 366 days"))
    #expect(sandbox.run("report", "--json").status == 64)
    #expect(sandbox.run("log", "Tea").status == 0)
    #expect(sandbox.run("report", "--out", sandbox.storePath).status == 64)
  }
}

/// The page in a real browser: headless Chromium loads it from a file in a network namespace of
/// its own (no network at all), with no console error or refused load, and at phone and desktop
/// widths draws a screenshot; tidy finds no error or warning in the HTML.
@Suite(.enabled(if: BrowserHarness.isAvailable, BrowserHarness.skipReason))
struct ReportBrowserTests {
  @Test func thePageLoadsOfflineWithoutErrorsAndValidates() throws {
    let sandbox = ReportTests.sandbox()
    let path = sandbox.directory.appendingPathComponent("report.html").path
    #expect(sandbox.run("report", "--out", path).status == 0)
    let dom = try BrowserHarness.run(
      ["--enable-logging=stderr", "--v=0", "--dump-dom", "file://\(path)"])
    #expect(dom.status == 0)
    #expect(dom.stdout.contains("<h2>Next 7 days</h2>"))
    #expect(dom.stdout.contains("Wake Up"))
    for line in dom.stderr.split(separator: "\n") {
      #expect(!line.contains("CONSOLE"), "\(line)")
      #expect(!line.contains("Refused to"), "\(line)")
      #expect(!line.contains("Content Security Policy"), "\(line)")
    }
    for width in [390, 1280] {
      let png = sandbox.directory.appendingPathComponent("report-\(width).png").path
      let shot = try BrowserHarness.run(
        [
          "--hide-scrollbars", "--screenshot=\(png)", "--window-size=\(width),2000",
          "file://\(path)",
        ])
      #expect(shot.status == 0)
      let data = try Data(contentsOf: URL(fileURLWithPath: png))
      // A PNG of the asked width (IHDR's width at bytes 16-19), and more than a blank page.
      #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      let pngWidth = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
      #expect(pngWidth == width)
      #expect(data.count > 20_000, "a blank page compresses to a few KB")
    }
    let svgPath = sandbox.directory.appendingPathComponent("report.svg").path
    #expect(sandbox.run("report", "--out", svgPath).status == 0)
    let xml = try BrowserHarness.run(
      ["-xml", "-q", "-e", svgPath], program: "tidy", isolated: false)
    #expect(xml.status == 0, "\(xml.stderr)")
    let tidy = try BrowserHarness.run(["-q", "-e", path], program: "tidy", isolated: false)
    #expect(tidy.status == 0, "\(tidy.stderr)")
    #expect(tidy.stderr.isEmpty, "\(tidy.stderr)")
  }
}

/// Chromium and tidy, when installed (`.ci/run` installs them where it can).
enum BrowserHarness {
  static func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    {
      let path = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  static let isAvailable: Bool = {
    let available = which("chromium") != nil && which("tidy") != nil && which("unshare") != nil
    if !available {
      print(
        "note: the report's browser test is skipped: chromium, tidy or unshare is not installed")
    }
    return available
  }()

  static let skipReason: Comment =
    "chromium, tidy or unshare is not installed (.ci/run installs them with apt where it can)"

  /// Runs `program` (headless Chromium by default, in a network namespace of its own) and
  /// returns its status and output.
  static func run(_ arguments: [String], program: String = "chromium", isolated: Bool = true)
    throws -> (status: Int32, stdout: String, stderr: String)
  {
    let process = Process()
    var full = arguments
    if program == "chromium" {
      full = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] + arguments
    }
    if isolated {
      process.executableURL = URL(fileURLWithPath: which("unshare")!)
      process.arguments = ["-rn", which(program)!] + full
    } else {
      process.executableURL = URL(fileURLWithPath: which(program)!)
      process.arguments = full
    }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self),
      String(decoding: err, as: UTF8.self)
    )
  }
}
