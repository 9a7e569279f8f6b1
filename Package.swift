// swift-tools-version: 6.0
import PackageDescription

// `ROUTINE_OPTIMIZE_CORE=1` compiles RoutineCore with `-O` in debug builds too; the README's test
// command and `.ci/run` set it. The tests run the analytics over months of events in hundreds of
// `routine` processes: unoptimised, the test phase takes 5.6 minutes instead of 17 s on 2 cores
// and the concurrency tests' writers time out behind slow planners (docs/performance.md).
// It is an environment variable, not a setting of the target, because SwiftPM refuses a package
// whose products use unsafe flags (`-O` is one) as a dependency by version: an app depending on
// RoutineCore or RoutineStore never sets it, and gets the library without it.
// SwiftPM caches the manifest's result and does not notice the variable change: after a build
// without it, `touch Package.swift` before building with it (CI builds from a clone, unaffected).
let optimizedCoreInDebug: [SwiftSetting] =
  Context.environment["ROUTINE_OPTIMIZE_CORE"] == "1"
  ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []

let package = Package(
  name: "routine",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "routine", targets: ["routine"]),
    .library(name: "RoutineCore", targets: ["RoutineCore"]),
    .library(name: "RoutineStore", targets: ["RoutineStore"]),
  ],
  targets: [
    // SQLite from the system (libsqlite3-dev on Linux, the SDK on Apple platforms).
    .systemLibrary(
      name: "CSQLite",
      path: "Sources/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // Linux headers Glibc's module leaves out (timerfd, for `routine watch`; statfs, to tell
    // /proc's files from the store's); no library.
    .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
    // zlib from the system (zlib1g-dev on Linux, the SDK on Apple platforms): inflate and CRC-32
    // for the ZIP archives the Health app exports, deflate for `routine sample`'s.
    .systemLibrary(
      name: "CZlib",
      path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
    ),
    // Models, analytics and time rules. Foundation only; never reads the clock, environment or disk.
    .target(name: "RoutineCore", swiftSettings: optimizedCoreInDebug),
    // SQLite store and file formats.
    .target(name: "RoutineStore", dependencies: ["RoutineCore", "CSQLite", "CSystem", "CZlib"]),
    // Argument parsing, commands and output.
    .target(name: "RoutineCLI", dependencies: ["RoutineCore", "RoutineStore", "CSystem"]),
    .executableTarget(name: "routine", dependencies: ["RoutineCLI"]),
    // Reruns the performance targets of docs/performance.md.
    .executableTarget(
      name: "routine-bench", dependencies: ["RoutineCore", "RoutineStore", "RoutineCLI"]),
    .testTarget(name: "RoutineCoreTests", dependencies: ["RoutineCore"]),
    .testTarget(name: "RoutineStoreTests", dependencies: ["RoutineStore"]),
    .testTarget(name: "RoutineCLITests", dependencies: ["RoutineCLI", "routine"]),
  ],
  swiftLanguageModes: [.v6]
)
