#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// A guided session's answers, asked line by line on a terminal or read from
/// an answers file (`SessionAnswerFile`), each logged as soon as it is whole.
/// What it shows goes to `say`, in `text`'s words; `readLine` gives the next
/// line typed, nil at the end of input.
public struct SessionDialogue {
    private let session: GuidedSession
    public let text: SessionText
    private let say: (String) -> Void
    private let readLine: () -> String?

    public init(session: GuidedSession, text: SessionText, say: @escaping (String) -> Void, readLine: @escaping () -> String?) {
        self.session = session
        self.text = text
        self.say = say
        self.readLine = readLine
    }

    private func error(_ error: any Error) { say(text.error(error)) }

    /// Asks until the session ends: on `q`, at the end of input, or after the last claim.
    public func ask() {
        while let step = session.current {
            say(text.step(step))
            let answer = readAnswer(for: step)
            do {
                say(text.event(try session.answer(answer), for: step.claim.claim.key))
            } catch {
                self.error(error)
            }
        }
    }

    /// A line from standard input, nil at its end.
    private func prompt(_ text: String) -> String? {
        say(self.text.styled(text, "36"))
        return readLine()
    }

    private func readAnswer(for step: GuidedSession.Step) -> SessionAnswer {
        while true {
            guard let line = prompt("result [p f b i s] [n]ext [u]ndo [q]uit [?]: ") else { return .quit }
            let word = line.trimmingWhitespace().lowercased()
            let outcomes: [String: Outcome] = ["p": .pass, "f": .fail, "b": .blocked, "i": .inconclusive, "s": .skipped]
            switch word {
            case "": continue
            case "?", "h", "help": say(SessionText.help)
            case "n", "next": return .next
            case "u", "undo": return .undo
            case "q", "quit": return .quit
            default:
                guard let outcome = outcomes[word] ?? Outcome(rawValue: word) else {
                    error(EvidenceError.invalidValue(field: "answer", value: line, expected: "p, f, b, i, s, n, u, q or ?"))
                    continue
                }
                guard let observation = readDetails(outcome, for: step) else { return .quit }
                return .result(observation)
            }
        }
    }

    /// Asks `text` until `accept` takes the answer (nil: the field is left
    /// out); nil for the whole answer at the end of input.
    private func field<T>(_ text: String, _ accept: (String) throws -> T?) -> T?? {
        while true {
            guard let line = prompt(text) else { return nil }
            let trimmed = line.trimmingWhitespace()
            do {
                return .some(try accept(trimmed))
            } catch {
                self.error(error)
            }
        }
    }

    private func readDetails(_ outcome: Outcome, for step: GuidedSession.Step) -> Observation? {
        var observation = Observation(claimKey: step.claim.claim.key, outcome: outcome)
        if [.pass, .fail, .inconclusive].contains(outcome) {
            guard let posture = field("posture (\(Posture.names.joined(separator: ", ")); empty for none): ", {
                $0.isEmpty ? nil : try Posture(parsing: $0)
            }) else { return nil }
            observation.posture = posture
            for measurement in step.prompts {
                guard let draft = field("\(measurement.label) (empty to leave out): ", {
                    $0.isEmpty ? nil : try measurement.draft(from: $0)
                }) else { return nil }
                if let draft { observation.measurements.append(draft) }
            }
            while true {
                guard let draft = field("another measurement, NAME=VALUE UNIT [from BASELINE] (empty when done): ", {
                    $0.isEmpty ? nil : try MeasurementDraft(parsing: Validate.singleLine($0, field: "measurement"))
                }) else { return nil }
                guard let draft else { break }
                observation.measurements.append(draft)
            }
        }
        guard let note = field("note (empty for none): ", { try Validate.freeText($0, field: "note") }) else { return nil }
        observation.note = note ?? ""
        while true {
            guard let path = field("attachment path (empty when done): ", { text -> String? in
                guard !text.isEmpty else { return nil }
                try self.session.checkAttachment(try Validate.singleLine(text, field: "attachment"))
                return text
            }) else { return nil }
            guard let path else { break }
            observation.attachments.append(path)
        }
        return observation
    }

    /// Answers from a file, read and checked whole first, then applied in
    /// order; claims the file does not mention stay unanswered.
    public func answer(file: String) throws {
        for entry in try SessionAnswerFile.read(file, session: session) {
            switch entry {
            case .quit:
                _ = try session.answer(.quit)
                return
            case .alreadyAnswered(let key):
                say(text.skipped(key))
            case .undo:
                // The event names the claim it took back.
                say(text.event(try session.answer(.undo), for: ""))
            case .claim(let key, let answer):
                try session.move(to: key)
                if let step = session.current { say(text.step(step)) }
                say(text.event(try session.answer(answer), for: key))
            }
        }
        _ = try session.answer(.quit)
    }
}
