/// Counting lines in bytes, for the line an error names and for readers that
/// keep count of the lines they drop: eight bytes at a time.
enum Newlines {
    /// How many '\n' the bytes hold.
    static func count(in bytes: UnsafeRawBufferPointer) -> Int {
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            count &+= ByteWords.bytes(ByteWords.word(bytes, at: index), equalTo: 0x0A).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == 0x0A { count &+= 1 }
            index += 1
        }
        return count
    }
}
