// The cost of reading the person's presence before a delivery (issue 31: reading idleness adds
// at most 2 ms to a `deliver`), in this process, as `deliver` pays it:
//
//   Xvfb :77 -nolisten tcp &
//   DISPLAY=:77 dbus-run-session -- sh -c 'dunst & sleep 1; .build/release/routine-bench --presence'
//
// Idleness from the X screen saver extension (DISPLAY set), then from the D-Bus sources
// (DISPLAY removed: logind, org.freedesktop.ScreenSaver), then do not disturb (dunst's
// `paused`, by a `gdbus` child). Each figure is the median of --runs readings (200 by default).
import Foundation
import RoutineCLI

func runPresence(_ arguments: [String]) -> Int32 {
  let runs =
    arguments.firstIndex(of: "--runs").flatMap {
      $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil
    } ?? 200
  let environment = ProcessInfo.processInfo.environment
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
    // The first reading loads libX11 and libXss: once per process, reported apart.
    let first = DispatchTime.now().uptimeNanoseconds
    var reading = PresenceReader.read(
      environment: variables, idle: idle, doNotDisturb: doNotDisturb)
    let firstCost = Double(DispatchTime.now().uptimeNanoseconds - first) / 1e6
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
    if idle, variables["DISPLAY"] != nil {
      print(
        String(
          format: "| first reading in the process (loads the libraries) | | %.3f ms | | |",
          firstCost))
    }
  }
  return 0
}
