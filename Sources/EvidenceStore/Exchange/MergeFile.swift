#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// git's merge driver for the text format: three versions of one file
/// (`%O %A %B`) merged record by record, by key. A record changed on one side
/// only takes that side; records only added are kept; a record changed both
/// ways is merged field by field, and what still differs is a conflict, left
/// between git's markers and named by key. Two ingestions of one file take the
/// earlier one's run and results. The result is in the file's own order.
public enum MergeFile {
    public struct Outcome: Sendable {
        /// The merged file.
        public var text: String
        /// One line per conflict: what it is and which fields.
        public var conflicts: [String]
    }

    /// git's call: the three files merged, the result written over `ours`
    /// (a version git gives as missing reads as empty); the conflicts, one line each.
    public static func merge(baseFile: String, oursFile: String, theirsFile: String, path: String?) throws -> [String] {
        func read(_ file: String) throws -> String {
            let absolute = Store.absolutePath(file)
            guard FileManager.default.fileExists(atPath: absolute) else { return "" }
            guard let text = String(data: try InputFile.read(absolute, maxBytes: 1 << 30), encoding: .utf8) else {
                throw EvidenceError.badFile(path: absolute, location: nil, reason: "is not UTF-8 text")
            }
            return text
        }
        let outcome = merge(
            base: try read(baseFile), ours: try read(oursFile), theirs: try read(theirsFile), path: path ?? oursFile)
        do {
            try Data(outcome.text.utf8).write(to: URL(fileURLWithPath: Store.absolutePath(oursFile)), options: .atomic)
        } catch {
            throw EvidenceError.io(path: oursFile, reason: "cannot be written (\(SystemCall.words(for: error)))")
        }
        return outcome.conflicts
    }

    public static func merge(base: String, ours: String, theirs: String, path: String) -> Outcome {
        // What git itself settles: the same change on both sides, or a change on one side only.
        if ours == theirs || base == theirs { return Outcome(text: ours, conflicts: []) }
        if base == ours { return Outcome(text: theirs, conflicts: []) }
        guard let original = try? Records(base, path), let mine = try? Records(ours, path),
            let other = try? Records(theirs, path)
        else {
            // A version that is not records of the format (an earlier
            // conflict's markers, another file): the whole file is a conflict.
            return Outcome(
                text: "<<<<<<< ours\n" + ensureNewline(ours) + "=======\n" + ensureNewline(theirs) + ">>>>>>> theirs\n",
                conflicts: ["\(path): not every line is a record of the text format; merge it by hand"])
        }
        var keys = Array(Set(mine.byKey.keys).union(other.byKey.keys))
        let identities = mine.byKey.merging(other.byKey) { first, _ in first }.mapValues(\.identity)
        keys.sort { RecordIdentity.sortsBefore(identities[$0]?.sortKey ?? [], identities[$1]?.sortKey ?? []) }
        var out = ""
        var conflicts: [String] = []
        // Which side's ingestion of the file stands, once the run's record says.
        var ingestionWinner: Records?
        var sameSecondIngestion = false
        for key in keys {
            let b = original.byKey[key]
            let o = mine.byKey[key]
            let t = other.byKey[key]
            let description = (o ?? t)?.identity.description ?? key
            switch (o, t) {
            case (let o?, let t?) where o.line == t.line:
                // One file ingested on both sides in the same second: the first result that differs decides.
                if key.hasPrefix("run "), o.value["ingested_file"] != nil { sameSecondIngestion = true }
                out += o.line + "\n"
            case (nil, nil):
                continue
            case (let o?, nil):
                if let b, b.line != o.line {
                    conflicts.append("\(path): \(description) was changed on one side and removed on the other")
                    out += markers(o.line, nil)
                } else if b == nil {
                    out += o.line + "\n"
                }
            case (nil, let t?):
                if let b, b.line != t.line {
                    conflicts.append("\(path): \(description) was removed on one side and changed on the other")
                    out += markers(nil, t.line)
                } else if b == nil {
                    out += t.line + "\n"
                }
            case (let o?, let t?):
                if key.hasPrefix("run "), let winner = earlierIngestion(o.value, t.value) {
                    ingestionWinner = winner ? mine : other
                    out += (winner ? o : t).line + "\n"
                    continue
                }
                if key.hasPrefix("result "), ingestionWinner == nil, sameSecondIngestion {
                    let (recordedO, recordedT) = (o.value["recorded_at"]?.stringValue ?? "", t.value["recorded_at"]?.stringValue ?? "")
                    ingestionWinner = (recordedO, o.line) <= (recordedT, t.line) ? mine : other
                }
                if key.hasPrefix("result "), let winner = ingestionWinner, let record = winner.byKey[key] {
                    out += record.line + "\n"
                    continue
                }
                // Judged verdicts are derived: two clones that judged one result
                // against different expected values keep ours, and every import
                // judges it again from the values and the claim's expectations.
                if key.hasPrefix("result "), o.value["judged"] != nil, t.value["judged"] != nil,
                    Self.withoutVerdict(o.value) == Self.withoutVerdict(t.value)
                {
                    out += o.line + "\n"
                    continue
                }
                if let b, b.line == o.line {
                    out += t.line + "\n"
                } else if let b, b.line == t.line {
                    out += o.line + "\n"
                } else {
                    let laterWins: RecordMerge.LaterWins? = o.value["key"] != nil ? .claimLabel : nil
                    switch RecordMerge.merge(base: b?.value, ours: o.value, theirs: t.value, laterWins: laterWins) {
                    case .merged(let merged):
                        if let line = try? canonicalLine(merged, path: path) {
                            out += line + "\n"
                        } else {
                            conflicts.append("\(path): \(description) does not merge into a valid record")
                            out += markers(o.line, t.line)
                        }
                    case .conflict(let fields):
                        conflicts.append(
                            "\(path): \(description) was changed both ways (\(fields.map { "'\($0)'" }.joined(separator: ", ")))")
                        out += markers(o.line, t.line)
                    }
                }
            }
        }
        return Outcome(text: out, conflicts: conflicts)
    }

