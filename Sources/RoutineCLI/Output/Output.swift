import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered text sink: a file descriptor (stdout, stderr) or memory (tests).
///
/// Text written with ``write(_:)`` and ``line(_:)`` never carries a terminal control character:
/// any byte below 0x20 other than a line break, and DEL, is shown escaped (`\x1B`), as a last
/// line of defence behind the escaping of names and notes (``TerminalText``). A failed write is
/// remembered, not dropped: ``failure`` says why, and the command's exit status reports it.
public final class Output {
  private var descriptor: Int32?
  private var buffer: [UInt8] = []
  /// Whether colour (SGR sequences from ``paint(_:_:)``) reaches the output; off unless a
  /// listing turns it on for a terminal (``ListingOptions``).
  public var colors = false
  /// A pager held in reserve: lines are kept until they would not fit on the screen, and then
  /// go through the pager (``pageWhenLonger(than:command:environment:)``).
  private var pagerGate: (rows: Int, lines: Int, command: String, environment: [String: String])?
  /// The pager the output goes through, once started.
  private var pager: Pager?
  private var captured: [UInt8] = []
  /// Whether the descriptor is a terminal (colour and prompts are for terminals only).
  public let isTerminal: Bool
  /// Why writing failed (`strerror` text), once it has; later output is discarded.
  public private(set) var failure: String?
  /// Whether a command already reported the failure (``deliver()`` threw it).
  private(set) var isFailureReported = false

  /// Writes to `descriptor`.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    isTerminal = isatty(descriptor) == 1
    buffer.reserveCapacity(1 << 16)
  }

  /// Collects the text in memory, for tests; `isTerminal` pretends it is a terminal.
  public init(isTerminal: Bool = false) {
    descriptor = nil
    self.isTerminal = isTerminal
  }

  deinit { finish() }

  /// Appends `text`, escaping terminal control characters (but for colour, when on: an SGR
  /// sequence `ESC [ digits ; m` changes nothing but how text looks).
  public func write(_ text: String) {
    let utf8 = text.utf8
    if !TerminalText.isPlain(text, allowingLineBreaks: true) {
      var sgrEnd = utf8.startIndex
      for index in utf8.indices {
        let byte = utf8[index]
        if index < sgrEnd {
          buffer.append(byte)
        } else if byte == 0x1B, colors, let end = Output.sgrEnd(utf8, from: index) {
          sgrEnd = end
          buffer.append(byte)
        } else if (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
          buffer.append(contentsOf: TerminalText.hexEscape(byte).utf8)
        } else {
          buffer.append(byte)
        }
      }
    } else {
      buffer.append(contentsOf: utf8)
    }
    if pagerGate == nil, buffer.count >= 1 << 16 { flush() }
  }

  /// The end of the SGR sequence starting at `start` (`ESC [ 0-9; m`), or `nil` for anything
  /// else.
  private static func sgrEnd(_ utf8: String.UTF8View, from start: String.UTF8View.Index)
    -> String.UTF8View.Index?
  {
    var index = utf8.index(after: start)
    guard index < utf8.endIndex, utf8[index] == UInt8(ascii: "[") else { return nil }
    index = utf8.index(after: index)
    while index < utf8.endIndex {
      let byte = utf8[index]
      if byte == UInt8(ascii: "m") { return utf8.index(after: index) }
      guard (0x30...0x39).contains(byte) || byte == UInt8(ascii: ";") else { return nil }
      index = utf8.index(after: index)
    }
    return nil
  }

  /// Appends `text` as it is: file contents (`routine sample`), not display text.
  public func writeVerbatim(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends `bytes` as they are: file contents built as bytes (`routine export`).
  public func writeVerbatim(_ bytes: UnsafeRawBufferPointer) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends `text` and a line break.
  public func line(_ text: String = "") {
    write(text)
    buffer.append(0x0A)
    guard var gate = pagerGate else { return }
    gate.lines += 1 + text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    pagerGate = gate
    // A screen's worth less the prompt's line: more than that scrolls off, so it is paged.
    if gate.lines >= gate.rows { startPager(gate.command, gate.environment) }
  }

  /// Holds the output until it is longer than `rows` lines, then sends it through `command`
  /// (run by `/bin/sh -c`, as git runs `$PAGER`); a shorter output is written as it is when
  /// the command ends (``finish()``). For listings on a terminal only (``ListingOptions``).
  func pageWhenLonger(than rows: Int, command: String, environment: [String: String]) {
    guard descriptor != nil, rows > 1 else { return }
    pagerGate = (rows - 1, 0, command, environment)
  }

  private func startPager(_ command: String, _ environment: [String: String]) {
    pagerGate = nil
    guard let descriptor,
      let started = Pager.start(command, environment: environment, output: descriptor)
    else {
      // No pager could start: the output goes where it was going.
      flush()
      return
    }
    pager = started
    self.descriptor = started.input
    flush()
  }

  /// Sends what is left and, when a pager shows it, waits for the person to leave the pager
  /// (the shell's prompt must not come back under it). A pager quit early is no failure.
  public func finish() {
    pagerGate = nil
    flush()
    guard let pager else { return }
    self.pager = nil
    pager.close()
    failure = nil
    descriptor = nil
  }

  /// Sends what is buffered. After a failure, output is discarded. While a pager waits in
  /// reserve, nothing is sent: whether the output goes through it is not known yet.
  public func flush() {
    guard !buffer.isEmpty, pagerGate == nil else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    guard failure == nil else { return }
    guard let descriptor else {
      captured += buffer
      return
    }
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Foundation.write(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = String(cString: strerror(errno))
          return
        }
        offset += written
      }
    }
  }

  /// Sends what is buffered, and throws if it could not be written. A command that changes the
  /// store calls it before committing, so that a result nobody could read (`> /dev/full`)
  /// changes nothing: a script that retries on the error must not log or remove twice.
  func deliver() throws {
    flush()
    guard let failure else { return }
    isFailureReported = true
    throw CommandError(.ioError, "cannot write the output: \(failure); nothing was changed")
  }

  /// Everything written so far (memory outputs only).
  public var text: String {
    flush()
    return String(decoding: captured, as: UTF8.self)
  }
}
