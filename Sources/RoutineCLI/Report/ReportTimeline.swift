import Foundation
import RoutineCore

/// The timeline of one routine as SVG: a row per day of its kind, a dot per event, a cross with
/// its deviation for an outlier, the usual time as a line and its spread as a band.
///
/// The axis shows the hours around the routine, not the whole day (``Axis``), so that a drawing
/// narrow enough for a phone still shows every event at a readable size; a routine near
/// midnight gets a night axis, from noon to noon, so 23:50 and 00:10 are side by side. Drawn
/// with shapes and words, not colour alone, so it reads in greyscale and in print; styled with
/// attributes, not CSS, so the same drawing stands alone in an `.svg` file. Its colours are
/// explicit, dark ink on its own white paper, so that a browser's forced dark mode, which
/// darkens the page but leaves an SVG's explicit colours, still shows a legible light card; the
/// page's own dark mode recolours the paper and the ink (`.paper`, `.ink`, `.outlier`) by CSS.
struct ReportTimeline {
  /// The drawing's width in SVG units: about a phone's width in CSS pixels, so that its text is
  /// drawn near its size there; the page scales it to the screen.
  static let width = 400.0
  /// Left of the plot: the day labels.
  static let plotLeft = 74.0
  static let plotRight = width - 20.0
  static let axisHeight = 22.0
  /// The colour of an outlier's cross and label on a light background (the page uses a lighter
  /// red on a dark one).
  static let outlierColour = "#b00020"

  let routine: ReportRoutine
  let title: String

  /// Rows are compact, labelled on the first of each month, beyond about two months.
  var isCompact: Bool { routine.days.count > 62 }
  var rowHeight: Double { isCompact ? 6 : 18 }
  var height: Double { Self.axisHeight + Double(max(routine.days.count, 1)) * rowHeight + 26 }

  /// The hours a timeline shows: whole hours around the routine's events and its spread, at
  /// least ``minimumHours`` of them, on a day that starts at midnight, or at noon for a routine
  /// between 18:00 and 06:00 (a night axis).
  struct Axis: Equatable {
    /// The first hour of the axis' day, in seconds after midnight (0 or 12 hours).
    var origin: Int
    /// The seconds after ``origin`` where the axis starts and ends (whole hours).
    var start: Int
    var end: Int

    static let minimumHours = 6

    init(origin: Int, start: Int, end: Int) {
      self.origin = origin
      self.start = start
      self.end = end
    }

    /// The axis for `routine`: its usual time, its spread and every event drawn.
    init(_ routine: ReportRoutine) {
      let r = routine.routine
      let usual = r.time.secondsSinceMidnight
      origin = usual >= 18 * 3600 || usual < 6 * 3600 ? 12 * 3600 : 0
      let half = ReportTimeline.halfSpread(r)
      let centre = (usual - origin + 86_400) % 86_400
      var low = max(0, centre - half)
      var high = min(86_400, centre + half)
      for day in routine.days {
        for mark in day.marks {
          let position = (mark.time.secondsSinceMidnight - origin + 86_400) % 86_400
          low = min(low, position)
          high = max(high, position)
        }
      }
      // Half an hour of room on each side, then out to whole hours.
      low = max(0, (low - 1800) / 3600 * 3600)
      high = min(86_400, (high + 1800 + 3599) / 3600 * 3600)
      // Widened an hour at a time on both sides (on one at the ends of the day) to the minimum.
      while high - low < Axis.minimumHours * 3600 {
        if low > 0 { low -= 3600 }
        if high < 86_400 && high - low < Axis.minimumHours * 3600 { high += 3600 }
      }
      start = low
      end = high
    }

    /// Where a time of day lies on the axis, in seconds after ``origin``.
    func position(_ secondsSinceMidnight: Int) -> Int {
      (secondsSinceMidnight - origin + 86_400) % 86_400
    }

    /// The hours between labelled grid lines: about five or six of them across.
    var stepHours: Int {
      switch (end - start) / 3600 {
      case ...7: 1
      case ...12: 2
      case ...18: 3
      default: 4
      }
    }
  }

  /// The half width of the spread band, in seconds: at least 150 so that it can be seen.
  static func halfSpread(_ routine: Routine) -> Int {
    max(Int(routine.spreadMinutes * 60), 150)
  }

