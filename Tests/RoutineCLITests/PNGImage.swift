import CZlib
import Foundation

/// A PNG as Chromium writes its screenshots (8 bits per channel, RGB or RGBA, not interlaced),
/// decoded to pixels so a test can look at what was drawn.
struct PNGImage {
  var width: Int
  var height: Int
  /// RGB triples, row after row.
  var pixels: [UInt8]

  /// One pixel's colour.
  struct Colour: Equatable, CustomStringConvertible {
    var red: Int
    var green: Int
    var blue: Int

    /// Relative luminance (WCAG 2), 0 for black to 1 for white.
    var luminance: Double {
      func linear(_ channel: Int) -> Double {
        let c = Double(channel) / 255
        return c <= 0.040_45 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
      }
      return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// WCAG 2's contrast ratio between two colours: 1 (none) to 21 (black on white).
    func contrast(with other: Colour) -> Double {
      let (a, b) = (luminance, other.luminance)
      return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Clearly red (an outlier's cross, dark red or light red): red well above green and blue.
    var isReddish: Bool { red > 140 && red - max(green, blue) > 60 }

    var description: String { "rgb(\(red), \(green), \(blue))" }
  }

  enum DecodeError: Error { case notPNG, unsupported(String), damaged }

  init(contentsOf path: String) throws {
    let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    guard data.count > 8, data[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
      throw DecodeError.notPNG
    }
    func be32(_ at: Int) -> Int {
      data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    var offset = 8
    var width = 0
    var height = 0
    var channels = 0
    var compressed: [UInt8] = []
    while offset + 8 <= data.count {
      let length = be32(offset)
      let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      let body = offset + 8
      guard body + length <= data.count else { throw DecodeError.damaged }
      switch type {
      case "IHDR":
        width = be32(body)
        height = be32(body + 4)
        let depth = data[body + 8]
        let colourType = data[body + 9]
        guard depth == 8, colourType == 2 || colourType == 6, data[body + 12] == 0 else {
          throw DecodeError.unsupported("depth \(depth), colour type \(colourType)")
        }
        channels = colourType == 6 ? 4 : 3
      case "IDAT": compressed += data[body..<body + length]
      default: break
      }
      offset = body + length + 4
    }
    let rowBytes = width * channels
    var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
    var size = uLongf(raw.count)
    let status = raw.withUnsafeMutableBufferPointer { out in
      compressed.withUnsafeBufferPointer { input in
        uncompress(out.baseAddress, &size, input.baseAddress, uLong(input.count))
      }
    }
    guard status == Z_OK, Int(size) == raw.count else { throw DecodeError.damaged }
    // Undo each row's filter (PNG 9.2), in place.
    var rows = [UInt8](repeating: 0, count: height * rowBytes)
    for row in 0..<height {
      let filter = raw[row * (rowBytes + 1)]
      let source = row * (rowBytes + 1) + 1
      let target = row * rowBytes
      for i in 0..<rowBytes {
        let x = Int(raw[source + i])
        let a = i >= channels ? Int(rows[target + i - channels]) : 0
        let b = row > 0 ? Int(rows[target - rowBytes + i]) : 0
        let c = row > 0 && i >= channels ? Int(rows[target - rowBytes + i - channels]) : 0
        let predicted: Int
        switch filter {
        case 0: predicted = 0
        case 1: predicted = a
        case 2: predicted = b
        case 3: predicted = (a + b) / 2
        case 4:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        default: throw DecodeError.damaged
        }
        rows[target + i] = UInt8((x + predicted) & 0xFF)
      }
    }
    self.width = width
    self.height = height
    if channels == 3 {
      pixels = rows
    } else {
      pixels = []
      pixels.reserveCapacity(width * height * 3)
      for index in stride(from: 0, to: rows.count, by: 4) {
        pixels += rows[index..<index + 3]
      }
    }
  }

  subscript(x: Int, y: Int) -> Colour {
    let index = (y * width + x) * 3
    return Colour(
      red: Int(pixels[index]), green: Int(pixels[index + 1]), blue: Int(pixels[index + 2]))
  }

  /// The smallest rectangle (`minX...maxX`, `minY...maxY`) holding every pixel that `matches`
  /// in `rows` (all by default), or `nil` when none does.
  func bounds(rows: Range<Int>? = nil, where matches: (Colour) -> Bool) -> (
    x: ClosedRange<Int>, y: ClosedRange<Int>
  )? {
    var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
    for y in rows ?? 0..<height {
      for x in 0..<width where matches(self[x, y]) {
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
      }
    }
    return maxX < 0 ? nil : (minX...maxX, minY...maxY)
  }
}
