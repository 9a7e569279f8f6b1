import Foundation

/// Which columns of another application's CSV hold an event's fields: `--columns
/// "timestamp=Date+Time,event=Activity,value=Amount,note=Comment"`.
///
/// Pairs `field=Header` are separated by commas; `timestamp` may join two columns with `+` (a
/// date column and a time column, read as the date, a space, the time). Headers are matched
/// ignoring case and surrounding spaces (inside double quotes too). A header holding a comma,
/// `=`, `+` or a double quote is written in double quotes, with `""` for a quote inside
/// (`note="Comment, private"`). Columns the mapping does not name are ignored.
///
/// Text in single quotes is a fixed text, not a column (as SQL tells a literal from a name):
/// `event='Run'` gives every event the kind Run, `note='from the watch'` that note. A session's
/// two columns `start=From,end=To` make two events from each row, their kinds after `:`
/// (`start=From:'Bed Time',end=To:'Wake Up'`, those two by default); `start` and `end` replace
/// `timestamp` and `event`, and may join a date and a time with `+` too.
public struct ColumnMapping: Sendable, Equatable {
  /// An event's fields a column can hold.
  public enum Field: String, Sendable, CaseIterable {
    case timestamp, start, end, event, value, note, source
  }

  /// The headers each field is read from: one, or for `timestamp`, `start` and `end` two (date,
  /// then time).
  public private(set) var headers: [Field: [String]] = [:]
  /// Fixed texts: the kind (`event`) or note every event gets, and the kinds of a session's
  /// `start` and `end` events.
  public private(set) var fixed: [Field: String] = [:]

  /// The kinds a session's two events get when the map does not name them: a night's.
  public static let defaultSessionKinds = (start: "Bed Time", end: "Wake Up")

  /// What is wrong with a `--columns` text.
  public struct Problem: Error, Sendable {
    /// What was expected and what was found.
    public var message: String
  }

