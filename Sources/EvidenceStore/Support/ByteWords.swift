/// Tests on eight bytes at once, each giving exact per-byte flags (the high
/// bit of a result byte set where the test holds), so the first match in a
/// word is found without a loop: what the byte scans below are made of.
enum ByteWords {
    static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let ones: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// Where `word`'s byte is zero.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & ones) &+ ones) | word | ones)
    }

    /// Where `word`'s byte is `byte`.
    @inline(__always)
    static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
    }

    /// Where `word`'s byte is below 0x20 (a C0 control).
    @inline(__always)
    static func belowSpace(_ word: UInt64) -> UInt64 {
        zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0)
    }

    /// The eight bytes at `index`, the first in the lowest byte.
    @inline(__always)
    static func word(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// Whether every byte is printable ASCII (0x20 to 0x7E).
    static func allPrintableASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            let word = ByteWords.word(bytes, at: index)
            if (belowSpace(word) | (word & highBits) | Self.bytes(word, equalTo: 0x7F)) != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] < 0x20 || bytes[index] >= 0x7F { return false }
            index += 1
        }
        return true
    }
}

/// The scans a JSON reader spends its time in, eight bytes at a time: past
/// white space (a pretty-printed file is mostly indentation), to the end of
/// a string's plain run, and to the next bit of structure.
enum JSONBytes {
    /// The index of the first byte at or after `start` that is not JSON white
    /// space (space, tab, line feed, carriage return); the count when none is.
    static func firstNonSpace(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        // A pretty-printed file's white space is mostly one space (around a
        // ':') or a line feed and a run of spaces (its indentation): those are
        // passed without the general test, a run eight spaces at a time.
        var index = start
        if index < bytes.count {
            switch bytes[index] {
            case 0x21...: return index
            case 0x20:
                index += 1
            case 0x0A:
                index += 1
                while index + 8 <= bytes.count {
                    let notSpace = ByteWords.word(bytes, at: index) ^ 0x2020_2020_2020_2020
                    if notSpace != 0 {
                        index += notSpace.trailingZeroBitCount / 8
                        break
                    }
                    index += 8
                }
            default:
                break
            }
            if index < bytes.count, bytes[index] > 0x20 { return index }
        }
        return firstStop(in: bytes, from: index) { word in
            let space = ByteWords.bytes(word, equalTo: 0x20) | ByteWords.bytes(word, equalTo: 0x0A)
                | ByteWords.bytes(word, equalTo: 0x09) | ByteWords.bytes(word, equalTo: 0x0D)
            return ~space & ByteWords.highBits
        } stopsAt: { byte in
            byte != 0x20 && byte != 0x0A && byte != 0x09 && byte != 0x0D
        }
    }

    /// The index of the first byte at or after `start` that is a quote or
    /// opens or closes an object or array, outside a string; the count when
    /// none is.
    static func structureStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        firstStop(in: bytes, from: start) { word in
            ByteWords.bytes(word, equalTo: 0x22) | ByteWords.bytes(word, equalTo: 0x7B)
                | ByteWords.bytes(word, equalTo: 0x7D) | ByteWords.bytes(word, equalTo: 0x5B)
        } stopsAt: { byte in
            byte == 0x22 || byte == 0x7B || byte == 0x7D || byte == 0x5B
        }
    }

    /// The index of the first byte at or after `start` that a string's plain
    /// run stops at: a quote, a backslash or a control character (below
    /// 0x20); the count when none is.
    static func stringStop(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        firstStop(in: bytes, from: start) { word in
            ByteWords.bytes(word, equalTo: 0x22) | ByteWords.bytes(word, equalTo: 0x5C) | ByteWords.belowSpace(word)
        } stopsAt: { byte in
            byte == 0x22 || byte == 0x5C || byte < 0x20
        }
    }

    /// The index of the first byte at or after `start` that `stopsAt`: eight
    /// bytes at a time while `stops` (the same test on a word, a word's flags)
    /// finds none, then byte by byte in the last few.
    @inline(__always)
    private static func firstStop(
        in bytes: UnsafeRawBufferPointer, from start: Int, _ stops: (UInt64) -> UInt64, stopsAt: (UInt8) -> Bool
    ) -> Int {
        var index = start
        while index + 8 <= bytes.count {
            let found = stops(ByteWords.word(bytes, at: index))
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count, !stopsAt(bytes[index]) { index += 1 }
        return index
    }
}
