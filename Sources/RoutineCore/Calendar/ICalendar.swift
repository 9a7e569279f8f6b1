import Foundation

/// An iCalendar document (RFC 5545) as it is written: content lines ending in CRLF, folded so
/// that no line is longer than 75 octets, text values escaped.
///
/// Only writing: routine makes calendars for other programs to read, it never reads one.
public struct ICalendarWriter: Sendable {
  /// The document so far, UTF-8.
  public private(set) var bytes: [UInt8] = []

  /// The longest line RFC 5545 allows, in octets, without its CRLF.
  public static let maximumLineOctets = 75

  /// An empty document.
  public init() {
    bytes.reserveCapacity(4096)
  }

  /// The document as text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// `BEGIN:NAME`.
  public mutating func begin(_ name: String) {
    line("BEGIN:\(name)")
  }

  /// `END:NAME`.
  public mutating func end(_ name: String) {
    line("END:\(name)")
  }

  /// A property whose value is written as given (a date, a rule, a number): the caller makes it
  /// valid for its type. Parameter values are quoted when they need it.
  public mutating func property(
    _ name: String, _ value: String, parameters: KeyValuePairs<String, String> = [:]
  ) {
    var line = name
    for (key, parameter) in parameters {
      line += ";\(key)=\(ICalendarWriter.parameterValue(parameter))"
    }
    line += ":"
    line += value
    self.line(line)
  }

  /// A property of type TEXT (SUMMARY, DESCRIPTION): escaped.
  public mutating func text(_ name: String, _ value: String) {
    line("\(name):\(ICalendarWriter.escaped(value))")
  }

  /// One content line, folded, with its CRLF.
  public mutating func line(_ line: String) {
    ICalendarWriter.fold(Array(line.utf8), into: &bytes)
  }

  /// `text` escaped as an RFC 5545 TEXT value: backslash, semicolon and comma behind a
  /// backslash, each line break (LF, CR or CRLF) as `\n`. Other control characters, which a TEXT
  /// value may not hold (RFC 5545, 3.3.11), become U+FFFD so that something shows where they
  /// were; a tab stays. Bidirectional formatting characters are dropped (``BidiControls``): a
  /// calendar shows text as it is.
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var previousWasCR = false
    for scalar in text.unicodeScalars {
      defer { previousWasCR = scalar == "\r" }
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\r": result += "\\n"
      case "\n": if !previousWasCR { result += "\\n" }
      case "\t": result.unicodeScalars.append(scalar)
      default:
        if BidiControls.contains(scalar) { continue }
        if scalar.value < 0x20 || scalar.value == 0x7F {
          result += "\u{FFFD}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }

  /// A parameter value (a TZID): in double quotes when it holds `:`, `;` or `,`. A double quote
  /// or control character cannot appear in one at all (RFC 5545, 3.1): a double quote becomes an
  /// apostrophe and a control character U+FFFD.
  public static func parameterValue(_ value: String) -> String {
    var cleaned = ""
    var needsQuotes = false
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": cleaned += "'"
      case ":", ";", ",":
        needsQuotes = true
        cleaned.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F {
          cleaned += "\u{FFFD}"
        } else {
          cleaned.unicodeScalars.append(scalar)
        }
      }
    }
    return needsQuotes ? "\"\(cleaned)\"" : cleaned
  }

  /// Appends `line` to `output` folded at ``maximumLineOctets`` octets: each continuation line
  /// starts with a space, and a fold never splits a UTF-8 sequence (a reader that unfolds before
  /// decoding gets the text back; one that decodes each physical line sees no broken character).
  public static func fold(_ line: [UInt8], into output: inout [UInt8]) {
    var start = 0
    var limit = maximumLineOctets
    while line.count - start > limit {
      var cut = start + limit
      // Back up to the first byte of a UTF-8 sequence (continuation bytes are 10xxxxxx).
      while cut > start, line[cut] & 0xC0 == 0x80 { cut -= 1 }
      output.append(contentsOf: line[start..<cut])
      output.append(contentsOf: [0x0D, 0x0A, 0x20])
      start = cut
      // The leading space counts toward the next line's 75 octets.
      limit = maximumLineOctets - 1
    }
    output.append(contentsOf: line[start...])
    output.append(contentsOf: [0x0D, 0x0A])
  }
}

/// How dates and times are written in a calendar.
public enum ICalendarTime {
  /// `20260329T023000`: a local date and time (DATE-TIME form 2, with a TZID).
  public static func local(_ localSeconds: Int64) -> String {
    let days = floorDiv(Int(localSeconds), 86_400)
    let seconds = Int(localSeconds) - days * 86_400
    let (year, month, day) = LocalDate(daysSince1970: days).components
    return
      "\(pad(year, 4))\(pad(month, 2))\(pad(day, 2))T\(pad(seconds / 3600, 2))\(pad(seconds / 60 % 60, 2))\(pad(seconds % 60, 2))"
  }

  /// `20260329T013000Z`: an instant in UTC (DATE-TIME form 3).
  public static func utc(_ instant: Int64) -> String {
    local(instant) + "Z"
  }

  /// `+0100`, `-0930`, `+013412` (seconds only when there are some): a UTC-OFFSET value.
  public static func offset(_ seconds: Int64) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let magnitude = Int(abs(seconds))
    let text = "\(sign)\(pad(magnitude / 3600, 2))\(pad(magnitude / 60 % 60, 2))"
    return magnitude % 60 == 0 ? text : text + pad(magnitude % 60, 2)
  }

  /// `PT5M`, `PT0S`: a DURATION value of whole seconds.
  public static func duration(seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : ""
    let magnitude = abs(seconds)
    if magnitude == 0 { return "PT0S" }
    var text = "\(sign)PT"
    if magnitude >= 3600 { text += "\(magnitude / 3600)H" }
    if magnitude / 60 % 60 != 0 { text += "\(magnitude / 60 % 60)M" }
    if magnitude % 60 != 0 { text += "\(magnitude % 60)S" }
    return text
  }
}
