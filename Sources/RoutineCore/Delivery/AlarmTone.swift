import Foundation

/// The alarm's built-in sound: a two-tone beep as a WAV file, made in memory. It rings where the
/// sound theme is not installed, or where the only player cannot play the theme's Ogg files
/// (`aplay`), so that an alarm never depends on a package being there to be heard.
public enum AlarmTone {
  /// Samples per second.
  public static let sampleRate = 44_100
  /// The two pitches, high then low, in hertz: far enough apart to be told as two notes, both
  /// where small laptop speakers are loud.
  public static let pitches: (high: Double, low: Double) = (880, 660)
  /// Each beep's length in seconds; two pairs with a short gap after each make about a second.
  public static let beepSeconds = 0.2
  /// The silence after each beep, in seconds.
  public static let gapSeconds = 0.05
  /// Peak amplitude as a fraction of full scale: loud, with headroom for a player's resampling.
  public static let amplitude = 0.6

  /// The tone as a complete WAV file: RIFF, 16-bit signed little-endian PCM, one channel,
  /// ``sampleRate`` samples per second, about one second long.
  public static func wav() -> [UInt8] {
    let samples = self.samples()
    var bytes: [UInt8] = []
    let dataSize = samples.count * 2
    bytes.reserveCapacity(44 + dataSize)
    func append(_ text: String) { bytes += Array(text.utf8) }
    func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    append("RIFF")
    append32(UInt32(36 + dataSize))
    append("WAVE")
    append("fmt ")
    append32(16)
    append16(1)  // PCM
    append16(1)  // mono
    append32(UInt32(sampleRate))
    append32(UInt32(sampleRate * 2))  // bytes per second
    append16(2)  // bytes per frame
    append16(16)  // bits per sample
    append("data")
    append32(UInt32(dataSize))
    for sample in samples { append16(UInt16(bitPattern: sample)) }
    return bytes
  }

  /// The tone's samples: high, low, high, low, each beep followed by a gap. Each beep fades in
  /// and out over 5 ms, so that it starts and stops without a click.
  public static func samples() -> [Int16] {
    let beep = Int(Double(sampleRate) * beepSeconds)
    let gap = Int(Double(sampleRate) * gapSeconds)
    let fade = sampleRate / 200
    var samples: [Int16] = []
    samples.reserveCapacity(4 * (beep + gap))
    for pitch in [pitches.high, pitches.low, pitches.high, pitches.low] {
      for index in 0..<beep {
        let envelope = min(1, Double(min(index, beep - 1 - index)) / Double(fade))
        let value = sin(2 * Double.pi * pitch * Double(index) / Double(sampleRate))
        samples.append(Int16((value * envelope * amplitude * Double(Int16.max)).rounded()))
      }
      samples += repeatElement(0, count: gap)
    }
    return samples
  }
}