  var axis: Axis { Axis(routine) }

  /// The horizontal position of a point `seconds` after the axis' origin.
  static func x(_ position: Int, on axis: Axis) -> Double {
    plotLeft + (plotRight - plotLeft) * Double(position - axis.start)
      / Double(axis.end - axis.start)
  }

  /// The horizontal position of a time of day.
  func x(_ secondsSinceMidnight: Int) -> Double {
    let axis = self.axis
    return Self.x(axis.position(secondsSinceMidnight), on: axis)
  }

  /// The SVG element (`standalone` adds the namespace an `.svg` file needs; `y` places it in a
  /// file that stacks several).
  func svg(standalone: Bool = false, y: Double? = nil) -> String {
    let r = routine.routine
    let axis = self.axis
    var out = "<svg"
    if standalone { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
    if let y { out += " y=\"\(Self.number(y))\"" }
    out +=
      " viewBox=\"0 0 \(Self.number(Self.width)) \(Self.number(height))\" width=\"\(Self.number(Self.width))\" height=\"\(Self.number(height))\""
      + " role=\"img\">"
    out +=
      "<title>\(HTMLText.escaped(title))</title><rect class=\"paper\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
      + "<g class=\"ink\" font-family=\"sans-serif\" font-size=\"13\" fill=\"#111\" color=\"#111\">"
    let top = Self.axisHeight
    let bottom = top + Double(max(routine.days.count, 1)) * rowHeight
    // Hours: a labelled grid line every step, on whole hours of the clock.
    var grid = ""
    var labels = ""
    let step = axis.stepHours * 3600
    var tick = (axis.start + step - 1) / step * step
    while tick <= axis.end {
      let x = Self.number(Self.x(tick, on: axis))
      let hour = (tick + axis.origin) / 3600 % 24
      grid += "M\(x) \(Self.number(top - 4))V\(Self.number(bottom))"
      labels +=
        "<text x=\"\(x)\" y=\"\(Self.number(top - 8))\" text-anchor=\"middle\">\(hour < 10 ? "0" : "")\(hour):00</text>"
      tick += step
    }
    // The spread: the usual time plus or minus the robust spread, within the axis.
    let half = Self.halfSpread(r)
    let centre = axis.position(r.time.secondsSinceMidnight)
    let from = max(axis.start, centre - half)
    let to = min(axis.end, centre + half)
    if to > from {
      out +=
        "<rect x=\"\(Self.number(Self.x(from, on: axis)))\" y=\"\(Self.number(top))\" width=\"\(Self.number(Self.x(to, on: axis) - Self.x(from, on: axis)))\" height=\"\(Self.number(bottom - top))\" fill-opacity=\"0.16\"/>"
    }
    out +=
      "<path d=\"\(grid)\" stroke=\"currentColor\" stroke-opacity=\"0.4\" stroke-width=\"0.5\" fill=\"none\"/>"
    out += labels
    let usual = Self.number(Self.x(centre, on: axis))
    out +=
      "<path d=\"M\(usual) \(Self.number(top))V\(Self.number(bottom))\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>"
    if routine.days.isEmpty {
      out +=
        "<text x=\"\(Self.number(Self.plotLeft + 4))\" y=\"\(Self.number(top + 12))\">No \(HTMLText.escaped(r.dayKind.noun(count: 2))) in the range.</text>"
    }
    var dots = ""
    var rows = ""
    var crosses = ""
    var notes = ""
    for (index, day) in routine.days.enumerated() {
      let y = top + (Double(index) + 0.5) * rowHeight
      if !isCompact || day.date.components.day == 1 || index == 0 {
        let label =
          isCompact
          ? "\(Self.monthName(day.date)) \(day.date.components.year)"
          : "\(day.date.weekdayName) \(String(day.date.description.dropFirst(5)))"
        rows +=
          "<text x=\"\(Self.number(Self.plotLeft - 6))\" y=\"\(Self.number(y + 4))\" text-anchor=\"end\">\(label)</text>"
      }
      let dotRadius = isCompact ? 2.2 : 3.5
      for mark in day.marks {
        let x = Self.x(axis.position(mark.time.secondsSinceMidnight), on: axis)
        if let minutes = mark.outlierMinutes {
          let size = isCompact ? 3.0 : 5.0
          crosses +=
            "M\(Self.number(x - size)) \(Self.number(y - size))l\(Self.number(2 * size)) \(Self.number(2 * size))m0 \(Self.number(-2 * size))l\(Self.number(-2 * size)) \(Self.number(2 * size))"
          // The label goes on the side with more room.
          let onLeft = x - Self.plotLeft > Self.plotRight - x
          notes +=
            "<text x=\"\(Self.number(onLeft ? x - 8 : x + 8))\" y=\"\(Self.number(y + 4))\"\(onLeft ? " text-anchor=\"end\"" : "") font-weight=\"bold\">outlier \(minutes > 0 ? "+" : "−")\(abs(minutes)) min</text>"
        } else {
          dots +=
            "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(dotRadius))\"/>"
        }
      }
    }
    out += rows
    if !dots.isEmpty { out += "<g>\(dots)</g>" }
    if !crosses.isEmpty {
      out +=
        "<path class=\"outlier\" d=\"\(crosses)\" stroke=\"\(Self.outlierColour)\" stroke-width=\"2\" fill=\"none\"/>"
      out += "<g class=\"outlier-label\" fill=\"\(Self.outlierColour)\">\(notes)</g>"
    }
    // The legend, in words and the same shapes, on one line under the plot.
    let legendY = Self.number(bottom + 18)
    out +=
      "<g transform=\"translate(8 \(legendY))\">"
      + "<circle cx=\"4\" cy=\"-4\" r=\"3.5\"/><text x=\"12\" y=\"0\">event</text>"
      + "<path class=\"outlier\" d=\"M56 -9l10 10m0 -10l-10 10\" stroke=\"\(Self.outlierColour)\" stroke-width=\"2\"/><text x=\"72\" y=\"0\">outlier</text>"
      + "<path d=\"M128 -10V2\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/><text x=\"134\" y=\"0\">usual \(r.time)</text>"
      + "<rect x=\"222\" y=\"-10\" width=\"14\" height=\"12\" fill-opacity=\"0.16\" stroke=\"currentColor\" stroke-width=\"0.5\"/><text x=\"240\" y=\"0\">spread ±\(Int(r.spreadMinutes.rounded())) min</text>"
      + "</g>"
    out += "</g></svg>"
    return out
  }

