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
final class Sandbox {
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

  /// Writes a file in the sandbox and returns its path.
  func file(_ name: String, _ text: String) -> String {
    let path = directory.appendingPathComponent(name).path
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
  }

  /// Runs the CLI in this process (fast; the clock is never read because ROUTINE_NOW is set).
  func run(_ arguments: String...) -> Invocation { run(arguments) }

  func run(_ arguments: [String]) -> Invocation {
    let output = Output()
    let errors = Output()
    let environment = ProcessEnvironment(
      variables: variables, clock: { fatalError("tests must not read the clock") },
      systemTimeZone: { TimeZone(identifier: "UTC")! })
    let status = RoutineCLI.run(arguments, environment: environment, output: output, errors: errors)
    return Invocation(status: status, stdout: output.text, stderr: errors.text)
  }

  /// Runs the built `routine` binary as a separate process.
  func runBinary(_ arguments: String...) throws -> Invocation {
    let process = Process()
    process.executableURL = try Sandbox.binary()
    process.arguments = arguments
    process.environment = variables
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
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
