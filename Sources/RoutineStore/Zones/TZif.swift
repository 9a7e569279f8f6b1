import RoutineCore

/// Reads TZif files, the compiled form of the tz database (RFC 8536, versions 1 to 4).
///
/// A file is a header and a data block with 32-bit times (version 1), followed from version 2 on
/// by a second header and block with 64-bit times and a footer: a POSIX TZ rule between two
/// newlines, for the instants after the table. A reader of version 2 or later data skips the
/// first block. Leap-second records are read past and ignored: routine counts seconds as POSIX
/// time does, without leap seconds, like the files under `zoneinfo/` (not `right/`).
///
/// Every count in a header is checked against the bytes that follow before anything is
/// allocated, so a hostile or damaged file is refused, never read past its end.
public enum TZif {
  /// The four bytes every TZif file starts with.
  public static let magic: [UInt8] = Array("TZif".utf8)

  /// Whether `bytes` start like a TZif file.
  public static func hasMagic(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 4 && bytes[0..<4].elementsEqual(magic)
  }

  /// The zone rules of the TZif file `bytes`.
  public static func rules(from bytes: [UInt8]) throws(ZoneDataError) -> ZoneRules {
    var reader = Reader(bytes: bytes)
    let first = try reader.header()
    let table: Table
    var footer: PosixZoneRule?
    if first.version >= 2 {
      // Version 2 and later repeat the data with 64-bit times; the 32-bit block is skipped.
      try reader.skip(first.blockSize(timeSize: 4))
      table = try reader.block(try reader.header(), timeSize: 8)
      footer = try reader.footer()
    } else {
      table = try reader.block(first, timeSize: 4)
    }
    // Before the first transition, type 0 (RFC 8536, for version 2 and later; version 1
    // readers guessed, but zic has always written type 0 for it).
    guard
      let rules = ZoneRules(
        transitions: table.transitions, typeIndices: table.typeIndices, types: table.types,
        initialType: table.types[0], footer: footer)
    else { throw ZoneDataError(.invalid("its table is inconsistent")) }
    return rules
  }
}

/// The transitions and types of a data block.
private struct Table {
  var transitions: [Int64]
  var typeIndices: [Int]
  var types: [ZoneRules.LocalTimeType]
}

/// The counts a TZif header announces.
private struct Header {
  var version: Int
  var isUTCCount: Int
  var isStandardCount: Int
  var leapCount: Int
  var transitionCount: Int
  var typeCount: Int
  var characterCount: Int

  /// The bytes of the data block after this header. Counts are at most 2^32 - 1 each, so the
  /// sum fits an `Int` without overflow.
  func blockSize(timeSize: Int) -> Int {
    transitionCount * timeSize + transitionCount + typeCount * 6 + characterCount
      + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
  }
}

/// Reads big-endian fields, never past the end of the bytes.
private struct Reader {
  let bytes: [UInt8]
  var position = 0