  /// Every routine's timeline in one standalone SVG, each under its heading.
  static func document(_ routines: [ReportRoutine], emptyNote: String) -> String {
    var body = ""
    var y = 0.0
    for routine in routines {
      let heading = heading(routine.routine)
      body +=
        "<text x=\"0\" y=\"\(number(y + 16))\" font-family=\"sans-serif\" font-size=\"14\" font-weight=\"bold\">\(HTMLText.escaped(heading))</text>"
      let timeline = ReportTimeline(routine: routine, title: heading)
      body += timeline.svg(y: y + 22)
      y += 22 + timeline.height + 12
    }
    if routines.isEmpty {
      body +=
        "<text x=\"0\" y=\"20\" font-family=\"sans-serif\" font-size=\"14\">\(HTMLText.escaped(emptyNote))</text>"
      y = 32
    }
    return
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(number(width)) \(number(y))\" width=\"\(number(width))\" height=\"\(number(y))\">"
      + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><g color=\"#000\">\(body)</g></svg>\n"
  }

  /// `Wake Up · weekdays`.
  static func heading(_ routine: Routine) -> String {
    "\(routine.kind.name) · \(routine.dayKind.label)"
  }

  /// A coordinate with at most one decimal, without a trailing `.0`.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let whole = abs(tenths) / 10
    let fraction = abs(tenths) % 10
    return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  static func monthName(_ date: LocalDate) -> String { months[date.components.month - 1] }
}

/// Escaping for HTML and SVG text and attribute values.
enum HTMLText {
  /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and control characters other than line
  /// breaks and tabs (which XML forbids) and bidirectional formatting characters (which would
  /// reorder the page's text around them, ``BidiControls``) dropped.
  static func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      case "\n", "\t": out.unicodeScalars.append(scalar)
      default:
        if scalar.properties.generalCategory == .control || scalar.value == 0xFFFE
          || scalar.value == 0xFFFF || BidiControls.contains(scalar)
        {
          continue
        }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
