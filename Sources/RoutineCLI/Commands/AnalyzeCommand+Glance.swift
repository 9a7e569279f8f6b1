import RoutineCore

extension AnalyzeCommand {
  /// The times of day of each routine as a row of block characters, for a terminal only: what
  /// scripts, pipes and the documented transcripts read stays as it was.
  struct Glance {
    /// The log analysed.
    let log: EventLog
    /// Whether to colour the bars (a terminal, no `NO_COLOR`, and a `TERM` other than `dumb`).
    let isColoured: Bool

    static let blocks: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Cyan bars (ANSI SGR 36), then back to normal.
    static let (colour, reset) = ("\u{1B}[36m", "\u{1B}[0m")

    /// A glance when standard output is a terminal, coloured unless `NO_COLOR` is set to
    /// anything but the empty string (no-color.org) or `TERM` is `dumb` (a terminal that shows
    /// escape sequences as text, such as Emacs' shell); `nil` otherwise.
    static func forTerminal(_ context: Context, log: EventLog) -> Glance? {
      guard context.output.isTerminal else { return nil }
      let variables = context.environment.variables
      let noColour = variables["NO_COLOR"].map { !$0.isEmpty } ?? false
      return Glance(log: log, isColoured: !noColour && variables["TERM"] != "dumb")
    }

    /// The section: an axis of hours, then one row per routine, names padded to `nameWidth`.
    func write(_ analysis: RoutineAnalysis, names: [String], nameWidth: Int, to output: Output) {
      guard !analysis.routines.isEmpty else { return }
      output.line()
      output.line("Times of day (a column per half hour, from 00:00):")
      let hours = stride(from: 0, to: 24, by: 3).map { $0 < 10 ? "0\($0)    " : "\($0)    " }
      output.line("  \(HelpFormatter.padded("", to: nameWidth))  |\(hours.joined())|")
      for (routine, name) in zip(analysis.routines, names) {
        let histogram = TimeOfDayHistogram(
          routine, among: analysis.routines, log: log,
          lastDay: analysis.window.learningDays.upperBound)
        let bars = String(histogram.heights(levels: 8).map { Self.blocks[$0] })
        output.write("  \(HelpFormatter.padded(name, to: nameWidth))  |")
        // Escape sequences go verbatim: `write` shows control characters escaped.
        if isColoured { output.writeVerbatim(Self.colour) }
        output.write(bars)
        if isColoured { output.writeVerbatim(Self.reset) }
        output.line("|")
      }
    }
  }
}
