import Foundation
import Testing

@testable import RoutineCore

struct TimestampTests {
  @Test(arguments: [
    ("2026-04-20T07:05:00+02:00", "2026-04-20T07:05:00+02:00"),
    ("2026-04-20T07:05+02:00", "2026-04-20T07:05:00+02:00"),
    ("2026-04-20T05:05:00Z", "2026-04-20T05:05:00+00:00"),
    ("2026-04-20T05:05z", "2026-04-20T05:05:00+00:00"),
    ("2026-04-20 07:05:09+0200", "2026-04-20T07:05:09+02:00"),
    ("2026-04-20T07:05:09.123456+02", "2026-04-20T07:05:09+02:00"),
    ("2026-04-20T01:35:00-05:30", "2026-04-20T01:35:00-05:30"),
    ("2026-01-01T00:10:00+05:45", "2026-01-01T00:10:00+05:45"),
  ])
  func parsesTheAcceptedFormsAndKeepsTheOffset(text: String, expected: String) throws {
    let timestamp = try #require(Timestamp(iso8601: text))
    #expect(timestamp.iso8601 == expected)
  }

  @Test(arguments: [
    "2026-04-20T07:05:00", "2026-04-20", "07:05", "2026-13-01T07:05Z", "2026-04-31T07:05Z",
    "2026-04-20T24:00Z", "2026-04-20T07:60Z", "2026-04-20T07:05:61Z", "2026-04-20T07:05+19:00",
    "2026-04-20T07:05+02:00x", "2026-04-20X07:05Z", "2026/04/20T07:05Z", "", "Wake Up",
    "2026-04-20T07:05:00.Z", "2026-04-20T07:05+2:00",
  ])
  func rejectsTimestampsWithoutAValidOffsetOrDate(text: String) {
    #expect(Timestamp(iso8601: text) == nil)
  }

  @Test func localTimeIsTheEventsOwnWallClock() {
    let evening = stamp("2026-04-20T23:30:00-04:00")
    #expect(evening.localDate == date(2026, 4, 20))
    #expect(evening.timeOfDay.description == "23:30")
    #expect(evening.secondsSince1970 == stamp("2026-04-21T03:30:00Z").secondsSince1970)
  }

  @Test func theSameInstantInTwoOffsetsHasTwoWallClocks() {
    let berlin = stamp("2026-04-20T07:00:00+02:00")
    let newYork = stamp("2026-04-20T01:00:00-04:00")
    #expect(berlin.secondsSince1970 == newYork.secondsSince1970)
    #expect(berlin.timeOfDay != newYork.timeOfDay)
  }

  @Test func occurrencesPackTimeAndOffsetWithoutLoss() {
    for text in [
      "2026-04-20T07:05:09+02:00", "1901-12-13T20:45:52-11:30", "2099-12-31T23:59:59+14:00",
      "1970-01-01T00:00:00+00:00", "1969-12-31T23:59:59-00:01",
    ] {
      let timestamp = stamp(text)
      let occurrence = EventTime(timestamp)
      #expect(occurrence.timestamp == timestamp, "\(text)")
      #expect(occurrence.localDate == timestamp.localDate)
      #expect(occurrence.timeOfDay == timestamp.timeOfDay)
    }
    #expect(
      EventTime(stamp("2026-04-20T07:00+02:00")) < EventTime(stamp("2026-04-20T07:01+05:00")))
  }

  @Test func aParserReusingItsDateCacheAgreesWithAFreshOne() {
    var parser = TimestampParser()
    for text in [
      "2026-04-20T07:05Z", "2026-04-20T08:05+01:00", "2026-04-21T00:00Z",
      "2026-04-20T23:59:59-12:00",
    ] {
      var copy = text
      let parsed = copy.withUTF8 { parser.parse(UnsafeRawBufferPointer($0)) }
      #expect(parsed == Timestamp(iso8601: text))
    }
    var invalid = "2026-02-30T07:05Z"
    #expect(invalid.withUTF8 { parser.parse(UnsafeRawBufferPointer($0)) } == nil)
  }
}

