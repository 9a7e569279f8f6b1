// routine-bench --fit [--personas N] [--log FILE]... [--leave-one-out] [--days N]
//
// Fits the weights of the confidence model (RoutineCore's ConfidenceModel) on a population:
// the first N generated personas (as --calibration generates them: 180 days from 2025-01-06,
// seed 1, here in UTC) and every log given. Each is walked forward as `routine backtest` walks
// it (7-day windows unless --days), and every routine's forecast gives one row: its features
// and whether it came true. Prints the fitted weights as the Swift source of
// ConfidenceModel+Shipped.swift. With --leave-one-out, each log is also fitted without it and
// backtested with those weights, beside the figures of issue 20's table (the learner before
// the model, where the log was in it).
import Foundation
import RoutineCore
import RoutineStore

/// The figures of the learner before the model (precision, recall, ECE at 7-day windows and
/// threshold 0.6), by file name, from issue 20.
let figuresBeforeModel: [String: (Double, Double, Double)] = [
  "garmin_karl": (0.551, 0.059, 0.074), "wazari972_saa": (0.551, 0.347, 0.143),
  "randirl17_nursing": (0.419, 0.040, 0.174), "fjuniorr_huckleberry": (0.624, 0.072, 0.153),
  "jahearn3_sleeplog": (0.642, 0.238, 0.061), "nmlook_zeo": (0.678, 0.297, 0.050),
  "werpuc_sleepcycle": (0.699, 0.404, 0.060), "yogat3ch_insighttimer": (0.623, 0.141, 0.090),
]

func runFit(_ arguments: [String]) -> Int32 {
  func values(_ name: String) -> [String] {
    arguments.indices.filter { arguments[$0] == name && $0 + 1 < arguments.count }
      .map { arguments[$0 + 1] }
  }
  let personas = Int(values("--personas").last ?? "56") ?? 56
  let windowDays = Int(values("--days").last ?? "7") ?? 7
  let files = values("--log")
  let leaveOneOut = arguments.contains("--leave-one-out")

  var logs: [(name: String, log: EventLog)] = []
  for path in files {
    var log = EventLog()
    do {
      _ = try EventLogLoader(
        days: RoutineCore.LocalDate(
          daysSince1970: -1_000_000)...RoutineCore.LocalDate(daysSince1970: 1_000_000)
      ).load([EventFileReader(path: path, skipsInvalid: true)], into: &log)
    } catch {
      FileHandle.standardError.write(Data("routine-bench: \(path): \(error)\n".utf8))
      return 65
    }
    log.sort()
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    logs.append((name, log))
  }
  let population = PersonaPopulation(seed: 1)
  let start = RoutineCore.LocalDate(daysSince1970: 20_094)  // 2025-01-06
  let backtest = Backtest()
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
  func fit(leaving left: Int?) -> (model: ConfidenceModel, count: Int) {
    var x: [[Double]] = []
    var y: [Bool] = []
    for unit in 0..<units where unit != left {
      for prediction in rows[unit] {
        x.append(prediction.features.vector)
        y.append(prediction.hit)
      }
    }
    return (LogisticRegression.fit(rows: x, outcomes: y), x.count)
  }

  let (model, count) = fit(leaving: nil)
  print(
    "// \(count) forecasts: \(personas) personas, \(logs.count) logs (\(files.count > 0 ? logs.map(\.name).joined(separator: ", ") : "none")), \(windowDays)-day windows"
  )
  print("public static let shipped = ConfidenceModel(")
  print("  weights: [")
  for (name, weight) in zip(ConfidenceFeatures.names, model.weights) {
    print(String(format: "    %.4f,  // %@", weight, name))
  }
  print(String(format: "  ],\n  intercept: %.4f)", model.intercept))

  guard leaveOneOut, !logs.isEmpty else { return 0 }
  print("")
  print(
    "| log | forecasts | precision | recall | ECE | mean P@R | issue 20: precision | recall | ECE |"
  )
  print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
  var results: [(String, Int, BacktestResult, (Double, Double, Double)?)?] = []
  for index in logs.indices {
    var configuration = AnalysisConfiguration()
    configuration.confidenceModel = fit(leaving: personas + index).model
    let result = Backtest(analyzer: RoutineAnalyzer(configuration: configuration)).run(
      logs[index].log, windowDays: windowDays)
    results.append(
      (logs[index].name, rows[personas + index].count, result, figuresBeforeModel[logs[index].name])
    )
  }
  var sums = [Double](repeating: 0, count: 3)
  for case (let name, let forecasts, let result, let before)? in results {
    let precision = result.precision ?? 0
    let recall = result.recall ?? 0
    let error = result.calibrationError ?? 0
    sums[0] += precision
    sums[1] += recall
    sums[2] += error
    let old = before.map { String(format: "%.3f | %.3f | %.3f", $0.0, $0.1, $0.2) } ?? "- | - | -"
    print(
      String(
        format: "| %@ | %d | %.3f | %.3f | %.3f | %.3f | %@ |", name, forecasts, precision, recall,
        error,
        result.curve.meanPrecision ?? 0, old))
  }
  let n = Double(logs.count)
  print(
    String(
      format: "| mean | | %.3f | %.3f | %.3f | | | | |", sums[0] / n, sums[1] / n, sums[2] / n))
  return 0
}
