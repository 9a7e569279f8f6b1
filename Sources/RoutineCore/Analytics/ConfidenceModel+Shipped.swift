extension ConfidenceModel {
  /// The weights every analysis uses: fitted on 66,068 forecasts (7-day windows) of the first 56
  /// generated personas and the nine real logs of ../shared/data (read there, never copied into
  /// the project), by the release build's
  ///
  ///     routine-bench --fit --personas 56 --log ../shared/data/sleep-log-2017-2018.csv \
  ///       --log ../shared/data/training/fjuniorr_huckleberry.csv ... (each of the eight)
  ///
  /// which prints this declaration. docs/analytics.md ("The confidence model") says what each
  /// feature is and what the weights measured.
  public static let shipped = ConfidenceModel(
    weights: [
      0.1268,  // no record
      0.2178,  // held out
      0.2594,  // pooled record
      0.4816,  // blended
      -0.3281,  // unclaimed
    ],
    intercept: -0.0492)
}
