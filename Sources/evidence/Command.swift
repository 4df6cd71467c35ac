import EvidenceStore

/// A fully parsed command line, ready to run. Building one reads nothing but
/// the words and the environment it was given.
enum Command: Equatable {
    case help(String)
    case version
    // The store
    case initialize(store: String)
    case migrate(store: String, list: Bool, format: OutputFormat)
    case check(store: String)
    case query(store: String, sql: String, format: OutputFormat, limits: QueryLimits)
    case demo(store: String?)
    case backup(store: String, destination: String, force: Bool)
    // Claims, sources, capabilities, environments
    case claimAdd(store: String, draft: ClaimDraft, by: String)
    case claimList(store: String, filter: ClaimFilter, format: OutputFormat)
    case claimShow(store: String, key: String, format: DetailFormat)
    case claimEdit(store: String, key: String, changes: ClaimChanges, by: String)
    case claimLabel(store: String, key: String, label: Label, reason: String, by: String)
    case sourceAdd(store: String, draft: SourceDraft, by: String)
    case sourceList(store: String, format: OutputFormat)
    case sourceShow(store: String, url: String, format: DetailFormat)
    case capabilityAdd(store: String, name: String, description: String, by: String)
    case capabilityList(store: String, format: OutputFormat)
    case envLacks(store: String, draft: LackDraft, by: String)
    case envList(store: String, format: OutputFormat)
    case documentSubjects(store: String, document: String, add: [String], remove: [String], newModel: Bool)
    case documentList(store: String, format: OutputFormat)
    // Runs and results
    /// `detect`: what the options leave out of the environment is read from Xcode on this machine.
    case runStart(store: String, draft: RunDraft, detect: Bool)
    case runList(store: String, format: OutputFormat)
    case runShow(store: String, reference: String, format: DetailFormat)
    case log(store: String, observation: Observation, run: RunChoice, json: Bool, detect: Bool)
    case retract(RetractTarget, store: String, reference: String, reason: String, by: String)
    case resultLink(store: String, reference: String, url: String, by: String)
    case measurements(store: String, filter: MeasurementFilter, format: OutputFormat)
    case attachmentsList(store: String, format: OutputFormat)
    case attachmentsVerify(store: String, format: OutputFormat)
    // The text format
    case export(store: String, folder: String, replace: Bool)
    case importFolder(store: String, folder: String, replace: Bool)
    case sync(store: String, folder: String)
    case mergeFile(base: String, ours: String, theirs: String, path: String?)
    case gitSetup(folder: String)
    case seed(store: String, folder: String?)
    // Reports
    /// `stamp`: the generation time is printed, read when the command runs.
    case document(Reports.Kind, store: String, output: String?, options: Reports.Options, stamp: Bool)
    case checklistMark(store: String, item: String, mark: TextFormat.ChecklistMark.Kind?, reason: String?, by: String)
    case untested(store: String, needsDevice: Bool, document: String?, all: Bool, owner: String?, failing: Bool, format: OutputFormat)
    case status(store: String, document: String?, byOwner: Bool, owner: String?, format: OutputFormat)
    case verifiedLine(store: String, document: String?)
    // Automated results
    case claimExpect(store: String, key: String, expected: ExpectedValue, by: String)
    case claimUnexpect(store: String, key: String, name: String, by: String)
    case history(store: String, claim: String, format: OutputFormat)
    case flaky(store: String, window: Int, format: OutputFormat)
    case lint(store: String, files: [String], document: String?, format: LintOutput.Format, strict: Bool, mode: LintMode, by: String)
    case annotate(store: String, file: String, document: String)
    case compare(store: String, from: ComparisonSide, to: ComparisonSide, output: CompareCommands.Output, failOn: Set<ComparisonChange>)
    case session(
        store: String, environment: EnvironmentSpec, tester: String, newModel: Bool, selection: SessionSelection,
        answers: String?, detect: Bool)
    case ingest(store: String, files: [String], options: IngestOptions, verbose: Bool, detect: Bool)
    case mapAdd(store: String, pattern: String, claim: String)
    case mapList(store: String, format: OutputFormat)
    case mapRemove(store: String, pattern: String, claim: String?)
}

/// What `retract` corrects.
enum RetractTarget: Equatable {
    case result
    case run
}
