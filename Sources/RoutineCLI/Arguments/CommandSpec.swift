/// A command-line option: `--name` alone (a flag) or `--name VALUE` / `--name=VALUE`.
public struct OptionSpec: Sendable, Hashable {
  /// The long name without dashes.
  public let name: String
  /// The value's placeholder in help (`PATH`), or `nil` for a flag.
  public let valueName: String?
  /// One line of help.
  public let help: String
  /// Whether the option may be given more than once (`--log a.csv --log b.csv`).
  public let isRepeatable: Bool

  /// An option taking a value.
  public static func value(
    _ name: String, _ valueName: String, _ help: String, repeatable: Bool = false
  )
    -> OptionSpec
  {
    OptionSpec(name: name, valueName: valueName, help: help, isRepeatable: repeatable)
  }

  /// A flag.
  public static func flag(_ name: String, _ help: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, help: help, isRepeatable: false)
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

  /// A positional argument.
  public init(_ name: String, _ help: String, required: Bool = true, repeatable: Bool = false) {
    self.name = name
    self.help = help
    self.isRequired = required
    self.isRepeatable = repeatable
  }
}

/// A command's declaration: what it is called, what it takes, and its help. Parsing, usage lines
/// and `--help` all come from it.
public struct CommandSpec: Sendable {
  /// The command's name (`log`).
  public let name: String
  /// One line for the command list.
  public let summary: String
  /// Longer help, shown by `routine help COMMAND`.
  public let discussion: String
  /// Positional arguments, in order (only the last may repeat).
  public let arguments: [ArgumentSpec]
  /// The command's own options (the global ones are added by the parser).
  public let options: [OptionSpec]
  /// Which global options the command uses.
  public let globals: Set<String>

  /// A command declaration.
  public init(
    name: String, summary: String, discussion: String = "", arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], globals: Set<String> = ["store", "now", "tz", "json"]
  ) {
    self.name = name
    self.summary = summary
    self.discussion = discussion
    self.arguments = arguments
    self.options = options
    self.globals = globals
  }

  /// `routine log EVENT [--at TIME|HH:MM] ...`
  public var usage: String {
    var parts = ["routine", name]
    for argument in arguments {
      let text = argument.isRepeatable ? "\(argument.name)..." : argument.name
      parts.append(argument.isRequired ? text : "[\(text)]")
    }
    for option in options {
      parts.append(option.isRepeatable ? "[\(option.synopsis)]..." : "[\(option.synopsis)]")
    }
    return parts.joined(separator: " ")
  }
}
