#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// An Apple build number such as `23B85` or `23A5318c`: a train number, a
/// letter, a counter and an optional suffix. A counter from 5000 up marks a
/// beta, which comes before the release of its train and letter, so
/// 23A5318c < 23A341 < 23B85. Never compare builds as text or as numbers.
///
/// The store computes the same order in SQL (`environments.os_build_order`);
/// the tests check that both agree on every real build in the fixtures.
public struct AppleBuild: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let train: Int
    public let letter: Character
    public let counter: Int
    public let suffix: String

    public var isBeta: Bool { counter >= 5000 }

    public var description: String { "\(train)\(letter)\(counter)\(suffix)" }

    /// Parses a build; nil when the text is not one.
    public init?(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func digits() -> Int? {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start, index - start <= 6, scalars[start] != "0" else { return nil }
            return Int(String(String.UnicodeScalarView(scalars[start..<index])))
        }
        guard let train = digits(), index < scalars.count, ("A"..."Z").contains(scalars[index]) else { return nil }
        let letter = Character(scalars[index])
        index += 1
        guard let counter = digits() else { return nil }
        let suffix = String(String.UnicodeScalarView(scalars[index...]))
        guard suffix.count <= 2, suffix.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        self.train = train
        self.letter = letter
        self.counter = counter
        self.suffix = suffix
    }

    /// Parses a build given by a user; an empty text means "not known".
    public static func validated(_ text: String, field: String) throws -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return "" }
        guard AppleBuild(trimmed) != nil else {
            throw EvidenceError.invalidValue(
                field: field, value: text,
                expected: "an Apple build number: train, capital letter, counter, optional lower-case suffix (23B85, 16A5230g)")
        }
        return trimmed
    }

    public static func < (lhs: AppleBuild, rhs: AppleBuild) -> Bool {
        if lhs.train != rhs.train { return lhs.train < rhs.train }
        if lhs.letter != rhs.letter { return lhs.letter < rhs.letter }
        if lhs.isBeta != rhs.isBeta { return lhs.isBeta }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.suffix < rhs.suffix
    }
}
