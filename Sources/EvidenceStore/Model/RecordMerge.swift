/// Merging one record of the text format from two sides that share a base,
/// field by field: a field changed on one side only takes that side; a field
/// changed differently on both is a conflict, unless the fields go together
/// with a time, as a claim's label goes with when it was changed, and then
/// the later side wins (on the same second, the same side on every clone).
/// When and by whom a record last changed (`changed_at`, `changed_by`) never
/// conflict: the merged record carries the later. Used by `merge-file`
/// (git's three files) and by import (the store, the folder and the base the
/// store kept).
public enum RecordMerge {
    public enum Outcome: Equatable, Sendable {
        /// The merged record (one side's, or fields of both).
        case merged(JSONValue)
        /// The fields changed differently on both sides.
        case conflict([String])
    }

    /// Fields that change together, decided by a time field: the later wins.
    public struct LaterWins: Sendable {
        public var fields: Set<String>
        public var time: String

        public init(fields: Set<String>, time: String) {
            self.fields = fields
            self.time = time
        }

        /// A claim's label goes with when it was last changed.
        public static let claimLabel = LaterWins(fields: ["label", "labelled_at"], time: "labelled_at")
    }

    /// The fields that say when and by whom a record last changed.
    public static let stampFields: Set<String> = ["changed_at", "changed_by"]

    /// A record's `changed_at`, `changed_by`: what orders two versions of
    /// it. A missing time is older than any.
    public static func stamp(of record: JSONValue?) -> (at: String, by: String) {
        guard case .object(let fields)? = record else { return ("", "") }
        return (value("changed_at", in: fields)?.stringValue ?? "", value("changed_by", in: fields)?.stringValue ?? "")
    }

    /// Merges `ours` and `theirs` against `base` (nil when both sides added
    /// the record). All three are JSON objects.
    public static func merge(base: JSONValue?, ours: JSONValue, theirs: JSONValue, laterWins: LaterWins? = nil)
        -> Outcome
    {
        guard case .object(var ourFields) = ours, case .object(var theirFields) = theirs else {
            return ours == theirs ? .merged(ours) : .conflict(["record"])
        }
        // The later stamp is the merged record's.
        let later = stamp(of: ours) >= stamp(of: theirs) ? ourFields : theirFields
        let stamp = stampFields.sorted().compactMap { name in value(name, in: later).map { (name, $0) } }
        ourFields.removeAll { stampFields.contains($0.0) }
        theirFields.removeAll { stampFields.contains($0.0) }
        var baseFields: [(String, JSONValue)]?
        if case .object(let fields)? = base { baseFields = fields }
        var names = ourFields.map(\.0)
        for name in theirFields.map(\.0) where !names.contains(name) { names.append(name) }
        var merged: [(String, JSONValue)] = []
        var conflicts: [String] = []
        for name in names {
            let mine = value(name, in: ourFields)
            let other = value(name, in: theirFields)
            let original = baseFields.map { value(name, in: $0) }
            let taken: JSONValue?
            if mine == other {
                taken = mine
            } else if let original, original == mine {
                taken = other
            } else if let original, original == other {
                taken = mine
            } else {
                conflicts.append(name)
                taken = mine
            }
            if let taken { merged.append((name, taken)) }
        }
        if !conflicts.isEmpty, let laterWins, Set(conflicts).isSubset(of: laterWins.fields) {
            // Times in the store's form compare as text; on the same second,
            // the fields' text decides, so every clone merges the same way.
            func order(_ fields: [(String, JSONValue)]) -> [String] {
                [value(laterWins.time, in: fields).flatMap(\.stringValue) ?? ""]
                    + laterWins.fields.sorted().map { value($0, in: fields)?.rendered() ?? "" }
            }
            let mine = order(ourFields)
            let other = order(theirFields)
            if mine != other {
                let winner = mine.lexicographicallyPrecedes(other) ? theirFields : ourFields
                merged = merged.compactMap { field in
                    guard laterWins.fields.contains(field.0) else { return field }
                    return value(field.0, in: winner).map { (field.0, $0) }
                }
                for name in laterWins.fields where !merged.contains(where: { $0.0 == name }) {
                    if let taken = value(name, in: winner) { merged.append((name, taken)) }
                }
                conflicts = []
            }
        }
        return conflicts.isEmpty ? .merged(.object(merged + stamp)) : .conflict(conflicts)
    }

    private static func value(_ name: String, in fields: [(String, JSONValue)]) -> JSONValue? {
        fields.first { $0.0 == name }?.1
    }
}

