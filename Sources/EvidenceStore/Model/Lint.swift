/// What `evidence lint` checks in a document, each rule with its id.
public enum LintRule: String, Sendable, CaseIterable {
    case marker = "bad-marker"
    case unknownKey = "unknown-key"
    case duplicate = "duplicate-marker"
    case unmarked = "unmarked-claim"
    case words
    case label
    case unsupported = "unsupported-label"
    case staleProof = "stale-proof"
    case numbers
    case links
    case verified
    case block = "stale-block"
    case frontMatter = "front-matter"

    /// What it finds, as README lists it.
    public var summary: String {
        switch self {
        case .marker: "a marker that cannot be read, or a generated block's comment that opens inside another block, closes none or is never closed (lint --write writes nothing while one stands)"
        case .unknownKey: "a marker names a claim the store lacks (with the closest keys), or one of another document"
        case .duplicate: "two markers name the same claim"
        case .unmarked: "a claim of the document in the store that no marker mentions"
        case .words: "the marked words differ from the store's statement (whitespace, emphasis and links aside)"
        case .label: "the document's label differs from the store's"
        case .unsupported: "the evidence does not support the store's label: measured with no current pass of its present words (untested, needing a device, failing, words changed since), sourced without a source, unverified but verified"
        case .staleProof: "a claim labelled measured passed in its present words only on builds older than the newest recorded (fails --strict)"
        case .numbers: "a quantity in the marked words is not the value, baseline or change of the claim's latest current measurement"
        case .links: "a sourced claim's sources are missing from its words, or its words link to a page that is not its source"
        case .verified: "the front matter's verified: field is not what evidence verified-line prints, or is a plain value YAML refuses (lint --write writes it quoted)"
        case .block: "a generated block differs from what its command writes now"
        case .frontMatter: "the front matter's name: or verified: cannot be read or rewritten safely (an anchor, tag, alias, flow collection, mapping or unclosed quote)"
        }
    }

    public var severity: LintFinding.Severity {
        switch self {
        case .unmarked, .words, .links, .duplicate, .staleProof: .warning
        default: .error
        }
    }
}

/// One finding of `evidence lint`, at a place in a file.
public struct LintFinding: Sendable, Equatable {
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var file: String
    public var line: Int
    public var column: Int
    public var rule: LintRule
    public var message: String
    public var severity: Severity { rule.severity }

    public init(file: String, line: Int, column: Int, rule: LintRule, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.message = message
    }
}

/// A change `lint --write`, `--sync` or `annotate` made or would make.
public struct DocumentChange: Sendable, Equatable {
    public var file: String
    public var line: Int
    public var description: String

    public init(file: String, line: Int, description: String) {
        self.file = file
        self.line = line
        self.description = description
    }
}

extension [DocumentChange] {
    /// One line a change, "FILE:LINE: what changed", for standard output.
    public var text: String { map { "\($0.file):\($0.line): \($0.description)\n" }.joined() }
}
