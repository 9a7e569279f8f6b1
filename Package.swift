// swift-tools-version: 6.0
import PackageDescription

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
    // Models, analytics and time rules. Foundation only; never reads the clock, environment or disk.
    // Optimised in debug builds too: the tests run the analytics over months of events in
    // hundreds of processes, which unoptimised numeric loops make a hundred times slower.
    .target(
      name: "RoutineCore",
      swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
    // SQLite store and file formats.
    .target(name: "RoutineStore", dependencies: ["RoutineCore", "CSQLite", "CSystem"]),
    // Argument parsing, commands and output.
    .target(name: "RoutineCLI", dependencies: ["RoutineCore", "RoutineStore", "CSystem"]),
    .executableTarget(name: "routine", dependencies: ["RoutineCLI"]),
    // Reruns the performance targets of docs/performance.md.
    .executableTarget(name: "routine-bench"),
    .testTarget(name: "RoutineCoreTests", dependencies: ["RoutineCore"]),
    .testTarget(name: "RoutineStoreTests", dependencies: ["RoutineStore"]),
    .testTarget(name: "RoutineCLITests", dependencies: ["RoutineCLI", "routine"]),
  ],
  swiftLanguageModes: [.v6]
)
