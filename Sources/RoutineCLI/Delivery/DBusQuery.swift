import Foundation

/// One question to a D-Bus service (a method call or a property), asked with `dbus-send` or
/// `gdbus`, whichever is installed, and its reply read back into plain values.
///
/// A child process instead of libdbus: nothing to link, and a fresh machine builds without
/// D-Bus headers; the price is a few milliseconds per question (docs/delivery.md).
enum DBusQuery {
  /// Which bus to ask.
  enum Bus {
    /// The person's session bus (``DesktopSession/bus(_:)``, which also finds it from cron).
    case session
    /// The system bus (logind); `DBUS_SYSTEM_BUS_ADDRESS` in the environment overrides where
    /// it is, as both tools read it.
    case system
  }

  /// A basic value of a reply. Containers (structs, arrays, dictionaries, variants) are
  /// flattened into their basic values in order: a dictionary becomes key, value, key, ...
  enum Value: Equatable {
    case string(String)
    case bool(Bool)
    case integer(Int64)
    case double(Double)

    var bool: Bool? {
      if case .bool(let value) = self { return value }
      return nil
    }

    var integer: Int64? {
      if case .integer(let value) = self { return value }
      return nil
    }

    var string: String? {
      if case .string(let value) = self { return value }
      return nil
    }
  }

  /// Why a question got no reply.
  enum Failure: Error, Equatable {
    /// Neither `dbus-send` nor `gdbus` is installed.
    case cannotAsk
    /// No session bus could be found (nothing set, no socket).
    case noBus
    /// The bus could not be reached (its socket is dead, or the tool said so).
    case unreachable(String)
    /// The bus or the service answered with a D-Bus error: its name
    /// (`org.freedesktop.DBus.Error.ServiceUnknown`) and message.
    case error(name: String, message: String)
    /// The tool did not finish in time, could not start, or printed something unreadable.
    case noAnswer(String)

    /// Whether the failure means "nobody here offers this" (no bus, no such service, object,
    /// interface, method or property), as opposed to a service that is there and failed.
    var isAbsence: Bool {
      switch self {
      case .cannotAsk, .noBus, .unreachable: return true
      case .noAnswer: return false
      case .error(let name, _):
        let member = name.split(separator: ".").last.map(String.init) ?? name
        return [
          "ServiceUnknown", "NameHasNoOwner", "UnknownObject", "UnknownInterface", "UnknownMethod",
          "UnknownProperty", "InvalidArgs", "NotSupported", "NoSuchSession", "NoSessionForPID",
          "NoSessionForPIDOrUser", "FileNotFound", "AccessDenied",
        ].contains(member) || name.hasPrefix("org.freedesktop.DBus.Error.Spawn")
      }
    }

    /// Whether the service is not on the bus at all.
    var isMissingService: Bool {
      guard case .error(let name, _) = self else { return false }
      return name.hasSuffix(".ServiceUnknown") || name.hasSuffix(".NameHasNoOwner")
    }

    /// The failure as a phrase ("the tool did not finish within 1 seconds").
    var description: String {
      switch self {
      case .cannotAsk: "neither gdbus nor dbus-send is installed"
      case .noBus: "no D-Bus session bus was found"
      case .unreachable(let reason): "the bus cannot be reached (\(reason))"
      case .error(let name, let message): "\(name): \(message)"
      case .noAnswer(let reason): reason
      }
    }
  }

