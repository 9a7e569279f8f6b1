import Testing

@testable import RoutineCore

struct ZoneRulesTests {
  static let lmt = ZoneRules.LocalTimeType(
    utcOffset: 3208, isDaylightSaving: false, abbreviation: "LMT")
  static let standard = ZoneRules.LocalTimeType(
    utcOffset: 3600, isDaylightSaving: false, abbreviation: "CET")
  static let summer = ZoneRules.LocalTimeType(
    utcOffset: 7200, isDaylightSaving: true, abbreviation: "CEST")

  /// LMT until 1000, then standard time, summer time from 2000 to 3000, standard time from 3000.
  static func table(footer: PosixZoneRule? = nil) -> ZoneRules {
    ZoneRules(
      transitions: [1000, 2000, 3000], typeIndices: [1, 2, 1], types: [lmt, standard, summer],
      footer: footer)!
  }

  @Test func beforeTheFirstTransitionTheFirstTypeApplies() {
    #expect(Self.table().localTimeType(at: 999) == Self.lmt)
    #expect(Self.table().localTimeType(at: .min) == Self.lmt)
    #expect(Self.table().utcOffset(at: -5_000_000_000) == 3208)
  }

  @Test func eachTransitionStartsItsType() {
    let rules = Self.table()
    #expect(rules.localTimeType(at: 1000) == Self.standard)
    #expect(rules.localTimeType(at: 1999) == Self.standard)
    #expect(rules.localTimeType(at: 2000) == Self.summer)
    #expect(rules.utcOffset(at: 2999) == 7200)
    #expect(rules.localTimeType(at: 3000) == Self.standard)
  }

  @Test func withoutAFooterTheLastTypeLastsForever() {
    #expect(Self.table().localTimeType(at: .max) == Self.standard)
  }

  @Test func afterTheLastTransitionTheFooterDecides() throws {
    // A footer that says summer time all year, to tell it from the table.
    let footer = try #require(PosixZoneRule("CET-1CEST,0/0,J365/25"))
    let rules = Self.table(footer: footer)
    #expect(rules.localTimeType(at: 3000) == Self.standard)
    #expect(rules.localTimeType(at: 3001) == Self.summer)
    #expect(rules.utcOffset(at: 4_000_000_000) == 7200)
  }

  @Test func withoutTransitionsTheFooterDecidesAlways() throws {
    let footer = try #require(PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
    let rules = try #require(
      ZoneRules(transitions: [], typeIndices: [], types: [Self.standard], footer: footer))
    #expect(rules.utcOffset(at: stamp("2026-07-01T00:00Z").secondsSince1970) == 7200)
    #expect(rules.utcOffset(at: stamp("2026-01-01T00:00Z").secondsSince1970) == 3600)
    #expect(ZoneRules(rule: footer).localTimeType(at: 0).abbreviation == "CET")
  }

  @Test func anInconsistentTableIsRefused() {
    #expect(ZoneRules(transitions: [1, 2], typeIndices: [0], types: [Self.lmt]) == nil)
    #expect(ZoneRules(transitions: [2, 1], typeIndices: [0, 0], types: [Self.lmt]) == nil)
    #expect(ZoneRules(transitions: [1, 1], typeIndices: [0, 0], types: [Self.lmt]) == nil)
    #expect(ZoneRules(transitions: [1], typeIndices: [1], types: [Self.lmt]) == nil)
    #expect(ZoneRules(transitions: [], typeIndices: [], types: []) == nil)
  }
}
