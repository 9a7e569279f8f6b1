import Foundation
import RoutineCore

@testable import RoutineCLI

/// The result of one invocation.
struct Invocation {
  var status: Int32
  var stdout: String
  var stderr: String

  /// The standard output as JSON.
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any] ?? [:]
  }
}

/// A sandbox for CLI tests: a temporary directory holding the store, a fixed clock and zone.
final class Sandbox: @unchecked Sendable {
  let directory: URL
  var variables: [String: String]

  init(now: String = "2026-04-27T08:00:00+02:00", zone: String = "Europe/Berlin") {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-cli-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    variables = [
      "ROUTINE_STORE": directory.appendingPathComponent("store/routine.db").path,
      "ROUTINE_NOW": now, "TZ": zone, "HOME": directory.path,
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
    ]
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  var storePath: String { variables["ROUTINE_STORE"]! }

  /// When set, in-process runs have a terminal on standard input that gives these answers.
  var interactiveAnswers: [String]?

  /// Whether in-process runs have a terminal on standard output (colour, glances).
  var stdoutIsTerminal = false

  /// Writes a file in the sandbox and returns its path.
  func file(_ name: String, _ text: String) -> String {
    let path = directory.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  /// Runs the CLI in this process (fast; the clock is never read because ROUTINE_NOW is set).
  func run(_ arguments: String...) -> Invocation { run(arguments) }

  func run(_ arguments: [String]) -> Invocation {
    let output = Output(isTerminal: stdoutIsTerminal)
    let errors = Output()
    let answers = Answers(interactiveAnswers ?? [])
    let environment = ProcessEnvironment(
      variables: variables, clock: { fatalError("tests must not read the clock") },
      systemTimeZone: { Zone.utc }, isInteractive: interactiveAnswers != nil,
      readLine: { answers.next() })
    let status = RoutineCLI.run(arguments, environment: environment, output: output, errors: errors)
    return Invocation(status: status, stdout: output.text, stderr: errors.text)
  }

  /// Runs the built `routine` binary as a separate process, in an environment of exactly
  /// ``variables`` (as `env -i` would), in the sandbox directory.
  func runBinary(_ arguments: String...) throws -> Invocation {
    try runBinary(arguments)
  }

  /// Runs the built binary (or `executable`) with `input` on standard input (none:
  /// `/dev/null`), and standard output to `stdout` when given (a file such as `/dev/full`)
  /// instead of a pipe.
  func runBinary(
    _ arguments: [String], input: Data? = nil, stdout: FileHandle? = nil, executable: String? = nil
  ) throws -> Invocation {
    let process = Process()
    process.executableURL = try executable.map(URL.init(fileURLWithPath:)) ?? Sandbox.binary()
    process.arguments = arguments
    process.environment = variables
    process.currentDirectoryURL = directory
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = stdout ?? output
    process.standardError = errors
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
      // Written from another thread: a large input must not block on a full pipe while the
      // process waits for us to read its output.
      // A process that stops reading early (a bounded input) closes the pipe: that is an
      // error to ignore here, not a signal that ends the tests.
      signal(SIGPIPE, SIG_IGN)
      let writer = inputPipe.fileHandleForWriting
      Thread.detachNewThread {
        try? writer.write(contentsOf: input)
        try? writer.close()
      }
    }
    let out = stdout == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Invocation(
      status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
      stderr: String(decoding: err, as: UTF8.self))
  }

  /// The `routine` executable next to the test bundle (`swift test` builds it).
  static func binary() throws -> URL {
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent("routine")
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        return candidate
      }
      directory = directory.deletingLastPathComponent()
    }
    throw CocoaError(.fileNoSuchFile)
  }
}

/// Answers typed at a simulated terminal, one per question.
private final class Answers: @unchecked Sendable {
  private var remaining: [String]

  init(_ answers: [String]) { remaining = answers }

  func next() -> String? { remaining.isEmpty ? nil : remaining.removeFirst() }
}
