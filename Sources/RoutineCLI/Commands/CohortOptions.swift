/// The options of `analyze --cohort` and `backtest --cohort`: many people's logs, each analysed
/// on its own (docs/cohort.md).
enum CohortOptions {
  /// `--cohort PATH`: a directory with a log per person, or one file with a person column.
  static let cohort = Option(
    "cohort", .path("PATH"),
    "Many people, each on their own, on every core: a directory with a log per person (named after the file) or one log with a person column (docs/cohort.md)."
  )
  /// `--person-column NAME`: the CSV column or JSON key naming the person in a cohort file.
  static let personColumn = Option(
    "person-column", .text("NAME"),
    "The column (CSV) or key (JSON Lines) of a --cohort file naming the person (default person).")
}
