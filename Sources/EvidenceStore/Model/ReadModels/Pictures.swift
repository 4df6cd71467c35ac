/// What the HTML report draws beside the text of the evidence report: where
/// each claim was checked, how measurements moved from build to build, and the
/// images attached to results. Read from the same snapshot as the report.
public struct ReportPictures: Sendable {
    public var coverage: CoverageMatrix
    public var trends: [MeasurementTrend]
    public var images: [ReportImage]
    /// Claims that need a capability the simulator lacks, by key.
    public var needsDevice: Set<String>
    /// Each document's claims by outcome on each build, oldest build first.
    public var documentTrends: [DocumentTrend] = []
    /// The capabilities each claim needs, and the models it speaks about (none: any), by key.
    public var needs: [String: [String]] = [:]
    public var models: [String: [String]] = [:]
    /// The runs the report's run log shows, by UUID: links go only to them.
    public var shownRuns: Set<String>?

    public init(coverage: CoverageMatrix, trends: [MeasurementTrend], images: [ReportImage], needsDevice: Set<String>) {
        self.coverage = coverage
        self.trends = trends
        self.images = images
        self.needsDevice = needsDevice
    }
}

// MARK: - Documents by build

/// A document's claims (its QA work) on each OS build, oldest first: how many
/// passed there, how many failed, and how many have no pass or fail there.
/// Each claim counts by its latest pass or fail on that build's environments
/// of the models it speaks about; a pass where a needed capability is missing
/// proves nothing there.
public struct DocumentTrend: Sendable, Equatable {
    public struct Build: Sendable, Equatable {
        /// "iOS 27.1 (23B85)"
        public var label: String
        public var passing: Int
        public var failing: Int
        public var untested: Int

        public init(label: String, passing: Int, failing: Int, untested: Int) {
            self.label = label
            self.passing = passing
            self.failing = failing
            self.untested = untested
        }
    }

    public var document: String
    public var claims: Int
    public var builds: [Build]

    public init(document: String, claims: Int, builds: [Build]) {
        self.document = document
        self.claims = claims
        self.builds = builds
    }
}

// MARK: - Coverage

/// Claims × environments: the latest decisive result of each claim on each
/// environment that holds a result of the claims shown.
public struct CoverageMatrix: Sendable {
    public struct Column: Sendable, Equatable {
        public var environment: EnvironmentSpec
        /// False when a newer OS or tool build is recorded for its model.
        public var isCurrent: Bool

        public init(environment: EnvironmentSpec, isCurrent: Bool) {
            self.environment = environment
            self.isCurrent = isCurrent
        }
    }

    /// Newest first: OS version and build, then tool version and build.
    public var columns: [Column]
    /// Cells by claim key, one per column, in the columns' order.
    public var cells: [String: [CoverageCell]]

    public init(columns: [Column], cells: [String: [CoverageCell]]) {
        self.columns = columns
        self.cells = cells
    }

    /// The row of a claim: an empty cell for every column where it has no result.
    public func row(_ claim: String) -> [CoverageCell] {
        cells[claim] ?? Array(repeating: CoverageCell(), count: columns.count)
    }
}

/// One claim on one environment.
public struct CoverageCell: Sendable, Equatable {
    /// The latest pass or fail there that is not retracted.
    public var decisive: Outcome?
    public var run: String?
    public var checkedAt: String?
    /// The decisive result is on an older build than the newest recorded for
    /// the model, or of the claim's earlier words.
    public var stale = false
    /// Results there that are not retracted, none of them a pass or fail.
    public var otherOnly = false
    /// Results there, every one of them retracted.
    public var retractedOnly = false
    /// The environment lacks a capability the claim needs: nothing here proves it.
    public var lacksCapability = false
    /// The environment is of a model the claim does not speak about: shown, never counted.
    public var otherModel = false

    public init(
        decisive: Outcome? = nil, run: String? = nil, checkedAt: String? = nil, stale: Bool = false, otherOnly: Bool = false,
        retractedOnly: Bool = false, lacksCapability: Bool = false
    ) {
        self.decisive = decisive
        self.run = run
        self.checkedAt = checkedAt
        self.stale = stale
        self.otherOnly = otherOnly
        self.retractedOnly = retractedOnly
        self.lacksCapability = lacksCapability
    }

    public enum Mark: String, Sendable, CaseIterable {
        case pass, fail, stale, skipped, retracted, lacks, otherModel = "other-model", none

        /// The symbol a cell shows, so that no colour carries meaning alone.
        public var symbol: String {
            switch self {
            case .pass: "✓"
            case .fail: "✗"
            case .stale: "◷"
            case .skipped: "○"
            case .retracted: "⊖"
            case .lacks: "⊘"
            case .otherModel: "⁂"
            case .none: "·"
            }
        }

        public var meaning: String {
            switch self {
            case .pass: "passed: the latest pass or fail here is a pass"
            case .fail: "failed: the latest pass or fail here is a failure"
            case .stale: "stale: that result is on an older build than the newest recorded for the model, or of earlier words"
            case .skipped: "skipped only: results here, none of them a pass or a fail"
            case .retracted: "retracted: every result here was retracted"
            case .lacks: "this environment lacks a capability the claim needs, so nothing here proves it"
            case .otherModel: "a model the claim does not speak about: shown, never counted"
            case .none: "no result here"
            }
        }
    }

