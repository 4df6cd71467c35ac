import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The documents writers publish, read from one snapshot of the store and
/// written through a `DocumentWriter`: the evidence report, the checklist and
/// the source list.
public enum Reports {
    public enum Kind: String, Sendable, CaseIterable {
        case report, checklist, sources
    }

    public struct Options: Sendable {
        public var document: String?
        /// A time to print as the generation time; nil for none.
        public var stamp: String?
        /// From this many results up (by the largest result id), a second
        /// connection writes part of the run log on the other core; tests lower
        /// it to cover that path on small stores.
        var parallelFrom: Int64 = 50_000

        public init(document: String? = nil, stamp: String? = nil) {
            self.document = document
            self.stamp = stamp
        }
    }

    /// Writes a document of the store as Markdown into a sink.
    public static func markdown(_ kind: Kind, of store: Store, options: Options = Options(), into sink: TextSink) throws {
        try write(kind, of: store, options: options, to: MarkdownWriter(into: sink))
    }

    public static func write(_ kind: Kind, of store: Store, options: Options, to writer: FragmentingWriter) throws {
        switch kind {
        case .report:
            try store.readTogether { reader, partner in
                try writeReport(reader, partner: partner, options: options, to: writer)
            }
        case .checklist:
            try store.read { reader in
                try ChecklistDocument(checklists: try reader.checklists(document: options.document), stamp: options.stamp)
                    .write(to: writer)
            }
        case .sources:
            try store.read { reader in
                let document = try reader.resolveDocument(options.document)
                try SourceListDocument(
                    document: document, stamp: options.stamp, sources: try reader.citedSources(document: document)
                ).write(to: writer)
            }
        }
    }

    /// The evidence report. On a large store the run log, most of it, is
    /// shared out: the partner connection writes runs from the last one back
    /// while this one reads and writes the other sections and then runs from
    /// the first one on; they stop where they meet, and the partner's runs are
    /// put in place.
    private static func writeReport(
        _ reader: StoreReader, partner: StoreReader?, options: Options, to writer: FragmentingWriter
    ) throws {
        let document = try reader.resolveDocument(options.document)
        let runLog = try reader.runLog(document: document)
        let queue = RunQueue(count: runLog.runCount)
        var helper: BackHalf?
        if let partner, runLog.runCount > 1, try reader.resultIDBound() >= options.parallelFrom {
            helper = try BackHalf(runLog: try partner.runLog(document: document), queue: queue, writer: writer)
        }
        helper?.start()
        defer {
            queue.stop()
            _ = try? helper?.finish()
        }
        let claims = try reader.reportClaims(document: document)
        let report = EvidenceReport(
            documents: try document.map { [$0] } ?? reader.documents(), stamp: options.stamp,
            claims: claims, runLog: runLog,
            deviceNeeds: try reader.deviceNeeds(document: document), notPublished: try reader.notPublished(document: document),
            mismatches: try reader.mismatches(document: document), flaky: try reader.flakyList(claims: claims.map(\.key)))
        report.writeOpening(to: writer)
        while let index = queue.takeFront() {
            try EvidenceReport.writeRun(index, of: runLog, to: writer)
        }
        if let helper {
            // The partner's runs are in its file last first.
            try writer.appendFragment(at: helper.spool, ranges: try helper.finish().reversed())
        }
        try report.writeClosing(to: writer)
    }
}

/// Hands out the run log's runs from both ends: the front to this thread, the
/// back to the partner, each run once.
private final class RunQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var front = 0
    private var back: Int

    init(count: Int) { back = count - 1 }

    func takeFront() -> Int? {
        lock.withLock {
            guard front <= back else { return nil }
            front += 1
            return front - 1
        }
    }

    func takeBack() -> Int? {
        lock.withLock {
            guard front <= back else { return nil }
            back -= 1
            return back + 1
        }
    }

    /// Hands out nothing more.
    func stop() {
        lock.withLock { front = back + 1 }
    }
}

/// The part of a run log the partner connection writes on its own thread into
/// a file of its own, one range of bytes per run. The partner's reader is
/// handed over whole: only that thread touches its connection until
/// `finish()` returns.
private final class BackHalf: @unchecked Sendable {
    let spool: String
    private let runLog: RunLog
    private let queue: RunQueue
    private let sink: TextSink
    private let writer: any FragmentingWriter
    private let done = DispatchSemaphore(value: 0)
    private var started = false
    private var finished = false
    private var chunks: [Range<Int>] = []
    private var error: Error?

    init(runLog: RunLog, queue: RunQueue, writer: FragmentingWriter) throws {
        self.runLog = runLog
        self.queue = queue
        spool = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-report-\(UUID().uuidString)").path
        sink = try TextSink(path: spool)
        self.writer = writer.fragment(into: sink)
    }

    deinit { unlink(spool) }

    func start() {
        started = true
        let thread = Thread { [self] in
            work()
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Waits for the thread; returns the byte ranges of the runs it wrote, in
    /// the order written (the last run first), or throws what it met.
    @discardableResult
    func finish() throws -> [Range<Int>] {
        if started && !finished {
            done.wait()
            finished = true
        }
        if let error { throw error }
        return chunks
    }

    private func work() {
        do {
            while let index = queue.takeBack() {
                let start = writer.position
                try EvidenceReport.writeRun(index, of: runLog, to: writer)
                chunks.append(start..<writer.position)
            }
            try writer.finish()
            try sink.close()
        } catch {
            // The other thread must not go on as if the rest were written.
            queue.stop()
            self.error = error
        }
    }
}
