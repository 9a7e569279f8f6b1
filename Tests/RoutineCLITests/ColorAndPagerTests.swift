import Foundation
import Testing

@testable import RoutineCLI

/// Issue 30: listings in colour on a terminal (not with NO_COLOR, `--color never`, a pipe) and
/// through a pager when longer than the screen (`PAGER`, `--no-pager`). The pager tests run the
/// binary on a real pseudo-terminal of a set size, through Python's pty module.
struct ColorAndPagerTests {
  static let escape = "\u{1B}["

  /// A store with five daily reminders: a week's agenda is 35 lines.
  func fiveDaily() -> Sandbox {
    let sandbox = Sandbox(now: "2026-05-01T06:00:00Z", zone: "Europe/Berlin")
    for hour in 8...12 {
      #expect(
        sandbox.run("reminders", "add", "--text", "Drink \(hour)", "--at", "\(hour):00").status
          == 0)
    }
    return sandbox
  }

  @Test func colourIsForTerminalsAndEveryWayOfSayingNoIsHeard() {
    let sandbox = fiveDaily()
    sandbox.stdoutIsTerminal = true
    #expect(sandbox.run("agenda").stdout.contains(Self.escape + "1m"))
    #expect(!sandbox.run("agenda", "--color", "never").stdout.contains(Self.escape))
    sandbox.variables["NO_COLOR"] = "1"
    #expect(!sandbox.run("agenda").stdout.contains(Self.escape))
    #expect(sandbox.run("agenda", "--color", "always").stdout.contains(Self.escape))
    sandbox.variables["NO_COLOR"] = nil
    sandbox.variables["TERM"] = "dumb"
    #expect(!sandbox.run("agenda").stdout.contains(Self.escape))
    sandbox.variables["TERM"] = nil
    #expect(!sandbox.run("agenda", "--json").stdout.contains(Self.escape))
    // Not a terminal: none, unless asked.
    sandbox.stdoutIsTerminal = false
    #expect(!sandbox.run("agenda").stdout.contains(Self.escape))
    #expect(sandbox.run("agenda", "--color", "always").stdout.contains(Self.escape))
    #expect(sandbox.run("agenda", "--color", "sometimes").status == 64)
  }

  @Test func historyColoursWhatBecameOfEachFiringAndKeepsItsColumns() throws {
    let sandbox = fiveDaily()
    #expect(sandbox.run("deliver", "--now", "2026-05-01T06:00:30Z").status == 0)
    #expect(sandbox.run("deliver", "--now", "2026-05-01T07:00:30Z").status == 0)
    // 09:00 and 10:00 pass with nothing running: missed at 10:30.
    #expect(sandbox.run("deliver", "--now", "2026-05-01T08:30:30Z").status == 0)
    let plain = sandbox.run("history", "--now", "2026-05-01T09:00:00Z").stdout
    let coloured = sandbox.run("history", "--now", "2026-05-01T09:00:00Z", "--color", "always")
      .stdout
    #expect(coloured.contains(Self.escape + "32mdelivered"))
    #expect(coloured.contains(Self.escape + "31mmissed"))
    // Without its escapes the coloured listing is the plain one, columns and all.
    let stripped = coloured.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(stripped == plain)
  }

  @Test func aKindNameCannotSmuggleAnythingButColourAndOnlyWhenColourIsOn() {
    let sandbox = Sandbox(now: "2026-05-01T06:00:00Z", zone: "Europe/Berlin")
    #expect(
      sandbox.run("reminders", "add", "--text", "A\u{1B}]0;title\u{07}B", "--at", "08:00").status
        == 0)
    let listed = sandbox.run("reminders", "--color", "always").stdout
    #expect(!listed.contains("\u{1B}]"))
    #expect(!listed.contains("\u{07}"))
  }

  // MARK: The pager, on a real terminal

  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// Runs the binary with `arguments` on a pseudo-terminal of `rows` rows, with `variables`
  /// added; returns what the terminal showed and the exit status.
  func onTerminal(
    _ sandbox: Sandbox, rows: Int, _ arguments: [String], variables: [String: String]
  ) throws -> (text: String, status: Int32) {
    let script = """
      import os, pty, sys, fcntl, termios, struct
      rows = int(sys.argv[1]); argv = sys.argv[2:]
      pid, fd = pty.fork()
      if pid == 0:
          fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack('HHHH', rows, 100, 0, 0))
          os.execv(argv[0], argv)
      out = b''
      while True:
          try:
              chunk = os.read(fd, 65536)
          except OSError:
              break
          if not chunk:
              break
          out += chunk
      _, status = os.waitpid(pid, 0)
      sys.stdout.write(out.decode().replace('\\r\\n', '\\n'))
      sys.exit(os.waitstatus_to_exitcode(status))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.python!)
    process.arguments = ["-c", script, String(rows), try Sandbox.binary().path] + arguments
    process.environment = sandbox.variables.merging(variables) { $1 }
    process.currentDirectoryURL = sandbox.directory
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
  }

  @Test(
    .enabled(if: python != nil, "python3 is not installed: the pager tests need its pty module"))
  func aListingLongerThanTheScreenGoesThroughThePagerAndAShortOneDoesNot() throws {
    let sandbox = fiveDaily()
    let pager = ["PAGER": "sed 's/^/P:/'"]
    let long = try onTerminal(sandbox, rows: 20, ["agenda"], variables: pager)
    #expect(long.status == 0)
    let lines = long.text.split(separator: "\n")
    #expect(lines.count == 35, "\(long.text)")
    #expect(lines.allSatisfy { $0.hasPrefix("P:") }, "\(long.text)")
    // Colour reaches the pager (less shows it with -R, which LESS=FRX sets).
    #expect(long.text.contains(Self.escape))
    let fits = try onTerminal(sandbox, rows: 60, ["agenda"], variables: pager)
    #expect(fits.text.split(separator: "\n").count == 35)
    #expect(!fits.text.contains("P:"))
    let refused = try onTerminal(sandbox, rows: 20, ["agenda", "--no-pager"], variables: pager)
    #expect(!refused.text.contains("P:") && refused.text.split(separator: "\n").count == 35)
    let none = try onTerminal(sandbox, rows: 20, ["agenda"], variables: ["PAGER": ""])
    #expect(!none.text.contains("P:") && none.text.split(separator: "\n").count == 35)
    // A pager that is not installed: said, and the listing printed without it.
    let missing = try onTerminal(
      sandbox, rows: 20, ["agenda"], variables: ["PAGER": "no-such-pager -R"])
    #expect(missing.status == 0)
    #expect(missing.text.contains("the pager 'no-such-pager' is not installed"))
    #expect(missing.text.split(separator: "\n").filter { $0.contains("Drink") }.count == 35)
    let json = try onTerminal(sandbox, rows: 5, ["agenda", "--json"], variables: pager)
    #expect(!json.text.contains("P:"))
  }

  @Test(
    .enabled(if: python != nil, "python3 is not installed: the pager tests need its pty module"))
  func aPagerQuitEarlyIsNoError() throws {
    let sandbox = fiveDaily()
    let result = try onTerminal(
      sandbox, rows: 10, ["agenda", "--to", "+300d"], variables: ["PAGER": "head -n 3"])
    #expect(result.status == 0, "\(result.text)")
    #expect(result.text.split(separator: "\n").count == 3, "\(result.text)")
    #expect(!result.text.contains("error"))
  }
}
