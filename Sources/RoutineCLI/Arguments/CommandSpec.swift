/// What a value or an argument names that a shell can complete from outside the declarations:
/// the store's reminders, kinds, habits or tasks, the zone database, or a file.
public enum CompletionSource: String, Sendable, Hashable, CaseIterable {
  /// A reminder's id (`reminder-3`).
  case reminder = "reminders"
  /// What `respond` answers: a notification's id (pending or delivered lately, learned ones
  /// too) or a reminder's id.
  case notification = "notifications"
  /// The actions of the notification named by the argument before (every action when it names
  /// none the store knows).
  case action = "actions"
  /// An event kind as stored ("Wake Up").
  case kind = "kinds"
  /// A habit's name.
  case habit = "habits"
  /// A task's name.
  case task = "tasks"
  /// An IANA zone name.
  case zone = "zones"
  /// A file (the shell's own file completion).
  case file = "files"
  /// A command's name or a help topic (`help`'s argument): the completion table lists them
  /// itself, from the declarations it is generated from.
  case command = "commands"
}

/// A command-line option: `--name` alone (a flag) or `--name VALUE` / `--name=VALUE`. Options
/// with a value are declared as an ``Option`` of a ``ValueType``, which builds this.
public struct OptionSpec: Sendable {
  /// The long name without dashes.
  public let name: String
  /// The value's placeholder in help (`PATH`), or `nil` for a flag.
  public let valueName: String?
  /// One line of help.
  public let help: String
  /// Whether the option may be given more than once (`--log a.csv --log b.csv`).
  public let isRepeatable: Bool
  /// What the value names outside the declarations, for shell completion (`--tz`: a zone).
  public var completes: CompletionSource?
  /// Every value the option takes, when they can be listed (`text`, `waybar`...); empty for an
  /// open set.
  public let choices: [String]
  /// Whether the value is a time phrase of `routine help dates`, refused unquoted when it runs
  /// on into the next word.
  public let isTimePhrase: Bool
  /// How the parser checks a value the text alone decides; `nil` when the command reads it.
  public let check: ValueCheck?

  init(
    name: String, valueName: String?, help: String, isRepeatable: Bool,
    completes: CompletionSource? = nil, choices: [String] = [], isTimePhrase: Bool = false,
    check: ValueCheck? = nil
  ) {
    self.name = name
    self.valueName = valueName
    self.help = help
    self.isRepeatable = isRepeatable
    self.completes = completes
    self.choices = choices
    self.isTimePhrase = isTimePhrase
    self.check = check
  }

  /// A flag.
  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false)
  }

  /// The same option with other help (a command that uses a global option in its own way).
  public func describing(_ help: String) -> OptionSpec {
    OptionSpec(
      name: name, valueName: valueName, help: help, isRepeatable: isRepeatable,
      completes: completes, choices: choices, isTimePhrase: isTimePhrase, check: check)
  }

  /// The help with the choices the placeholder does not show (`HOURS`: "Choices: 1, 3, 6."),
  /// as `--help` and the manual page print it.
  public var fullHelp: String {
    guard !choices.isEmpty, let valueName, !valueName.contains("|") else { return help }
    return help + " Choices: " + choices.joined(separator: ", ") + "."
  }

  /// `--name VALUE` or `--name`.
  var synopsis: String { valueName.map { "--\(name) \($0)" } ?? "--\(name)" }
}

/// A positional argument.
public struct ArgumentSpec: Sendable, Hashable {
  /// The placeholder (`EVENT`).
  public let name: String
  /// One line of help.
  public let help: String
  /// Whether at least one must be given.
  public let isRequired: Bool
  /// Whether several may be given (`FILE...`).
  public let isRepeatable: Bool
  /// What the argument names outside the declarations, for shell completion (a reminder's id).
  public let completes: CompletionSource?

