import Foundation
import RoutineCore

/// The 24-hour timeline of one routine as SVG: a row per day of its kind, a dot per event, a
/// cross with its deviation for an outlier, the usual time as a line and its spread as a band.
/// Drawn with shapes and words, not colour alone, so it reads in greyscale and in print; styled
/// with attributes, not CSS, so the same drawing stands alone in an `.svg` file.
struct ReportTimeline {
  /// The drawing's width in SVG units; the page scales it to the screen.
  static let width = 720.0
  /// Left of the plot: the day labels.
  static let plotLeft = 100.0
  static let plotRight = width - 40.0
  static let axisHeight = 22.0

  let routine: ReportRoutine
  let title: String

  /// Rows are compact, labelled on the first of each month, beyond about two months.
  var isCompact: Bool { routine.days.count > 62 }
  var rowHeight: Double { isCompact ? 6 : 18 }
  var height: Double { Self.axisHeight + Double(max(routine.days.count, 1)) * rowHeight + 26 }

  /// The horizontal position of a time of day.
  static func x(_ seconds: Int) -> Double {
    plotLeft + (plotRight - plotLeft) * Double(seconds) / 86_400
  }

  /// The SVG element (`standalone` adds the namespace an `.svg` file needs; `y` places it in a
  /// file that stacks several).
  func svg(standalone: Bool = false, y: Double? = nil) -> String {
    let r = routine.routine
    var out = "<svg"
    if standalone { out += " xmlns=\"http://www.w3.org/2000/svg\"" }
    if let y { out += " y=\"\(Self.number(y))\"" }
    out +=
      " viewBox=\"0 0 \(Self.number(Self.width)) \(Self.number(height))\" width=\"\(Self.number(Self.width))\" height=\"\(Self.number(height))\""
      + " role=\"img\">"
    out +=
      "<title>\(HTMLText.escaped(title))</title><g font-family=\"sans-serif\" font-size=\"13\">"
    let top = Self.axisHeight
    let bottom = top + Double(max(routine.days.count, 1)) * rowHeight
    // Hours: a grid line every 3 hours, labelled.
    var grid = ""
    var labels = ""
    for hour in stride(from: 0, through: 24, by: 3) {
      let x = Self.number(Self.x(hour * 3600))
      grid += "M\(x) \(Self.number(top - 4))V\(Self.number(bottom))"
      labels +=
        "<text x=\"\(x)\" y=\"\(Self.number(top - 8))\" text-anchor=\"middle\">\(hour < 10 ? "0" : "")\(hour):00</text>"
    }
    // The spread: the usual time plus or minus the robust spread (at least 5 minutes wide to be
    // seen), cut in two when it crosses midnight.
    let half = max(Int(r.spreadMinutes * 60), 150)
    let start = r.time.secondsSinceMidnight - half
    let end = r.time.secondsSinceMidnight + half
    var bands: [(Int, Int)] = []
    if start < 0 {
      bands = [(0, end), (86_400 + start, 86_400)]
    } else if end > 86_400 {
      bands = [(start, 86_400), (0, end - 86_400)]
    } else {
      bands = [(start, end)]
    }
    for (from, to) in bands {
      out +=
        "<rect x=\"\(Self.number(Self.x(from)))\" y=\"\(Self.number(top))\" width=\"\(Self.number(Self.x(to) - Self.x(from)))\" height=\"\(Self.number(bottom - top))\" fill=\"#d9d9d9\" fill-opacity=\"0.7\"/>"
    }
    out += "<path d=\"\(grid)\" stroke=\"#bbb\" stroke-width=\"0.5\" fill=\"none\"/>"
    out += labels
    let usual = Self.number(Self.x(r.time.secondsSinceMidnight))
    out +=
      "<path d=\"M\(usual) \(Self.number(top))V\(Self.number(bottom))\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>"
    if routine.days.isEmpty {
      out +=
        "<text x=\"\(Self.number(Self.plotLeft + 4))\" y=\"\(Self.number(top + 12))\">No \(HTMLText.escaped(r.dayKind.noun(count: 2))) in the range.</text>"
    }
    var dots = ""
    var rows = ""
    var crosses = ""
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
        let x = Self.x(mark.time.secondsSinceMidnight)
        if let minutes = mark.outlierMinutes {
          let size = isCompact ? 3.0 : 5.0
          crosses +=
            "M\(Self.number(x - size)) \(Self.number(y - size))l\(Self.number(2 * size)) \(Self.number(2 * size))m0 \(Self.number(-2 * size))l\(Self.number(-2 * size)) \(Self.number(2 * size))"
          // The label goes on the side with room.
          let onLeft = x > Self.plotRight - 60
          rows +=
            "<text x=\"\(Self.number(onLeft ? x - 8 : x + 8))\" y=\"\(Self.number(y + 4))\"\(onLeft ? " text-anchor=\"end\"" : "") font-weight=\"bold\">outlier \(minutes > 0 ? "+" : "−")\(abs(minutes)) min</text>"
        } else {
          dots +=
            "<circle cx=\"\(Self.number(x))\" cy=\"\(Self.number(y))\" r=\"\(Self.number(dotRadius))\"/>"
        }
      }
    }
    out += rows
    if !dots.isEmpty { out += "<g fill=\"#000\">\(dots)</g>" }
    if !crosses.isEmpty {
      out += "<path d=\"\(crosses)\" stroke=\"#b00020\" stroke-width=\"2\" fill=\"none\"/>"
    }
    // The legend, in words and the same shapes.
    let legendY = Self.number(bottom + 18)
    out +=
      "<g transform=\"translate(\(Self.number(Self.plotLeft)) \(legendY))\">"
      + "<circle cx=\"4\" cy=\"-4\" r=\"3.5\"/><text x=\"12\" y=\"0\">event</text>"
      + "<path d=\"M66 -9l10 10m0 -10l-10 10\" stroke=\"#b00020\" stroke-width=\"2\"/><text x=\"82\" y=\"0\">outlier</text>"
      + "<path d=\"M150 -10V2\" stroke=\"#000\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/><text x=\"156\" y=\"0\">usual \(r.time)</text>"
      + "<rect x=\"250\" y=\"-10\" width=\"14\" height=\"12\" fill=\"#d9d9d9\"/><text x=\"268\" y=\"0\">spread ±\(Int(r.spreadMinutes.rounded())) min</text>"
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
      + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\(body)</svg>\n"
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
  /// breaks and tabs (which XML forbids) dropped.
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
          || scalar.value == 0xFFFF
        {
          continue
        }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