  /// The 44-byte header at the current position.
  mutating func header() throws(ZoneDataError) -> Header {
    // Not TZif at all is said before cut short: a short text file is no zone.
    if position == 0, !TZif.hasMagic(bytes), !TZif.magic.starts(with: bytes) {
      throw ZoneDataError(.notTZif)
    }
    try need(44)
    guard bytes[position..<position + 4].elementsEqual(TZif.magic) else {
      throw ZoneDataError(
        position == 0 ? .notTZif : .invalid("its second header is not a TZif header"))
    }
    let versionByte = bytes[position + 4]
    let version: Int
    switch versionByte {
    case 0: version = 1
    // Later versions keep the layout of version 2 (RFC 8536, section 3.1).
    case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
    default:
      throw ZoneDataError(.invalid("its version byte is \(versionByte), not 0 or '2' to '9'"))
    }
    position += 20
    var counts: [Int] = []
    for _ in 0..<6 { counts.append(Int(try uint32())) }
    return Header(
      version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
      transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
  }

  /// Throws unless `count` more bytes are there.
  func need(_ count: Int) throws(ZoneDataError) {
    guard count <= bytes.count - position else {
      throw ZoneDataError(.truncated(needed: position + count, found: bytes.count))
    }
  }

  mutating func skip(_ count: Int) throws(ZoneDataError) {
    try need(count)
    position += count
  }

  mutating func uint32() throws(ZoneDataError) -> UInt32 {
    try need(4)
    defer { position += 4 }
    return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
  }

  mutating func int64() throws(ZoneDataError) -> Int64 {
    try need(8)
    defer { position += 8 }
    return Int64(bitPattern: bytes[position..<position + 8].reduce(0) { $0 << 8 | UInt64($1) })
  }

  /// The data block `header` announces, its times `timeSize` bytes wide.
  mutating func block(_ header: Header, timeSize: Int) throws(ZoneDataError) -> Table {
    // Everything the counts announce must be there before any of it is allocated.
    try need(header.blockSize(timeSize: timeSize))
    guard header.typeCount > 0 else {
      throw ZoneDataError(.invalid("it has no local time types"))
    }
    guard header.characterCount > 0 else {
      throw ZoneDataError(.invalid("it has no abbreviations"))
    }
    guard [0, header.typeCount].contains(header.isUTCCount),
      [0, header.typeCount].contains(header.isStandardCount)
    else {
      throw ZoneDataError(.invalid("its UT and standard indicators do not match its types"))
    }
    var transitions: [Int64] = []
    transitions.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      let time = timeSize == 8 ? try int64() : Int64(Int32(bitPattern: try uint32()))
      if let last = transitions.last, last >= time {
        throw ZoneDataError(.invalid("its transition times are not in ascending order"))
      }
      transitions.append(time)
    }
    var typeIndices: [Int] = []
    typeIndices.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      let index = Int(bytes[position])
      position += 1
      guard index < header.typeCount else {
        throw ZoneDataError(
          .invalid("a transition names local time type \(index) of \(header.typeCount)"))
      }
      typeIndices.append(index)
    }
    var rawTypes: [(offset: Int32, isDaylightSaving: Bool, abbreviation: Int)] = []
    rawTypes.reserveCapacity(header.typeCount)
    for _ in 0..<header.typeCount {
      let offset = Int32(bitPattern: try uint32())
      let isDaylightSaving = bytes[position]
      let abbreviation = Int(bytes[position + 1])
      position += 2
      // RFC 8536: offsets from -24:59:59 to 25:59:59 (no real zone is 15 hours from UTC; a
      // timestamp's offset has two digits of hours), and the flag is 0 or 1.
      guard (-89_999...93_599).contains(offset), isDaylightSaving <= 1 else {
        throw ZoneDataError(.invalid("a local time type has an invalid offset or flag"))
      }
      guard abbreviation < header.characterCount else {
        throw ZoneDataError(.invalid("a local time type's abbreviation is outside the file's"))
      }
      rawTypes.append((offset, isDaylightSaving == 1, abbreviation))
    }
    let characters = bytes[position..<position + header.characterCount]
    position += header.characterCount
    let types = rawTypes.map { type in
      let start = characters.startIndex + type.abbreviation
      let end = characters[start...].firstIndex(of: 0) ?? characters.endIndex
      return ZoneRules.LocalTimeType(
        utcOffset: type.offset, isDaylightSaving: type.isDaylightSaving,
        abbreviation: String(decoding: characters[start..<end], as: UTF8.self))
    }
    // Leap-second records and the standard/wall and UT/local indicators: not needed.
    position += header.leapCount * (timeSize + 4) + header.isStandardCount + header.isUTCCount
    return Table(transitions: transitions, typeIndices: typeIndices, types: types)
  }

  /// The footer after a version 2+ block: a POSIX TZ rule between newlines, or `nil` when empty.
  mutating func footer() throws(ZoneDataError) -> PosixZoneRule? {
    try need(1)
    guard bytes[position] == UInt8(ascii: "\n") else {
      throw ZoneDataError(.invalid("its footer does not start with a newline"))
    }
    let start = position + 1
    guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
      throw ZoneDataError(.invalid("its footer does not end with a newline"))
    }
    position = end + 1
    guard end > start else { return nil }
    let text = String(decoding: bytes[start..<end], as: UTF8.self)
    guard let rule = PosixZoneRule(text) else {
      throw ZoneDataError(.invalid("its footer '\(text.prefix(60))' is not a POSIX TZ rule"))
    }
    return rule
  }
}
