/// Finds the closest names to a mistyped one, for "did you mean".
public enum Suggestions {
    /// Names within a small edit distance of `word`, closest first (at most `limit`).
    public static func closest(to word: String, in candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(word.lowercased())
        let scored = candidates.map { candidate -> (String, Int) in
            (candidate, distance(target, Array(candidate.lowercased())))
        }
        let threshold = max(2, target.count / 3)
        return scored
            .filter { $0.1 <= threshold || ($0.0.lowercased().hasPrefix(word.lowercased()) && !word.isEmpty) }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(limit)
            .map(\.0)
    }

    /// The known name a new one is probably a typo of: the same but for case,
    /// or within two edits (and, with `sameDigits`, with the same digits, so
    /// "iPhone 17" is never a typo of "iPhone 18"). Nil for a known name, or
    /// one nothing is close to.
    public static func nearMiss(_ name: String, in known: [String], sameDigits: Bool = false) -> String? {
        guard !known.contains(name) else { return nil }
        let folded = name.lowercased()
        let sorted = known.sorted()
        if let same = sorted.first(where: { $0.lowercased() == folded }) { return same }
        let digits = String(name.filter(\.isNumber))
        let target = Array(folded)
        var best: (name: String, distance: Int)?
        for candidate in sorted where !sameDigits || String(candidate.filter(\.isNumber)) == digits {
            let distance = Self.distance(target, Array(candidate.lowercased()))
            if distance <= 2, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance, counting a swap of neighbours as one edit.
    public static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow = [Int](0...b.count)
        var rowBeforeThat = previousRow
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rowBeforeThat[j - 2] + 1)
                }
            }
            rowBeforeThat = previousRow
            previousRow = row
        }
        return previousRow[b.count]
    }
}
