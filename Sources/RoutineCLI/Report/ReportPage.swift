import RoutineCore

/// The report as one self-contained HTML page: inline CSS and SVG, no script, no font, image or
/// link to fetch (its Content-Security-Policy forbids any), so it renders the same offline. Every
/// string that came from a person (kinds, titles, notes, ids) is escaped.
enum ReportPage {
  /// The policy the page carries: nothing may be fetched, and only its own inline style applies.
  static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

  /// The sentence shown in place of routines when none was learned.
  static func emptyRoutines(_ model: ReportModel) -> String {
    let count = model.days.upperBound.daysSince1970 - model.days.lowerBound.daysSince1970
    if model.daysLogged < 3 {
      return "Not enough days yet: \(counted(model.daysLogged, "day")) with events in the range; "
        + "a routine needs an event near the same time on at least 3 days."
    }
    return "No routine yet in these \(counted(count, "day")): "
      + "a routine needs an event near the same time on at least 3 days."
  }

  /// The whole page.
  static func html(_ model: ReportModel) -> String {
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
      <title>Routine report</title>
      <style>\(style)</style>
      </head>
      <body>
      <header>
      <h1>Your routines</h1>

      """
    let first = model.days.lowerBound
    let last = model.days.upperBound
    out +=
      "<p>Made \(HTMLText.escaped(model.generated)) (\(HTMLText.escaped(model.zoneName))), from the events of "
      + "\(first.weekdayName) \(first) to \(last.weekdayName) \(last): "
      + "\(counted(model.daysLogged, "day")) with events.</p>\n"
    out +=
      "<nav><a href=\"#routines\">Routines</a> · <a href=\"#upcoming\">Next 7 days</a> · "
      + "<a href=\"#outcomes\">What became of reminders</a> · <a href=\"#reminders\">Your reminders</a></nav>\n"
    out += "</header>\n<main>\n"
    out += routines(model)
    out += upcoming(model)
    out += outcomes(model)
    if !model.holds.isEmpty { out += holds(model) }
    out += reminders(model)
    out +=
      "</main>\n<footer><p>Made by routine \(RoutineCLI.version). This page fetches nothing: no script, font or image from elsewhere.</p></footer>\n</body>\n</html>\n"
    return out
  }

  private static func routines(_ model: ReportModel) -> String {
    var out = "<section id=\"routines\">\n<h2>Routines</h2>\n"
    if model.routines.isEmpty {
      out += "<p class=\"empty\">\(HTMLText.escaped(emptyRoutines(model)))</p>\n"
    }
    for (index, item) in model.routines.enumerated() {
      let routine = item.routine
      let percent = Int((routine.confidence * 100).rounded())
      let heading = ReportTimeline.heading(routine)
      out += "<article id=\"routine-\(index + 1)\">\n"
      out +=
        "<h3>\(HTMLText.escaped(routine.kind.name)) <span class=\"days\">\(HTMLText.escaped(routine.dayKind.noun(count: 2)))</span></h3>\n"
      out += "<ul class=\"facts\">"
      out += "<li><span>Usual time</span> <b>\(routine.time)</b></li>"
      out +=
        "<li><span>Spread</span> <b>±\(Int(routine.spreadMinutes.rounded())) min (\(routine.earliest) to \(routine.latest))</b></li>"
      out +=
        "<li><span>Confidence</span> <b>\(percent)% <span class=\"meter\" aria-hidden=\"true\">\(meter(routine.confidence))</span></b></li>"
      out +=
        "<li><span>Days</span> <b>\(routine.daysMatched) of \(routine.daysObserved) \(HTMLText.escaped(routine.dayKind.noun(count: routine.daysObserved)))</b></li>"
      out += "</ul>\n"
      out += "<p class=\"reason\">\(HTMLText.escaped(routine.reasoning))</p>\n"
      let outliers = item.days.flatMap { day in
        day.marks.compactMap { mark in mark.outlierMinutes.map { (day.date, mark.time, $0) } }
      }
      out +=
        "<figure>\(ReportTimeline(routine: item, title: "Timeline of \(heading)").svg())"
      out += "<figcaption>Each row a day, each dot an event"
      if outliers.isEmpty {
        out += "; no outlier.</figcaption></figure>\n"
      } else {
        out += "; outliers: "
        out += outliers.map { date, time, minutes in
          "\(date.weekdayName) \(date) \(time) (\(minutes > 0 ? "\(minutes) min late" : "\(-minutes) min early"))"
        }.joined(separator: ", ")
        out += ".</figcaption></figure>\n"
      }
      out += "</article>\n"
    }
    return out + "</section>\n"
  }

  /// Ten blocks, filled in proportion: the confidence without colour.
  private static func meter(_ value: Double) -> String {
    let filled = max(0, min(10, Int((value * 10).rounded())))
    return String(repeating: "■", count: filled) + String(repeating: "□", count: 10 - filled)
  }

  /// A section holding one table, its columns' names repeated on each cell so that a narrow
  /// screen shows each row as labelled lines; `empty` says why there is no row.
  private static func table(
    id: String, title: String, empty: String, columns: [String], rows: [[String]]
  ) -> String {
    var out = "<section id=\"\(id)\">\n<h2>\(title)</h2>\n"
    guard !rows.isEmpty else { return out + "<p class=\"empty\">\(empty)</p>\n</section>\n" }
    out +=
      "<table>\n<thead><tr>" + columns.map { "<th>\($0)</th>" }.joined()
      + "</tr></thead>\n<tbody>\n"
    for cells in rows {
      out +=
        "<tr>" + zip(columns, cells).map { "<td data-label=\"\($0)\">\($1)</td>" }.joined()
        + "</tr>\n"
    }
    return out + "</tbody>\n</table>\n</section>\n"
  }

  private static func upcoming(_ model: ReportModel) -> String {
    table(
      id: "upcoming", title: "Next 7 days",
      empty:
        "Nothing fires in the next 7 days: 'routine plan' makes reminders from your routines, 'routine reminders add' adds your own.",
      columns: ["When", "Reminder", "Will it fire?"],
      rows: model.upcoming.map { firing in
        let body = firing.body.isEmpty ? "" : ": \(HTMLText.escaped(firing.body))"
        let state =
          firing.skipped.map { "<span class=\"skip\">✕ skipped: \(HTMLText.escaped($0))</span>" }
          ?? "✓ fires"
        return [
          HTMLText.escaped(firing.at), "<b>\(HTMLText.escaped(firing.title))</b>\(body)", state,
        ]
      })
  }

  /// A word for how a reminder fares, from what became of its firings (``FiringOutcome``):
  /// acted on, ignored, or not needed.
  static func verdict(_ outcome: ReportOutcome) -> String {
    let fired = outcome.delivered + outcome.skipped + outcome.missed + outcome.failed
    if fired == 0 { return "nothing fired yet" }
    if outcome.delivered == 0 && outcome.skipped > 0 { return "not needed: done before it fired" }
    if outcome.delivered == 0 { return "never delivered" }
    if outcome.acted * 2 > outcome.delivered { return "helps: mostly acted on" }
    if (outcome.preEmpted + outcome.skipped) * 2 > fired {
      return "mostly not needed: done before it"
    }
    if (outcome.ignored + outcome.dismissed) * 2 > outcome.delivered { return "mostly ignored" }
    return "sometimes acted on"
  }

  private static func outcomes(_ model: ReportModel) -> String {
    table(
      id: "outcomes", title: "What became of the reminders",
      empty:
        "No firing recorded in the range yet: 'routine deliver' (from cron) or 'routine watch' records each one.",
      columns: [
        "Reminder", "Delivered", "Acted on", "Dismissed", "Ignored", "Done before it",
        "Skipped", "Missed", "Verdict",
      ],
      rows: model.outcomes.map { outcome in
        let answers =
          outcome.answers.isEmpty
          ? ""
          : " ("
            + outcome.answers.map { "\($0.count) × ‘\(HTMLText.escaped($0.action))’" }
            .joined(separator: ", ") + ")"
        let acted =
          "\(outcome.acted)"
          + (outcome.snoozedThenActed > 0 ? ", \(outcome.snoozedThenActed) after a snooze" : "")
          + answers
        let missed = outcome.missed + outcome.failed
        var missedNotes: [String] = []
        if outcome.failed > 0 { missedNotes.append("\(outcome.failed) failed") }
        if outcome.missedWhileHeld > 0 {
          missedNotes.append(
            "\(outcome.missedWhileHeld) held past \(outcome.missedWhileHeld == 1 ? "its" : "their") time"
          )
        }
        var deliveredNotes: [String] = []
        if outcome.released > 0 { deliveredNotes.append("\(outcome.released) after a hold") }
        if outcome.heldNow > 0 { deliveredNotes.append("\(outcome.heldNow) held now") }
        let standing = outcome.standing.map { "<br><small>\(HTMLText.escaped($0))</small>" } ?? ""
        return [
          "<b>\(HTMLText.escaped(outcome.title))</b> <code>\(HTMLText.escaped(outcome.id))</code>"
            + standing,
          "\(outcome.delivered)"
            + (deliveredNotes.isEmpty ? "" : " (\(deliveredNotes.joined(separator: ", ")))"), acted,
          "\(outcome.dismissed)", "\(outcome.ignored)", "\(outcome.preEmpted)",
          "\(outcome.skipped)",
          "\(missed)" + (missedNotes.isEmpty ? "" : " (\(missedNotes.joined(separator: ", ")))"),
          verdict(outcome),
        ]
      })
  }

  /// The firings held while the person was away, busy or in quiet hours, and what became of
  /// each (shown only when there is one).
  private static func holds(_ model: ReportModel) -> String {
    table(
      id: "holds", title: "Held while you were away", empty: "",
      columns: ["When", "Reminder", "Held because", "Then"],
      rows: model.holds.map { hold in
        [
          HTMLText.escaped(hold.at),
          "<b>\(HTMLText.escaped(hold.title))</b> <code>\(HTMLText.escaped(hold.id))</code>",
          HTMLText.escaped(hold.reason), HTMLText.escaped(hold.state),
        ]
      })
  }

  private static func reminders(_ model: ReportModel) -> String {
    table(
      id: "reminders", title: "Your reminders",
      empty: "No reminders yet: 'routine reminders add' defines one.",
      columns: ["Id", "About", "When", "Next firing"],
      rows: model.reminders.map { reminder in
        var next: String
        if !reminder.isEnabled {
          next = "off (disabled)"
        } else if let at = reminder.next {
          next = HTMLText.escaped(at)
          if let reason = reminder.nextSkipped {
            next += " <span class=\"skip\">✕ skipped: \(HTMLText.escaped(reason))</span>"
          }
        } else {
          next = "no further firing"
        }
        return [
          "<code>\(HTMLText.escaped(reminder.id))</code>", HTMLText.escaped(reminder.subject),
          HTMLText.escaped(reminder.schedule), next,
        ]
      })
  }

  /// System fonts only; tables become labelled blocks on a narrow screen; articles keep whole
  /// on a printed page. Light or dark as the system prefers (`prefers-color-scheme`): in dark
  /// mode the timelines' paper and ink are recoloured, with a lighter red for outliers. A
  /// browser's forced dark mode without that preference darkens the page itself and leaves the
  /// timelines as light cards (their colours are explicit). A timeline's drawing is about a
  /// phone's width, shown at most 36rem wide.
  static let style = """
    :root{color-scheme:light dark}
    body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;padding:0 1rem 2rem;max-width:60rem;line-height:1.45;color:#111;background:#fff}
    h1{margin:1rem 0 .25rem}h2{border-bottom:2px solid #111;padding-bottom:.2rem;margin-top:2rem}
    h3{margin:1.25rem 0 .4rem}h3 .days{font-weight:normal;font-size:.85em;color:#333}
    nav a{color:#0645ad}
    .facts{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:.25rem 0;padding:0;list-style:none}.facts span{display:block;font-size:.8em;color:#444}
    .meter{font-weight:normal;letter-spacing:-1px;font-size:.8em}
    .reason{margin:.25rem 0;color:#222}
    figure{margin:.5rem 0}figure svg{width:100%;max-width:36rem;height:auto;display:block}figcaption{font-size:.85em;color:#333}
    table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ccc;vertical-align:top}
    .skip{font-style:italic}.empty{font-style:italic;border-left:4px solid #999;padding-left:.6rem}
    code{font-size:.9em;overflow-wrap:anywhere}td{overflow-wrap:anywhere}
    @media (prefers-color-scheme:dark){body{color:#e8e8e8;background:#141414}h2{border-bottom-color:#e8e8e8}h3 .days,figcaption{color:#cfcfcf}.facts span{color:#bdbdbd}.reason{color:#dedede}nav a{color:#8ab4f8}th,td{border-bottom-color:#555}.empty{border-left-color:#888}.paper{fill:#141414}.ink{fill:#e8e8e8;color:#e8e8e8}.outlier{stroke:#ff8a9b}.outlier-label{fill:#ff8a9b}}
    @media (max-width:600px){thead{display:none}table,tbody,tr,td{display:block;width:auto}tr{border-bottom:1px solid #999;padding:.3rem 0}td{border:0;padding:.1rem 0}td::before{content:attr(data-label) ": ";font-weight:bold}}
    @media print{body{max-width:none;font-size:10pt;color:#000;background:#fff}.paper{fill:#fff}.ink{fill:#111;color:#111}.outlier{stroke:#b00020}.outlier-label{fill:#b00020}nav{display:none}article,tr{break-inside:avoid}h2{break-after:avoid}a{color:inherit}}
    """
}