  /// Calls `method` (`interface.Member`) with string `arguments` on `destination` at `path`,
  /// waiting at most `limit` seconds for the tool (the D-Bus reply timeout is the same,
  /// rounded up to a whole second for `gdbus`).
  static func call(
    _ bus: Bus, destination: String, path: String, method: String, arguments: [String] = [],
    environment: [String: String], limit: TimeInterval
  ) -> Result<[Value], Failure> {
    var environment = environment
    if bus == .session {
      guard let address = DesktopSession.bus(environment) else { return .failure(.noBus) }
      environment["DBUS_SESSION_BUS_ADDRESS"] = address
    }
    let searchPath = environment["PATH"]
    let program: String
    let commandLine: [String]
    let isGDBus: Bool
    // dbus-send first: it asks in one round trip, where gdbus introspects the object first,
    // and it starts faster (no GLib type system).
    if let dbusSend = ChildProcess.find("dbus-send", path: searchPath) {
      program = dbusSend
      isGDBus = false
      commandLine =
        [
          bus == .session ? "--session" : "--system", "--print-reply",
          "--reply-timeout=\(max(1, Int(limit * 1000)))", "--dest=\(destination)", path, method,
        ] + arguments.map { "string:\($0)" }
    } else if let gdbus = ChildProcess.find("gdbus", path: searchPath) {
      program = gdbus
      isGDBus = true
      commandLine =
        [
          "call", bus == .session ? "--session" : "--system", "--timeout",
          "\(max(1, Int(limit.rounded(.up))))", "--dest", destination, "--object-path", path,
          "--method", method,
        ] + arguments.map { gvariantText($0) }
    } else {
      return .failure(.cannotAsk)
    }
    let finished: ChildProcess.Finished
    do {
      finished = try ChildProcess.run(
        program, commandLine, environment: environment, input: Data(), timeout: limit)
    } catch {
      return .failure(.noAnswer("\(error)"))
    }
    guard finished.status == 0 else { return .failure(failure(finished.errors)) }
    let values = isGDBus ? parseGDBus(finished.output) : parseDBusSend(finished.output)
    guard let values else {
      let excerpt = finished.output.prefix(80).trimmingCharacters(in: .whitespacesAndNewlines)
        .replacingOccurrences(of: "\n", with: " ")
      return .failure(.noAnswer("\((program as NSString).lastPathComponent) printed '\(excerpt)'"))
    }
    return .success(values)
  }

  /// The property `name` of `interface` (`org.freedesktop.DBus.Properties.Get`).
  static func property(
    _ bus: Bus, destination: String, path: String, interface: String, name: String,
    environment: [String: String], limit: TimeInterval
  ) -> Result<Value, Failure> {
    call(
      bus, destination: destination, path: path, method: "org.freedesktop.DBus.Properties.Get",
      arguments: [interface, name], environment: environment, limit: limit
    ).flatMap { values in
      values.first.map { .success($0) } ?? .failure(.noAnswer("the reply carried no value"))
    }
  }

  /// The value after the string `key` in flattened `values` (a dictionary's entry).
  static func value(after key: String, in values: [Value]) -> Value? {
    guard let index = values.firstIndex(of: .string(key)), index + 1 < values.count else {
      return nil
    }
    return values[index + 1]
  }

