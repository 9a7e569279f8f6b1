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
  private let descriptor: Int32?
  private var buffer: [UInt8] = []
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

  deinit { flush() }

  /// Appends `text`, escaping terminal control characters.
  public func write(_ text: String) {
    let utf8 = text.utf8
    if !TerminalText.isPlain(text, allowingLineBreaks: true) {
      for byte in utf8 {
        if (byte < 0x20 && byte != 0x0A) || byte == 0x7F {
          buffer.append(contentsOf: TerminalText.hexEscape(byte).utf8)
        } else {
          buffer.append(byte)
        }
      }
    } else {
      buffer.append(contentsOf: utf8)
    }
    if buffer.count >= 1 << 16 { flush() }
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
  }

  /// Sends what is buffered. After a failure, output is discarded.
  public func flush() {
    guard !buffer.isEmpty else { return }
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