  /// The mapping `text` spells; throws ``Problem`` for anything else.
  public init(parsing text: String) throws(Problem) {
    var items: [(field: String, headers: [String], fixed: String?, kind: String?)] = []
    var characters = Array(text)[...]
    while true {
      guard let equals = characters.firstIndex(of: "=") else {
        throw Problem(
          message: "expected field=Header pairs separated by commas, found '\(String(characters))'")
      }
      let field = String(characters[..<equals]).trimmingSpaces.lowercased()
      characters = characters[(equals + 1)...]
      var headers: [String] = []
      var fixed: String?
      var kind: String?
      ColumnMapping.skipSpaces(&characters)
      if characters.first == "'" {
        fixed = try ColumnMapping.literal(&characters)
      } else {
        while true {
          headers.append(try ColumnMapping.header(&characters))
          guard let next = characters.first, next == "+" else { break }
          characters.removeFirst()
        }
        if characters.first == ":" {
          characters.removeFirst()
          ColumnMapping.skipSpaces(&characters)
          kind = try ColumnMapping.literal(&characters)
        }
      }
      items.append((field, headers, fixed, kind))
      guard let separator = characters.first else { break }
      guard separator == "," else {
        throw Problem(
          message:
            "expected ',' after \(headers.last.map { "the header '\($0)'" } ?? "'\(fixed ?? "")'"), found '\(separator)'"
        )
      }
      characters.removeFirst()
    }
    for (name, headers, fixed, kind) in items {
      guard let field = Field(rawValue: name) else {
        throw Problem(
          message:
            "expected a field timestamp, event, value, note, source, start or end before '=', found '\(name)'"
        )
      }
      guard self.headers[field] == nil, self.fixed[field] == nil else {
        throw Problem(message: "the field \(name) is named twice")
      }
      if let fixed {
        guard field == .event || field == .note else {
          throw Problem(
            message:
              "only event and note take a fixed text in single quotes; \(name) names a column (\(name)=Header)"
          )
        }
        guard !fixed.trimmingSpaces.isEmpty else {
          throw Problem(message: "expected a text between the single quotes of \(name)")
        }
        self.fixed[field] = fixed
        continue
      }
      let joins = [Field.timestamp, .start, .end].contains(field)
      guard headers.count == 1 || (joins && headers.count == 2) else {
        throw Problem(
          message:
            "only timestamp, start and end join columns, and at most two (a date and a time: timestamp=Date+Time); found \(name)=\(headers.joined(separator: "+"))"
        )
      }
      if let kind {
        guard field == .start || field == .end else {
          throw Problem(
            message:
              "only start and end take a kind after ':' (start=From:'Bed Time'); found \(name)")
        }
        guard !kind.trimmingSpaces.isEmpty else {
          throw Problem(message: "expected a kind between the single quotes after \(name)=...:")
        }
        self.fixed[field] = kind
      }
      self.headers[field] = headers
    }
    if self.headers[.start] != nil || self.headers[.end] != nil {
      for field in [Field.start, .end] where self.headers[field] == nil {
        throw Problem(
          message:
            "a session needs both start and end (start=From,end=To), found no \(field.rawValue)")
      }
      for field in [Field.timestamp, .event]
      where self.headers[field] != nil || self.fixed[field] != nil {
        throw Problem(
          message:
            "start and end replace timestamp and event: each row gives a start event and an end event, their kinds after ':' (start=From:'Bed Time',end=To:'Wake Up'); found \(field.rawValue)"
        )
      }
      self.fixed[.start] = self.fixed[.start] ?? ColumnMapping.defaultSessionKinds.start
      self.fixed[.end] = self.fixed[.end] ?? ColumnMapping.defaultSessionKinds.end
      return
    }
    if self.headers[.timestamp] == nil {
      throw Problem(
        message:
          "expected the fields timestamp and event (or start and end), found no timestamp")
    }
    if self.headers[.event] == nil, self.fixed[.event] == nil {
      throw Problem(
        message:
          "expected the fields timestamp and event, found no event (event=Header reads a column, event='Kind' gives every row that kind)"
      )
    }
  }

  /// Skips spaces and tabs.
  private static func skipSpaces(_ characters: inout ArraySlice<Character>) {
    while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
  }

  /// A fixed text in single quotes (`''` for a quote inside), and the spaces after it.
  private static func literal(_ characters: inout ArraySlice<Character>) throws(Problem) -> String {
    guard characters.first == "'" else {
      throw Problem(
        message: "expected a text in single quotes, found '\(String(characters.prefix(20)))'")
    }
    characters.removeFirst()
    var text = ""
    while true {
      guard let character = characters.popFirst() else {
        throw Problem(message: "expected a closing \"'\" after '\(text)")
      }
      if character == "'" {
        guard characters.first == "'" else { break }
        characters.removeFirst()
      }
      text.append(character)
    }
    skipSpaces(&characters)
    return text
  }

  /// A mapping of `headers`.
  init(_ headers: [Field: [String]]) {
    self.headers = headers
  }

  /// One header: quoted, or up to the next `,`, `+` or the end, trimmed.
  private static func header(_ characters: inout ArraySlice<Character>) throws(Problem) -> String {
    while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
    var header = ""
    if characters.first == "\"" {
      characters.removeFirst()
      while true {
        guard let character = characters.popFirst() else {
          throw Problem(message: "expected a closing '\"' after \"\(header)")
        }
        if character == "\"" {
          guard characters.first == "\"" else { break }
          characters.removeFirst()
        }
        header.append(character)
      }
      while characters.first == " " || characters.first == "\t" { characters.removeFirst() }
      // The file's headers are matched without their surrounding spaces, quoted or not, so a
      // header quoted here is too: `event=" Spaced "` names the file's `" Spaced "`.
      header = header.trimmingSpaces
    } else {
      while let character = characters.first, character != ",", character != "+" {
        // `From:'Bed Time'`: the kind of a session's start, not part of the header.
        if character == ":", characters.dropFirst().drop(while: { $0 == " " }).first == "'" {
          break
        }
        guard character != "=", character != "\"" else {
          throw Problem(
            message:
              "expected a header, found '\(character)' in it; write a header holding ',', '=', '+' or '\"' in double quotes (note=\"Comment, private\")"
          )
        }
        header.append(character)
        characters.removeFirst()
      }
      header = header.trimmingSpaces
    }
    guard !header.isEmpty else { throw Problem(message: "expected a header name, found nothing") }
    return header
  }

