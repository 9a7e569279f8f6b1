/// An archive that cannot be read as a ZIP file holding an Apple Health export: damaged, cut
/// short, or without an `export.xml` (exit 65, bad data).
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The archive, as the user named it.
  public let file: String
  /// What was expected and what was found.
  public let message: String

  /// An error about `file`.
  public init(file: String, message: String) {
    self.file = file
    self.message = message
  }

  /// `'export.zip': expected ..., found ...`.
  public var description: String { "\(displayName(file)): \(message)" }
}