  /// A positional argument; `completes` says what a shell completes it from.
  public init(
    _ name: String, _ help: String, required: Bool = true, repeatable: Bool = false,
    completes: CompletionSource? = nil
  ) {
    self.name = name
    self.help = help
    self.isRequired = required
    self.isRepeatable = repeatable
    self.completes = completes
  }

  /// The values the name lists (`bash|zsh|fish`), as for ``OptionSpec/choices``.
  public var choices: [String] { listedChoices(in: name) }
}

/// The lowercase words of a placeholder that lists its values with `|`; none without a `|`.
private func listedChoices(in placeholder: String) -> [String] {
  guard placeholder.contains("|") else { return [] }
  return placeholder.split(separator: "|").map(String.init).filter { word in
    word.first?.isLetter == true
      && word.allSatisfy { ($0.isLowercase && $0.isLetter) || $0.isNumber || $0 == "-" }
  }
}

/// A command's declaration: what it is called, what it takes, and its help. Parsing, usage lines
/// and `--help` all come from it.
public struct CommandSpec: Sendable {
  /// The command's full name: `log`, or `events delete` for a subcommand.
  public let name: String
  /// One line for the command list.
  public let summary: String
  /// Longer help, shown by `routine help COMMAND`.
  public let discussion: String
  /// Positional arguments, in order (only the last may repeat).
  public let arguments: [ArgumentSpec]
  /// The command's own options (the global ones are added by the parser).
  public let options: [OptionSpec]
  /// Options of which exactly one must be given (`clear --all|--learned|--delivered`); empty
  /// when there is no such choice.
  public let oneOf: [String]
  /// Which global options the command uses (all are accepted everywhere but `--json`, which a
  /// command without it refuses; these are the ones its help lists). A global given here with
  /// other help replaces the general help.
  public let globals: [OptionSpec]
  /// Other names the command answers to (`analyse`).
  public let aliases: [String]
  /// Commands under this one (`events delete`); the command itself still runs on its own.
  public let subcommands: [CommandSpec]
  /// Whether the command is routine's own plumbing (`await-answer`), left out of the overview.
  public let isHidden: Bool
  /// For a command without `--json`, what its output is instead ("it writes CSV or JSON Lines
  /// (--format jsonl)"), said when `--json` is given.
  public let jsonNote: String?

  /// A command declaration. `globals` names the global options the command uses; `globalHelp`
  /// rewords some of them for this command.
  public init(
    name: String, summary: String, discussion: String = "", arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], oneOf: [String] = [],
    globals: [String] = ["store", "now", "tz", "json"], globalHelp: [String: String] = [:],
    aliases: [String] = [], subcommands: [CommandSpec] = [], isHidden: Bool = false,
    jsonNote: String? = nil
  ) {
    self.name = name
    self.summary = summary
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.oneOf = oneOf
    self.globals = GlobalOption.all.compactMap { option in
      guard globals.contains(option.name) else { return nil }
      return globalHelp[option.name].map { option.describing($0) } ?? option
    }
    self.aliases = aliases
    self.subcommands = subcommands
    self.isHidden = isHidden
    self.jsonNote = jsonNote
  }

  /// The last word of the name: what is typed after the parent command (`delete`).
  public var word: Substring { name.split(separator: " ").last ?? Substring(name) }

  /// `routine log EVENT [--at TIME|HH:MM] ...`
  public var usage: String {
    var parts = ["routine", name]
    for argument in arguments {
      let text = argument.isRepeatable ? "\(argument.name)..." : argument.name
      parts.append(argument.isRequired ? text : "[\(text)]")
    }
    if !oneOf.isEmpty {
      parts.append(
        options.filter { oneOf.contains($0.name) }.map(\.synopsis).joined(separator: "|"))
    }
    for option in options where !oneOf.contains(option.name) {
      parts.append(option.isRepeatable ? "[\(option.synopsis)]..." : "[\(option.synopsis)]")
    }
    return parts.joined(separator: " ")
  }

  /// This command and every command under it, depth first.
  var allCommands: [CommandSpec] { [self] + subcommands.flatMap(\.allCommands) }
}
