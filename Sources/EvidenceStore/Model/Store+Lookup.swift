import Foundation

/// Finding rows by the natural keys people type: claim keys, source URLs,
/// capability names, run ids. A miss names the value and suggests the closest.
extension Store {
    public func claimID(key: String) throws -> Int64 {
        if let id = try database.scalar("SELECT id FROM claims WHERE key = ?", .text(key)).int64 {
            return id
        }
        let keys = try database.query("SELECT key FROM claims").map { $0.text("key") }
        throw EvidenceError.notFound(kind: "claim", value: key, suggestions: Suggestions.closest(to: key, in: keys))
    }

    public func capabilityID(name: String) throws -> Int64 {
        if let id = try database.scalar("SELECT id FROM capabilities WHERE name = ?", .text(name)).int64 {
            return id
        }
        let names = try database.query("SELECT name FROM capabilities").map { $0.text("name") }
        throw EvidenceError.notFound(
            kind: "capability", value: name, suggestions: Suggestions.closest(to: name, in: names))
    }

    public func sourceID(url: String) throws -> Int64 {
        if let id = try database.scalar("SELECT id FROM sources WHERE url = ?", .text(url)).int64 {
            return id
        }
        throw try unknownSource(url)
    }

    /// Resolves `URL`, `URL#locator` or `URL?query` to a registered source and the
    /// locator within it: the registered URL that the reference starts with, cut
    /// at `#` or `?`.
    public func resolveSourceReference(_ reference: String) throws -> (sourceID: Int64, locator: String) {
        var candidates: [(String, String)] = [(reference, "")]
        if let hash = reference.firstIndex(of: "#") {
            candidates.append((String(reference[..<hash]), String(reference[hash...])))
        }
        if let question = reference.firstIndex(of: "?") {
            candidates.append((String(reference[..<question]), String(reference[question...])))
        }
        for (url, locator) in candidates {
            if let id = try database.scalar("SELECT id FROM sources WHERE url = ?", .text(url)).int64 {
                return (id, locator)
            }
        }
        throw try unknownSource(reference)
    }

    private func unknownSource(_ url: String) throws -> EvidenceError {
        let urls = try database.query("SELECT url FROM sources").map { $0.text("url") }
        let bare = String(url.prefix { $0 != "#" && $0 != "?" })
        var suggestions = urls.filter { bare.hasPrefix($0) || $0.hasPrefix(bare) }.sorted()
        if suggestions.isEmpty {
            suggestions = Suggestions.closest(to: bare, in: urls)
        }
        return EvidenceError.notFound(
            kind: "source (add it with 'evidence source add')", value: url, suggestions: Array(suggestions.prefix(3)))
    }

    /// A run by its number, its UUID, or a unique prefix of its UUID (8 characters or more).
    public func runID(reference: String) throws -> Int64 {
        let text = reference.trimmingCharacters(in: .whitespaces).lowercased()
        if let number = Int64(text), let id = try database.scalar("SELECT id FROM runs WHERE id = ?", .integer(number)).int64 {
            return id
        }
        if text.count >= 8, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            let matches = try database.query(
                "SELECT id FROM runs WHERE uuid >= ? AND uuid < ? ORDER BY uuid LIMIT 2", .text(text), .text(text + "g"))
            if matches.count == 1 {
                return Int64(matches[0].int("id"))
            }
            if matches.count > 1 {
                throw EvidenceError.invalidValue(
                    field: "run", value: reference, expected: "a longer UUID prefix; several runs start with it")
            }
        }
        let recent = try database.query("SELECT id FROM runs ORDER BY id DESC LIMIT 3").map { $0.text("id") }
        throw EvidenceError.notFound(kind: "run", value: reference, suggestions: recent)
    }
}
