/// Options every command accepts, wherever they appear on the line. Commands that have no use
/// for one ignore it, so that `alias routine='routine --tz Europe/Berlin'` works for all of them.
public enum GlobalOption {
  /// `--store PATH`.
  public static let store = Option(
    "store", .path("PATH"),
    "The SQLite store (default: $ROUTINE_STORE, $XDG_DATA_HOME/routine/routine.db, ~/.local/share/routine/routine.db)."
  )
  /// `--now TIME`, read by ``Context`` (ISO 8601 with an offset, not the dates grammar).
  public static let now = Option(
    "now", .text("TIME"),
    "Use TIME (ISO 8601 with offset) instead of the clock (also $ROUTINE_NOW).")
  /// `--tz ZONE`.
  public static let tz = Option(
    "tz", .zone(),
    "The user's IANA time zone when the store's settings name none (default: $TZ, then the system's)."
  )
  /// `--json`.
  public static let json = OptionSpec.flag("json", "Print JSON instead of text.")
  /// `--help`.
  public static let help = OptionSpec.flag("help", "Show help for the command.")
  /// `--version`.
  public static let version = OptionSpec.flag("version", "Print routine's version.")

  /// The declarations, in the order help lists them.
  public static let all: [OptionSpec] = [store.spec, now.spec, tz.spec, json, help, version]

  /// The global option called `name`.
  static func named(_ name: String) -> OptionSpec? { all.first { $0.name == name } }
}

/// The arguments of one invocation, checked against a command's declaration.
public struct ParsedArguments: Sendable, Equatable {
  /// The command's full name (`events delete`), or `nil` when none was given.
  public var command: String?
  /// Option values by name; a flag has one empty value.
  public var options: [String: [String]] = [:]
  /// Positional arguments, in order.
  public var arguments: [String] = []

  /// The value of a single-valued option.
  public func value(_ name: String) -> String? { options[name]?.last }
  /// All values of a repeatable option.
  public func values(_ name: String) -> [String] { options[name] ?? [] }
  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool { options[name] != nil }
}

/// A command line that does not fit the declarations, or an environment that names something
/// unusable (`TZ`).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public let message: String
  /// The command it concerns, if known (its usage line is printed with the error).
  public let command: String?
  /// The exit status: 64, but 65 when what the name names is damaged data (a zone file).
  public let exitCode: ExitCode

  /// A usage error.
  public init(_ message: String, command: String? = nil, exitCode: ExitCode = .usage) {
    self.message = message
    self.command = command
    self.exitCode = exitCode
  }

  /// A textual representation.
  public var description: String { message }
}

/// Parses command lines against command declarations.
public struct ArgumentParser: Sendable {
  /// How many of `words` (those after a time option's value) go on the time phrase: words
  /// that continue a time (`7:30`, `pm`, `hours`, `ago`), and a number followed by one
  /// (`in 2 hours`), so that the quoted form a refusal suggests is the whole phrase.
  static func timeWords(in words: ArraySlice<String>) -> Int {
    var count = 0
    var index = words.startIndex
    while index < words.endIndex {
      let word = words[index]
      let next = words.index(after: index)
      if continuesTime(word) {
        count += 1
      } else if Int(word) != nil, next < words.endIndex, continuesTime(words[next]) {
        count += 1
      } else {
        break
      }
      index = next
    }
    return count
  }

  /// Whether `word` goes on a time phrase rather than starting anything else: `12:00`, `9am`,
  /// `pm`, `noon`, `hours`, `ago`.
  static func continuesTime(_ word: String) -> Bool {
    let lower = word.lowercased()
    let words: Set<String> = [
      "am", "pm", "a.m.", "p.m.", "noon", "midnight", "ago", "h", "hour", "hours", "m", "min",
      "mins", "minute", "minutes", "d", "day", "days", "w", "week", "weeks",
    ]
    if words.contains(lower) { return true }
    // A clock time: 7, 7:30, 07:30:15, each with am or pm or not; a bare number only with it.
    var rest = Substring(lower)
    for suffix in ["a.m.", "p.m.", "am", "pm"] where rest.hasSuffix(suffix) {
      rest = rest.dropLast(suffix.count)
      let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
      return !rest.isEmpty && parts.count <= 3
        && parts.allSatisfy {
          !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
        }
    }
    let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
    return parts.count >= 2 && parts.count <= 3
      && parts.allSatisfy {
        !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
      }
  }

