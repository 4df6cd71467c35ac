#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif


/// Decides which claims a test verifies: the rules kept in the store (`evidence
/// map`), and the convention that `claim:KEY` in a test's identifier, tags or
/// properties names KEY.
public struct TestClaimMatcher: Sendable {
    let rules: [(pattern: Glob, claim: String)]
    let claims: Set<String>

    /// Rules in the order they were added, and every claim key the store holds.
    public init(rules: [(pattern: String, claim: String)], claimKeys: [String]) {
        self.rules = rules.map { (Glob($0.pattern), $0.claim) }
        self.claims = Set(claimKeys)
    }

    /// The claims a test maps to, and the `claim:` keys it names that are not in the store.
    public func claims(for test: TestReport.TestCase) -> (claims: [String], unknown: [String]) {
        var found: [String] = []
        var unknown: [String] = []
        func add(_ key: String) {
            if claims.contains(key) {
                if !found.contains(key) { found.append(key) }
            } else if key.hasSuffix("."), claims.contains(String(key.dropLast())) {
                add(String(key.dropLast()))
            } else if !unknown.contains(key) {
                unknown.append(key)
            }
        }
        func scan(_ text: String) {
            for key in Self.conventionKeys(in: text) { add(key) }
        }
        scan(test.identifier)
        scan(test.name)
        for tag in test.tags { scan(tag) }
        for (_, value) in test.properties { scan(value) }
        for (name, value) in test.properties where name == "claim" && !value.hasPrefix("claim:") {
            scan("claim:" + value)
        }
        if !rules.isEmpty {
            let forms = Forms(test)
            for rule in rules where !found.contains(rule.claim) && forms.any(rule.pattern.matches) {
                found.append(rule.claim)
            }
        }
        return (found, unknown)
    }

    /// Every `claim:KEY` in a text.
    static func conventionKeys(in text: String) -> [String] {
        var keys: [String] = []
        var text = text
        text.makeContiguousUTF8()
        text.utf8.withContiguousStorageIfAvailable { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var index = 0
            // memchr passes over the names that hold no "c", and most "c"s are not "claim:".
            while index + 6 <= bytes.count, let at = Bytes.firstIndex(of: 0x63, in: raw, from: index) {
                guard at + 6 <= bytes.count, bytes[at + 1] == 0x6C, bytes[at + 2] == 0x61, bytes[at + 3] == 0x69,
                    bytes[at + 4] == 0x6D, bytes[at + 5] == 0x3A
                else {
                    index = at + 1
                    continue
                }
                let start = at + 6
                var end = start
                while end < bytes.count, Self.isKeyByte(bytes[end]) { end += 1 }
                if end > start {
                    keys.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                }
                index = start
            }
        }
        return keys
    }

    /// Letters and digits of ASCII, and `.`, `_`, `-`: what a claim key is made of.
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2E || byte == 0x5F || byte == 0x2D
    }

    /// The forms a rule may match: the identifier as written, with or without
    /// "()", and without the module or outer types before its suite. Kept as
    /// UTF-8 in one buffer: an ingest builds them for every test.
    struct Forms {
        private var bytes: [UInt8] = []
        private var ranges: [Range<Int>] = []

        init(_ test: TestReport.TestCase) {
            let identifier = Array(test.identifier.utf8)
            add(identifier[...])
            add(Array(test.name.utf8)[...])
            // "Module.Outer.Suite/test": also "Outer.Suite/test" and "Suite/test".
            if let slash = identifier.firstIndex(of: UInt8(ascii: "/")) {
                let dot = UInt8(ascii: ".")
                var sawPart = false
                for index in 0..<slash {
                    if identifier[index] != dot {
                        sawPart = true
                    } else if sawPart, index + 1 < slash, identifier[index + 1] != dot {
                        add(identifier[(index + 1)...])
                    }
                }
            }
            for range in ranges {
                let form = bytes[range]
                if form.count >= 2, form[form.endIndex - 2] == UInt8(ascii: "("), form.last == UInt8(ascii: ")") {
                    add(Array(form.dropLast(2))[...])
                } else if form.last != UInt8(ascii: ")") {
                    add(Array(form)[...] + [UInt8(ascii: "("), UInt8(ascii: ")")])
                }
            }
        }

        private mutating func add(_ form: ArraySlice<UInt8>) {
            let start = bytes.count
            bytes.append(contentsOf: form)
            ranges.append(start..<bytes.count)
        }

        /// Whether `matches` holds for any form.
        func any(_ matches: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            bytes.withUnsafeBufferPointer { all in
                ranges.contains { matches(UnsafeBufferPointer(rebasing: all[$0])) }
            }
        }

        /// The forms as text, in order.
        var texts: [String] {
            ranges.map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }
}
