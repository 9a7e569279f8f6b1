import Foundation
import Testing

@testable import RoutineStore

/// The small JSON reader `reminders import` uses instead of `JSONSerialization` (issue 17,
/// item 3.7: a 16 MiB file took 1.33 GB): JSON as RFC 8259 has it, errors with their line.
struct JSONValueTests {
  func parse(_ text: String) throws(JSONValue.ParseError) -> JSONValue {
    try JSONValue.parse(Array(text.utf8))
  }

  @Test func readsEveryKindOfValueKeepingTheMembersInOrder() throws {
    let value = try parse(
      #"""
      {"b": [1, -2.5, 3e2, 0, true, false, null], "a": {"x": "y"}, "": "", "big": 9223372036854775807}
      """#)
    guard case .object(let members) = value else {
      Issue.record("not an object")
      return
    }
    #expect(members.map(\.key) == ["b", "a", "", "big"])
    #expect(
      value["b"]
        == .array([
          .integer(1), .number(-2.5), .number(300), .integer(0), .bool(true), .bool(false), .null,
        ]))
    #expect(value["a"]?["x"] == .string("y"))
    #expect(value["big"] == .integer(Int.max))
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("x")["x"] == nil)
    // A key written twice: the last one counts.
    #expect(try parse(#"{"k": 1, "k": 2}"#)["k"] == .integer(2))
    // Past an Int, a number is a double.
    #expect(try parse("[9223372036854775808]") == .array([.number(9_223_372_036_854_775_808)]))
  }

  @Test func decodesEscapesSurrogatePairsAndUTF8() throws {
    #expect(
      try parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
        == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀"))
    #expect(try parse("\"Grüße 😀\"") == .string("Grüße 😀"))
    // A byte order mark and white space around the value.
    #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array(" \n[]\t".utf8)) == .array([]))
  }

  @Test(arguments: [
    ("", "line 1: expected a value, found the end of the document"),
    ("{\"a\": 1,\n \"b\" 2}", "line 2: expected ':' after a key, found '2'"),
    ("{\"a\": 1\n\n x}", "line 3: expected ',' or '}' after a member, found 'x'"),
    ("[1, 2", "line 1: expected ',' or ']' after an element, found the end of the document"),
    ("[01]", "line 1: expected a number without leading zeros, found '0'"),
    ("[1.]", "line 1: expected a digit after '.', found ']'"),
    ("[-]", "line 1: expected a digit, found ']'"),
    ("[tru]", "line 1: expected a value, found 't'"),
    ("{} {}", "line 1: expected the end of the document after its value, found '{'"),
    ("{'a': 1}", "line 1: expected a key in quotes, found '''"),
    ("\"a\nb\"", "line 1: expected a control character in a string to be escaped, found byte 0xA"),
    (#""\x""#, #"line 1: expected one of " \ / b f n r t u after '\', found 'x'"#),
    (#""\ud83d""#, "line 1: expected the second half of a surrogate pair, found '\"'"),
    (#""\ude00""#, "line 1: expected a Unicode scalar, not half of a surrogate pair, found '\"'"),
    ("\"abc", "line 1: expected '\"' to end the string, found the end of the document"),
    ("[1e999]", "line 1: expected a number that fits a double, found '1'"),
  ])
  func refusesWhatIsNotJSONNamingTheLine(text: String, message: String) {
    #expect(throws: JSONValue.ParseError.self) { try parse(text) }
    do {
      _ = try parse(text)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func refusesTextThatIsNotUTF8() {
    #expect(throws: JSONValue.ParseError.self) {
      try JSONValue.parse(Array("[\"a".utf8) + [0xFF] + Array("\"]".utf8))
    }
  }

  @Test func refusesNestingDeeperThanItsLimitWithoutCrashing() throws {
    let deep =
      String(repeating: "[", count: JSONValue.maximumDepth)
      + String(repeating: "]", count: JSONValue.maximumDepth)
    #expect(throws: Never.self) { try parse(deep) }
    let deeper = String(repeating: "[", count: 100_000)
    #expect {
      try parse(deeper)
    } throws: { error in
      (error as? JSONValue.ParseError)?.message.hasPrefix("expected at most 512 nested") == true
    }
  }
}
