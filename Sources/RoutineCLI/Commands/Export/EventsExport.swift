import Foundation
import RoutineCore
import RoutineStore

/// `routine export --format csv|jsonl`: events that `routine import` reads back as they are
/// stored (values, notes, sources and UTC offsets). Streamed from one snapshot of the store in
/// 1 MiB pieces, so memory does not grow with the number of events; `--out` is replaced only
/// when complete, and a new file is readable by its owner only (it holds what the store holds).
enum EventsExport {
  static func run(_ context: Context, format: EventFileFormat) throws -> ExitCode {
    let path = try context.outputPath(command: ExportCommand.spec.name, option: ExportCommand.out)
    return try context.reading { store, _, zone throws -> ExitCode in
      let selection = try EventSelectionOptions.selection(context, zone: zone)
      let writer = try path.map { path throws(FileError) in
        try FileWriter(path: path, newFileMode: 0o600)
      }
      var rows = EventRows(format: format)
      func drain() throws {
        try rows.bytes.withUnsafeBytes { bytes in
          if let writer {
            try writer.write(bytes)
          } else if context.output.isTerminal {
            // Shown, not saved: control characters in notes must not drive the terminal.
            context.output.write(String(decoding: bytes, as: UTF8.self))
          } else {
            context.output.writeVerbatim(bytes)
          }
        }
        rows.removeAll()
      }
      var count = 0
      try store?.forEachEventRow(selection) { kinds in
        rows.name(kinds)
      } rows: { row in
        rows.append(row)
        count += 1
        if rows.isFull { try drain() }
      }
      try drain()
      try writer?.finish()
      if let path {
        context.errors.line(
          "Wrote \(counted(count, "event")) to '\(context.displayPath(path))'.")
      }
      return .ok
    }
  }
}
