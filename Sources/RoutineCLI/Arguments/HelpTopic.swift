/// A subject `routine help NAME` explains that is not a command (`dates`). Declared once: the
/// overview lists it, `help` prints it, and shell completion offers its name after `help`.
public struct HelpTopic: Sendable {
  /// The word typed after `routine help`.
  public let name: String
  /// One line for the overview.
  public let summary: String
  /// What `routine help NAME` prints.
  public let text: String

  /// Every topic, in the overview's order.
  public static let all = [
    HelpTopic(
      name: "dates",
      summary: "The dates and times --at, --from, --to, --due and --occurrence take.",
      text: TimeArgument.helpText)
  ]

  /// The topic `name` names (in any case), or `nil`.
  public static func named(_ name: String) -> HelpTopic? {
    all.first { $0.name == name.lowercased() }
  }
}
