import EvidenceStore

/// What commands run with: where they print, the clock, and Xcode's tools on
/// this machine. Each command calls into EvidenceStore and prints what it returns.
struct Runner {
    let output: Output
    /// Where "now" comes from for what the commands record.
    let clock: Clock
    /// Xcode's tools on this machine, which fill in what an environment's options leave out.
    let machine: MachineTools
    /// The store's path, as the command line resolved it (`CommandTree.parse`).
    let store: String

    /// Opens the store with this run's clock.
    func open(access: Store.Access = .readWrite) throws -> Store {
        let opened = try Store.open(at: store, access: access, clock: clock)
        // A store found in a folder above (as git finds a repository) is named, so no one writes to it unawares.
        if store.hasPrefix("../") { output.message("Using the store \(opened.path).") }
        return opened
    }

    /// Runs `body` with the store open with this run's clock, and closes it after.
    func with<T>(access: Store.Access = .readWrite, _ body: (Store) throws -> T) throws -> T {
        let opened = try open(access: access)
        defer { opened.close() }
        return try body(opened)
    }

    /// Prints a listing the store computes.
    func listing(format: OutputFormat, _ make: (Store) throws -> Tabular) throws -> Int32 {
        output.write(try with(access: .reading) { try make($0) }, format)
        return ExitCode.ok
    }

    /// Prints one record the store reads (a claim, a run, a source), as text or as JSON.
    func show<Detail>(
        format: DetailFormat, _ read: (Store) throws -> Detail, text: (Detail) -> String, json: (Detail) -> JSONValue
    ) throws -> Int32 {
        let detail = try with(access: .reading, read)
        output.write(format == .json ? json(detail).rendered() : text(detail))
        return ExitCode.ok
    }

    func run(_ command: any Command) throws -> Int32 {
        try command.run(self)
    }
}

extension Runner {
    /// An environment with what its options left out read from Xcode on this
    /// machine (unless `detect` is off), each value read named on standard error.
    func complete(_ environment: EnvironmentSpec, detect: Bool) throws -> EnvironmentSpec {
        let (completed, notes) = try BuildDetection.complete(environment, with: detect ? BuildDetection(tools: machine) : nil)
        for note in notes { output.message(note + ".") }
        return completed
    }
}