  /// The top-level commands.
  public let commands: [CommandSpec]

  /// A parser for `commands`.
  public init(commands: [CommandSpec]) {
    self.commands = commands
  }

  /// The declaration of the command with the full name `name` (`events delete`) or an alias.
  public func command(named name: String) -> CommandSpec? {
    let words = name.split(separator: " ").map(String.init)
    guard let first = words.first,
      var spec = commands.first(where: { $0.name == first || $0.aliases.contains(first) })
    else { return nil }
    for word in words.dropFirst() {
      guard let sub = spec.subcommands.first(where: { $0.word == word }) else { return nil }
      spec = sub
    }
    return spec
  }

  /// Parses `arguments` (without the program name). Global options may come anywhere; `--` ends
  /// options; `-h` means `--help`; `-` alone is an argument (standard input).
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var spec: CommandSpec?
    var index = 0
    var optionsEnded = false

    func declaration(_ name: String) -> OptionSpec? {
      GlobalOption.named(name) ?? spec?.options.first { $0.name == name }
    }

    while index < arguments.count {
      let token = arguments[index]
      index += 1
      if !optionsEnded, token == "--" {
        optionsEnded = true
        continue
      }
      if !optionsEnded, token == "-h" {
        result.options["help"] = [""]
        continue
      }
      // What other tools answer with their version (`-V` for most, `-v` for some).
      if !optionsEnded, token == "-V" || token == "-v" {
        result.options["version"] = [""]
        continue
      }
      if !optionsEnded, token.hasPrefix("--"), token.count > 2 {
        var name = String(token.dropFirst(2))
        var inlineValue: String?
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let option = declaration(name) else {
          let known = (spec?.options ?? []).map(\.name) + GlobalOption.all.map(\.name)
          var hint = spec.map { "; see 'routine help \($0.name)'" } ?? "; see 'routine help'"
          if let near = Suggestion.nearest(to: name, among: known) {
            hint = "; did you mean '--\(near)'?"
          } else if let (option, example) = ArgumentParser.wordsForOptions[name.lowercased()],
            known.contains(option)
          {
            hint = "; did you mean \(example)?"
          }
          throw UsageError("unknown option '--\(name)'\(hint)", command: spec?.name)
        }
        guard let valueName = option.valueName else {
          guard inlineValue == nil else {
            throw UsageError("option '--\(name)' takes no value", command: spec?.name)
          }
          result.options[name] = [""]
          continue
        }
        let value: String
        if let inlineValue {
          value = inlineValue
        } else {
          guard index < arguments.count else {
            throw UsageError("option '--\(name)' needs a value (\(valueName))", command: spec?.name)
          }
          value = arguments[index]
          // `--note --json` is a forgotten value, not a note: a value that looks like an option
          // must be attached with '='. Negative numbers, '-' (standard input) and a dash before a
          // digit (`--at -90m`: no option starts with a digit) are values.
          if value.hasPrefix("-"), value != "-", Double(value) == nil,
            value.dropFirst().first.map({ $0.isASCII && $0.isNumber }) != true
          {
            throw UsageError(
              "option '--\(name)' needs a value (\(valueName)), found the option '\(value)'; "
                + "write --\(name)=VALUE for a value that starts with '-'",
              command: spec?.name)
          }
          index += 1
          // `--at fri 12:00` without quotes gives --at 'fri' and leaves '12:00' to be read as
          // part of the event's name: refuse it rather than log "Tea 12:00" at midnight.
          let rest = option.isTimePhrase ? ArgumentParser.timeWords(in: arguments[index...]) : 0
          if rest > 0 {
            let phrase = ([value] + arguments[index..<(index + rest)]).joined(separator: " ")
            throw UsageError(
              "--\(name): '\(value)' is followed by '\(arguments[index])': a time of several "
                + "words is one value, in quotes: --\(name) '\(phrase)'",
              command: spec?.name)
          }
        }
        if let check = option.check, !check.accepts(value) {
          // A mistyped choice (`--sink stdot`) gets the nearest one, as a command name does.
          // Numbers are not typos of each other: `--lookback 5` gets the list alone.
          let hint =
            option.choices.contains { $0.contains(where: \.isLetter) }
            ? Suggestion.clause(for: value, among: option.choices) : ""
          throw UsageError(
            "--\(name): expected \(check.expected), found '\(value)'\(hint)", command: spec?.name)
        }
        // A global option given again overrides: `alias routine='routine --tz Europe/Berlin'`
        // then `routine agenda --tz UTC` asks for UTC.
        if GlobalOption.all.contains(where: { $0.name == name }) {
          result.options[name] = [value]
          continue
        }
        if result.options[name] != nil, !option.isRepeatable {
          throw UsageError("option '--\(name)' given more than once", command: spec?.name)
        }
        result.options[name, default: []].append(value)
        continue
      }
      if !optionsEnded, token.hasPrefix("-"), token.count > 1, Double(token) == nil {
        let hint =
          token.count > 2
          ? "; options start with two dashes: '-\(token)'"
          : "; see 'routine help\(spec.map { " \($0.name)" } ?? "")'"
        throw UsageError("unknown option '\(token)'\(hint)", command: spec?.name)
      }
      if spec == nil {
        guard let found = command(named: token) else {
          let names = commands.flatMap { [$0.name] + $0.aliases }
          let hint = Suggestion.clause(for: token, among: names)
          throw UsageError(
            "unknown command '\(token)'\(hint.isEmpty ? "; see 'routine help'" : hint)")
        }
        spec = found
        result.command = found.name
        continue
      }
      // A subcommand comes first after its command: `events delete --from ...`.
      if let current = spec, result.arguments.isEmpty, !current.subcommands.isEmpty {
        if let sub = current.subcommands.first(where: { $0.word == token }) {
          spec = sub
          result.command = sub.name
          continue
        }
        if current.arguments.isEmpty {
          let words = current.subcommands.map { String($0.word) }
          let hint = Suggestion.clause(for: token, among: words, prefix: "\(current.name) ")
          throw UsageError(
            "unknown subcommand '\(current.name) \(token)'"
              + (hint.isEmpty ? "; see 'routine help \(current.name)'" : hint),
            command: current.name)
        }
      }
      result.arguments.append(token)
    }