/// What names a record of the text format and where it sorts in its file,
/// told from its first field: every kind of record starts with its own.
public struct RecordIdentity: Equatable, Sendable {
    /// Unique within a file.
    public var key: String
    /// The file's order: compared part by part, byte by byte.
    public var sortKey: [String]
    /// What people call it in a message: "claim 'island.clock-offset.closed'".
    public var description: String

    /// Nil for a value that is not a record of the format.
    public init?(_ value: JSONValue) {
        guard case .object(let fields) = value, let first = fields.first else { return nil }
        func text(_ name: String) -> String { fields.first { $0.0 == name }?.1.stringValue ?? "" }
        func number(_ name: String) -> String {
            if case .integer(let n)? = fields.first(where: { $0.0 == name })?.1 {
                let digits = String(n)
                return String(repeating: "0", count: max(0, 19 - digits.count)) + digits
            }
            return ""
        }
        let name = first.0
        switch name {
        case "format":
            (key, sortKey, description) = ("format", ["0"], "the manifest")
        case "url":
            (key, sortKey, description) = (text("url"), [text("url")], "source '\(text("url"))'")
        case "name":
            (key, sortKey, description) = (text("name"), [text("name")], "capability '\(text("name"))'")
        case "key":
            (key, sortKey, description) = (text("key"), [text("key")], "claim '\(text("key"))'")
        case "kind":
            let parts = [text("kind"), text("model"), text("tool_build"), text("capability")]
            (key, sortKey, description) = (
                parts.joined(separator: "\n"), parts, "lack of \(text("capability")) on \(text("model")) \(text("kind"))"
            )
        case "claim":
            (key, sortKey, description) = (
                text("claim") + "\n" + text("sha256"), [text("claim"), text("sha256")],
                "statement \(text("sha256").prefix(12)) of claim '\(text("claim"))'"
            )
        case "change":
            (key, sortKey, description) = (
                text("change"), [text("claim"), text("changed_at"), text("change")],
                "label change \(text("change")) of claim '\(text("claim"))'"
            )
        case "run":
            (key, sortKey, description) = ("run " + text("run"), ["0"], "run \(text("run"))")
        case "result":
            (key, sortKey, description) = (
                "result " + text("result"), ["1", text("recorded_at"), text("result")], "result \(text("result"))"
            )
        case "retraction":
            (key, sortKey, description) = (
                "retraction " + text("retraction"), ["2", text("at"), text("retraction")],
                "retraction \(text("retraction"))"
            )
        case "link":
            (key, sortKey, description) = (
                "link " + text("link"), ["3", text("at"), text("link")], "link \(text("link")) of result \(text("result"))"
            )
        case "unlink":
            (key, sortKey, description) = (
                "unlink " + text("unlink"), ["4", text("at"), text("unlink")], "unlink \(text("unlink")) of link \(text("link"))"
            )
        case "rename":
            (key, sortKey, description) = (
                "rename " + text("rename"), [text("at"), text("rename")], "rename \(text("rename")) of claim '\(text("from"))'"
            )
        case "retirement":
            (key, sortKey, description) = (
                "retirement " + text("retirement"), [text("at"), text("retirement")],
                "\(text("action")) \(text("retirement")) of claim '\(text("claim"))'"
            )
        case "correction":
            (key, sortKey, description) = (
                "correction " + text("correction"), ["5", text("at"), text("correction")],
                "correction \(text("correction")) to OS build \(text("os_build"))"
            )
        case "document":
            // A checklist, or (with models, in documents.jsonl) a document's default models.
            let what = fields.contains { $0.0 == "models" } ? "document" : "checklist"
            (key, sortKey, description) = (text("document"), [text("document")], "\(what) '\(text("document"))'")
        case "checklist":
            (key, sortKey, description) = (
                text("key"), [text("checklist"), number("position")], "checklist item '\(text("key"))'"
            )
        case "pattern":
            (key, sortKey, description) = (
                text("pattern") + "\n" + text("claim"), [text("pattern"), text("claim")],
                "mapping '\(text("pattern"))' → '\(text("claim"))'"
            )
        default:
            return nil
        }
    }

    /// Whether `a` sorts before `b`: part by part, bytes compared as unsigned.
    public static func sortsBefore(_ a: [String], _ b: [String]) -> Bool {
        for (x, y) in zip(a, b) where x != y {
            return x.utf8.lexicographicallyPrecedes(y.utf8)
        }
        return a.count < b.count
    }
}
