/// The two scans a JSON reader spends its time in, eight bytes at a time:
/// past white space (a pretty-printed file is mostly indentation), and to
/// the end of a string's plain run. Each word is tested for the bytes sought
/// with exact per-byte flags, so the first match is found without a loop.
enum JSONBytes {
    private static let ones: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of the result is set exactly where `word`'s byte is zero.
    @inline(__always)
    private static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & ones) &+ ones) | word | ones)
    }

    @inline(__always)
    private static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
    }

    @inline(__always)
    private static func word(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The index of the first byte at or after `start` that is not JSON white
    /// space (space, tab, line feed, carriage return); the count when none is.
    static func firstNonSpace(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = word(bytes, at: index)
            let space = Self.bytes(word, equalTo: 0x20) | Self.bytes(word, equalTo: 0x0A) | Self.bytes(word, equalTo: 0x09)
                | Self.bytes(word, equalTo: 0x0D)
            let other = ~space & highBits
            if other != 0 { return index + other.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x09, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    /// The index of the first byte at or after `start` that a string's plain
    /// run stops at: a quote, a backslash or a control character (below
    /// 0x20); the count when none is.
    static func stringStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let word = word(bytes, at: index)
            let stops = Self.bytes(word, equalTo: 0x22) | Self.bytes(word, equalTo: 0x5C)
                | zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0)
            if stops != 0 { return index + stops.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            index += 1
        }
        return index
    }
}
