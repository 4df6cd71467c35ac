import Dispatch
import FoundationEssentials

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

    public struct Options: Sendable, Equatable {
        public var document: String?
        /// A time to print as the generation time; nil for none.
        public var stamp: String?
        public var format = DocumentFormat.markdown
        /// Whether the HTML report embeds the images attached to results.
        public var images = true
        /// For a block inside a document: its title is left out and its
        /// headings start at this level (`MarkdownWriter.headingBase`).
        public var headingBase: Int?
        /// The report's run log shows the newest this many runs; nil for every run.
        public var runs: Int? = Options.defaultRuns
        public static let defaultRuns = 20
        /// From this many results up (by the largest result id), a second
        /// connection writes part of the run log on the other core; tests lower
        /// it to cover that path on small stores.
        var parallelFrom: Int64 = 50_000

        public init(document: String? = nil, stamp: String? = nil, format: DocumentFormat = .markdown, images: Bool = true) {
            self.document = document
            self.stamp = stamp
            self.format = format
            self.images = images
        }
    }

    /// Writes a document of the store as Markdown into a sink.
    public static func markdown(_ kind: Kind, of store: Store, options: Options = Options(), into sink: TextSink) throws {
        let writer = MarkdownWriter(into: sink)
        writer.headingBase = options.headingBase
        // The report cites the same pages for many claims: each address once, at its end.
        writer.referenceLinks = kind == .report
        try write(kind, of: store, options: options, to: writer)
    }

    /// Writes a document of the store, in the options' format, into a sink.
    public static func write(_ kind: Kind, of store: Store, options: Options, into sink: TextSink) throws {
        switch options.format {
        case .markdown:
            try markdown(kind, of: store, options: options, into: sink)
        case .html:
            let writer = HTMLWriter(into: sink)
            let title = switch kind {
            case .report: "Evidence report"
            case .checklist: "Checklist"
            case .sources: "Sources"
            }
            writer.beginPage(
                title: title + (options.document.map { " — " + $0 } ?? ""), style: HTMLPage.style,
                script: kind == .report ? HTMLPage.script : nil)
            try write(kind, of: store, options: options, to: writer)
        }
    }

    public static func write(_ kind: Kind, of store: Store, options: Options, to writer: FragmentingWriter) throws {
        switch kind {
        case .report:
            try store.readTogether { reader, partner in
                try writeReport(reader, partner: partner, options: options, folder: store.folder.path, to: writer)
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

    /// The evidence report. On a large store the partner connection takes a
    /// share on a thread of its own: it reads the flaky claims, the result
    /// counts and the device needs (`SharedReads`) while this connection
    /// reads the claims and their states, then writes runs from
    /// the last one back while this one writes the other sections and then
    /// runs from the first one on; they stop where they meet, and the
    /// partner's runs are put in place.
    private static func writeReport(
        _ reader: StoreReader, partner: StoreReader?, options: Options, folder: String, to writer: FragmentingWriter
    ) throws {
        let document = try reader.resolveDocument(options.document)
        let runLog = try reader.runLog(document: document)
        runLog.keepNewest(options.runs)
        let queue = RunQueue(count: runLog.runCount)
        var helper: PartnerShare?
        if let partner, try reader.resultIDBound() >= options.parallelFrom {
            let partnerLog = try partner.runLog(document: document)
            partnerLog.keepNewest(options.runs)
            helper = try PartnerShare(reader: partner, document: document, runLog: partnerLog, queue: queue, writer: writer)
        }
        helper?.start()
        defer {
            queue.stop()
            _ = try? helper?.finish()
        }
        var claims = try reader.reportClaims(document: document)
        let shared = try helper?.reads() ?? SharedReads(reader, document: document)
        for index in claims.indices { claims[index].resultCount = shared.resultCounts[claims[index].key] ?? 0 }
        let report = EvidenceReport(
            documents: try document.map { [$0] } ?? reader.documents(), stamp: options.stamp,
            claims: claims, runLog: runLog,
            deviceNeeds: shared.deviceNeeds, notPublished: try reader.notPublished(document: document),
            mismatches: claims.flatMap(\.mismatches).sorted { ($0.claim, $0.problem) < ($1.claim, $1.problem) },
            flaky: shared.flaky,
            runsLeftOut: runLog.totalRunCount - runLog.runCount)
        var pictures: ReportPicturesDocument?
        if options.format == .html {
            let (coverage, trends) = try reader.coverageAndTrends(document: document)
            var drawn = ReportPictures(
                coverage: coverage, trends: trends,
                images: ReportImages.load(try reader.resultAttachments(document: document), folder: folder, embed: options.images),
                needsDevice: try reader.claimsNeedingDevice(document: document))
            drawn.documentTrends = try reader.documentTrends(document: document)
            (drawn.needs, drawn.models) = try reader.claimNeedsAndModels(document: document)
            drawn.shownRuns = runLog.shownRunUUIDs
            pictures = ReportPicturesDocument(claims: claims, pictures: drawn)
        }
        report.writeOpening(to: writer) { writer in
            if let pictures, let html = writer as? HTMLWriter { pictures.write(to: html) }
        }
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

/// The images of the HTML report: each attached file checked against what
/// the store recorded, then embedded when it is a picture a browser shows and
/// small enough; otherwise named, with the reason. Nothing is skipped silently.
enum ReportImages {
    /// The most bytes of one image to embed, and of all of them together.
    static let imageLimit: Int64 = 2 << 20
    static let totalLimit: Int64 = 32 << 20

    static func load(_ attachments: [ResultAttachment], folder: String, embed: Bool) -> [ReportImage] {
        var budget = totalLimit
        var known: [String: ReportImage.Content] = [:]
        return attachments.map { file in
            guard embed else { return ReportImage(attachment: file, content: .notShown("left out (--no-images)")) }
            // A file several results attach is read once.
            let key = file.path + "\u{0}" + file.sha256
            let content = known[key] ?? content(of: file, folder: folder, budget: &budget)
            known[key] = content
            return ReportImage(attachment: file, content: content)
        }
    }

    /// The file read once: located, its size and SHA-256 checked, then embedded or named.
    private static func content(of file: ResultAttachment, folder: String, budget: inout Int64) -> ReportImage.Content {
        guard file.mediaType.hasPrefix("image/") else { return .notShown("not an image") }
        let absolute: String
        switch Store.locateAttached(path: file.path, size: file.size, in: folder) {
        case .found(let path): absolute = path
        case .problem(.vanished): return .notShown("the file is missing")
        case .problem(.changed): return .notShown(changed)
        case .problem(let kind): return .notShown("the file " + kind.rawValue)
        }
        if file.size > imageLimit {
            return .notShown("too large to embed (the limit is \(imageLimit >> 20) MB an image)")
        }
        if file.size > budget {
            return .notShown("not embedded: the report already holds \(totalLimit >> 20) MB of images")
        }
        guard let data = FileManager.default.contents(atPath: absolute), SHA256.hex(data) == file.sha256 else {
            return .notShown(changed)
        }
        let bytes = [UInt8](data)
        guard let type = pictureType(bytes) else {
            if isHEIC(bytes) { return .notShown("HEIC, which browsers do not all show") }
            return .notShown("not a PNG, JPEG, GIF or WebP picture")
        }
        budget -= file.size
        return .embedded(mediaType: type, bytes: bytes)
    }

    private static let changed = "the file changed since it was attached"

    /// The media type the file's first bytes say, for pictures every browser shows.
    static func pictureType(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }

    /// An ISO base media file whose brand is one of HEIF's.
    static func isHEIC(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) else { return false }
        return ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"].contains(String(decoding: bytes[8..<12], as: UTF8.self))
    }
}

/// Hands out the run log's runs from both ends: the front to this thread, the
/// back to the partner, each run once.
private final class RunQueue: @unchecked Sendable {
    private let lock = ThreadLock()
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

/// What a report reads besides its claims, which the partner connection can
/// read while the other reads the claims.
private struct SharedReads: Sendable {
    var flaky: [FlakyListing]
    var resultCounts: [String: Int]
    var deviceNeeds: [DeviceNeed]

    init(_ reader: StoreReader, document: String?) throws {
        flaky = try reader.flakyClaims(document: document)
        resultCounts = try reader.resultCounts(document: document)
        deviceNeeds = try reader.deviceNeeds(document: document)
    }
}

/// The partner connection's share of a report, on its own thread: first its
/// `SharedReads`, then the part of the run log it writes into a file of its
/// own, one range of bytes per run. The partner's reader is handed over
/// whole: only that thread touches its connection until `finish()` returns.
private final class PartnerShare: @unchecked Sendable {
    let spool: String
    private let reader: StoreReader
    private let document: String?
    private let runLog: RunLog
    private let queue: RunQueue
    private let sink: TextSink
    private let writer: any FragmentingWriter
    private let done = DispatchSemaphore(value: 0)
    private let sharedRead = DispatchSemaphore(value: 0)
    private var started = false
    private var finished = false
    private var shared: Swift.Result<SharedReads, Error>?
    private var chunks: [Range<Int>] = []
    private var error: Error?

    init(reader: StoreReader, document: String?, runLog: RunLog, queue: RunQueue, writer: FragmentingWriter) throws {
        self.reader = reader
        self.document = document
        self.runLog = runLog
        self.queue = queue
        spool = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-report-\(UUID().uuidString)").path
        sink = try TextSink(path: spool)
        self.writer = writer.fragment(into: sink)
    }

    deinit { unlink(spool) }

    func start() {
        started = true
        DetachedThread.start(stackSize: 8 << 20) { [self] in
            work()
            done.signal()
        }
    }

    /// Waits for its shared reads; returns them or throws what they met.
    func reads() throws -> SharedReads {
        sharedRead.wait()
        sharedRead.signal()
        guard let shared else { throw EvidenceError.io(path: spool, reason: "the report's second connection ended before its reads") }
        return try shared.get()
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
        shared = Swift.Result { try SharedReads(reader, document: document) }
        sharedRead.signal()
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
