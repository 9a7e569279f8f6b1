/// Help text, generated from the same declarations the parser uses.
public enum HelpFormatter {
  /// The overview: usage, commands (with their subcommands), global options.
  public static func overview(_ commands: [CommandSpec]) -> String {
    var lines = [
      "routine: learns your daily routines from logged events and turns them into reminders.",
      "",
      "USAGE: routine COMMAND [OPTIONS]",
      "",
      "COMMANDS:",
    ]
    let all = commands.flatMap(\.allCommands).filter { !$0.isHidden }
    let width = (all.map(\.name.count).max() ?? 0) + 2
    for command in all {
      lines.append("  " + padded(command.name, to: width) + command.summary)
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
    var lines = ["USAGE: \(command.usage)", "", command.summary]
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
      lines += table(command.options.map { ($0.synopsis, $0.help) })
    }
    let globals = command.globals + [GlobalOption.named("help")!]
    lines += ["", "GLOBAL OPTIONS:"]
    lines += table(globals.map { ($0.synopsis, $0.help) })
    return lines.joined(separator: "\n") + "\n"
  }

  private static func table(_ rows: [(String, String)]) -> [String] {
    let width = min((rows.map(\.0.count).max() ?? 0) + 2, 26)
    return rows.map { row in
      let (left, right) = row
      if left.count + 2 > width {
        return "  " + left + "\n  " + String(repeating: " ", count: width) + right
      }
      return "  " + padded(left, to: width) + right
    }
  }

  /// `text` followed by spaces up to `width` characters.
  static func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
