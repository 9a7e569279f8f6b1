/// Writes `{"KEY": [ELEMENT, ...]}` to an output one element at a time, exactly as
/// `JSON.object([(KEY, .array(elements))]).serialized()` prints it whole: a long list (a year of
/// history, an agenda) is never held in memory, and leaves as the output's buffer fills.
///
/// Nothing is written before the first element or ``finish()``: a command that fails before it
/// has anything to show leaves standard output empty.
struct JSONListWriter {
  private let output: Output
  /// `{\n  "KEY": [`, the opening both a list and an empty list start with.
  private let opening: String
  /// How many elements were written.
  private(set) var count = 0

  /// A list under `key` in a one-member object, written to `output`.
  init(_ output: Output, key: String) {
    self.output = output
    var opening = "{\n  "
    JSON.writeString(key, to: &opening)
    self.opening = opening + ": ["
  }

  /// Writes `element` as the list's next.
  mutating func append(_ element: JSON) {
    if count == 0 {
      output.write(opening + "\n    ")
    } else {
      output.write(",\n    ")
    }
    output.write(element.serialized(indent: 4))
    count += 1
  }

  /// Closes the list and the object, with a line break; `more` members follow the list.
  func finish(then more: [(String, JSON)] = []) {
    var tail = ""
    for (key, value) in more {
      tail += ",\n  "
      JSON.writeString(key, to: &tail)
      tail += ": " + value.serialized(indent: 2)
    }
    if count == 0 {
      output.line(opening + "]" + tail + "\n}")
    } else {
      output.line("\n  ]" + tail + "\n}")
    }
  }
}
