/// Counting lines in bytes, for the line an error names and for readers that
/// keep count of the lines they drop: eight bytes at a time.
enum Newlines {
    /// How many '\n' the bytes hold.
    static func count(in bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let ones: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            // A byte of `word` is zero where the byte was '\n'; the high bit of
            // each byte of `zeros` is set exactly there, with no carry between bytes.
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let zeros = ~(((word & ones) &+ ones) | word | ones)
            count &+= zeros.nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == 0x0A { count &+= 1 }
            index += 1
        }
        return count
    }
}
