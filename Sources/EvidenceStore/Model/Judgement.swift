/// What a claim's expected values make of a result's measurements: the
/// outcome of a result logged without a verdict, and the sentence its note
/// carries. A result is judged when it is logged, and again whenever the
/// claim's expected values change; a tester's verdict stands, and the note
/// says when the values disagree with it. The sentences are the note's last
/// lines, so judging again replaces them.
public struct Judgement: Equatable, Sendable {
    public var outcome: Outcome
    public var note: String
    /// One sentence per measurement outside its tolerance.
    public var misses: [String]

    static let outside = "Outside the expected values: "
    static let disagreement = "The tester gave "
    static let unjudged = "No expected value judges its measurements now: it counts as inconclusive until one does."

    /// Judges a result. `judged` results take the values' outcome; where no
    /// value covers a measurement, a logged one is inconclusive and a passing
    /// test's (`ofPassingTest`: ingested, its measurements attached by the
    /// test) keeps its pass. Others keep `outcome`.
    public init(
        outcome given: Outcome, judged: Bool, note: String, measurements: [MeasurementDraft], expectations: [ExpectedValue],
        ofPassingTest: Bool = false
    ) {
        let verdict = ExpectationVerdict(measurements: measurements, expectations: expectations)
        let kept = Self.withoutVerdict(note)
        misses = verdict.misses
        var sentence: String?
        if judged {
            outcome = verdict.outcome ?? (ofPassingTest ? .pass : .inconclusive)
            if !verdict.misses.isEmpty {
                sentence = Self.outside + verdict.misses.joined(separator: "; ") + "."
            } else if verdict.outcome == nil, !ofPassingTest {
                sentence = Self.unjudged
            }
        } else {
            outcome = given
            if !verdict.misses.isEmpty, given != .fail {
                sentence = Self.disagreement + "\(given.rawValue) although it is outside the expected values: "
                    + verdict.misses.joined(separator: "; ") + "."
            }
        }
        self.note = sentence.map { kept.isEmpty ? $0 : kept + "\n" + $0 } ?? kept
    }

    /// A note without the sentences judging added.
    static func withoutVerdict(_ note: String) -> String {
        var lines = note.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let last = lines.last,
            last.hasPrefix(outside) || last.hasPrefix(disagreement) || last == unjudged
        {
            lines.removeLast()
        }
        return lines.joined(separator: "\n")
    }
}