    if let spec, !result.flag("help"), !result.flag("version") {
      // A command whose output is not data, or is data in a format of its own, says so rather
      // than print text to a script that asked for JSON.
      if result.options["json"] != nil, !spec.globals.contains(where: { $0.name == "json" }) {
        throw UsageError(
          "--json does not apply to '\(spec.name)'"
            + (spec.jsonNote.map { ": \($0)" } ?? ": it prints no JSON"),
          command: spec.name)
      }
      // Options given before a subcommand were checked against its parent's.
      for name in result.options.keys
      where GlobalOption.named(name) == nil && !spec.options.contains(where: { $0.name == name }) {
        throw UsageError("option '--\(name)' does not apply to '\(spec.name)'", command: spec.name)
      }
      if !spec.oneOf.isEmpty {
        let given = spec.oneOf.filter { result.options[$0] != nil }
        guard given.count == 1 else {
          let list = spec.oneOf.map { "--\($0)" }
          let choices = listed(list)
          throw UsageError(
            given.isEmpty
              ? "choose one of \(choices)"
              : "choose only one of \(choices), not \(given.map { "--\($0)" }.joined(separator: " and "))",
            command: spec.name)
        }
      }
      let required = spec.arguments.filter(\.isRequired)
      if result.arguments.count < required.count {
        throw UsageError("missing \(required[result.arguments.count].name)", command: spec.name)
      }
      let repeats = spec.arguments.last?.isRepeatable ?? false
      if !repeats, result.arguments.count > spec.arguments.count {
        let extra = result.arguments[spec.arguments.count]
        throw UsageError("unexpected argument '\(extra)'", command: spec.name)
      }
    }
    return result
  }
}

extension ArgumentParser {
  /// Options people try that say in a word what another option does: `--weekly tue` is
  /// `--days tue`. Suggested when the command has the option.
  static let wordsForOptions: [String: (option: String, example: String)] = [
    "weekly": ("days", "'--days tue' (a weekly reminder on those days)"),
    "monthly": ("day", "'--day N' (a monthly reminder on that day of the month)"),
    "daily": ("days", "'--days daily'"),
    "once": ("at", "'--at \"2026-05-01 09:00\"' (a one-time reminder)"),
    "time": ("at", "'--at HH:MM'"),
  ]
}
