/// The manual page, routine(1), in roff: generated from the same declarations as `--help`
/// (`routine help --man`; docs/routine.1 is its output, checked by a test).
public enum ManPage {
  /// The whole page for `commands` (hidden ones left out), at `version`.
  public static func render(_ commands: [CommandSpec], version: String) -> String {
    var page = [
      ".TH ROUTINE 1 \"\" \"routine \(escaped(version))\" \"User Commands\"",
      // Ragged right: long option examples ("timestamp=Date+Time,...") cannot be justified;
      // and no hyphenation, which split words such as "lat-est" at 80 columns.
      ".ad l",
      ".nh",
      ".SH NAME",
      "routine \\- learns your daily routines from logged events and turns them into reminders",
      ".SH SYNOPSIS",
      ".B routine",
      ".I COMMAND",
      "[\\fIOPTIONS\\fR]",
      ".SH DESCRIPTION",
      text(
        """
        routine keeps a log of events (what happened, when, in which zone) in a SQLite store,
        learns at what times of day they usually happen, and plans reminders from what it learned
        and from reminders you define. Options may come anywhere on the line, as --name value or
        --name=value; -- ends options; -h is --help; - alone is standard input. Results go to
        standard output, diagnostics to standard error; every command that prints data has --json.
        """),
      ".SH COMMANDS",
    ]
    for command in commands.flatMap(\.allCommands) where !command.isHidden {
      page += section(command)
    }
    page += [".SH GLOBAL OPTIONS", text("Accepted by every command; the last one given counts.")]
    page += GlobalOption.all.flatMap(option)
    // Each topic of `routine help TOPIC` as a section of its own, its lines kept as they are
    // (it has tables aligned with spaces).
    for topic in HelpTopic.all {
      page += [".SH \(topic.name.uppercased())", ".nf"]
      let body = topic.text.hasSuffix("\n") ? String(topic.text.dropLast()) : topic.text
      page += body.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? ".sp" : escaped(String($0), startOfLine: true) }
      page += [".fi"]
    }
    page += [".SH EXIT STATUS"]
    for code in ExitCode.documented {
      page += [".TP", ".B \(code.rawValue)", text(code.meaning)]
    }
    page += [".SH ENVIRONMENT"]
    for (name, meaning) in environment {
      page += [".TP", ".B \(name)", text(meaning)]
    }
    page += [
      ".SH FILES",
      ".TP",
      ".I ~/.local/share/routine/routine.db",
      text(
        "The store, unless --store, ROUTINE_STORE or XDG_DATA_HOME names another; created by the first command that writes."
      ),
      ".TP",
      ".I /usr/share/zoneinfo",
      text("The tz database the zone rules come from, unless TZDIR names another."),
      ".SH SEE ALSO",
      ".BR crontab (5),",
      ".BR notify-send (1),",
      ".BR sqlite3 (1),",
      ".BR tzfile (5);",
      text(
        "docs/cli.md (every command's help, the exit statuses with examples), docs/formats.md, docs/time.md and docs/completions.md in routine's repository."
      ),
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// The variables routine reads, and what for.
  static let environment: [(String, String)] = [
    ("ROUTINE_STORE", "The store's path, when --store is not given."),
    ("XDG_DATA_HOME", "The store is $XDG_DATA_HOME/routine/routine.db when neither names one."),
    ("ROUTINE_NOW", "A fixed time (ISO 8601 with offset) instead of the clock, as --now."),
    ("TZ", "The user's zone, when neither the store's settings nor --tz name one."),
    ("TZDIR", "The tz database's directory (default /usr/share/zoneinfo)."),
    (
      "LC_ALL, LC_TIME, LANG",
      "The locale reminder texts are worded in, recorded in the store the first time it is written."
    ),
  ]

  /// One command: its usage line as the heading, summary, discussion, arguments and options.
  static func section(_ command: CommandSpec) -> [String] {
    var lines = [".SS \"\(escaped(command.usage).replacingOccurrences(of: "\"", with: "\"\""))\""]
    lines.append(text(command.summary))
    if !command.discussion.isEmpty { lines += [".PP", text(command.discussion)] }
    if !command.aliases.isEmpty {
      lines += [
        ".PP", text("Also: " + command.aliases.map { "routine \($0)" }.joined(separator: ", ")),
      ]
    }
    for argument in command.arguments {
      lines += [
        ".TP", ".I \(escaped(argument.isRepeatable ? "\(argument.name)..." : argument.name))",
        text(argument.help),
      ]
    }
    lines += command.options.flatMap(option)
    return lines
  }

  /// An option as a tagged paragraph: `--name VALUE` and its help.
  static func option(_ option: OptionSpec) -> [String] {
    // Every dash of an option is a minus sign, so that a reader can copy it into a terminal.
    let name = "\\fB\\-\\-\(option.name.replacingOccurrences(of: "-", with: "\\-"))\\fR"
    let tag = option.valueName.map { "\(name) \\fI\(escaped($0))\\fR" } ?? name
    return [".TP", tag, text(option.fullHelp)]
  }

  /// Running text: a paragraph break for each blank line, every line made safe for roff.
  static func text(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in
        let trimmed = line.drop { $0 == " " }
        return trimmed.isEmpty ? ".PP" : escaped(String(trimmed), startOfLine: true)
      }
      .joined(separator: "\n")
  }

  /// `text` for roff: backslashes written as `\e`, a comma inside a word followed by a place to
  /// break the line (`\:`), a dash that starts an option (`--at`, `-h`)
  /// as `\-` (a real minus, which a reader can copy), and a line that would start with a control
  /// character (`.` or `'`) guarded with `\&`.
  static func escaped(_ text: String, startOfLine: Bool = false) -> String {
    var result = ""
    var previous: Character = " "
    for character in text {
      switch character {
      case "\\": result += "\\e"
      // A place to break a long list without spaces ("timestamp=Date+Time,event=Activity").
      case "," where previous != " " && previous != ",": result += ",\\:"
      case "-"
      where previous == " " || previous == "-" || previous == "(" || previous == "'"
        || previous == "[" || previous == "|" || previous == "`":
        result += "\\-"
      default: result.append(character)
      }
      previous = character
    }
    // Before a space a comma needs no break point.
    result = result.replacingOccurrences(of: ",\\: ", with: ", ")
    if startOfLine, let first = result.first, first == "." || first == "'" {
      result = "\\&" + result
    }
    return result
  }
}
