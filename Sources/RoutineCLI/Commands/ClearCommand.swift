import Foundation
import RoutineCore
import RoutineStore

/// `routine clear --all|--learned|--delivered`
enum ClearCommand: Command {
  static let spec = CommandSpec(
    name: "clear",
    summary: "Remove pending requests, or forget the delivery history.",
    options: [
      .flag(
        "all",
        "Remove every pending request routine made (your own reminders keep theirs: 'reminders disable' stops one)."
      ),
      .flag("learned", "Remove the learned requests (those 'routine plan' made)."),
      .flag(
        "delivered",
        "Forget the history of delivered notifications (answers stay; which firings came is kept for a week, without their words, so none comes twice)."
      ),
    ],
    oneOf: ["all", "learned", "delivered"],
    globals: ["store", "now", "json"])

  static func run(_ context: Context) throws -> ExitCode {
    let chosen = spec.oneOf.first { context.arguments.flag($0) } ?? "all"
    func answer(_ count: Int) throws {
      if context.isJSON {
        context.output.line(
          JSON.object([("cleared", .string(chosen)), ("count", .integer(count))]).serialized())
      } else {
        switch chosen {
        case "all": context.output.line("\(counted(count, "pending request")) removed.")
        case "learned": context.output.line("\(counted(count, "learned request")) removed.")
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
      case "all": try answer(try store.clearRequests())
      case "learned": try answer(try store.clearRequests(origin: .learned))
      default:
        try answer(try store.clearDeliveries(now: try context.nowSeconds()))
      }
    }
    return .ok
  }
}