    /// The marks a cell shows, most telling first: a result, then what qualifies it.
    public var marks: [Mark] {
        var marks: [Mark] = []
        switch decisive {
        case .pass?: marks.append(.pass)
        case .fail?: marks.append(.fail)
        default:
            if otherOnly {
                marks.append(.skipped)
            } else if retractedOnly {
                marks.append(.retracted)
            }
        }
        if decisive != nil && stale { marks.append(.stale) }
        if lacksCapability { marks.append(.lacks) }
        if otherModel && !marks.isEmpty { marks.append(.otherModel) }
        return marks.isEmpty ? [.none] : marks
    }
}

// MARK: - Trends

/// One measurement name, value by build: one series per claim, model, kind
/// of environment and posture, so that claims sharing a measurement's name
/// never join into one line. Each point is the latest measurement of that
/// name in the claim's latest pass or fail on an environment of that model
/// and OS build, and says whether that result failed.
public struct MeasurementTrend: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        /// The OS build; empty when none was recorded.
        public var build: String
        public var value: Double
        public var baseline: Double?
        public var run: String
        public var checkedAt: String?
        /// Whether the result it was measured in failed (judged against the
        /// claim's expected values, or logged so).
        public var failed: Bool

        public init(
            build: String, value: Double, baseline: Double?, run: String, checkedAt: String?, failed: Bool
        ) {
            self.build = build
            self.value = value
            self.baseline = baseline
            self.run = run
            self.checkedAt = checkedAt
            self.failed = failed
        }
    }

    public struct Series: Sendable, Equatable {
        /// The claim whose results it shows.
        public var claim: String
        public var model: String
        public var kind: EnvironmentKind
        public var posture: Posture?
        /// In build order.
        public var points: [Point]
        /// What its claim expects of this measurement: drawn as a band with its line only.
        public var expected: [ExpectedValue] = []

        public init(claim: String, model: String, kind: EnvironmentKind, posture: Posture?, points: [Point]) {
            self.claim = claim
            self.model = model
            self.kind = kind
            self.posture = posture
            self.points = points
        }

        /// "island.clock: iPhone Duo simulator, closed"; results logged without a posture are "no posture".
        public var name: String {
            "\(claim): \(model) \(kind.rawValue), " + (posture?.rawValue ?? "no posture")
        }
    }

    public var name: String
    public var unit: MeasurementUnit
    /// The builds of the x axis, as Apple numbers them (oldest first); an
    /// empty string, for results with no build recorded, comes first.
    public var builds: [String]
    /// The lines it draws: at most `drawnLines`, every line with a failed
    /// point among them first, then by claim, model, kind and posture.
    public var series: [Series]
    /// How many lines the store holds for it, drawn or not.
    public var lineCount: Int

    /// As many lines as colour and marker shape tell apart (6 colours, 4 shapes).
    public static let drawnLines = 12

    public init(name: String, unit: MeasurementUnit, builds: [String], series: [Series], lineCount: Int? = nil) {
        self.name = name
        self.unit = unit
        self.builds = builds
        self.series = series
        self.lineCount = lineCount ?? series.count
    }
}

// MARK: - Images

/// An attachment of a result, as the HTML report shows it.
public struct ReportImage: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// The file's bytes, checked against the store, to embed.
        case embedded(mediaType: String, bytes: [UInt8])
        /// Named only, with the reason it is not shown.
        case notShown(String)
    }

    public var attachment: ResultAttachment
    public var content: Content

    public init(attachment: ResultAttachment, content: Content) {
        self.attachment = attachment
        self.content = content
    }
}

/// A file attached to a result of a claim, with what the store recorded of it.
public struct ResultAttachment: Sendable, Equatable {
    public var claim: String
    public var result: Outcome
    public var retracted: Bool
    public var run: String
    public var environment: String
    public var checkedAt: String?
    /// Relative to the store's folder.
    public var path: String
    public var sha256: String
    public var size: Int64
    public var mediaType: String
    /// Attached by the test when it failed.
    public var withFailure = false
    /// The OS build it was taken on, as the report names it, and where that build sorts.
    public var build = ""
    public var buildOrder = ""

    public init(
        claim: String, result: Outcome, retracted: Bool, run: String, environment: String, checkedAt: String?,
        path: String, sha256: String, size: Int64, mediaType: String
    ) {
        self.claim = claim
        self.result = result
        self.retracted = retracted
        self.run = run
        self.environment = environment
        self.checkedAt = checkedAt
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.mediaType = mediaType
    }
}

/// A measurement of the result a claim's state rests on.
public struct DecisiveMeasurement: Sendable, Equatable {
    public var name: String
    public var value: Double
    public var unit: MeasurementUnit
    public var baseline: Double?
    public var run: String
    public var checkedAt: String?
    public var environment: EnvironmentSpec

    public init(
        name: String, value: Double, unit: MeasurementUnit, baseline: Double?, run: String, checkedAt: String?,
        environment: EnvironmentSpec
    ) {
        self.name = name
        self.value = value
        self.unit = unit
        self.baseline = baseline
        self.run = run
        self.checkedAt = checkedAt
        self.environment = environment
    }
}
