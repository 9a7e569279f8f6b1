import Foundation
import Testing

@testable import RoutineCore

@Suite struct ConfidenceModelTests {
  @Test func theFitterRecoversKnownWeights() {
    // 20,000 rows of two features drawn from a fixed generator; outcomes drawn from a known
    // model, b = 0.3, w = (1.5, -0.8).
    var state: UInt64 = 42
    func unit() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    var rows: [[Double]] = []
    var outcomes: [Bool] = []
    for _ in 0..<20_000 {
      let x = [unit() * 4 - 2, unit() * 4 - 2]
      let p = 1 / (1 + exp(-(0.3 + 1.5 * x[0] - 0.8 * x[1])))
      rows.append(x)
      outcomes.append(unit() < p)
    }
    let model = LogisticRegression.fit(rows: rows, outcomes: outcomes, penalty: 0.01)
    #expect(abs(model.intercept - 0.3) < 0.08)
    #expect(abs(model.weights[0] - 1.5) < 0.08)
    #expect(abs(model.weights[1] + 0.8) < 0.08)
  }

  func features(
    recentHits: Int = 4, recordHits: Int = 14, recordDays: Int = 20, lastHit: Bool = true,
    heldOut: Double = 0.6
  ) -> ConfidenceFeatures {
    ConfidenceFeatures(
      recentHits: recentHits, recentDays: 7, recordHits: recordHits, recordDays: recordDays,
      lastHit: lastHit, heldOut: heldOut, completeness: 1, eventsPerDay: 1)
  }

  @Test func theShippedModelsConfidenceRisesWithEachPieceOfEvidence() {
    let model = ConfidenceModel.shipped
    let base = model.confidence(features())
    #expect(model.confidence(features(recentHits: 7)) > base)
    #expect(model.confidence(features(recordHits: 20)) > base)
    #expect(model.confidence(features(lastHit: false)) < base)
    #expect(model.confidence(features(heldOut: 0.9)) > base)
    #expect(model.confidence(features(recordHits: 2)) < base)
    // Every confidence is a probability.
    #expect(model.confidence(features(recentHits: 0, recordHits: 0, heldOut: 0)) > 0)
    #expect(model.confidence(features(recentHits: 7, recordHits: 20, heldOut: 1)) < 1)
  }

  @Test func theConfigurationsModelDecidesTheConfidence() throws {
    var builder = LogBuilder()
    let start = date(2026, 3, 30)
    for day in 0..<35 { builder.add("Wake Up", start.adding(days: day), "07:00") }
    var configuration = AnalysisConfiguration()
    configuration.confidenceModel = ConfidenceModel(
      weights: [Double](repeating: 0, count: 7), intercept: 0)
    let analysis = RoutineAnalyzer(configuration: configuration).analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 7))
    let routine = try #require(analysis.routines.first { $0.kind.name == "Wake Up" })
    #expect(routine.confidence == 0.5)
  }

  @Test func aRoutinesReasonStatesTheWindowAndTheTrackRecordTruthfully() throws {
    // A 07:00 wake-up for five weeks (2026-03-30 to 2026-05-03) with every fourth day off at
    // 10:00, analysed on Monday 2026-05-04 with a week's window.
    var builder = LogBuilder()
    let start = date(2026, 3, 30)
    var onTime: Set<Int> = []
    for day in 0..<35 {
      let kept = day % 4 != 3
      if kept { onTime.insert(day) }
      builder.add("Wake Up", start.adding(days: day), kept ? "07:00" : "10:00")
    }
    let analysis = RoutineAnalyzer().analyze(
      builder.log, window: window(now: "2026-05-04T05:00:00+02:00", days: 7))
    let routine = try #require(
      analysis.routines.first { $0.kind.name == "Wake Up" && $0.time.description == "07:00" })
    // The window: the last seven days, 28...34.
    let window = (28..<35).filter(onTime.contains).count
    // The record: each of the 28 days before today (7...34) forecast 07:00 from the week before
    // it, and came true when kept.
    let record = (7..<35).filter(onTime.contains).count
    #expect(
      routine.reasoning
        == "You woke up at 07:00 on \(window) of the last 7 days, and when forecast the day "
        + "before, on \(record) of the last 28.")
  }
}
