import Foundation
import RoutineCore
import RoutineStore

/// "there is no reminder 'x'" with the nearest id.
func unknownReminder(_ id: String, store: EventStore?) -> Error {
  let known = (try? store?.reminders().map(\.id)) ?? []
  let deleted = (try? store?.isDeleted(id)) ?? false
  return CommandError(
    .dataError,
    deleted
      ? "the reminder '\(id)' was removed"
      : "there is no reminder '\(id)'"
        + (Suggestion.nearest(to: id, among: known).map { "; did you mean '\($0)'?" }
          ?? "; 'routine reminders' lists them"))
}
