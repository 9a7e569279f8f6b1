import Foundation

/// Logistic regression fitted by Newton's method (iteratively reweighted least squares) with a
/// small L2 penalty on the weights (not the intercept): the fit behind ``ConfidenceModel``.
/// A few features and up to millions of rows: each step is one pass over the rows and a solve
/// of a (features + 1)-square system.
public enum LogisticRegression {
  /// The model that best predicts `outcomes` from `rows` (each row one feature vector of the
  /// same length), penalised by `penalty` · |w|² / 2.
  public static func fit(
    rows: [[Double]], outcomes: [Bool], penalty: Double = 1, iterations: Int = 50
  ) -> ConfidenceModel {
    let width = (rows.first?.count ?? 0) + 1
    var beta = [Double](repeating: 0, count: width)
    guard !rows.isEmpty else { return ConfidenceModel(weights: [], intercept: 0) }
    for _ in 0..<iterations {
      // Gradient and Hessian of the penalised negative log-likelihood; index 0 is the intercept.
      var gradient = [Double](repeating: 0, count: width)
      var hessian = [Double](repeating: 0, count: width * width)
      var x = [Double](repeating: 1, count: width)
      for (row, outcome) in zip(rows, outcomes) {
        for index in 0..<row.count { x[index + 1] = row[index] }
        var z = 0.0
        for index in 0..<width { z += beta[index] * x[index] }
        let p = 1 / (1 + exp(-z))
        let residual = p - (outcome ? 1 : 0)
        let weight = max(p * (1 - p), 1e-12)
        for i in 0..<width {
          gradient[i] += residual * x[i]
          for j in i..<width { hessian[i * width + j] += weight * x[i] * x[j] }
        }
      }
      for i in 0..<width {
        for j in 0..<i { hessian[i * width + j] = hessian[j * width + i] }
      }
      for i in 1..<width {
        gradient[i] += penalty * beta[i]
        hessian[i * width + i] += penalty
      }
      guard let step = solve(hessian, gradient, size: width) else { break }
      var largest = 0.0
      for index in 0..<width {
        beta[index] -= step[index]
        largest = max(largest, abs(step[index]))
      }
      if largest < 1e-9 { break }
    }
    return ConfidenceModel(weights: Array(beta.dropFirst()), intercept: beta[0])
  }

  /// The solution of `matrix` · x = `vector` (row-major, `size` square) by Gaussian elimination
  /// with partial pivoting; `nil` when singular.
  static func solve(_ matrix: [Double], _ vector: [Double], size: Int) -> [Double]? {
    var a = matrix
    var b = vector
    for column in 0..<size {
      let pivot = (column..<size).max { abs(a[$0 * size + column]) < abs(a[$1 * size + column]) }!
      guard abs(a[pivot * size + column]) > 1e-12 else { return nil }
      if pivot != column {
        for k in 0..<size { a.swapAt(pivot * size + k, column * size + k) }
        b.swapAt(pivot, column)
      }
      for row in (column + 1)..<size {
        let factor = a[row * size + column] / a[column * size + column]
        guard factor != 0 else { continue }
        for k in column..<size { a[row * size + k] -= factor * a[column * size + k] }
        b[row] -= factor * b[column]
      }
    }
    var x = [Double](repeating: 0, count: size)
    for row in stride(from: size - 1, through: 0, by: -1) {
      var sum = b[row]
      for k in (row + 1)..<size { sum -= a[row * size + k] * x[k] }
      x[row] = sum / a[row * size + row]
    }
    return x
  }
}
