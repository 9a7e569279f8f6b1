import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// The system's tz database, played by a temporary `TZDIR` of zones compiled by the test.
@Suite(
  .enabled(if: ZoneCompiler.isAvailable, "zic (/usr/sbin/zic, Debian's libc-bin) is not installed"))
struct ZoneDatabaseTests {
  let directory = TemporaryDirectory()
  var root: String { directory.path("zoneinfo") }

  init() throws {
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try ZoneCompiler.compile(ZoneCompiler.madeUp, into: root)
    // A symbolic link too (zic makes hard links where it can).
    try FileManager.default.createSymbolicLink(
      atPath: root + "/Test/Symlinked", withDestinationPath: "Made_Up")
  }

  static let summer = Timestamp(iso8601: "2026-07-01T12:00:00Z")!.secondsSince1970
  static let winter = Timestamp(iso8601: "2026-01-01T12:00:00Z")!.secondsSince1970

  @Test func aZoneIsReadFromItsFileInTheDirectory() throws {
    let database = ZoneDatabase(directory: root)
    let zone = try #require(try database.zone(named: "Test/Made_Up"))
    #expect(zone.identifier == "Test/Made_Up")
    #expect(zone.source == .database(path: root + "/Test/Made_Up"))
    #expect(zone.offset(at: Self.summer) == 17400)
    #expect(zone.offset(at: Self.winter) == 12000)
    #expect(zone.abbreviation(at: Self.summer) == "MUST")
    #expect(zone.isDaylightSavingTime(at: Self.summer))
  }

  @Test func aNameIsMatchedIgnoringCasePartByPart() throws {
    let database = ZoneDatabase(directory: root)
    for name in ["test/made_up", "TEST/MADE_UP", "Test/made_Up"] {
      let zone = try #require(try database.zone(named: name), "\(name)")
      #expect(zone.identifier == "Test/Made_Up")
      #expect(zone.offset(at: Self.summer) == 17400)
    }
  }

  @Test func aLinkHasTheRulesOfItsTargetAndKeepsItsName() throws {
    let database = ZoneDatabase(directory: root)
    for name in ["Test/Alias", "test/symlinked"] {
      let zone = try #require(try database.zone(named: name))
      #expect(zone.identifier == (name == "Test/Alias" ? "Test/Alias" : "Test/Symlinked"))
      #expect(zone.offset(at: Self.summer) == 17400)
      #expect(zone.offset(at: Self.winter) == 12000)
    }
  }

  @Test(arguments: [
    "../outside", "Test/../../outside", "/etc/localtime", "./Test/Made_Up", "Test//Made_Up",
    "Test/./Made_Up", "Test/../Test/Made_Up", "", "Test/Made_Up/", "localtime", "posixrules",
    "right/Test/Made_Up",
  ])
  func aNameThatCouldLeaveTheDirectoryNamesNothing(name: String) throws {
    // A valid zone just outside the directory: reachable only by escaping it.
    try FileManager.default.copyItem(
      atPath: root + "/Test/Made_Up", toPath: directory.path("outside"))
    let database = ZoneDatabase(directory: root)
    #expect(try database.databaseZone(named: name) == nil)
    #expect(try database.zone(named: name) == nil)
  }

  @Test func aZoneTheDirectoryLacksComesFromFoundation() throws {
    let database = ZoneDatabase(directory: root)
    let tokyo = try #require(try database.zone(named: "asia/tokyo"))
    #expect(tokyo.identifier == "Asia/Tokyo")
    #expect(tokyo.source == .foundation)
    #expect(tokyo.offset(at: Self.summer) == 32400)
    #expect(try database.zone(named: "Mars/Olympus") == nil)
    // Without a directory at all, every zone does.
    let missing = ZoneDatabase(directory: directory.path("nowhere"))
    #expect(!missing.exists)
    #expect(try missing.zone(named: "Europe/Berlin")?.source == .foundation)
  }

  @Test func foundationsOffsetZonesAreNoZones() throws {
    // Foundation reads GMT+5 as five hours ahead of UTC, POSIX and the database as behind.
    let database = ZoneDatabase(directory: root)
    for name in ["GMT+5", "gmt-3", "UTC+03:30", "UT+1"] {
      #expect(try database.zone(named: name) == nil, "\(name)")
    }
    #expect(try database.zone(named: "GMT")?.source == .foundation)
  }

  @Test func aFileThatIsNotTZifIsNoZone() throws {
    _ = directory.file("zoneinfo/zone.tab", "# tz zone descriptions\n")
    #expect(try ZoneDatabase(directory: root).zone(named: "zone.tab") == nil)
    #expect(try ZoneDatabase(directory: root).zone(named: "Test") == nil)
  }

