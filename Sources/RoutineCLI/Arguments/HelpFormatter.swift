/// Help text, generated from the same declarations the parser uses.
public enum HelpFormatter {
  /// The overview: usage, commands (with their subcommands), topics, global options.
  public static func overview(_ commands: [CommandSpec], topics: [HelpTopic] = HelpTopic.all)
    -> String
  {
    var lines = [
      "routine: learns your daily routines from logged events and turns them into reminders.",
      "",
      "USAGE: routine COMMAND [OPTIONS]",
      "",
      "COMMANDS:",
    ]
    let all = commands.flatMap(\.allCommands).filter { !$0.isHidden }
    lines += table(all.map { ($0.name, $0.summary) })
    if !topics.isEmpty {
      lines += ["", "TOPICS ('routine help TOPIC'):"]
      lines += table(topics.map { ($0.name, $0.summary) })
    }
    lines += ["", "GLOBAL OPTIONS (accepted by every command):"]
    lines += table(GlobalOption.all.map { ($0.synopsis, $0.help) })
    lines += [
      "",
      "See 'routine help COMMAND' for a command's options; docs/cli.md lists the exit statuses.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// One command's help.
  public static func help(for command: CommandSpec) -> String {
    var lines = [wrapped("USAGE: \(command.usage)", indent: 7), "", command.summary]
    if !command.discussion.isEmpty { lines += ["", command.discussion] }
    if !command.aliases.isEmpty {
      lines += ["", "Also: " + command.aliases.map { "routine \($0)" }.joined(separator: ", ")]
    }
    if !command.subcommands.isEmpty {
      lines += ["", "SUBCOMMANDS:"]
      lines += table(command.subcommands.map { ("\($0.word)", $0.summary) })
    }
    if !command.arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      lines += table(
        command.arguments.map { ($0.isRepeatable ? "\($0.name)..." : $0.name, $0.help) })
    }
    if !command.options.isEmpty {
      lines += ["", "OPTIONS:"]
      lines += table(command.options.map { ($0.synopsis, $0.fullHelp) })
    }
    let globals = command.globals + [GlobalOption.named("help")!]
    lines += ["", "GLOBAL OPTIONS:"]
    lines += table(globals.map { ($0.synopsis, $0.help) })
    return lines.joined(separator: "\n") + "\n"
  }

  private static func table(_ rows: [(String, String)]) -> [String] {
    let width = min((rows.map(\.0.count).max() ?? 0) + 2, 26)
    let indent = String(repeating: " ", count: width + 2)
    return rows.map { row in
      let (left, right) = row
      let description = lines(of: right, width: lineWidth - indent.count)
        .joined(separator: "\n" + indent)
      if left.count + 2 > width { return "  " + left + "\n" + indent + description }
      return "  " + padded(left, to: width) + description
    }
  }

  /// The widest line help prints: it reads in a terminal of 100 columns and in docs/cli.md.
  static let lineWidth = 100

  /// `text` broken at spaces into lines, every line after the first indented by `indent`
  /// spaces, none wider than ``lineWidth`` unless one word is.
  static func wrapped(_ text: String, indent: Int) -> String {
    let first = lines(of: text, width: lineWidth)
    guard first.count > 1 else { return text }
    let head = first[0]
    let rest = lines(
      of: String(text.dropFirst(head.count).drop { $0 == " " }),
      width: lineWidth - indent)
    return ([head] + rest.map { String(repeating: " ", count: indent) + $0 })
      .joined(separator: "\n")
  }

  /// The words of `text` in lines of at most `width` characters (a longer word keeps a line of
  /// its own).
  static func lines(of text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    lines.append(line)
    return lines
  }

  /// `text` followed by spaces up to `width` characters.
  static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