struct TimeOfDayTests {
  @Test func timesOfDayAreCircular() {
    let late = TimeOfDay(parsing: "23:50")!
    let early = TimeOfDay(parsing: "00:10")!
    #expect(late.distance(to: early) == 20 * 60)
    #expect(late.signedDistance(to: early) == 20 * 60)
    #expect(early.signedDistance(to: late) == -20 * 60)
    #expect(TimeOfDay.circularMean([late, early])?.description == "00:00")
    #expect(
      TimeOfDay.circularMean([TimeOfDay(parsing: "06:00")!, TimeOfDay(parsing: "18:00")!]) == nil)
    #expect(
      TimeOfDay.circularMean([TimeOfDay(parsing: "07:00")!, TimeOfDay(parsing: "07:30")!])?
        .description == "07:15")
  }

  @Test func parsingAcceptsTwentyFourHourTimesOnly() {
    #expect(TimeOfDay(parsing: "7:05")?.description == "07:05")
    #expect(TimeOfDay(parsing: "23:59")?.description == "23:59")
    for bad in ["24:00", "12:60", "12", "12:5", "ab:cd", "12:30:00"] {
      #expect(TimeOfDay(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func displayRoundsToTheNearestMinuteAndWraps() {
    #expect(TimeOfDay(secondsSinceMidnight: 7 * 3600 + 29).description == "07:00")
    #expect(TimeOfDay(secondsSinceMidnight: 7 * 3600 + 30).description == "07:01")
    #expect(TimeOfDay(secondsSinceMidnight: 86_399).description == "00:00")
    #expect(TimeOfDay(secondsSinceMidnight: -60).description == "23:59")
  }
}

struct EventKindTests {
  @Test func spellingsThatDifferOnlyInCaseAndSpacingAreOneKind() {
    let kinds = ["Wake Up", "wake up", "  WAKE   up ", "Wake\tUp"].map { EventKind($0)! }
    for kind in kinds {
      #expect(kind == kinds[0])
      #expect(kind.key == "wake up")
    }
    #expect(Set(kinds).count == 1)
    #expect(EventKind("  WAKE   up ")!.name == "WAKE up")
    #expect(EventKind("Wake-Up") != EventKind("Wake Up"))
  }

  @Test func blankNamesAreNotKinds() {
    #expect(EventKind("") == nil)
    #expect(EventKind("   \t ") == nil)
    #expect(EventKind("\u{00A0}") == nil)
  }

  @Test func knownKindsAreRecognizedWhateverTheSpelling() {
    #expect(EventKind("leaving  HOME")!.known == .leavingHome)
    #expect(EventKind("Coffee")!.known == nil)
  }
}

struct TimestampPropertyTests {
  /// A slow, obviously correct reader of `YYYY-MM-DDTHH:MM:SS±HH:MM`, for comparison.
  static func reference(_ text: String) -> Timestamp? {
    let characters = Array(text)
    guard characters.count == 25 else { return Timestamp(iso8601: text) }
    func number(_ range: Range<Int>) -> Int? {
      let part = String(characters[range])
      guard part.allSatisfy({ $0 >= "0" && $0 <= "9" }) else { return nil }
      return Int(part)
    }
    guard characters[4] == "-", characters[7] == "-", "Tt ".contains(characters[10]),
      characters[13] == ":", characters[16] == ":", "+-".contains(characters[19]),
      characters[22] == ":",
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      let offsetHours = number(20..<22), let offsetMinutes = number(23..<25),
      let date = LocalDate(year: year, month: month, day: day),
      hour < 24, minute < 60, second < 60, offsetHours <= 18, offsetMinutes < 60
    else { return nil }
    let sign = characters[19] == "-" ? -1 : 1
    let offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
    let local = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return Timestamp(secondsSince1970: local - Int64(offset), utcOffsetSeconds: Int32(offset))
  }

  @Test func theFastPathAgreesWithAReferenceOnValidAndCorruptedTimestamps() {
    var random = SplitMix64(seed: 99)
    var parser = TimestampParser()
    let alphabet = Array("0123456789:+-TZ t/.x")
    var checked = 0
    for _ in 0..<20_000 {
      let valid = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", random.integer(in: 1900...2100),
        random.integer(in: 1...12), random.integer(in: 1...28), random.integer(in: 0...23),
        random.integer(in: 0...59), random.integer(in: 0...59), random.chance(0.5) ? "+" : "-",
        random.integer(in: 0...14), [0, 30, 45][random.integer(in: 0...2)])
      var characters = Array(valid)
      // Corrupt a third of them in one place.
      if random.chance(0.33) {
        characters[random.integer(in: 0...24)] =
          alphabet[random.integer(in: 0...(alphabet.count - 1))]
      }
      var text = String(characters)
      let parsed = text.withUTF8 { parser.parse(UnsafeRawBufferPointer($0)) }
      #expect(parsed == Self.reference(text), "\(text)")
      checked += 1
    }
    #expect(checked == 20_000)
  }
}
