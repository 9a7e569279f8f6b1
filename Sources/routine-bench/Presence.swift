// The cost of reading the person's presence before a delivery (issue 31: reading idleness adds
// at most 2 ms to a `deliver`), in this process, as `deliver` pays it:
//
//   Xvfb :77 -nolisten tcp &
//   DISPLAY=:77 dbus-run-session -- sh -c 'dunst & sleep 1; .build/release/routine-bench --presence'
//
// Idleness from the X screen saver extension (DISPLAY set), then from the D-Bus sources
// (DISPLAY removed: logind, org.freedesktop.ScreenSaver), then do not disturb (dunst's
// `paused`, by a `dbus-send` child), each the median of --runs readings (200 by default) in this
// process; then the first reading in a fresh process (--runs / 10 processes), which loads the X
// libraries: what one `deliver` from cron pays.
import Foundation
import RoutineCLI

func runPresence(_ arguments: [String]) -> Int32 {
  let runs =
    arguments.firstIndex(of: "--runs").flatMap {
      $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    } ?? 200
  let environment = ProcessInfo.processInfo.environment
  if arguments.contains("--once") {
    // One reading in a fresh process, as a `deliver` from cron makes it: libX11 and libXss are
    // loaded by it.
    let start = DispatchTime.now().uptimeNanoseconds
    _ = PresenceReader.read(environment: environment, idle: true, doNotDisturb: false)
    print(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    return 0
  }
  var headless = environment
  headless["DISPLAY"] = nil
  let cases: [(String, [String: String], Bool, Bool)] = [
    ("idleness, X screen saver extension", environment, true, false),
    ("idleness without DISPLAY (D-Bus sources)", headless, true, false),
    ("do not disturb (notification daemon)", environment, false, true),
  ]
  print("| reading | source | median | 90th percentile | problems |")
  print("| --- | --- | --- | --- | --- |")
  for (name, variables, idle, doNotDisturb) in cases {
    // The first reading loads libX11 and libXss: once per process, measured apart below.
    var reading = PresenceReader.read(
      environment: variables, idle: idle, doNotDisturb: doNotDisturb)
    var costs: [Double] = []
    for _ in 0..<runs {
      let start = DispatchTime.now().uptimeNanoseconds
      reading = PresenceReader.read(environment: variables, idle: idle, doNotDisturb: doNotDisturb)
      costs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    costs.sort()
    let source =
      doNotDisturb
      ? (reading.presence.doNotDisturb ?? "not paused") : (reading.presence.source ?? "none")
    print(
      String(
        format: "| %@ | %@ | %.3f ms | %.3f ms | %@ |", name, source, costs[costs.count / 2],
        costs[costs.count * 9 / 10], reading.problems.first ?? "none"))
  }
  var firsts: [Double] = []
  for _ in 0..<max(1, runs / 10) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--presence", "--once"]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return 1 }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if let cost = Double(
      String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    {
      firsts.append(cost)
    }
  }
  firsts.sort()
  if !firsts.isEmpty {
    print(
      String(
        format:
          "| idleness, first reading in a fresh process (loads libX11, libXss) | | %.3f ms | %.3f ms | |",
        firsts[firsts.count / 2], firsts[firsts.count * 9 / 10]))
  }
  return 0
}
