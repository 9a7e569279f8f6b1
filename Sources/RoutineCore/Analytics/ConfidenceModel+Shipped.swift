extension ConfidenceModel {
  /// The weights every analysis uses: fitted on 35,454 forecasts (7-day windows) of the first 56
  /// generated personas and the nine real logs of ../shared/data (read there, never copied into
  /// the project), by the release build's
  ///
  ///     routine-bench --fit --personas 56 --log ../shared/data/sleep-log-2017-2018.csv \
  ///       --log ../shared/data/training/fjuniorr_huckleberry.csv ... (each of the eight)
  ///
  /// which prints this declaration. docs/analytics.md ("The confidence estimator") says what
  /// each feature is and what the weights measured.
  public static let shipped = ConfidenceModel(
    weights: [
      0.1865,  // recent share
      2.1636,  // track record
      -0.0764,  // no record
      0.6292,  // last day hit
      1.9098,  // held out
      0.4509,  // completeness
      -0.1225,  // log events per day
    ],
    intercept: -3.1136)
}
