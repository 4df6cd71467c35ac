/// One run, its environment and every result in it: `evidence run show`.
public struct RunDetail: Equatable, Sendable {
    public var run: RunRecord
    public var environment: String
    public var sourceFile: String?
    /// Set when the whole run was retracted.
    public var retraction: Retraction?
    /// Corrections of its OS build, oldest first; the latest decides.
    public var corrections: [TextFormat.CorrectionLine] = []
    /// The OS build the run recorded when logged ('' for none).
    public var recordedOSBuild = ""
    public var results: [ClaimDetail.ResultEntry]
    /// The claim key of each result, nil for an automated test that maps to no claim.
    public var claimKeys: [Int64: String]
}

/// One source and the claims that cite it: `evidence source show`.
public struct SourceDetail: Equatable, Sendable {
    public var url: String
    public var title: String
    public var publisher: String
    public var kind: String
    public var published: String?
    public var updated: String?
    public var retrieved: String?
    /// (claim key, locator)
    public var citations: [(String, String)]
    public var lacks: [String]

    public static func == (lhs: SourceDetail, rhs: SourceDetail) -> Bool {
        lhs.url == rhs.url && lhs.citations.map { $0.0 + $0.1 } == rhs.citations.map { $0.0 + $0.1 }
            && lhs.title == rhs.title && lhs.lacks == rhs.lacks
    }
}
