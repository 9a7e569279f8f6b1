/// Options every command understands, wherever they appear on the line.
public enum GlobalOption {
  /// The declarations.
  public static let all: [OptionSpec] = [
    .value(
      "store", "PATH",
      "The SQLite store (default: $ROUTINE_STORE, $XDG_DATA_HOME/routine/routine.db, ~/.local/share/routine/routine.db)."
    ),
    .value(
      "now", "TIME", "Use TIME (ISO 8601 with offset) instead of the clock (also $ROUTINE_NOW)."),
    .value("tz", "ZONE", "The user's IANA time zone (default: $TZ, then the system's)."),
    .flag("json", "Print JSON instead of text."),
    .flag("help", "Show help for the command."),
  ]
}

/// The arguments of one invocation, checked against a command's declaration.
public struct ParsedArguments: Sendable, Equatable {
  /// The command name, or `nil` when none was given.
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

/// A command line that does not fit the declarations.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public let message: String
  /// The command it concerns, if known (its usage line is printed with the error).
  public let command: String?

  /// A usage error.
  public init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// A textual representation.
  public var description: String { message }
}

/// Parses command lines against command declarations.
public struct ArgumentParser: Sendable {
  /// The commands known.
  public let commands: [CommandSpec]

  /// A parser for `commands`.
  public init(commands: [CommandSpec]) {
    self.commands = commands
  }

  /// The declaration of `name`.
  public func command(named name: String) -> CommandSpec? {
    commands.first { $0.name == name }
  }

  /// Parses `arguments` (without the program name). Global options may come before or after the
  /// command; `--` ends options; `-h` means `--help`.
  public func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var result = ParsedArguments()
    var spec: CommandSpec?
    var index = 0
    var optionsEnded = false

    func declaration(_ name: String) -> OptionSpec? {
      if let global = GlobalOption.all.first(where: { $0.name == name }) { return global }
      return spec?.options.first { $0.name == name }
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
      if !optionsEnded, token.hasPrefix("--"), token.count > 2 {
        var name = String(token.dropFirst(2))
        var inlineValue: String?
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let option = declaration(name) else {
          let suggestion = spec == nil ? "" : "; see 'routine help \(spec!.name)'"
          throw UsageError("unknown option '--\(name)'\(suggestion)", command: spec?.name)
        }
        if option.valueName == nil {
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
            throw UsageError(
              "option '--\(name)' needs a value (\(option.valueName!))", command: spec?.name)
          }
          value = arguments[index]
          index += 1
        }
        if result.options[name] != nil, !option.isRepeatable {
          throw UsageError("option '--\(name)' given more than once", command: spec?.name)
        }
        result.options[name, default: []].append(value)
        continue
      }
      if !optionsEnded, token.hasPrefix("-"), token.count > 1, Double(token) == nil {
        throw UsageError("unknown option '\(token)'", command: spec?.name)
      }
      if spec == nil, result.command == nil {
        guard let found = command(named: token) else {
          throw UsageError("unknown command '\(token)'; see 'routine help'")
        }
        spec = found
        result.command = token
        continue
      }
      result.arguments.append(token)
    }

    if let spec, !result.flag("help") {
      // Options given before the command were checked only against the globals.
      for name in result.options.keys
      where !spec.globals.contains(name) && !spec.options.contains(where: { $0.name == name })
        && name != "help"
      {
        throw UsageError("option '--\(name)' does not apply to '\(spec.name)'", command: spec.name)
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
