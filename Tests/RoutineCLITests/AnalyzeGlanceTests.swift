import Foundation
import RoutineCore
import Testing

@testable import RoutineCLI

/// `routine analyze` on a terminal: a row of block characters per routine.
struct AnalyzeGlanceTests {
  /// A week of wake-ups at 07:05, one at 07:40, and bed times either side of midnight.
  static func sandbox() -> Sandbox {
    let sandbox = Sandbox()
    for day in 20...26 {
      let wake = day == 22 ? "07:40" : "07:05"
      #expect(sandbox.run("log", "Wake Up", "--at", "2026-04-\(day) \(wake)").status == 0)
      let bed = day % 2 == 0 ? "23:50" : "00:10"
      #expect(sandbox.run("log", "Bed", "--at", "2026-04-\(day) \(bed)").status == 0)
    }
    return sandbox
  }

  static let axis = "|00    03    06    09    12    15    18    21    |"

  /// The row of `name`'s bars, between the bars' frame.
  static func bars(of name: String, in text: String) -> String? {
    let line = text.split(separator: "\n").first {
      $0.hasPrefix("  \(name) ") && $0.contains("|")
    }
    return line.map { String($0[$0.firstIndex(of: "|")!...]) }
  }

  @Test func aTerminalGetsAColouredRowPerRoutine() {
    let sandbox = Self.sandbox()
    sandbox.stdoutIsTerminal = true
    let result = sandbox.run("analyze")
    #expect(result.status == 0)
    #expect(result.stdout.contains("Times of day (a column per half hour, from 00:00):\n"))
    #expect(result.stdout.contains(Self.axis))
    // 07:05 six times (bin 14, full), 07:40 once (bin 15, the lowest visible height).
    let wake = String(repeating: " ", count: 14) + "█▁" + String(repeating: " ", count: 32)
    #expect(Self.bars(of: "Wake Up", in: result.stdout) == "|\u{1B}[36m\(wake)\u{1B}[0m|")
    // Either side of midnight: the first column (3 at 00:10) and the last (4 at 23:50).
    let bed = "▆" + String(repeating: " ", count: 46) + "█"
    #expect(Self.bars(of: "Bed", in: result.stdout) == "|\u{1B}[36m\(bed)\u{1B}[0m|")
  }

  @Test(arguments: ["1", "0", "false"])
  func noColorSetToAnythingDropsTheColourNotTheRows(value: String) {
    let sandbox = Self.sandbox()
    sandbox.stdoutIsTerminal = true
    sandbox.variables["NO_COLOR"] = value
    let result = sandbox.run("analyze")
    #expect(!result.stdout.contains("\u{1B}"))
    #expect(!result.stdout.contains("\\x1B"))
    let wake = String(repeating: " ", count: 14) + "█▁" + String(repeating: " ", count: 32)
    #expect(Self.bars(of: "Wake Up", in: result.stdout) == "|\(wake)|")
  }

  @Test func aDumbTerminalGetsTheRowsWithoutColour() {
    let sandbox = Self.sandbox()
    sandbox.stdoutIsTerminal = true
    sandbox.variables["TERM"] = "dumb"
    let result = sandbox.run("analyze")
    #expect(!result.stdout.contains("\u{1B}"))
    let wake = String(repeating: " ", count: 14) + "█▁" + String(repeating: " ", count: 32)
    #expect(Self.bars(of: "Wake Up", in: result.stdout) == "|\(wake)|")
    // Any other terminal is coloured.
    sandbox.variables["TERM"] = "xterm-256color"
    #expect(sandbox.run("analyze").stdout.contains("\u{1B}[36m"))
  }

  @Test func anEmptyNoColorIsUnset() {
    let sandbox = Self.sandbox()
    sandbox.stdoutIsTerminal = true
    sandbox.variables["NO_COLOR"] = ""
    #expect(sandbox.run("analyze").stdout.contains("\u{1B}[36m"))
  }

  @Test func pipedOutputIsAsBefore() {
    let sandbox = Self.sandbox()
    let piped = sandbox.run("analyze").stdout
    #expect(!piped.contains("Times of day"))
    #expect(!piped.contains("█"))
    sandbox.stdoutIsTerminal = true
    let terminal = sandbox.run("analyze").stdout
    // The terminal adds a section and changes nothing else.
    let parts = terminal.components(separatedBy: "\nTimes of day")
    #expect(parts.count == 2)
    let rest = parts[1]
    let after = rest.range(of: "\n\n").map { String(rest[rest.index(after: $0.lowerBound)...]) }
    #expect(parts[0] + (after ?? "") == piped)
    // --json is for programs, terminal or not.
    #expect(!sandbox.run("analyze", "--json").stdout.contains("█"))
  }
}
