import RoutineCore

/// How the text typed for an option or argument becomes a value: its placeholder in help, what
/// the error says is expected, the values it takes when they are few, and the reading itself.
/// One declaration feeds parsing, validation, the error message, help, shell completion and the
/// manual page.
public struct ValueType<Value: Sendable>: Sendable {
  /// The placeholder in help and usage (`HOURS`); for a closed set, its values (`csv|jsonl`).
  public var placeholder: String
  /// What an error says was expected: "1, 3, 6, 12, 24 or 48 hours".
  public var expected: String
  /// Every value it takes, when they can be listed (shell completion offers them; help names
  /// those its placeholder does not show); empty for an open set.
  public var choices: [String]
  /// Where a shell completes it from, outside the declarations (a zone, a file, a reminder).
  public var completes: CompletionSource?
  /// Whether the value is a time in the grammar of `routine help dates`, whose phrases have
  /// several words (`fri 12:00`): the parser refuses them unquoted.
  public var isTimePhrase = false
  /// Whether the text alone decides the value, so the parser can refuse a bad one at once. A
  /// type whose reading needs the store, the clock or the zone database is read by the command.
  public var isContextFree: Bool
  /// The value `text` stands for, or `nil` when it is not one.
  public let read: @Sendable (String) -> Value?

  /// A value type; `read` returns `nil` for text that is not a value.
  public init(
    placeholder: String, expected: String, choices: [String] = [],
    completes: CompletionSource? = nil, isContextFree: Bool = true,
    read: @escaping @Sendable (String) -> Value?
  ) {
    self.placeholder = placeholder
    self.expected = expected
    self.choices = choices
    self.completes = completes
    self.isContextFree = isContextFree
    self.read = read
  }
}

extension ValueType where Value == String {
  /// Any text (`TEXT`, `NAME`); `completes` says what it names for a shell.
  public static func text(_ placeholder: String, completes: CompletionSource? = nil) -> Self {
    ValueType(placeholder: placeholder, expected: "some text", completes: completes) { $0 }
  }

  /// A file's path, or `-` where the command says standard input or output.
  public static func path(_ placeholder: String = "FILE") -> Self {
    ValueType(placeholder: placeholder, expected: "a path", completes: .file) { $0 }
  }

  /// A time in the grammar of `routine help dates`, read by the command: what it means depends
  /// on the clock, the zone and which way the option looks.
  public static func time(_ placeholder: String = "TIME") -> Self {
    var type = ValueType(
      placeholder: placeholder, expected: "a time (see 'routine help dates')",
      isContextFree: false
    ) { $0 }
    type.isTimePhrase = true
    return type
  }

  /// An IANA zone name, checked by the command against the zone database; `alsoNone` adds the
  /// word `none`.
  public static func zone(alsoNone: Bool = false) -> Self {
    ValueType(
      placeholder: alsoNone ? "ZONE|none" : "ZONE",
      expected: alsoNone ? "an IANA zone name or none" : "an IANA zone name",
      choices: alsoNone ? ["none"] : [], completes: .zone, isContextFree: false
    ) { $0 }
  }
}

extension ValueType where Value == LocalDate {
  /// A date `YYYY-MM-DD` (four-digit year), as every date option takes it.
  static func calendarDate(_ placeholder: String = "DATE") -> Self {
    ValueType(placeholder: placeholder, expected: "a date YYYY-MM-DD") { TimeArgument.date($0) }
  }
}

extension ValueType where Value: CaseIterable & RawRepresentable, Value.RawValue == String {
  /// One of the cases, by raw value, in any case (`CSV` is `csv`). Its placeholder lists them
  /// (`csv|jsonl`) unless one is given (`FORMAT`), and then help adds them after the text.
  public static func oneOf(_ cases: [Value] = Array(Value.allCases), placeholder: String? = nil)
    -> Self
  {
    let names = cases.map(\.rawValue)
    return ValueType(
      placeholder: placeholder ?? names.joined(separator: "|"), expected: listed(names),
      choices: names
    ) { text in
      let lower = text.lowercased()
      return cases.first { $0.rawValue == lower }
    }
  }
}

extension ValueType where Value == Int {
  /// A whole number in `range`.
  public static func integer(_ placeholder: String = "N", in range: ClosedRange<Int>) -> Self {
    ValueType(
      placeholder: placeholder,
      expected: "a whole number from \(range.lowerBound) to \(range.upperBound)"
    ) { text in
      Int(text).flatMap { range.contains($0) ? $0 : nil }
    }
  }

