import EvidenceStore

/// Runs a parsed command: calls into EvidenceStore and prints what it returns.
struct Runner {
    let output: Output
    /// Where "now" comes from for what the commands record.
    let clock: Clock
    /// Xcode's tools on this machine, which fill in what an environment's options leave out.
    let machine: MachineTools

    /// Opens the store at `path` with this run's clock.
    func open(_ path: String, access: Store.Access = .readWrite) throws -> Store {
        try Store.open(at: path, access: access, clock: clock)
    }

    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .help(let text):
            output.write(text)
            return ExitCode.ok
        case .version:
            output.write("evidence \(CommandTree.version)\n")
            return ExitCode.ok
        case .initialize(let store):
            return try initialize(store: store)
        case .migrate(let store, let list, let format):
            return try migrate(store: store, list: list, format: format)
        case .check(let store):
            return try check(store: store)
        case .query(let store, let sql, let format, let limits):
            return try query(store: store, sql: sql, format: format, limits: limits)
        case .demo(let store):
            return try demo(store: store)
        case .backup(let store, let destination, let force):
            return try backup(store: store, destination: destination, force: force)
        case .claimAdd(let store, let draft, let author):
            return try claimAdd(store: store, draft: draft, by: author)
        case .claimList(let store, let filter, let format):
            return try claimList(store: store, filter: filter, format: format)
        case .claimShow(let store, let key, let format):
            return try claimShow(store: store, key: key, format: format)
        case .claimEdit(let store, let key, let changes, let author):
            return try claimEdit(store: store, key: key, changes: changes, by: author)
        case .claimLabel(let store, let key, let label, let reason, let author):
            return try claimLabel(store: store, key: key, label: label, reason: reason, by: author)
        case .sourceAdd(let store, let draft, let author):
            return try sourceAdd(store: store, draft: draft, by: author)
        case .sourceList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.sourceList()) }
        case .sourceShow(let store, let url, let format):
            return try sourceShow(store: store, url: url, format: format)
        case .capabilityAdd(let store, let name, let description, let author):
            return try capabilityAdd(store: store, name: name, description: description, by: author)
        case .capabilityList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.capabilityList()) }
        case .envLacks(let store, let draft, let author):
            return try envLacks(store: store, draft: draft, by: author)
        case .envList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.environmentList()) }
        case .documentSubjects(let store, let document, let add, let remove, let newModel):
            return try documentSubjects(store: store, document: document, add: add, remove: remove, newModel: newModel)
        case .documentList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.documentList()) }
        case .runStart(let store, let draft, let detect):
            return try runStart(store: store, draft: draft, detect: detect)
        case .runList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.runList()) }
        case .runShow(let store, let reference, let format):
            return try runShow(store: store, reference: reference, format: format)
        case .log(let store, let observation, let choice, let json, let detect):
            return try log(store: store, observation: observation, run: choice, json: json, detect: detect)
        case .resultLink(let store, let reference, let url, let author):
            let opened = try open(store)
            defer { opened.close() }
            let (result, added) = try opened.linkResult(reference, to: url, by: author)
            output.message(added ? "Linked \(result) to \(url)." : "\(result) is linked to \(url) already; nothing changed.")
            return ExitCode.ok
        case .retract(let target, let store, let reference, let reason, let author):
            return try retract(target, store: store, reference: reference, reason: reason, by: author)
        case .measurements(let store, let filter, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.measurementList(filter)) }
        case .attachmentsList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.attachmentList()) }
        case .attachmentsVerify(let store, let format):
            return try attachmentsVerify(store: store, format: format)
        case .export(let store, let folder, let replace):
            return try export(store: store, folder: folder, replace: replace)
        case .importFolder(let store, let folder, let replace):
            return try importFolder(store: store, folder: folder, replace: replace)
        case .sync(let store, let folder):
            return try sync(store: store, folder: folder)
        case .mergeFile(let base, let ours, let theirs, let path):
            return try mergeFile(base: base, ours: ours, theirs: theirs, path: path)
        case .gitSetup(let folder):
            return try gitSetup(folder: folder)
        case .seed(let store, let folder):
            return try seed(store: store, folder: folder)
        case .document(let kind, let store, let file, let options, let stamp):
            return try self.document(kind, store: store, output: file, options: options, stamp: stamp)
        case .checklistMark(let store, let item, let mark, let reason, let author):
            return try checklistMark(store: store, item: item, mark: mark, reason: reason, by: author)
        case .untested(let store, let needsDevice, let document, let all, let owner, let failing, let format):
            return try listing(store: store, format: format) {
                let document = try $0.reader.resolveDocument(document)
                return Tabular(
                    try $0.reader.untestedList(
                        needsDevice: needsDevice, document: document, all: all, owner: try $0.reader.resolveOwner(owner),
                        failing: failing))
            }
        case .status(let store, let document, let byOwner, let owner, let format):
            return try listing(store: store, format: format) {
                let document = try $0.reader.resolveDocument(document)
                let counts = try $0.reader.stateCounts(document: document, byOwner: byOwner, owner: try $0.reader.resolveOwner(owner))
                return StateCount.table(counts, by: byOwner ? "owner" : "document")
            }
        case .verifiedLine(let store, let document):
            return try verifiedLine(store: store, document: document)
        case .claimExpect(let store, let key, let expected, let author):
            return try claimExpect(store: store, key: key, expected: expected, by: author)
        case .claimUnexpect(let store, let key, let name, let author):
            return try claimUnexpect(store: store, key: key, name: name, by: author)
        case .history(let store, let claim, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.history(ofClaim: claim)) }
        case .flaky(let store, let window, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.flakyList(window: window)) }
        case .lint(let store, let files, let document, let format, let strict, let mode, let by):
            return try lint(store: store, files: files, document: document, format: format, strict: strict, mode: mode, by: by)
        case .annotate(let store, let file, let document):
            return try annotate(store: store, file: file, document: document)
        case .compare(let store, let from, let to, let form, let failOn):
            return try compare(store: store, from: from, to: to, output: form, failOn: failOn)
        case .session(let store, let environment, let tester, let newModel, let selection, let answers, let detect):
            return try session(
                store: store, environment: try complete(environment, detect: detect), tester: tester, newModel: newModel,
                selection: selection, answers: answers)
        case .ingest(let store, let files, let options, let verbose, let detect):
            return try ingest(store: store, files: files, options: options, verbose: verbose, detect: detect)
        case .mapAdd(let store, let pattern, let claim):
            let opened = try open(store)
            defer { opened.close() }
            try opened.addMapping(pattern: pattern, claimKey: claim)
            output.message("Mapped tests matching \(pattern) to \(claim).")
            return ExitCode.ok
        case .mapList(let store, let format):
            return try listing(store: store, format: format) { Tabular(try $0.reader.mappingList()) }
        case .mapRemove(let store, let pattern, let claim):
            let opened = try open(store)
            defer { opened.close() }
            try opened.removeMapping(pattern: pattern, claimKey: claim)
            output.message("Removed the mapping of \(pattern)\(claim.map { " to " + $0 } ?? "").")
            return ExitCode.ok
        }
    }
}

extension Runner {
    /// An environment with what its options left out read from Xcode on this
    /// machine (unless `detect` is off), each value read named on standard
    /// error; an Xcode version still missing is refused, saying which options
    /// name an environment.
    func complete(_ environment: EnvironmentSpec, detect: Bool) throws -> EnvironmentSpec {
        var environment = environment
        if detect {
            let (completed, notes) = BuildDetection(tools: machine).complete(environment)
            environment = completed
            for note in notes { output.message(note + ".") }
        }
        guard !environment.toolVersion.isEmpty else {
            let reason = detect
                ? (machine.xcodebuild == nil ? "no xcodebuild on this machine to read it from" : "xcodebuild -version said nothing readable")
                : "--no-detect reads nothing from this machine"
            throw EvidenceError.refused(
                reason: "Missing expected argument '--xcode <version>' (\(reason)): an environment is named by --device or "
                    + "--simulator, --os and --xcode, with --os-build and --xcode-build at will")
        }
        return environment
    }
}

