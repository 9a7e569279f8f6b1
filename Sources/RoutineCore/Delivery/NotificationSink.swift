/// A notification as a sink shows it.
public struct DeliveredNotification: Hashable, Sendable {
  /// The request's identifier (what an answer names).
  public var id: String
  /// The firing, with the user's offset.
  public var occurrence: Timestamp
  /// 0, or 1, 2, ... for an unanswered alarm delivered again.
  public var attempt: Int
  /// The category.
  public var category: NotificationCategory.ID
  /// The title.
  public var title: String
  /// The body.
  public var body: String
  /// The buttons.
  public var actions: [NotificationCategory.Action]
  /// Delivered more than a minute after it was due (after downtime).
  public var isLate: Bool
  /// An alarm: urgent, with a sound.
  public var isAlarm: Bool

  /// A notification.
  public init(
    id: String, occurrence: Timestamp, attempt: Int, category: NotificationCategory.ID,
    title: String, body: String, actions: [NotificationCategory.Action], isLate: Bool,
    isAlarm: Bool
  ) {
    self.id = id
    self.occurrence = occurrence
    self.attempt = attempt
    self.category = category
    self.title = title
    self.body = body
    self.actions = actions
    self.isLate = isLate
    self.isAlarm = isAlarm
  }
}

/// The kinds of place notifications go (`--sink`), recorded with each delivery.
public enum SinkKind: String, Sendable, CaseIterable, CustomStringConvertible {
  /// JSON lines on standard output.
  case stdout
  /// A command of the user's.
  case exec
  /// The desktop, through libnotify's `notify-send`.
  case notifySend = "notify-send"

  /// The name `--sink` takes.
  public var description: String { rawValue }

  /// Whether delivery reports are written alongside (every sink but stdout, whose JSON lines
  /// are the whole output).
  public var reportsDeliveries: Bool { self != .stdout }
}

/// Where notifications go: standard output, a command, the desktop (docs/delivery.md). The seam
/// between deciding what to deliver and delivering it; tests use a recording double.
public protocol NotificationSink {
  /// What kind of sink it is: recorded with each delivery.
  var kind: SinkKind { get }
  /// Shows `notification`. Returns the action the person chose when the sink learns it at once
  /// (a command that printed one); `nil` otherwise. Throws when it could not be shown.
  func deliver(_ notification: DeliveredNotification) throws -> String?
}
