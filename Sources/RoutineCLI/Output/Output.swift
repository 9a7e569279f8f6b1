import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A buffered text sink: a file descriptor (stdout, stderr) or memory (tests).
public final class Output {
  private let descriptor: Int32?
  private var buffer: [UInt8] = []
  private var captured: [UInt8] = []
  /// Whether the descriptor is a terminal (colour and tables are for terminals only).
  public let isTerminal: Bool

  /// Writes to `descriptor`.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    isTerminal = isatty(descriptor) == 1
    buffer.reserveCapacity(1 << 16)
  }

  /// Collects the text in memory, for tests.
  public init() {
    descriptor = nil
    isTerminal = false
  }

  deinit { flush() }

  /// Appends `text`.
  public func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends `text` and a line break.
  public func line(_ text: String = "") {
    write(text)
    buffer.append(0x0A)
  }

  /// Sends what is buffered.
  public func flush() {
    guard !buffer.isEmpty else { return }
    guard let descriptor else {
      captured += buffer
      buffer.removeAll(keepingCapacity: true)
      return
    }
    buffer.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = Foundation.write(
          descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          break
        }
        offset += written
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Everything written so far (memory outputs only).
  public var text: String {
    flush()
    return String(decoding: captured, as: UTF8.self)
  }
}
