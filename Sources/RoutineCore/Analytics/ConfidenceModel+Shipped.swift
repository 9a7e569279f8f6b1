extension ConfidenceModel {
  /// The weights every analysis uses: fitted on 125,281 forecasts (7-day windows, candidates
  /// of both look-backs) of the first 56 generated personas and the nine real logs of
  /// ../shared/data (read there, never copied into the project), by the release build's
  ///
  ///     routine-bench --fit --personas 56 --log ../shared/data/sleep-log-2017-2018.csv \
  ///       --log ../shared/data/training/fjuniorr_huckleberry.csv ... (each of the eight)
  ///
  /// which prints this declaration. docs/analytics.md ("The confidence model") says what each
  /// feature is and what the weights measured.
  public static let shipped = ConfidenceModel(
    weights: [
      -0.2889,  // no record
      0.2622,  // held out
      0.2711,  // pooled record
      0.4412,  // blended
      -0.3290,  // unclaimed
      -0.0222,  // long look-back
      0.2820,  // agrees
    ],
    intercept: -0.2971)
}
