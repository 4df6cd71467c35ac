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
