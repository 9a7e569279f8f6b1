import Foundation
import Testing

/// An app can depend on a released version of the libraries: SwiftPM refuses a dependency by
/// version whose products use unsafe build flags ("contains unsafe build flags"), so the
/// manifest must not give them any unless this repository's own tests ask for them.
///
/// The test builds `RoutineCore` and `RoutineStore` (debug, unoptimised, as an app would): about
/// 30 s of one core's time.
struct PackageConsumerTests {
  /// The variable that makes the manifest optimise `RoutineCore` with an unsafe flag; an app
  /// building its dependencies never has it.
  static let optimizeCoreVariable = "ROUTINE_OPTIMIZE_CORE"

  /// The executable `name` on the `PATH`, if any.
  static func tool(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent(name)
    }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  static let toolsAreOnThePath = tool("swift") != nil && tool("git") != nil

  /// Runs `executable` with `arguments` in `directory` and returns its status and its standard
  /// output and error together.
  static func run(
    _ executable: URL, _ arguments: [String], in directory: URL,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  /// A git repository holding this working tree's `Package.swift` and `Sources` (uncommitted
  /// changes included), committed and tagged `1.0.0`, as a release would be.
  static func release(in directory: URL, git: URL) throws {
    let repository = DocumentedWorkflowTests.repository
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for item in ["Package.swift", "Sources"] {
      try FileManager.default.copyItem(
        at: repository.appendingPathComponent(item), to: directory.appendingPathComponent(item))
    }
    let identity = [
      "-c", "user.name=routine tests", "-c", "user.email=tests@routine.invalid",
      "-c", "commit.gpgSign=false", "-c", "tag.gpgSign=false",
    ]
    for arguments in [
      ["init", "--quiet"], ["add", "--all"],
      identity + ["commit", "--quiet", "--message", "1.0.0"],
      identity + ["tag", "1.0.0"],
    ] {
      let (status, output) = try run(git, arguments, in: directory)
      try #require(status == 0, "git \(arguments.joined(separator: " ")): \(output)")
    }
  }

  @Test(
    .enabled(
      if: toolsAreOnThePath,
      "building an app that depends on a version tag needs swift and git on the PATH"),
    .timeLimit(.minutes(10)))
  func anAppBuildsAgainstAVersionTagOfTheLibraries() throws {
    let swift = try #require(Self.tool("swift"))
    let git = try #require(Self.tool("git"))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routine-consumer-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let library = directory.appendingPathComponent("routine")
    try Self.release(in: library, git: git)

    let app = directory.appendingPathComponent("app")
    let sources = app.appendingPathComponent("Sources/app")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    try """
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "app",
      dependencies: [.package(url: "file://\(library.path)", from: "1.0.0")],
      targets: [
        .executableTarget(
          name: "app",
          dependencies: [
            .product(name: "RoutineCore", package: "routine"),
            .product(name: "RoutineStore", package: "routine"),
          ])
      ]
    )

    """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    try """
    import RoutineCore
    import RoutineStore

    let tea = Event(
      kind: EventKind("Tea")!, timestamp: Timestamp(iso8601: "2026-04-27T07:05:00+02:00")!,
      source: .cli)
    let store = try EventStore(path: CommandLine.arguments[1])
    try store.insert(tea)
    for stored in try store.storedEvents(EventSelection()) {
      print(stored.event.kind, stored.event.timestamp)
    }

    """.write(to: sources.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)

    // The app's build sees what an app's would: no request to optimise, its own scratch and
    // cache directories (nothing shared with this test run or the user's caches), no index.
    var environment = ProcessInfo.processInfo.environment
    environment[Self.optimizeCoreVariable] = nil
    let scratch = app.appendingPathComponent(".build")
    let build = try Self.run(
      swift,
      [
        "build", "--scratch-path", scratch.path,
        "--cache-path", directory.appendingPathComponent("cache").path,
        "--disable-index-store",
      ], in: app, environment: environment)
    #expect(!build.output.contains("unsafe build flags"), "\(build.output)")
    try #require(build.status == 0, "\(build.output)")

    let store = directory.appendingPathComponent("store/routine.db").path
    let result = try Self.run(
      scratch.appendingPathComponent("debug/app"), [store], in: directory)
    #expect(result.status == 0)
    #expect(result.output == "Tea 2026-04-27T07:05:00+02:00\n")
  }
}
