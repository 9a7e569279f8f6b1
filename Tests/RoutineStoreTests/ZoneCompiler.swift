import Foundation

/// Compiles zone rules written by a test into TZif files with the system's `zic`, so that tests
/// read zones whose rules they know, not whatever the machine has installed.
enum ZoneCompiler {
  /// Debian's `zic` (package libc-bin).
  static let path = "/usr/sbin/zic"

  /// Whether `zic` is there; tests that need it are skipped, saying so, when it is not.
  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: path) }

  /// A zone no real place has: LMT (+00:40) until 1950, `TWO` (+02:00) until 2020, then `MUT`
  /// (+03:20) with summer time `MUST` (+04:50) from the second Sunday of April at 03:00 to the
  /// last Sunday of September at 02:00; and a link to it.
  static let madeUp = """
    Rule\tMu\t2020\tmax\t-\tApr\tSun>=8\t3:00\t1:30\tMUST
    Rule\tMu\t2020\tmax\t-\tSep\tlastSun\t2:00\t0\tMUT
    Zone\tTest/Made_Up\t0:40\t-\tLMT\t1950
    \t\t\t2:00\t-\tTWO\t2020
    \t\t\t3:20\tMu\t%s
    Link\tTest/Made_Up\tTest/Alias

    """

  /// Compiles `source` into `directory` with `zic -b bloat` (`fat` or `slim`).
  static func compile(_ source: String, into directory: String, bloat: String = "fat") throws {
    let input = directory + "/.source.zi"
    try source.write(toFile: input, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: input) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-b", bloat, "-d", directory, input]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(
        .executableLoad,
        userInfo: [NSLocalizedDescriptionKey: String(decoding: message, as: UTF8.self)])
    }
  }
}