  @Test func aDamagedFileIsAnErrorThatNamesIt() throws {
    let bytes = try #require(try ZoneDatabase.readZoneFile(root + "/Test/Made_Up"))
    _ = directory.file("zoneinfo/Test/Broken", bytes: Array(bytes.prefix(100)))
    let database = ZoneDatabase(directory: root)
    let error = try #require(throws: ZoneDataError.self) {
      try database.zone(named: "Test/Broken")
    }
    #expect(error.path == root + "/Test/Broken")
    guard case .truncated(_, found: 100) = error.problem else {
      Issue.record("\(error)")
      return
    }
  }

  @Test func loadedZonesAreKeptForTheProcess() throws {
    let database = ZoneDatabase.shared(directory: root + "/")
    #expect(database === ZoneDatabase.shared(directory: root))
    #expect(try database.zone(named: "Test/Made_Up") != nil)
    try FileManager.default.removeItem(atPath: root + "/Test/Made_Up")
    #expect(try database.zone(named: "Test/Made_Up")?.offset(at: Self.summer) == 17400)
  }

  @Test func anAbsolutePathReadsThatFileNamedAfterItsZoneinfoDirectory() throws {
    let database = ZoneDatabase(directory: root)
    #expect(try database.zone(atPath: root + "/test/made_up")?.identifier == "Test/Made_Up")
    // Another database's file (TZ=/usr/share/zoneinfo/... with TZDIR elsewhere): read as glibc
    // would, that file.
    let other = directory.path("zoneinfo-copy")
    try FileManager.default.createDirectory(
      atPath: other + "/zoneinfo/Test", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: root + "/Test/Made_Up", toPath: other + "/zoneinfo/Test/Copy")
    let copy = try #require(try database.zone(atPath: other + "/zoneinfo/Test/Copy"))
    #expect(copy.identifier == "Test/Copy")
    #expect(copy.offset(at: Self.summer) == 17400)
    #expect(try database.zone(atPath: root + "/../outside") == nil)
    #expect(try database.zone(atPath: "/etc/passwd") == nil)
  }

  @Test func theVersionIsReadFromTzdataZiElsePlusVersion() throws {
    #expect(ZoneDatabase(directory: root).version == nil)
    _ = directory.file("zoneinfo/+VERSION", "2099y\n")
    #expect(ZoneDatabase(directory: root).version == "2099y")
    _ = directory.file(
      "zoneinfo/tzdata.zi", "# version 2099z\n# ddeps\nZ Test/Made_Up 0:40 - LMT\n")
    #expect(ZoneDatabase(directory: root).version == "2099z")
  }

  @Test func theNamesComeFromTzdataZiElseTheTablesElseTheFiles() throws {
    #expect(
      ZoneDatabase(directory: root).names == ["Test/Alias", "Test/Made_Up", "Test/Symlinked"])
    _ = directory.file("zoneinfo/zone.tab", "# comment\nXX\t+0000+00000\tTest/Made_Up\n")
    #expect(ZoneDatabase(directory: root).names == ["Test/Made_Up"])
    _ = directory.file(
      "zoneinfo/tzdata.zi",
      "# version 2099z\nZ Test/Made_Up 0:40 - LMT\nL Test/Made_Up Test/Alias\n")
    #expect(ZoneDatabase(directory: root).names == ["Test/Alias", "Test/Made_Up"])
  }

  @Test func theSystemZoneIsNamedByItsLinkIntoTheDatabase() throws {
    let link = directory.path("localtime")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "zoneinfo/Test/Made_Up")
    let zone = try ZoneDatabase(directory: root).systemZone(
      localtime: link, timezoneFile: directory.path("timezone"))
    #expect(zone.identifier == "Test/Made_Up")
    #expect(zone.source == .database(path: root + "/Test/Made_Up"))
    #expect(zone.offset(at: Self.summer) == 17400)
  }

  @Test func aCopiedSystemZoneIsNamedByEtcTimezoneElseLocaltime() throws {
    let copy = directory.path("localtime")
    try FileManager.default.copyItem(atPath: root + "/Test/Made_Up", toPath: copy)
    let database = ZoneDatabase(directory: root)
    let unnamed = try database.systemZone(localtime: copy, timezoneFile: directory.path("none"))
    #expect(unnamed.identifier == "localtime")
    #expect(unnamed.offset(at: Self.summer) == 17400)
    let named = try database.systemZone(
      localtime: copy, timezoneFile: directory.file("timezone", "Test/Made_Up\n"))
    #expect(named.identifier == "Test/Made_Up")
    #expect(named.source == .database(path: copy))
  }

  @Test func withoutASystemZoneFileTheSystemZoneIsUTC() throws {
    let database = ZoneDatabase(directory: root)
    #expect(
      try database.systemZone(localtime: directory.path("none"), timezoneFile: "/nonexistent")
        == Zone.utc)
    let broken = directory.file("broken", "TZif2 but nothing else")
    #expect(throws: ZoneDataError.self) {
      try database.systemZone(localtime: broken, timezoneFile: "/nonexistent")
    }
    let text = directory.file("text", "Europe/Berlin\n")
    #expect(throws: ZoneDataError(.notTZif, path: text)) {
      try database.systemZone(localtime: text, timezoneFile: "/nonexistent")
    }
  }
}
