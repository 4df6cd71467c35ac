import Foundation

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

        public init(document: String? = nil, stamp: String? = nil) {
            self.document = document
            self.stamp = stamp
        }
    }

    /// Writes a document of the store as Markdown into a sink.
    public static func markdown(_ kind: Kind, of store: Store, options: Options = Options(), into sink: TextSink) throws {
        try write(kind, of: store, options: options, to: MarkdownWriter(into: sink))
    }

    public static func write(_ kind: Kind, of store: Store, options: Options, to writer: DocumentWriter) throws {
        try store.read { reader in
            switch kind {
            case .report: try evidenceReport(reader, options: options).write(to: writer)
            case .checklist:
                try ChecklistDocument(checklists: try reader.checklists(document: options.document), stamp: options.stamp)
                    .write(to: writer)
            case .sources:
                try reader.checkDocument(options.document)
                try SourceListDocument(
                    document: options.document, stamp: options.stamp, sources: try reader.citedSources(document: options.document)
                ).write(to: writer)
            }
        }
    }

    /// The evidence report's content; its run log streams as it is written.
    static func evidenceReport(_ reader: StoreReader, options: Options) throws -> EvidenceReport {
        try reader.checkDocument(options.document)
        let document = options.document
        return EvidenceReport(
            documents: try document.map { [$0] } ?? reader.documents(), stamp: options.stamp,
            claims: try reader.reportClaims(document: document), runLog: try reader.runLog(document: document),
            deviceNeeds: try reader.deviceNeeds(document: document), notPublished: try reader.notPublished(document: document),
            mismatches: try reader.mismatches(document: document))
    }
}
