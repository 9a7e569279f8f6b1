// routine-bench --fit [--personas N] [--log FILE]... [--leave-one-out] [--days N]
//                     [--long-look-back N] [--no-evidence-bound]
//
// Fits the weights of the confidence model (RoutineCore's ConfidenceModel) on a population:
// the first N generated personas (as --calibration generates them: 180 days from 2025-01-06,
// seed 1, here in UTC) and every log given. Each is walked forward as `routine backtest` walks
// it (7-day windows unless --days, which must be shorter than the 28-day track record the
// model needs), and every forecast the model scores gives one row: its features and whether it
// came true. Prints the fitted weights as the Swift source of ConfidenceModel+Shipped.swift.
// With --leave-one-out, each log is also fitted without it and backtested with those weights.
// --long-look-back N (0: none) and --no-evidence-bound reproduce the variants docs/analytics.md
// compares (AnalysisConfiguration's longLookBackDays and boundsByEvidence).
// Exit status: 0, 64 for a bad option, 65 for a log that cannot be read or nothing to fit, 66
// for a log that does not exist.
import Foundation
import RoutineCore
import RoutineStore

func runFit(_ arguments: [String]) -> Int32 {
  func fail(_ message: String, _ status: Int32 = 64) -> Int32 {
    FileHandle.standardError.write(Data("routine-bench --fit: \(message)\n".utf8))
    return status
  }
  var personas = 56
  var windowDays = 7
  var files: [String] = []
  var leaveOneOut = false
  var experiment = AnalysisConfiguration()
  var index = 1
  while index < arguments.count {
    let name = arguments[index]
    if name == "--fit" {
      index += 1
      continue
    }
    if name == "--leave-one-out" || name == "--no-evidence-bound" {
      if name == "--leave-one-out" {
        leaveOneOut = true
      } else {
        experiment.boundsByEvidence = false
      }
      index += 1
      continue
    }
    guard ["--personas", "--days", "--log", "--long-look-back"].contains(name) else {
      return fail("unknown option '\(name)'")
    }
    guard index + 1 < arguments.count else { return fail("\(name): expected a value") }
    let value = arguments[index + 1]
    index += 2
    if name == "--log" {
      files.append(value)
      continue
    }
    // The model is for windows shorter than the track record: longer ones have no record, and
    // their held-out estimate stands (docs/analytics.md, "The confidence estimator").
    let range =
      name == "--personas"
      ? 0...10_000
      : name == "--long-look-back" ? 0...3660 : 1...(AnalysisConfiguration().trackRecordDays - 1)
    guard let number = Int(value), range.contains(number) else {
      return fail(
        "\(name): expected a whole number from \(range.lowerBound) to \(range.upperBound), found '\(value)'"
      )
    }
    switch name {
    case "--personas": personas = number
    case "--long-look-back": experiment.longLookBackDays = number
    default: windowDays = number
    }
  }

  var logs: [(name: String, log: EventLog)] = []
  for path in files {
    var log = EventLog()
    do {
      let summary = try EventLogLoader(
        days: RoutineCore.LocalDate(
          daysSince1970: -1_000_000)...RoutineCore.LocalDate(daysSince1970: 1_000_000)
      ).load([EventFileReader(path: path, skipsInvalid: true)], into: &log)
      // Real logs have a few lines no reader can use; a log that lost many says so.
      if !summary.skipped.isEmpty {
        FileHandle.standardError.write(
          Data("routine-bench --fit: \(path): \(summary.skipped.count) lines skipped\n".utf8))
      }
    } catch {
      let missing = !FileManager.default.fileExists(atPath: path)
      return fail("\(path): \(error)", missing ? 66 : 65)
    }
    log.sort()
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    logs.append((name, log))
  }
  let population = PersonaPopulation(seed: 1)
  let start = RoutineCore.LocalDate(daysSince1970: 20_094)  // 2025-01-06
  let backtest = Backtest(analyzer: RoutineAnalyzer(configuration: experiment))
  // The rows of each unit (a persona or a log).
  let units = personas + logs.count
  var rows: [[Backtest.Prediction]] = []
  for unit in 0..<units {
    let log: EventLog
    if unit < personas {
      var events: [(EventKind, Timestamp)] = []
      population.persona(unit).generate(start: start, days: 180, timeZone: .utc) {
        events.append(($0.kind, $0.timestamp))
      }
      log = EventLog(events)
    } else {
      log = logs[unit - personas].log
    }
    rows.append(backtest.predictions(log, windowDays: windowDays))
  }
  /// The model fitted on every unit but `left`, or `nil` when those forecasts cannot fit one
  /// (none, or all hits, or all misses).
  func fit(leaving left: Int?) -> (model: ConfidenceModel, count: Int)? {
    var x: [[Double]] = []
    var y: [Bool] = []
    for unit in 0..<units where unit != left {
      for prediction in rows[unit] {
        x.append(prediction.features.vector)
        y.append(prediction.hit)
      }
    }
    guard y.contains(true), y.contains(false) else { return nil }
    return (LogisticRegression.fit(rows: x, outcomes: y), x.count)
  }

  guard let (model, count) = fit(leaving: nil) else {
    return fail(
      "nothing to fit: the personas and logs gave no forecasts with both hits and misses "
        + "(\(rows.joined().count) forecasts); give more personas or longer logs", 65)
  }
  print(
    "// \(count) forecasts: \(personas) personas, \(logs.count) logs (\(logs.isEmpty ? "none" : logs.map(\.name).joined(separator: ", "))), \(windowDays)-day windows"
  )
  print("public static let shipped = ConfidenceModel(")
  print("  weights: [")
  for (name, weight) in zip(ConfidenceFeatures.names, model.weights) {
    print(String(format: "    %.4f,  // %@", weight, name))
  }
  print(String(format: "  ],\n  intercept: %.4f)", model.intercept))

  guard leaveOneOut, !logs.isEmpty else { return 0 }
  // Each log backtested with weights fitted without it: the figures docs/analytics.md reports.
  print("")
  print("| log | forecasts | precision | recall | ECE | mean P@R |")
  print("| --- | --- | --- | --- | --- | --- |")
  var sums = [Double](repeating: 0, count: 4)
  var measured = 0
  for index in logs.indices {
    let name = logs[index].name
    guard !rows[personas + index].isEmpty else {
      print("| \(name) | 0 | (no forecasts: too short, or no routine) | | | |")
      continue
    }
    guard let without = fit(leaving: personas + index) else {
      print("| \(name) | \(rows[personas + index].count) | (nothing to fit without it) | | | |")
      continue
    }
    var configuration = experiment
    configuration.confidenceModel = without.model
    let result = Backtest(analyzer: RoutineAnalyzer(configuration: configuration)).run(
      logs[index].log, windowDays: windowDays)
    let figures = [
      result.precision ?? 0, result.recall ?? 0, result.calibrationError ?? 0,
      result.curve.meanPrecision ?? 0,
    ]
    for (slot, value) in figures.enumerated() { sums[slot] += value }
    measured += 1
    print(
      String(
        format: "| %@ | %d | %.3f | %.3f | %.3f | %.3f |", name, rows[personas + index].count,
        figures[0], figures[1], figures[2], figures[3]))
  }
  guard measured > 0 else { return 0 }
  let n = Double(measured)
  print(
    String(
      format: "| mean | | %.3f | %.3f | %.3f | %.3f |", sums[0] / n, sums[1] / n, sums[2] / n,
      sums[3] / n))
  return 0
}