  /// The `--columns` text of this mapping, fields in their usual order.
  public var text: String {
    Field.allCases.compactMap { field in
      if let headers = headers[field] {
        var text = "\(field.rawValue)=" + headers.map(ColumnMapping.quoted).joined(separator: "+")
        if let kind = fixed[field] { text += ":" + ColumnMapping.literalText(kind) }
        return text
      }
      return fixed[field].map { "\(field.rawValue)=" + ColumnMapping.literalText($0) }
    }.joined(separator: ",")
  }

  /// `text` in single quotes, a quote inside doubled.
  static func literalText(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// The `--columns` text as one shell word: in double quotes, or in single quotes when a header
  /// is quoted itself.
  public var shellArgument: String {
    let text = self.text
    guard text.contains(where: { "\"$`\\".contains($0) }) else { return "\"" + text + "\"" }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// `header`, in double quotes when it holds what the grammar uses.
  static func quoted(_ header: String) -> String {
    guard header.contains(where: { ",=+\":".contains($0) }) || header.hasPrefix("'") else {
      return header
    }
    return "\"" + header.replacingQuotes + "\""
  }

  /// A mapping guessed from a header's names (as phones and spreadsheets name columns), or `nil`
  /// when no column looks like a time or none like an event's name.
  static func guess(_ names: [String]) -> ColumnMapping? {
    let keys = names.map { $0.lowercased().filter { $0.isLetter } }
    var used = Set<Int>()
    func first(_ candidates: [String]) -> Int? {
      for candidate in candidates {
        if let index = keys.indices.first(where: { keys[$0] == candidate && !used.contains($0) }) {
          used.insert(index)
          return index
        }
      }
      return nil
    }
    var headers: [Field: [String]] = [:]
    let whole = ["timestamp", "datetime", "dateandtime", "startdatetime", "when", "start"]
    if let index = first(whole) {
      headers[.timestamp] = [names[index]]
    } else if let date = first(["date", "day", "startdate"]) {
      let time = first(["time", "starttime", "hour", "clock"])
      headers[.timestamp] = [names[date]] + (time.map { [names[$0]] } ?? [])
    } else if let time = first(["starttime", "time"]) {
      headers[.timestamp] = [names[time]]
    }
    let fields: [(Field, [String])] = [
      (
        .event,
        [
          "event", "activity", "name", "type", "kind", "category", "title", "what", "action",
          "habit", "eventname", "activityname",
        ]
      ),
      (.value, ["value", "amount", "quantity", "qty", "count", "number", "duration", "minutes"]),
      (.note, ["note", "notes", "comment", "comments", "description", "memo", "details"]),
      (.source, ["source"]),
    ]
    for (field, candidates) in fields {
      if let index = first(candidates) { headers[field] = [names[index]] }
    }
    guard headers[.timestamp] != nil, headers[.event] != nil else { return nil }
    return ColumnMapping(headers)
  }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: String {
    var text = Substring(self)
    while text.first == " " || text.first == "\t" { text.removeFirst() }
    while text.last == " " || text.last == "\t" { text.removeLast() }
    return String(text)
  }

  /// With each double quote doubled, as CSV and `--columns` quote.
  fileprivate var replacingQuotes: String {
    var result = ""
    for character in self {
      if character == "\"" { result.append("\"") }
      result.append(character)
    }
    return result
  }
}
