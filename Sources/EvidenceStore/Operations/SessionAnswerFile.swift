#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A session's answers written ahead in a file (`session --answers FILE`):
/// blocks of `claim: KEY` with `result:`, `posture:`, `measure:`, `note:` and
/// `attach:` lines, and `undo` or `quit` on a line of their own; `#` starts
/// a comment.
public enum SessionAnswerFile {
    public enum Entry: Sendable {
        case claim(key: String, answer: SessionAnswer)
        /// A claim today's run, resumed, already holds a result for: the
        /// file was run before and stopped part way, and resumes after it.
        case alreadyAnswered(key: String)
        case undo
        case quit
    }

    /// The file's entries, every block checked against the session's claims
    /// and prompts before any is applied; an error names the line.
    public static func read(_ file: String, session: GuidedSession) throws -> [Entry] {
        let data = try InputFile.read(Store.absolutePath(file), maxBytes: 1 << 20)
        guard let text = String(validatingUTF8Bytes: data) else {
            throw EvidenceError.badFile(path: file, location: nil, reason: "is not UTF-8 text")
        }
        return try parse(TextLines(text), file: file, session: session)
    }

    private static func parse(_ text: TextLines, file: String, session: GuidedSession) throws -> [Entry] {
        var entries: [Entry] = []
        var block: [(line: Int, field: String, value: String)] = []
        // Claims answered, and of those the ones logged, latest last: what 'undo' takes back.
        var answered: Set<String> = []
        var logged: [String] = []
        func fail(_ line: Int, _ reason: String) -> EvidenceError {
            .badFile(path: file, location: String(line), reason: reason)
        }
        func close() throws {
            guard let first = block.first else { return }
            defer { block = [] }
            guard first.field == "claim" else { throw fail(first.line, "a block starts with 'claim: KEY', not '\(first.field):'") }
            let key = first.value
            if answered.contains(key) { throw fail(first.line, "\(key) is answered twice; put 'undo' between to answer again") }
            if session.answeredInResumedRun.contains(key) {
                answered.insert(key)
                entries.append(.alreadyAnswered(key: key))
                return
            }
            let step: GuidedSession.Step
            do {
                step = try session.step(of: key).step
            } catch let error as EvidenceError {
                throw fail(first.line, error.description)
            }
            var result: String?
            var observation = Observation(claimKey: key, outcome: .pass)
            var notes: [String] = []
            for (line, field, value) in block.dropFirst() {
                do {
                    switch field {
                    case "result":
                        guard result == nil else { throw fail(line, "a second 'result:'") }
                        result = value
                        if value != "next" { observation.outcome = try Outcome(parsing: value) }
                    case "posture": observation.posture = try Posture(parsing: value)
                    case "measure":
                        observation.measurements.append(
                            try MeasurementPrompt.measurement(Validate.singleLine(value, field: "measurement"), prompts: step.prompts))
                    case "note": notes.append(try Validate.freeText(value, field: "note"))
                    case "attach":
                        try session.checkAttachment(try Validate.singleLine(value, field: "attachment"))
                        observation.attachments.append(value)
                    default:
                        throw fail(line, "unknown field '\(field)'; expected result, posture, measure, note or attach")
                    }
                } catch let error as EvidenceError {
                    if case .badFile = error { throw error }
                    throw fail(line, error.description)
                }
            }
            guard let result else { throw fail(first.line, "the block of \(key) has no 'result:'") }
            observation.note = notes.joined(separator: "\n")
            answered.insert(key)
            if result != "next" { logged.append(key) }
            entries.append(.claim(key: key, answer: result == "next" ? .next : .result(observation)))
        }
        for (index, raw) in text.lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingWhitespace()
            if line.hasPrefix("#") { continue }
            if line.isEmpty {
                try close()
                continue
            }
            if line == "undo" || line == "quit" {
                try close()
                if line == "quit" {
                    entries.append(.quit)
                } else {
                    guard let last = logged.popLast() else { throw fail(number, "'undo' with nothing logged before it") }
                    answered.remove(last)
                    entries.append(.undo)
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                throw fail(number, "expected 'field: value', 'undo' or 'quit', found '\(ControlCharacters.escaped(line, keepingLineBreaks: false))'")
            }
            let field = line[..<colon].trimmingWhitespace().lowercased()
            let value = line[line.index(after: colon)...].trimmingWhitespace()
            if field == "claim" { try close() }
            block.append((number, field, value))
        }
        try close()
        return entries
    }
}
