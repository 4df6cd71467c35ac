#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
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

    public static func write(_ kind: Kind, of store: Store, options: Options, to writer: DocumentWriter) throws {
        // Each document reads one snapshot: a read transaction, which in WAL
        // mode never takes or waits for a lock a writer holds.
        try store.read { reader in
            switch kind {
            case .report:
                try writeReport(reader, options: options, folder: store.folder.path, to: writer)
            case .checklist:
                try ChecklistDocument(checklists: try reader.checklists(document: options.document), stamp: options.stamp)
                    .write(to: writer)
            case .sources:
                let document = try reader.resolveDocument(options.document)
                try SourceListDocument(
                    document: document, stamp: options.stamp, sources: try reader.citedSources(document: document)
                ).write(to: writer)
            }
        }
    }

    /// The evidence report.
    private static func writeReport(
        _ reader: StoreReader, options: Options, folder: String, to writer: DocumentWriter
    ) throws {
        let document = try reader.resolveDocument(options.document)
        let runLog = try reader.runLog(document: document)
        runLog.keepNewest(options.runs)
        var claims = try reader.reportClaims(document: document)
        // What each claim needs that a simulator lacks: the report lists those of
        // claims that need a device, the pictures mark every one (the state is the claims').
        let needs = try reader.deviceNeeds(document: document)
        let needingDevice = Set(claims.filter { $0.state == .needsDevice }.map(\.key))
        let resultCounts = try reader.resultCounts(document: document)
        for index in claims.indices { claims[index].resultCount = resultCounts[claims[index].key] ?? 0 }
        let report = EvidenceReport(
            documents: try document.map { [$0] } ?? reader.documents(), stamp: options.stamp,
            claims: claims, runLog: runLog,
            deviceNeeds: needs.filter { needingDevice.contains($0.claim) }, notPublished: try reader.notPublished(document: document),
            mismatches: claims.flatMap(\.mismatches).sorted { ($0.claim, $0.problem) < ($1.claim, $1.problem) },
            flaky: try reader.flakyClaims(document: document),
            runsLeftOut: runLog.totalRunCount - runLog.runCount)
        var pictures: ReportPicturesDocument?
        if options.format == .html {
            let (coverage, trends) = try reader.coverageAndTrends(document: document)
            var drawn = ReportPictures(
                coverage: coverage, trends: trends,
                images: ReportImages.load(try reader.resultAttachments(document: document), folder: folder, embed: options.images),
                needsDevice: Set(needs.map(\.claim)))
            drawn.documentTrends = try reader.documentTrends(document: document)
            (drawn.needs, drawn.models) = try reader.claimNeedsAndModels(document: document)
            drawn.shownRuns = runLog.shownRunUUIDs
            pictures = ReportPicturesDocument(claims: claims, pictures: drawn)
        }
        report.writeOpening(to: writer) { writer in
            if let pictures, let html = writer as? HTMLWriter { pictures.write(to: html) }
        }
        try report.writeRuns(to: writer)
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
