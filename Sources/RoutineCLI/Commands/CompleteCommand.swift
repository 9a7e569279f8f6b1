import RoutineCore
import RoutineStore

/// `routine __complete SOURCE [BEFORE]`: the values the completion scripts offer from the store
/// and the zone database, one a line. Runs on every Tab, so it reads only what it prints, never
/// creates the store, and says nothing at all when it cannot answer (a missing or damaged store).
/// `BEFORE` is the command's argument before the cursor, which the scripts always pass: the
/// actions offered depend on the notification named before them.
enum CompleteCommand: Command {
  static let spec = CommandSpec(
    name: "__complete",
    summary: "Print the values a completion script offers (reminders, kinds...).",
    arguments: [
      ArgumentSpec("SOURCE", "What to list: \(sources.joined(separator: ", "))."),
      ArgumentSpec("BEFORE", "The argument typed before the cursor.", required: false),
    ],
    globals: ["store"], isHidden: true)

  static func run(_ context: Context) throws -> ExitCode {
    let name = context.arguments.arguments[0]
    guard let source = CompletionSource(rawValue: name), sources.contains(name) else {
      throw UsageError(
        "expected one of \(sources.joined(separator: ", ")), found '\(name)'", command: spec.name)
    }
    // A value on two lines would complete as two; a shell could not insert it anyway.
    for value in (try? values(of: source, context)) ?? [] where !value.contains(where: \.isNewline)
    {
      context.output.line(value)
    }
    return .ok
  }

  /// The sources listed here; files and commands the scripts complete themselves.
  static let sources = CompletionSource.allCases.filter { $0 != .file && $0 != .command }.map(
    \.rawValue)

  private static func values(of source: CompletionSource, _ context: Context) throws -> [String] {
    let before = context.arguments.arguments.dropFirst().first
    if source == .action, before == nil { return actions(of: nil) }
    if source == .zone {
      let names = context.zoneDatabase.names
      return names.contains("UTC") ? names : names + ["UTC"]
    }
    guard let store = try context.openExistingStore() else {
      return source == .action ? actions(of: nil) : []
    }
    return try store.read {
      switch source {
      case .reminder: return try store.reminders().map(\.id)
      case .notification:
        // Reminders' own ids (each answers its firing delivered last), what 'pending' lists,
        // and the firings of the last two days (a snooze or an alert that came and went), each
        // once.
        let clock = context.clockStyle(try store.settings())
        let now = try context.nowSeconds()
        var seen = Set<String>()
        return
          (try store.reminders().map(\.id) + store.pendingRequests(clock: clock).map(\.id)
          + store.deliveredRequests(from: now - 2 * 86_400, to: now + 1).map(\.requestID))
          .filter { seen.insert($0).inserted }
      case .action:
        guard let before else { return actions(of: nil) }
        let clock = context.clockStyle(try store.settings())
        let category =
          try store.pendingRequest(id: before, clock: clock)?.category
          ?? store.latestDelivery(requestID: before)?.request.category
          ?? store.latestDelivery(reminderID: before)?.request.category
          ?? store.pendingRequests(clock: clock).first { $0.metadata?.reminderID == before }?
          .category
        return actions(of: category)
      case .kind: return try store.kinds().values.map(\.name).sorted()
      case .habit: return try store.habits().map(\.name.name)
      case .task: return try store.tasks().map(\.name.name)
      case .zone, .file, .command: return []
      }
    }
  }

  /// The actions of `category`, or of every category when it is not known, each once.
  private static func actions(of category: NotificationCategory.ID?) -> [String] {
    var seen = Set<String>()
    let categories =
      category.map { [NotificationCategory.category($0)] } ?? NotificationCategory.all
    return categories.flatMap(\.actionIDs).filter { seen.insert($0).inserted }
  }
}
