import RoutineStore

/// Options several commands declare, each declared once here and read back through the same
/// constant. A command that means something of its own by one rewords it with `describing`.
enum CommonOptions {
  /// `--yes`: confirms without asking (``Context/confirm(_:)``).
  static let yes = OptionSpec.flag("yes", "Remove without asking.")
  /// `--output FILE`: where a generated file goes (`-` or none: standard output).
  static let output = Option("output", .path(), "Write to FILE instead of standard output.")
  /// `--out FILE`: where an export goes.
  static let out = Option("out", .path(), "Write to FILE instead of standard output.")
  /// `--assume-zone ZONE`: the zone timestamps without an offset are read in.
  static let assumeZone = Option(
    "assume-zone", .zone(), "Read timestamps without a UTC offset as local times in ZONE.")
  /// `--format csv|jsonl`: an event file's format.
  static let eventFormat = Option(
    "format", .oneOf([EventFileFormat.csv, .jsonl]), "The file format (default: from the name).")
}