  /// One of `values`, named with `unit` in errors ("1, 3 or 6 hours").
  public static func integer(_ placeholder: String, oneOf values: [Int], unit: String) -> Self {
    let names = values.map(String.init)
    return ValueType(
      placeholder: placeholder, expected: "\(listed(names)) \(unit)", choices: names
    ) { text in
      Int(text).flatMap { values.contains($0) ? $0 : nil }
    }
  }
}

extension ValueType where Value == UInt64 {
  /// Any whole number from 0 to 2^64-1 (a seed).
  public static func unsigned(_ placeholder: String = "N") -> Self {
    ValueType(placeholder: placeholder, expected: "a whole number from 0 to \(UInt64.max)") {
      UInt64($0)
    }
  }
}

extension ValueType where Value == Double {
  /// A number in `range` (`0.6`).
  public static func number(_ placeholder: String = "X", in range: ClosedRange<Double>) -> Self {
    ValueType(
      placeholder: placeholder,
      expected: "a number from \(shortest(range.lowerBound)) to \(shortest(range.upperBound))"
    ) { text in
      Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
    }
  }

  private static func shortest(_ number: Double) -> String {
    number == number.rounded() ? String(Int(number)) : String(number)
  }
}

extension ValueType where Value == Bool {
  /// `true` or `false` (also `yes`/`no`, `on`/`off`, `1`/`0`, in any case).
  public static var boolean: Self {
    ValueType(placeholder: "true|false", expected: "true or false", choices: ["true", "false"]) {
      switch $0.lowercased() {
      case "true", "yes", "on", "1": true
      case "false", "no", "off", "0": false
      default: nil
      }
    }
  }
}

/// "a, b or c".
func listed(_ words: [String]) -> String {
  guard words.count > 1 else { return words.first ?? "" }
  return words.dropLast().joined(separator: ", ") + " or " + words.last!
}

/// A declared option whose value is read as `Value`: the declaration (``spec``) goes into the
/// command's options, and the command reads the value back through the same constant, so no
/// option is ever named twice.
public struct Option<Value: Sendable>: Sendable {
  /// The declaration parsing, help, completion and the manual page read.
  public let spec: OptionSpec
  /// How its text is read.
  public let type: ValueType<Value>

  /// An option `--name VALUE` of `type`.
  public init(
    _ name: String, _ type: ValueType<Value>, _ help: String, repeatable: Bool = false
  ) {
    self.type = type
    self.spec = OptionSpec(
      name: name, valueName: type.placeholder, help: help, isRepeatable: repeatable,
      completes: type.completes, choices: type.choices, isTimePhrase: type.isTimePhrase,
      check: type.isContextFree
        ? ValueCheck(expected: type.expected) { type.read($0) != nil } : nil)
  }

  /// The long name without dashes.
  public var name: String { spec.name }

  /// The same option with other help (a command that uses a shared option in its own way).
  public func describing(_ help: String) -> Self {
    Option(spec.name, type, help, repeatable: spec.isRepeatable)
  }

  /// The error for `text`, which is not a value of this option.
  func invalid(_ text: String, command: String?) -> UsageError {
    UsageError("--\(name): expected \(type.expected), found '\(text)'", command: command)
  }
}

/// How the parser checks a value the text alone decides: the error says `expected`.
public struct ValueCheck: Sendable {
  /// What the error says was expected.
  public let expected: String
  /// Whether `text` is a value.
  public let accepts: @Sendable (String) -> Bool
}

extension ParsedArguments {
  /// The value of `option`, or `nil` when it was not given; the error names the option, what it
  /// expects and what was found.
  public func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
    guard let text = value(option.name) else { return nil }
    guard let value = option.type.read(text) else {
      throw option.invalid(text, command: command)
    }
    return value
  }

  /// Every value of a repeatable `option`, in order.
  public func values<Value>(_ option: Option<Value>) throws(UsageError) -> [Value] {
    var result: [Value] = []
    for text in values(option.name) {
      guard let value = option.type.read(text) else {
        throw option.invalid(text, command: command)
      }
      result.append(value)
    }
    return result
  }

  /// The text typed for `option`, as given (for messages that quote it).
  public func text<Value>(_ option: Option<Value>) -> String? { value(option.name) }

  /// Whether `option` was given.
  public func isGiven<Value>(_ option: Option<Value>) -> Bool { options[option.name] != nil }

  /// Whether the flag `flag` was given.
  public func flag(_ flag: OptionSpec) -> Bool { options[flag.name] != nil }
}
