import RoutineCore
import RoutineStore

/// Builds the lines of an events export as bytes, by hand: two million rows are written in
/// about a second only without a formatter or a `String` per field. The buffer is drained by
/// the caller whenever ``isFull``.
struct EventRows {
  /// The format written.
  let format: EventFileFormat
  /// The lines built since the last ``removeAll()`` (at first, CSV's header).
  private(set) var bytes: [UInt8] = []
  /// The local day whose `YYYY-MM-DDT` is in `dateText`: events come in time order, so most
  /// share their date with the one before.
  private var cachedDay = Int.min
  private var dateText: [UInt8] = []
  private var cachedOffset = Int32.min
  private var offsetText: [UInt8] = []

  /// The header line CSV starts with.
  static let csvHeader = "timestamp,event,value,note,source\n"

  init(format: EventFileFormat) {
    self.format = format
    bytes.reserveCapacity(1 << 20 + 4096)
    if format == .csv { bytes.append(contentsOf: Self.csvHeader.utf8) }
  }

  /// Whether the buffer holds enough to be written out.
  var isFull: Bool { bytes.count >= 1 << 20 }

  /// Empties the buffer, keeping its memory.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Appends the line of `event`.
  mutating func append(_ event: Event) {
    switch format {
    case .csv:
      appendTimestamp(event.timestamp)
      bytes.append(UInt8(ascii: ","))
      appendCSVField(event.kind.name)
      bytes.append(UInt8(ascii: ","))
      if let value = event.value { appendNumber(value) }
      bytes.append(UInt8(ascii: ","))
      if let note = event.note { appendCSVField(note) }
      bytes.append(UInt8(ascii: ","))
      bytes.append(contentsOf: event.source.rawValue.utf8)
    case .jsonl:
      bytes.append(contentsOf: #"{"timestamp": ""#.utf8)
      appendTimestamp(event.timestamp)
      bytes.append(contentsOf: #"", "event": "#.utf8)
      JSON.writeString(event.kind.name, to: &bytes)
      bytes.append(contentsOf: #", "value": "#.utf8)
      if let value = event.value {
        appendNumber(value)
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(contentsOf: #", "note": "#.utf8)
      if let note = event.note {
        JSON.writeString(note, to: &bytes)
      } else {
        bytes.append(contentsOf: "null".utf8)
      }
      bytes.append(contentsOf: #", "source": ""#.utf8)
      bytes.append(contentsOf: event.source.rawValue.utf8)
      bytes.append(contentsOf: #""}"#.utf8)
    }
    bytes.append(0x0A)
  }

  /// `2026-04-27T07:05:00+02:00`, as ``Timestamp/iso8601`` writes it.
  private mutating func appendTimestamp(_ timestamp: Timestamp) {
    let local = Int(timestamp.localSeconds)
    let second = ((local % 86_400) + 86_400) % 86_400
    let day = (local - second) / 86_400
    if day != cachedDay {
      let (year, _, _) = LocalDate(daysSince1970: day).components
      guard (0...9999).contains(year) else {
        // Years ISO 8601 writes with more digits or a sign: rare enough for the slow path.
        bytes.append(contentsOf: timestamp.iso8601.utf8)
        return
      }
      dateText = Array(timestamp.iso8601.utf8.prefix(11))
      cachedDay = day
    }
    bytes.append(contentsOf: dateText)
    appendTwo(second / 3600)
    bytes.append(UInt8(ascii: ":"))
    appendTwo(second / 60 % 60)
    bytes.append(UInt8(ascii: ":"))
    appendTwo(second % 60)
    if timestamp.utcOffsetSeconds != cachedOffset {
      offsetText = Array(timestamp.iso8601.utf8.suffix(6))
      cachedOffset = timestamp.utcOffsetSeconds
    }
    bytes.append(contentsOf: offsetText)
  }

  private mutating func appendTwo(_ value: Int) {
    bytes.append(UInt8(truncatingIfNeeded: 0x30 + value / 10))
    bytes.append(UInt8(truncatingIfNeeded: 0x30 + value % 10))
  }

  /// The shortest decimal that reads back as the same `Double` (Swift's own description, which
  /// guarantees it), with whole numbers below 2^63 written as integers (`1000000000000000`, not
  /// `1e+15`), which read back exactly too. Negative zero is written `0`: the store keeps no sign
  /// of zero.
  private mutating func appendNumber(_ value: Double) {
    if value == value.rounded(), abs(value) < 0x1p63 {
      var whole = Int(value)
      if whole == 0 {
        bytes.append(UInt8(ascii: "0"))
        return
      }
      if whole < 0 {
        bytes.append(UInt8(ascii: "-"))
        whole = -whole
      }
      let start = bytes.count
      while whole > 0 {
        bytes.append(UInt8(truncatingIfNeeded: 0x30 + whole % 10))
        whole /= 10
      }
      bytes[start...].reverse()
      return
    }
    bytes.append(contentsOf: JSON.format(value).utf8)
  }

  /// A CSV field: in double quotes (with `""` for a quote) when it holds a comma, a quote or a
  /// line break, or begins or ends with a space or a tab (unquoted fields are trimmed on import).
  /// Kept exactly otherwise: a note beginning with `=` stays as written (docs/formats.md says why).
  private mutating func appendCSVField(_ text: String) {
    let utf8 = text.utf8
    let needsQuotes =
      utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
      || utf8.first.map(isBlank) == true || utf8.last.map(isBlank) == true
    guard needsQuotes else {
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    for byte in utf8 {
      if byte == 0x22 { bytes.append(0x22) }
      bytes.append(byte)
    }
    bytes.append(0x22)
  }

  private func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
