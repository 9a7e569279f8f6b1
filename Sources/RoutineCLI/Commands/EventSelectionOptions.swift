import Foundation
import RoutineCore
import RoutineStore

/// The options that select events, shared by `events`, `events delete` and `export`.
enum EventSelectionOptions {
  /// `--from TIME`, inclusive.
  static let from = RangeOptions.from
  /// `--to TIME`, exclusive.
  static let to = RangeOptions.to
  /// `--event EVENT`: one kind.
  static let event = Option(
    "event", .text("EVENT", completes: .kind),
    "Only events of this kind (matched as 'routine log' does: case and spacing ignored).")
  /// `--last N`: the latest N of the selection.
  static let last = Option(
    "last", .integer("N", in: 1...Int(Int32.max)), "Only the latest N of them.")

  static let options: [OptionSpec] = [from.spec, to.spec, event.spec, last.spec]

  /// Whether any of the options was given (`events delete` needs one).
  static func isAnyGiven(_ arguments: ParsedArguments) -> Bool {
    [from, to, event].contains(where: arguments.isGiven) || arguments.isGiven(last)
  }

  /// The kind `--event` names; `nil` when it was not given.
  static func kind(_ context: Context) throws(UsageError) -> EventKind? {
    guard let name = context.arguments.text(event) else { return nil }
    guard let kind = EventKind(name) else {
      throw UsageError("--event: the name is empty", command: context.command)
    }
    return kind
  }

  /// The selection the options describe, times read in `zone`.
  static func selection(_ context: Context, zone: Zone) throws(UsageError) -> EventSelection {
    let now = try context.requireNow()
    var selection = EventSelection(
      from: try RangeOptions.bound(context, from, now: now, zone: zone),
      to: try RangeOptions.bound(context, to, now: now, zone: zone))
    if let from = selection.from, let to = selection.to, from >= to {
      throw UsageError("--to must come after --from", command: context.command)
    }
    selection.kind = try kind(context)
    selection.last = try context.arguments.value(last)
    return selection
  }
}
