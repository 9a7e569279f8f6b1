import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// TZif files as zic writes them (fat and slim), and as nobody should.
struct TZifTests {
  static func instant(_ text: String) -> Int64 { Timestamp(iso8601: text)!.secondsSince1970 }

  /// An instant of the made-up zone and what it must be then.
  struct Case: CustomTestStringConvertible, Sendable {
    let at: String
    let offset: Int32
    let daylight: Bool
    let name: String
    var testDescription: String { at }
  }

  // Worked out by hand from ZoneCompiler.madeUp. In 2026 the second Sunday of April is the 12th
  // (03:00 MUT is 23:40 UTC the day before), the last Sunday of September the 27th (02:00 MUST is
  // 21:10 UTC the day before); in 2100 the 11th and the 26th.
  static let cases: [Case] = [
    Case(at: "1900-01-01T00:00:00Z", offset: 2400, daylight: false, name: "LMT"),
    Case(at: "1949-12-31T23:19:59Z", offset: 2400, daylight: false, name: "LMT"),
    Case(at: "1949-12-31T23:20:00Z", offset: 7200, daylight: false, name: "TWO"),
    Case(at: "2019-12-31T21:59:59Z", offset: 7200, daylight: false, name: "TWO"),
    Case(at: "2019-12-31T22:00:00Z", offset: 12000, daylight: false, name: "MUT"),
    Case(at: "2026-04-11T23:39:59Z", offset: 12000, daylight: false, name: "MUT"),
    Case(at: "2026-04-11T23:40:00Z", offset: 17400, daylight: true, name: "MUST"),
    Case(at: "2026-09-26T21:09:59Z", offset: 17400, daylight: true, name: "MUST"),
    Case(at: "2026-09-26T21:10:00Z", offset: 12000, daylight: false, name: "MUT"),
    // Past 2037, where fat files end their table: the footer.
    Case(at: "2100-04-10T23:39:59Z", offset: 12000, daylight: false, name: "MUT"),
    Case(at: "2100-04-10T23:40:00Z", offset: 17400, daylight: true, name: "MUST"),
    Case(at: "2100-09-25T21:09:59Z", offset: 17400, daylight: true, name: "MUST"),
    Case(at: "2100-09-25T21:10:00Z", offset: 12000, daylight: false, name: "MUT"),
  ]

  static func compiled(bloat: String) throws -> [UInt8] {
    let directory = TemporaryDirectory()
    try ZoneCompiler.compile(ZoneCompiler.madeUp, into: directory.url.path, bloat: bloat)
    return try #require(try ZoneDatabase.readZoneFile(directory.path("Test/Made_Up")))
  }

  @Test(
    .enabled(
      if: ZoneCompiler.isAvailable, "zic (/usr/sbin/zic, Debian's libc-bin) is not installed"),
    arguments: ["fat", "slim"])
  func aZoneCompiledByZicHasItsRulesAtEveryInstant(bloat: String) throws {
    let rules = try TZif.rules(from: try Self.compiled(bloat: bloat))
    #expect(rules.footer?.description == "MUT-3:20MUST-4:50,M4.2.0/3,M9.5.0")
    for test in Self.cases {
      let type = rules.localTimeType(at: Self.instant(test.at))
      #expect(type.utcOffset == test.offset, "\(bloat) \(test.at)")
      #expect(type.isDaylightSaving == test.daylight, "\(bloat) \(test.at)")
      #expect(type.abbreviation == test.name, "\(bloat) \(test.at)")
      #expect(rules.utcOffset(at: Self.instant(test.at)) == test.offset, "\(bloat) \(test.at)")
    }
  }

  @Test(
    .enabled(
      if: ZoneCompiler.isAvailable, "zic (/usr/sbin/zic, Debian's libc-bin) is not installed"))
  func fatAndSlimFilesAgreeEverywhere() throws {
    let fat = try TZif.rules(from: try Self.compiled(bloat: "fat"))
    let slim = try TZif.rules(from: try Self.compiled(bloat: "slim"))
    #expect(fat.transitions.count > slim.transitions.count)
    var random = SplitMix64(seed: 8536)
    for _ in 0..<5000 {
      let instant = Int64.random(in: -3_000_000_000...6_000_000_000, using: &random)
      #expect(fat.localTimeType(at: instant) == slim.localTimeType(at: instant), "\(instant)")
    }
  }

