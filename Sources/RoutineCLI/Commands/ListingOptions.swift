import Foundation

/// When a listing is in colour.
enum ColorChoice: String, CaseIterable {
  /// On a terminal, unless `NO_COLOR` is set or `TERM` is `dumb`.
  case auto
  /// Always, also into a pipe or a file (`| less -R`).
  case always
  /// Never.
  case never
}

/// `--color` and `--no-pager`, for the long listings people read on a terminal (`history`,
/// `agenda`, `reminders`, `pending`): colour for what became of each firing, and a pager when the
/// listing is longer than the screen (docs/cli.md, "Colour and the pager").
enum ListingOptions {
  /// `--color auto|always|never`.
  static let color = Option<ColorChoice>(
    "color", .oneOf(),
    "Colour: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never.")
  /// `--no-pager`.
  static let noPager = OptionSpec.flag(
    "no-pager", "Print straight to the terminal, even when the listing is longer than the screen.")
  /// Both, for a command's options.
  static let specs = [color.spec, noPager]

  /// Sets the command's output up: colour as `--color` and the environment say, and a pager
  /// in reserve on a terminal (`$PAGER`, else `less`; none when `PAGER` is empty or `cat`, with
  /// `--no-pager` or `--json`).
  static func apply(_ context: Context) throws(UsageError) {
    let output = context.output
    let variables = context.environment.variables
    switch try context.arguments.value(color) ?? .auto {
    case .always: output.colors = true
    case .never: output.colors = false
    case .auto:
      output.colors =
        output.isTerminal && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
        && !context.isJSON
    }
    guard output.isTerminal, !context.isJSON, !context.arguments.flag(noPager) else { return }
    let command = variables["PAGER"] ?? "less"
    guard !command.trimmingCharacters(in: .whitespaces).isEmpty, command != "cat" else { return }
    // A pager that is not there would take the listing with it (the shell says "not found"
    // and routine's output goes nowhere): its program is looked up first.
    let program = String(command.split(whereSeparator: \.isWhitespace).first ?? "")
    let found =
      program.contains("/")
      ? FileManager.default.isExecutableFile(atPath: program)
      : ChildProcess.find(program, path: variables["PATH"]) != nil
    guard found else {
      context.warn("the pager '\(program)' is not installed; printing without one (PAGER names it)")
      return
    }
    output.pageWhenLonger(
      than: Pager.rows(of: 1, environment: variables), command: command, environment: variables)
  }
}

/// How a word of a listing looks in colour.
enum Paint: String {
  case green = "32"
  case red = "31"
  case yellow = "33"
  case dim = "2"
  case bold = "1"
}

extension Output {
  /// `text` in `paint` when colour is on, else as it is. Colour wraps text already escaped
  /// (``TerminalText``); the padding of a column goes outside it.
  func paint(_ text: String, _ paint: Paint?) -> String {
    guard colors, let paint, !text.isEmpty else { return text }
    return "\u{1B}[\(paint.rawValue)m\(text)\u{1B}[0m"
  }
}