  /// A string argument in GVariant text, as `gdbus call` parses its arguments.
  private static func gvariantText(_ string: String) -> String {
    "'"
      + string.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "'", with: "\\'") + "'"
  }

  /// The failure a tool's standard error describes. `gdbus`:
  /// `Error: GDBus.Error:org.freedesktop.DBus.Error.ServiceUnknown: The name ...`, or
  /// `Error connecting: ...`; `dbus-send`: `Error org.freedesktop.DBus.Error.ServiceUnknown: ...`
  /// or `Failed to open connection to "system" message bus: ...`.
  static func failure(_ errors: String) -> Failure {
    let text = errors.trimmingCharacters(in: .whitespacesAndNewlines)
    let firstLine = text.split(separator: "\n").first.map(String.init) ?? text
    if firstLine.hasPrefix("Error connecting") || firstLine.hasPrefix("Failed to open connection")
      || firstLine.contains("Could not connect")
    {
      return .unreachable(firstLine)
    }
    var rest = Substring(firstLine)
    for prefix in ["Error: GDBus.Error:", "Error: ", "Error "] where rest.hasPrefix(prefix) {
      rest = rest.dropFirst(prefix.count)
      break
    }
    if let colon = rest.firstIndex(of: ":") {
      let name = rest[..<colon]
      if name.contains("."), !name.contains(" ") {
        return .error(
          name: String(name),
          message: rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces))
      }
    }
    return .noAnswer(firstLine.isEmpty ? "the tool failed without a message" : firstLine)
  }

  /// The values of a `gdbus call` reply, GVariant text: `('dunst', 'knopwob', '1.9.0', '1.2')`,
  /// `(<true>,)`, `({'Id': <'3'>, 'IdleSinceHint': <uint64 1700000000000000>},)`; `nil` when it is
  /// not one (a reply is always a tuple).
  static func parseGDBus(_ text: String) -> [Value]? {
    let characters = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
    guard characters.first == "(", characters.last == ")" else { return nil }
    let typeWords: Set<String> = [
      "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64", "handle", "double",
      "objectpath", "signature", "string", "boolean", "just", "nothing",
    ]
    var values: [Value] = []
    var index = 0
    while index < characters.count {
      let character = characters[index]
      if character == "'" || character == "\"" {
        var string = String.UnicodeScalarView()
        index += 1
        while index < characters.count, characters[index] != character {
          if characters[index] == "\\", index + 1 < characters.count {
            index += 1
            switch characters[index] {
            case "n": string.append("\n")
            case "t": string.append("\t")
            default: string.append(characters[index])
            }
          } else {
            string.append(characters[index])
          }
          index += 1
        }
        guard index < characters.count else { return nil }
        values.append(.string(String(string)))
        index += 1
      } else if "()[]{}<>,: \t\n".unicodeScalars.contains(character) {
        index += 1
      } else {
        var word = String.UnicodeScalarView()
        while index < characters.count,
          !"()[]{}<>,: \t\n'\"".unicodeScalars.contains(characters[index])
        {
          word.append(characters[index])
          index += 1
        }
        let text = String(word)
        if text == "true" || text == "false" {
          values.append(.bool(text == "true"))
        } else if typeWords.contains(text) || text.hasPrefix("@") {
          continue
        } else if let number = integer(text) {
          values.append(.integer(number))
        } else if let number = Double(text) {
          values.append(.double(number))
        } else {
          return nil
        }
      }
    }
    return values
  }

  /// The values of a `dbus-send --print-reply` reply: a `method return ...` line, then one
  /// value a line (`string "dunst"`, `variant       boolean true`, `uint64 17...`), containers
  /// as `array [`, `dict entry(`, `struct {` and their closing lines; `nil` when it is not one.
  static func parseDBusSend(_ text: String) -> [Value]? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard let header = lines.first, header.hasPrefix("method return") else { return nil }
    lines.removeFirst()
    let numberWords: Set<Substring> = [
      "byte", "int16", "uint16", "int32", "uint32", "int64", "uint64", "double", "unix_fd",
    ]
    var values: [Value] = []
    for line in lines {
      var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
      while let word = words.popFirst() {
        switch word {
        case "string", "signature", "path":
          guard let open = line.firstIndex(of: "\""), let close = line.lastIndex(of: "\""),
            open < close
          else { return nil }
          values.append(.string(String(line[line.index(after: open)..<close])))
          words = []
        case "boolean":
          guard let value = words.popFirst(), value == "true" || value == "false" else {
            return nil
          }
          values.append(.bool(value == "true"))
        case _ where numberWords.contains(word):
          guard let value = words.popFirst() else { return nil }
          if let number = integer(String(value)) {
            values.append(.integer(number))
          } else if let number = Double(value) {
            values.append(.double(number))
          } else {
            return nil
          }
        default:
          continue
        }
      }
    }
    return values
  }

  /// A decimal or `0x` integer (GVariant prints bytes in hex); unsigned 64-bit values beyond
  /// `Int64.max` do not occur in what routine asks.
  private static func integer(_ text: String) -> Int64? {
    if text.hasPrefix("0x") { return Int64(text.dropFirst(2), radix: 16) }
    return Int64(text)
  }
}
