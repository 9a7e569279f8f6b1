// Small byte-level helpers the readers share.

/// A decimal number (`12`, `-0.5`, `2.5e3`); `nil` for anything else, including NaN and infinity.
func parseNumber(_ bytes: UnsafeRawBufferPointer) -> Double? {
  guard !bytes.isEmpty, bytes.count < 64 else { return nil }
  var sawDigit = false
  for byte in bytes {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
    case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"),
      UInt8(ascii: "E"):
      break
    default: return nil
    }
  }
  guard sawDigit, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else {
    return nil
  }
  return value
}

func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

/// The bytes without leading and trailing spaces and tabs.
func trim(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
  var lower = 0
  var upper = bytes.count
  while lower < upper, isSpace(bytes[lower]) { lower += 1 }
  while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
  return UnsafeRawBufferPointer(rebasing: bytes[lower..<upper])
}

/// Whether `bytes` are well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
  var index = 0
  let count = bytes.count
  // Event names are nearly always ASCII: check eight bytes at a time first.
  while index + 8 <= count,
    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
  {
    index += 8
  }
  while index < count {
    let lead = bytes[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    let length: Int
    var minimum: UInt32
    var scalar: UInt32
    switch lead {
    case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
    case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
    case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
    default: return false
    }
    guard index + length <= count else { return false }
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return false }
      scalar = scalar << 6 | UInt32(byte & 0x3F)
    }
    guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
      return false
    }
    minimum = 0
    index += length
  }
  return true
}
