import Foundation
import RoutineCore
import RoutineStore

/// `routine clear --all|--learned|--delivered`
enum ClearCommand: Command {
  static let spec = CommandSpec(
    name: "clear",
    summary: "Remove pending requests, or forget the delivery history.",
    options: choices, oneOf: choices.map(\.name),
    globals: ["store", "now", "json"])

  /// `--all`.
  static let all = OptionSpec.flag(
    "all",
    "Remove every pending request routine made (your own reminders keep theirs: 'reminders disable' stops one)."
  )
  /// `--learned`.
  static let learned = OptionSpec.flag(
    "learned", "Remove the learned requests (those 'routine plan' made).")
  /// `--delivered`.
  static let delivered = OptionSpec.flag(
    "delivered",
    "Forget the history of delivered notifications (answers stay; which firings came is kept for a week, without their words, so none comes twice)."
  )
  /// The flags of which one is given (`--all` when none is).
  static let choices = [all, learned, delivered]

  static func run(_ context: Context) throws -> ExitCode {
    // Its name is what --json reports as cleared.
    let chosen = (choices.first { context.arguments.flag($0) } ?? all).name
    func answer(_ count: Int) throws {
      if context.isJSON {
        context.output.line(
          JSON.object([("cleared", .string(chosen)), ("count", .integer(count))]).serialized())
      } else {
        switch chosen {
        case all.name: context.output.line("\(counted(count, "pending request")) removed.")
        case learned.name: context.output.line("\(counted(count, "learned request")) removed.")
        default:
          context.output.line(
            "\(counted(count, "delivered notification")) forgotten from the history.")
        }
      }
      // Before the commit: output that cannot be written leaves everything in place.
      try context.output.deliver()
    }
    guard let store = try context.openExistingStore() else {
      try answer(0)
      return .ok
    }
    try store.write {
      switch chosen {
      case all.name: try answer(try store.clearRequests())
      case learned.name: try answer(try store.clearRequests(origin: .learned))
      default:
        try answer(try store.clearDeliveries(now: try context.nowSeconds()))
      }
    }
    return .ok
  }
}
