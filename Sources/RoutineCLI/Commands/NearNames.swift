import Foundation
import RoutineCore
import RoutineStore

/// A new kind or an unknown action close to a known one (``NearName``): named, and on a
/// terminal asked about (docs/cli.md, "A typo is named").
enum NearNames {
  /// The kind to log for `kind`: itself, or the stored kind it is a typo of when the user says
  /// so on a terminal; `nil` when the user cancels. Without a terminal (or with --json) the kind
  /// is logged as typed, with a warning naming the near one.
  static func kindToLog(_ kind: EventKind, _ context: Context) throws -> EventKind? {
    guard let store = try context.openExistingStore() else { return kind }
    // Kinds of events, and of days marked done (Loop's habits), which a log of the same name
    // joins.
    let marked = try store.dayMarkedKindNames()
    let stored = Array(Set(try store.kinds().values.map(\.name) + marked)).sorted()
    guard try store.storedKind(kind) == nil, try store.dayMarkedKind(kind) == nil,
      let near = NearName.nearest(to: kind.name, among: stored)
    else { return kind }
    let typed = TerminalText.escaped(kind.name)
    let shown = TerminalText.escaped(near)
    guard context.environment.isInteractive, !context.isJSON else {
      context.warn(
        "'\(kind.name)' is a new kind, near '\(near)'; logged as typed ('routine kinds rename \(quoted(kind.name)) \(quoted(near))' merges it, 'routine undo' removes it)"
      )
      return kind
    }
    context.errors.write(
      "'\(typed)' is a new kind, near '\(shown)'. Log [t]yped as '\(typed)', [u]se '\(shown)', or [c]ancel? [c] "
    )
    context.errors.flush()
    switch context.environment.readLine()?.trimmingBlanks.lowercased() {
    case "t", "typed": return kind
    case "u", "use": return EventKind(near) ?? kind
    default:
      context.output.line("Nothing logged.")
      return nil
    }
  }

  /// Runs `answer` with `action`; when the action is not offered but near one that is, on a
  /// terminal, asks whether that one was meant and answers it. Without a terminal the error
  /// (which names the near action) stands.
  static func answering(
    _ action: String, _ context: Context, _ answer: (String) throws -> Void
  ) throws -> ExitCode {
    do {
      try answer(action)
      return .ok
    } catch let error as CommandError {
      guard let near = error.suggestion, context.environment.isInteractive, !context.isJSON
      else { throw error }
      let message = error.message.replacingOccurrences(of: "; did you mean '\(near)'?", with: "")
      context.errors.write("\(TerminalText.escaped(message)). Answer '\(near)'? [y/N] ")
      context.errors.flush()
      let reply = context.environment.readLine()?.trimmingBlanks.lowercased()
      guard reply == "y" || reply == "yes" else {
        context.output.line("Nothing answered.")
        return .ok
      }
      try answer(near)
      return .ok
    }
  }

  /// A kind as typed on a command line: quoted when it has a space.
  private static func quoted(_ name: String) -> String {
    name.contains(" ") ? "\"\(name)\"" : name
  }
}
