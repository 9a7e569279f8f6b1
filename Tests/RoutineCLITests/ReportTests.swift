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

  /// A routine near midnight is drawn on a night axis (noon to noon): its spread is one band,
  /// not two pieces at the ends of the day.
  @Test(arguments: [("23:55", 12 * 3600), ("00:05", 12 * 3600), ("12:00", 0), ("05:59", 12 * 3600)])
  func theSpreadIsOneBandAroundTheRoutine(time: String, origin: Int) {
    let item = ReportRoutine(routine: Self.routine("Bed Time", at: time, spread: 20), days: [])
    let timeline = ReportTimeline(routine: item, title: "t")
    #expect(timeline.axis.origin == origin)
    let svg = timeline.svg()
    // The paper and the legend's swatch are rects too.
    #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
    #expect(svg.contains("No weekdays in the range."))
  }

  /// Ten nights of a bedtime around midnight, one of them 135 minutes early.
  static func bedtime() -> ReportRoutine {
    let last = LocalDate(year: 2026, month: 4, day: 27)!
    let days = (0..<10).reversed().map { back in
      var marks = [
        ReportMark(
          time: TimeOfDay(parsing: back % 2 == 0 ? "23:50" : "00:10")!, outlierMinutes: nil)
      ]
      if back == 4 {
        marks = [ReportMark(time: TimeOfDay(parsing: "21:43")!, outlierMinutes: -135)]
      }
      return ReportDay(date: last.adding(days: -back), marks: marks)
    }
    return ReportRoutine(routine: routine("Bed Time", at: "23:58", spread: 12), days: days)
  }

  @Test func aBedtimeAt2350IsDrawnBesideOneAt0010() {
    let timeline = ReportTimeline(routine: Self.bedtime(), title: "t")
    let before = timeline.x(TimeOfDay(parsing: "23:50")!.secondsSinceMidnight)
    let after = timeline.x(TimeOfDay(parsing: "00:10")!.secondsSinceMidnight)
    let plot = ReportTimeline.plotRight - ReportTimeline.plotLeft
    // 20 minutes apart on an axis of a few hours, not 23 hours apart on one of 24.
    #expect(after > before && after - before < plot / 6, "\(before) \(after)")
    let axis = timeline.axis
    #expect(axis.origin == 12 * 3600)
    // Around the events and the outlier (21:43), with half an hour of room, in whole hours.
    #expect(
      axis.start == 9 * 3600 && axis.end == 13 * 3600 - 0 || axis.end - axis.start >= 6 * 3600)
    #expect(axis.start <= 9 * 3600 + 43 * 60 - 1800 && axis.end >= 12 * 3600 + 10 * 60 + 1800)
    #expect(axis.end - axis.start < 24 * 3600)
    let svg = timeline.svg()
    for label in ["22:00", "00:00"] { #expect(svg.contains(">\(label)</text>"), "\(label)") }
    #expect(!svg.contains(">12:00</text>"))
    // Every dot and the cross within the plot.
    for cx in svg.components(separatedBy: "<circle cx=\"").dropFirst().map({
      Double($0.prefix { $0 != "\"" })!
    }).dropLast() {
      #expect(cx >= ReportTimeline.plotLeft && cx <= ReportTimeline.plotRight, "\(cx)")
    }
  }

  @Test func aDaytimeRoutineGetsSixHoursAroundIt() {
    let day = LocalDate(year: 2026, month: 4, day: 27)!
    let item = ReportRoutine(
      routine: Self.routine("Lunch", at: "12:30", spread: 10),
      days: [
        ReportDay(
          date: day, marks: [ReportMark(time: TimeOfDay(parsing: "12:35")!, outlierMinutes: nil)])
      ])
    let axis = ReportTimeline.Axis(item)
    #expect(axis.origin == 0)
    #expect(axis.end - axis.start == 6 * 3600)
    #expect(axis.start <= 12 * 3600 && axis.end >= 13 * 3600)
    // A routine at the start of the day still gets six hours, from midnight.
    let early = ReportTimeline.Axis(
      ReportRoutine(routine: Self.routine("Up", at: "06:10", spread: 5), days: []))
    #expect(early.origin == 0 && early.start == 3 * 3600 && early.end == 9 * 3600)
  }

  @Test func bidirectionalMarksAreDroppedFromThePageAndTheSVG() {
    let name = "\u{202E}Coffee\u{202C} \u{2067}x\u{2069}\u{200F}"
    var routine = Self.routine("Tea", at: "09:00")
    routine.kind = EventKind(name)!
    let item = ReportRoutine(routine: routine, days: [])
    let page = ReportPage.html(Self.model(routines: [item], daysLogged: 5))
    let svg = ReportTimeline.document([item], emptyNote: "")
    for text in [page, svg] {
      #expect(!text.unicodeScalars.contains { BidiControls.contains($0) })
    }
    #expect(page.contains("Coffee x"))
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

  /// A kind learned as two routines (Bed Time on weekdays at 22:54, at the weekend at 00:26)
  /// fires under two keys, one request per weekday: the page gives it one row.
  @Test func aLearnedRoutineIsOneRowWhateverItsRequests() throws {
    let sandbox = Self.sandbox()
    for now in [
      "2026-04-27T22:55:00+02:00", "2026-04-28T22:55:00+02:00", "2026-05-02T00:27:00+02:00",
    ] {
      let delivered = sandbox.run("deliver", "--now", now)
      #expect(delivered.status == 0, "\(delivered.stderr)")
    }
    let page = sandbox.run("report", "--now", "2026-05-03T08:00:00+02:00").stdout
    let outcomes = try #require(page.components(separatedBy: "<section id=\"outcomes\">").last)
      .components(separatedBy: "</section>")[0]
    let rows = outcomes.components(separatedBy: "<tr>").filter { $0.contains("Time for Bed Time") }
    #expect(rows.count == 1, "\(rows)")
    #expect(rows.first?.contains("<code>routine_BedTime, routine_BedTime-2</code>") == true)
    #expect(rows.first?.contains("<td data-label=\"Delivered\">3</td>") == true, "\(rows)")
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
    // Chromium's own pages (chrome://...) may log to the console too; only the page's count.
    for line in dom.stderr.split(separator: "\n") where !line.contains("source: chrome://") {
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

/// How the page is looked at: a width and a colour scheme, as Chromium's flags set them.
struct ReportView: Sendable, CustomStringConvertible {
  var width: Int
  var isDark: Bool
  var flags: [String]
  var name: String

  var description: String { "\(name) at \(width) px" }

  static let all = [
    ReportView(width: 390, isDark: false, flags: [], name: "light"),
    ReportView(width: 1280, isDark: false, flags: [], name: "light"),
    // The system's dark preference (prefers-color-scheme: dark).
    ReportView(width: 390, isDark: true, flags: ["--force-dark-mode"], name: "dark"),
    ReportView(width: 1280, isDark: true, flags: ["--force-dark-mode"], name: "dark"),
    // Chromium's forced dark mode, with the dark preference (the page's own dark look) and
    // without it (Chromium darkens the page; the timelines stay light cards).
    ReportView(
      width: 390, isDark: true,
      flags: ["--force-dark-mode", "--enable-features=WebContentsForceDark"], name: "forced dark"),
    ReportView(
      width: 390, isDark: true, flags: ["--enable-features=WebContentsForceDark"],
      name: "forced dark without the preference"),
    ReportView(
      width: 390, isDark: true, flags: ["--blink-settings=forceDarkModeEnabled=true"],
      name: "forced dark (Blink setting)"),
  ]
}

/// The timelines as they are seen: screenshots of a page with a bedtime near midnight and an
/// early outlier, looked at pixel by pixel.
@Suite(.enabled(if: BrowserHarness.isAvailable, BrowserHarness.skipReason))
struct ReportScreenshotTests {
  @Test(arguments: ReportView.all)
  func theTimelineShowsTheRoutineLegibly(_ view: ReportView) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-shot-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("report.html").path
    let page = ReportPage.html(ReportTests.model(routines: [ReportTests.bedtime()], daysLogged: 10))
    try page.write(toFile: path, atomically: true, encoding: .utf8)
    let png = directory.appendingPathComponent("shot.png").path
    let shot = try BrowserHarness.run(
      ["--hide-scrollbars", "--screenshot=\(png)", "--window-size=\(view.width),1600"] + view.flags
        + ["file://\(path)"])
    #expect(shot.status == 0, "\(shot.stderr)")
    let image = try PNGImage(contentsOf: png)
    #expect(image.width == view.width)

    // The page's background, light or dark as asked.
    let background = image[2, 2]
    if view.isDark {
      #expect(background.luminance < 0.05, "background \(background)")
    } else {
      #expect(background.luminance > 0.9, "background \(background)")
    }

    // Red rows: the outlier's cross (with its label) on its day's row, then the legend's cross.
    // Both must be on screen: at 390 px the old 24-hour drawing put 21:43 past the right edge.
    var runs: [ClosedRange<Int>] = []
    for y in 0..<image.height
    where (0..<image.width).contains(where: { image[$0, y].isReddish }) {
      if let last = runs.last, last.upperBound >= y - 3 {
        runs[runs.count - 1] = last.lowerBound...y
      } else {
        runs.append(y...y)
      }
    }
    try #require(runs.count == 2, "rows with red: \(runs)")
    let cross = try #require(
      image.bounds(rows: runs[0].lowerBound..<runs[0].upperBound + 1) { $0.isReddish })
    #expect(cross.x.lowerBound > 40 && cross.x.upperBound < view.width - 4, "\(cross)")

    // What is around them on their row, inside the drawing (left of the cross: the day's label
    // and grid lines; the routine's band is right of it): its commonest colour is the drawing's
    // paper, dark in dark mode, a light card where a forced dark mode darkened the page only.
    let rows = max(0, cross.y.lowerBound - 4)...min(image.height - 1, cross.y.upperBound + 4)
    let columns = 20..<max(21, cross.x.lowerBound - 6)
    var counts: [Int: Int] = [:]
    for y in rows {
      for x in columns {
        let c = image[x, y]
        counts[c.red << 16 | c.green << 8 | c.blue, default: 0] += 1
      }
    }
    let commonest = counts.max { $0.value < $1.value }!.key
    let paper = PNGImage.Colour(
      red: commonest >> 16, green: commonest >> 8 & 0xFF, blue: commonest & 0xFF)
    if view.flags.isEmpty || view.flags.contains("--force-dark-mode") {
      #expect((paper.luminance < 0.05) == view.isDark, "paper \(paper)")
    }

    // The cross and its label stand out from the paper (WCAG: 3:1 for a graphic, 4.5:1 for
    // text; the label is bold red text), and so does the day's label, as body text should (7:1).
    var reddest = 1.0
    var label = 1.0
    for y in rows {
      for x in cross.x where image[x, y].isReddish {
        reddest = max(reddest, image[x, y].contrast(with: paper))
      }
      for x in columns where !image[x, y].isReddish {
        label = max(label, image[x, y].contrast(with: paper))
      }
    }
    #expect(reddest >= 4.5, "outlier contrast \(reddest) on \(paper)")
    #expect(label >= 7, "label contrast \(label) on \(paper)")
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
