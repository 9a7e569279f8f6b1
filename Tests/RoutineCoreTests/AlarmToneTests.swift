import Foundation
import RoutineCore
import Testing

struct AlarmToneTests {
  private func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
  }

  private func uint16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
    UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  @Test func theToneIsAMonoSixteenBitPCMWaveFileOfAboutASecond() {
    let wav = AlarmTone.wav()
    #expect(String(decoding: wav[0..<4], as: UTF8.self) == "RIFF")
    #expect(Int(uint32(wav, at: 4)) == wav.count - 8)
    #expect(String(decoding: wav[8..<12], as: UTF8.self) == "WAVE")
    #expect(String(decoding: wav[12..<16], as: UTF8.self) == "fmt ")
    #expect(uint32(wav, at: 16) == 16)
    #expect(uint16(wav, at: 20) == 1, "PCM")
    #expect(uint16(wav, at: 22) == 1, "one channel")
    #expect(uint32(wav, at: 24) == 44_100)
    #expect(uint32(wav, at: 28) == 88_200, "bytes per second")
    #expect(uint16(wav, at: 32) == 2, "bytes per frame")
    #expect(uint16(wav, at: 34) == 16, "bits per sample")
    #expect(String(decoding: wav[36..<40], as: UTF8.self) == "data")
    let dataSize = Int(uint32(wav, at: 40))
    #expect(dataSize == wav.count - 44)
    let seconds = Double(dataSize / 2) / 44_100
    #expect(seconds > 0.9 && seconds < 1.2)
  }

  @Test func theSamplesAreLoudAndBothPitchesSound() {
    let wav = AlarmTone.wav()
    let samples = stride(from: 44, to: wav.count, by: 2).map {
      Int16(bitPattern: uint16(wav, at: $0))
    }
    #expect(samples == AlarmTone.samples())
    let peak = samples.map { abs(Int($0)) }.max() ?? 0
    #expect(peak > Int(Int16.max) / 2)
    let rms =
      (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count))
      .squareRoot() / Double(Int16.max)
    #expect(rms > 0.2)
    // Zero crossings per beep tell its pitch: the first beep high, the second low.
    let beep = Int(44_100 * AlarmTone.beepSeconds)
    let gap = Int(44_100 * AlarmTone.gapSeconds)
    func crossings(_ range: Range<Int>) -> Int {
      zip(samples[range].dropLast(), samples[range].dropFirst()).count { $0 < 0 && $1 >= 0 }
    }
    let high = crossings(0..<beep)
    let low = crossings((beep + gap)..<(2 * beep + gap))
    #expect(abs(high - 176) <= 2, "880 Hz for 0.2 s")
    #expect(abs(low - 132) <= 2, "660 Hz for 0.2 s")
    // It starts and ends without a click: the first and last samples of a beep are near zero.
    #expect(abs(Int(samples[0])) < 100)
    #expect(abs(Int(samples[beep - 1])) < 500)
  }
}
