import Foundation

/// A small, fast, seeded random number generator (SplitMix64), so that a seed always produces
/// the same sample log on every platform; the standard library's generator is not seedable.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform number in `0..<1`, from 53 random bits (identical on every platform).
  public mutating func unit() -> Double {
    Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
  }

  /// Whether an event of probability `probability` happens.
  public mutating func chance(_ probability: Double) -> Bool {
    unit() < probability
  }

  /// A normally distributed number (Box-Muller).
  public mutating func normal(mean: Double, deviation: Double) -> Double {
    let u1 = max(unit(), 1e-300)
    let u2 = unit()
    return mean + deviation * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// A uniform integer in `range`.
  public mutating func integer(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }
}
