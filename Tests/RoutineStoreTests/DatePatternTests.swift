import Foundation
import RoutineCore
import Testing

@testable import RoutineStore

/// `--date-format`: a declared pattern read by hand.
struct DatePatternTests {
  func iso(_ pattern: String, _ text: String) throws -> String? {
    let pattern = try DatePattern(pattern)
    return Array(text.utf8).withUnsafeBytes { pattern.isoText($0) }
  }

  @Test(arguments: [
    ("dd.MM.yyyy HH:mm", "04.03.2026 23:30", "2026-03-04T23:30:00"),
    ("dd. MM. yyyy HH:mm", "04. 03. 2026 23:30", "2026-03-04T23:30:00"),
    ("yyyy-MM-dd h:mma", "2026-03-04 11:12PM", "2026-03-04T23:12:00"),
    ("M/d/yyyy h:mm a", "3/4/2026 12:05 am", "2026-03-04T00:05:00"),
    ("M/d/yyyy h:mm a", "3/4/2026 12:05 p.m.", "2026-03-04T12:05:00"),
    ("yyyy-MM-dd'T'HH:mm:ss.SSS", "2026-03-04T23:12:30.000", "2026-03-04T23:12:30"),
    ("d MMM yyyy HH:mm", "4 Mar 2026 07:05", "2026-03-04T07:05:00"),
    ("d MMMM yyyy HH:mm", "4 March 2026 07:05", "2026-03-04T07:05:00"),
    ("yyyy-MM-dd HH:mm XXX", "2026-03-04 07:05 +02:00", "2026-03-04T07:05:00+02:00"),
    ("yyyy-MM-dd HH:mm Z", "2026-03-04 07:05 -0500", "2026-03-04T07:05:00-05:00"),
  ])
  func aPatternReadsItsDates(pattern: String, text: String, expected: String) throws {
    #expect(try iso(pattern, text) == expected)
  }

  @Test(arguments: [
    ("dd.MM.yyyy HH:mm", "4.3.2026 23:30"),  // two letters, two digits
    ("dd.MM.yyyy HH:mm", "31.02.2026 23:30"),  // no such day
    ("dd.MM.yyyy HH:mm", "04.03.2026 24:00"),
    ("dd.MM.yyyy HH:mm", "04.03.2026 23:30 extra"),
    ("yyyy-MM-dd h:mm a", "2026-03-04 13:05 PM"),
  ])
  func textThatDoesNotFollowThePatternIsRefused(pattern: String, text: String) throws {
    #expect(try iso(pattern, text) == nil)
  }

  @Test(arguments: [
    (
      "dd.MM.yy",
      "'yy' is not a pattern field; expected yyyy, MM, dd, HH, hh, mm, ss, a, ... (docs/formats.md)"
    ),
    ("HH:mm", "expected a pattern with a year, a month and a day (yyyy, MM, dd); found 'HH:mm'"),
    (
      "yyyy-MM-dd hh:mm",
      "hh (hour 1-12) goes with a (AM or PM), HH reads 0-23; found 'yyyy-MM-dd hh:mm'"
    ),
    (
      "yyyy-MM-ddTHH:mm",
      "'T' is not a pattern field; expected yyyy, MM, dd, HH, hh, mm, ss, a, ... (put literal letters in single quotes: 'T')"
    ),
  ])
  func aBadPatternSaysWhy(pattern: String, message: String) {
    #expect {
      _ = try DatePattern(pattern)
    } throws: { error in
      (error as? DatePattern.Problem)?.message == message
    }
  }

  @Test(arguments: [
    (UInt8(ascii: ","), "1,250", 1250.0), (UInt8(ascii: ","), "1,250,000.5", 1_250_000.5),
    (UInt8(ascii: ","), "250", 250.0), (UInt8(ascii: "."), "1.250,5", 1250.5),
    (UInt8(ascii: " "), "12 500", 12500.0), (UInt8(ascii: "'"), "-1'250", -1250.0),
  ])
  func thousandsSeparatorsAreDroppedBetweenGroupsOfThree(
    separator: UInt8, text: String, expected: Double
  ) {
    let options = ReadingOptions(thousands: separator)
    var scratch = ByteScratch()
    defer { scratch.deallocate() }
    let value = Array(text.utf8).withUnsafeBytes { options.number($0, scratch: &scratch) }
    #expect(value == expected)
  }

  @Test(arguments: ["1,25", "12,50,0", ",250", "1,2500"])
  func aSeparatorOutOfPlaceIsNoNumber(text: String) {
    let options = ReadingOptions(thousands: UInt8(ascii: ","))
    var scratch = ByteScratch()
    defer { scratch.deallocate() }
    #expect(Array(text.utf8).withUnsafeBytes { options.number($0, scratch: &scratch) } == nil)
  }
}
