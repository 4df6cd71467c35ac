/// A marketing version as people write it: "27.1", "27.1.1", "27.1 RC",
/// "27.2 beta 3". Versions compare numerically, part by part, and a beta or
/// release candidate comes before the release of its number: 27.1 RC < 27.1 <
/// 27.1.1 < 27.2 beta 3 < 27.2. Used where builds are missing; builds, when
/// both sides have one, decide instead (`AppleBuild`).
public enum MarketingVersion {
    /// The version as sortable text: four numeric parts, then the stage (beta
    /// 0, release candidate 1, release 2) and its number; "" for no version.
    /// The store keeps it beside each environment's version.
    public static func order(_ text: String) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return "" }
        let main = trimmed.prefix { $0 != " " }
        var parts = main.split(separator: ".", omittingEmptySubsequences: false).prefix(4).map { leadingNumber($0) }
        while parts.count < 4 { parts.append(0) }
        let tag = trimmed.dropFirst(main.count).trimmingWhitespace().lowercased()
        let stage = tag.isEmpty ? 2 : (tag.hasPrefix("rc") || tag.hasPrefix("release candidate")) ? 1 : 0
        let stageNumber = leadingNumber(Substring(tag.drop { $0.isLetter || $0 == " " }))
        return parts.map { pad($0, 6) }.joined(separator: ".") + ".\(stage)." + pad(stageNumber, 6)
    }

    /// Checks a version given by a user: numbers apart by dots, optionally
    /// "beta" or "RC" and a number. An empty text means "not known".
    public static func validated(_ text: String, field: String) throws -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { return "" }
        let words = trimmed.split(separator: " ")
        let numbers = words[0].split(separator: ".", omittingEmptySubsequences: false)
        let numeric = numbers.count <= 4 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        let tagOK: Bool
        switch words.count {
        case 1: tagOK = true
        case 2:
            // "beta", "RC", or with its number joined as Xcode prints it ("16 beta6").
            let tag = words[1].lowercased()
            let name = tag.prefix { !$0.isNumber }
            tagOK = ["beta", "rc"].contains(String(name)) && tag.dropFirst(name.count).allSatisfy { $0.isASCII && $0.isNumber }
        case 3: tagOK = ["beta", "rc"].contains(words[1].lowercased()) && words[2].allSatisfy { $0.isASCII && $0.isNumber }
        default: tagOK = false
        }
        guard numeric, tagOK else {
            throw EvidenceError.invalidValue(
                field: field, value: text, expected: "a version such as 27.1, 27.1.1, \"27.2 beta 3\", \"27.2 beta3\" or \"27.1 RC\"")
        }
        return trimmed
    }

    private static func leadingNumber(_ text: Substring) -> Int {
        Int(text.prefix { $0.isASCII && $0.isNumber }.prefix(6)) ?? 0
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