  @Test(
    .enabled(
      if: ZoneCompiler.isAvailable, "zic (/usr/sbin/zic, Debian's libc-bin) is not installed"))
  func everyTruncationOfAFileIsRefused() throws {
    let bytes = try Self.compiled(bloat: "fat")
    for length in 0..<bytes.count {
      #expect(throws: ZoneDataError.self, "\(length) bytes") {
        try TZif.rules(from: Array(bytes[..<length]))
      }
    }
    #expect(throws: Never.self) { try TZif.rules(from: bytes) }
  }

  // MARK: Files made by hand

  /// A TZif file: a version 1 block with 32-bit times, and for `version` 2 and later the same
  /// table again with 64-bit times and `footer`. `counts` overrides the header's counts.
  static func file(
    version: UInt8 = UInt8(ascii: "2"), transitions: [Int64] = [0, 1000],
    indices: [UInt8] = [1, 0],
    types: [(Int32, UInt8, UInt8)] = [(3600, 0, 0), (7200, 1, 4)],
    characters: String = "AAA\0BBB\0", leaps: Int = 0, footer: String = "AAA-1",
    counts: [UInt32]? = nil, magic: String = "TZif"
  ) -> [UInt8] {
    func header() -> [UInt8] {
      var bytes = Array(magic.utf8) + [version] + [UInt8](repeating: 0, count: 15)
      let values =
        counts ?? [
          UInt32(types.count), UInt32(types.count), UInt32(leaps), UInt32(transitions.count),
          UInt32(types.count), UInt32(characters.utf8.count),
        ]
      for value in values { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
      return bytes
    }
    func block(timeSize: Int) -> [UInt8] {
      var bytes: [UInt8] = []
      for time in transitions {
        bytes +=
          timeSize == 8
          ? withUnsafeBytes(of: time.bigEndian) { Array($0) }
          : withUnsafeBytes(of: Int32(truncatingIfNeeded: time).bigEndian) { Array($0) }
      }
      bytes += indices
      for (offset, isDaylight, abbreviation) in types {
        bytes += withUnsafeBytes(of: offset.bigEndian) { Array($0) } + [isDaylight, abbreviation]
      }
      bytes += Array(characters.utf8)
      for index in 0..<leaps {
        bytes += [UInt8](repeating: 0, count: timeSize - 1) + [UInt8(index)] + [0, 0, 0, 1]
      }
      bytes += [UInt8](repeating: 0, count: types.count * 2)
      return bytes
    }
    var bytes = header() + block(timeSize: 4)
    if version != 0 { bytes += header() + block(timeSize: 8) + Array("\n\(footer)\n".utf8) }
    return bytes
  }

  @Test func aVersion1FileIsReadWithoutFooter() throws {
    let rules = try TZif.rules(
      from: Self.file(version: 0, transitions: [-100, 5000], indices: [1, 0]))
    #expect(rules.footer == nil)
    #expect(rules.localTimeType(at: -101).abbreviation == "AAA")
    #expect(rules.localTimeType(at: -100).abbreviation == "BBB")
    #expect(rules.utcOffset(at: 4999) == 7200)
    #expect(rules.utcOffset(at: 5000) == 3600)
    #expect(rules.utcOffset(at: .max) == 3600)
  }

  @Test func aVersion2FileSkipsItsFirstBlockAndReadsItsFooter() throws {
    // Times that 32 bits cannot hold, and a footer that differs from the last type.
    let rules = try TZif.rules(
      from: Self.file(transitions: [-5_000_000_000, 5_000_000_000], footer: "CCC-3"))
    #expect(rules.transitions == [-5_000_000_000, 5_000_000_000])
    #expect(rules.utcOffset(at: -5_000_000_001) == 3600)
    #expect(rules.localTimeType(at: 0).abbreviation == "BBB")
    #expect(rules.utcOffset(at: 5_000_000_000) == 3600)
    #expect(rules.localTimeType(at: 5_000_000_001).abbreviation == "CCC")
    #expect(rules.utcOffset(at: 5_000_000_001) == 10800)
  }

  @Test(arguments: [UInt8(ascii: "3"), UInt8(ascii: "4")])
  func versions3And4ReadLikeVersion2(version: UInt8) throws {
    let rules = try TZif.rules(
      from: Self.file(version: version, footer: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
    #expect(rules.footer?.standardName == "-02")
  }

  @Test func leapSecondRecordsAreReadPastAndIgnored() throws {
    let rules = try TZif.rules(from: Self.file(leaps: 3))
    #expect(rules.utcOffset(at: 500) == 7200)
    #expect(rules.footer?.standardName == "AAA")
  }

  @Test func anEmptyFooterLeavesTheLastTypeInEffect() throws {
    let rules = try TZif.rules(from: Self.file(footer: ""))
    #expect(rules.footer == nil)
    #expect(rules.localTimeType(at: .max).abbreviation == "AAA")
  }

  @Test func countsBeyondTheFileAreRefusedBeforeAnythingIsAllocated() {
    let huge: UInt32 = .max
    for counts in [
      [0, 0, 0, huge, 1, 4], [0, 0, huge, 0, 1, 4], [huge, huge, huge, huge, huge, huge],
      [0, 0, 0, 0, huge, huge],
    ] as [[UInt32]] {
      #expect(throws: ZoneDataError.self, "\(counts)") {
        try TZif.rules(from: Self.file(version: 0, counts: counts))
      }
      do {
        _ = try TZif.rules(from: Self.file(counts: counts))
        Issue.record("accepted \(counts)")
      } catch {
        guard case .truncated(let needed, let found) = error.problem else {
          Issue.record("\(error)")
          continue
        }
        #expect(needed > found)
      }
    }
  }

  @Test func aFileWithoutTheMagicIsNoTZifFile() {
    #expect(throws: ZoneDataError(.notTZif)) { try TZif.rules(from: Self.file(magic: "TZXF")) }
    #expect(throws: ZoneDataError(.notTZif)) { try TZif.rules(from: Array("# tzdata".utf8)) }
    #expect(
      throws: ZoneDataError(.truncated(needed: 44, found: 3))
    ) { try TZif.rules(from: [84, 90, 105]) }
  }

  @Test func contradictionsAreRefusedWithAReason() {
    let broken: [(String, [UInt8])] = [
      ("index", Self.file(indices: [1, 2])),
      ("order", Self.file(transitions: [1000, 0])),
      ("repeated time", Self.file(transitions: [1000, 1000])),
      ("abbreviation", Self.file(types: [(3600, 0, 0), (7200, 1, 40)])),
      ("flag", Self.file(types: [(3600, 0, 0), (7200, 2, 4)])),
      ("offset", Self.file(types: [(3600, 0, 0), (.min, 1, 4)])),
      ("offset of 26 hours", Self.file(types: [(3600, 0, 0), (93_600, 1, 4)])),
      ("offset of -25 hours", Self.file(types: [(-90_000, 0, 0), (7200, 1, 4)])),
      ("no types", Self.file(transitions: [], indices: [], types: [])),
      ("footer", Self.file(footer: "Europe/Berlin")),
      ("indicators", Self.file(version: 0, counts: [1, 0, 0, 2, 2, 8])),
      ("version", Self.file(version: UInt8(ascii: "1"))),
    ]
    for (name, bytes) in broken {
      do {
        _ = try TZif.rules(from: bytes)
        Issue.record("\(name): accepted")
      } catch {
        guard case .invalid = error.problem else {
          Issue.record("\(name): \(error)")
          continue
        }
      }
    }
  }

  @Test func theErrorNamesTheFileAndWhatIsWrong() {
    #expect(
      ZoneDataError(.truncated(needed: 100, found: 60), path: "/z/Europe/Berlin").description
        == "'/z/Europe/Berlin' is not a valid TZif file: it is cut short (its header announces 100 bytes, it has 60)"
    )
    #expect(
      ZoneDataError(.notTZif, path: "/z/zone.tab").description
        == "'/z/zone.tab' is not a TZif file (it does not start with 'TZif')")
  }
}
