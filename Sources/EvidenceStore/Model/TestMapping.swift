/// Decides which claims a test verifies: the rules kept in the store (`evidence
/// map`), and the convention that `claim:KEY` in a test's identifier, tags or
/// properties names KEY.
public struct TestClaimMatcher {
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
        var texts = [test.identifier, test.name] + test.tags + test.properties.map(\.1)
        for (name, value) in test.properties where name == "claim" && !value.hasPrefix("claim:") {
            texts.append("claim:" + value)
        }
        for text in texts {
            for key in Self.conventionKeys(in: text) { add(key) }
        }
        if !rules.isEmpty {
            let forms = Self.candidates(test).map { Array($0.utf8) }
            for rule in rules where !found.contains(rule.claim) {
                if forms.contains(where: { form in form.withUnsafeBufferPointer { rule.pattern.matches($0) } }) {
                    found.append(rule.claim)
                }
            }
        }
        return (found, unknown)
    }

    /// Every `claim:KEY` in a text.
    static func conventionKeys(in text: String) -> [String] {
        var keys: [String] = []
        var rest = text[...]
        while let range = rest.range(of: "claim:") {
            let key = rest[range.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
            if !key.isEmpty { keys.append(String(key)) }
            rest = rest[range.upperBound...]
        }
        return keys
    }

    /// The forms a rule may match: the identifier as written, with or without
    /// "()", and without the module or outer types before its suite.
    static func candidates(_ test: TestReport.TestCase) -> [String] {
        var forms = [test.identifier, test.name]
        if let slash = test.identifier.firstIndex(of: "/") {
            let suite = test.identifier[..<slash]
            let rest = test.identifier[slash...]
            var parts = suite.split(separator: ".")
            while parts.count > 1 {
                parts.removeFirst()
                forms.append(parts.joined(separator: ".") + rest)
            }
        }
        for form in forms {
            if form.hasSuffix("()") {
                forms.append(String(form.dropLast(2)))
            } else if !form.hasSuffix(")") {
                forms.append(form + "()")
            }
        }
        return forms
    }
}