    /// A judged result's record without what judging writes: its verdict
    /// (`outcome`) and the note that says why.
    private static func withoutVerdict(_ value: JSONValue) -> String {
        guard case .object(var fields) = value else { return value.rendered() }
        fields.removeAll { $0.0 == "outcome" || $0.0 == "note" }
        return JSONValue.object(fields).rendered()
    }

    private static func markers(_ ours: String?, _ theirs: String?) -> String {
        "<<<<<<< ours\n" + (ours.map { $0 + "\n" } ?? "") + "=======\n" + (theirs.map { $0 + "\n" } ?? "")
            + ">>>>>>> theirs\n"
    }

    private static func ensureNewline(_ text: String) -> String {
        text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
    }

    /// For two versions of a run's record that ingested the same file: true
    /// when ours was ingested first, false when theirs was; nil otherwise.
    private static func earlierIngestion(_ ours: JSONValue, _ theirs: JSONValue) -> Bool? {
        guard let mine = ours["ingested_file"], let other = theirs["ingested_file"],
            let sha = mine["sha256"]?.stringValue, sha == other["sha256"]?.stringValue
        else { return nil }
        let a = mine["ingested_at"]?.stringValue ?? ""
        let b = other["ingested_at"]?.stringValue ?? ""
        if a != b { return a < b }
        return ours.rendered() <= theirs.rendered()
    }

    /// A merged record written as the format writes its kind.
    static func canonicalLine(_ value: JSONValue, path: String) throws -> String {
        var fields = try FieldReader(file: path, line: 0, value: value)
        switch fields.firstKey {
        case "url": return try fields.source().line.object
        case "name": return try fields.capability().line.object
        case "key": return try fields.claim(version: 2).line.object
        case "kind": return try fields.lack().line.object
        case "claim": return try fields.statement().line.object
        case "change": return try fields.change().line.object
        case "document" where path.hasSuffix(TextFormat.Part.documents.name): return try fields.document().line.object
        case "document": return try fields.checklist().line.object
        case "checklist": return try fields.checklistItem().line.object
        case "pattern": return try fields.testMapping().line.object
        case "run", "result", "retraction", "link", "unlink", "correction":
            switch try fields.runFileLine() {
            case .header(let header): return header.line.object
            case .result(let result): return result.line.object
            case .retraction(let retraction): return retraction.line.object
            case .link(let link): return link.line.object
            case .unlink(let unlink): return unlink.line.object
            case .correction(let correction): return correction.line.object
            }
        default:
            throw EvidenceError.badFile(path: path, location: nil, reason: "not a record that merges field by field")
        }
    }

    /// One version of a file: its records by key.
    private final class Records {
        struct Record {
            var line: String
            var value: JSONValue
            var identity: RecordIdentity
        }

        var byKey: [String: Record] = [:]

        init(_ text: String, _ path: String) throws {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
                let trimmed = line.trimmingWhitespace()
                if trimmed.isEmpty { continue }
                let value = try JSONReader.parse(Data(trimmed.utf8))
                guard let identity = RecordIdentity(value), byKey[identity.key] == nil else {
                    throw EvidenceError.badFile(path: path, location: String(index + 1), reason: "not a record, or a repeated one")
                }
                byKey[identity.key] = Record(line: String(trimmed), value: value, identity: identity)
            }
        }
    }
}
