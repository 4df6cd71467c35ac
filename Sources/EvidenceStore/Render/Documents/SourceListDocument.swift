/// The source list: every source grouped by publisher and kind, with its dates,
/// the claims that cite it and what it says environments lack.
public struct SourceListDocument {
    public var document: String?
    public var stamp: String?
    public var sources: [CitedSource]

    public init(document: String?, stamp: String?, sources: [CitedSource]) {
        self.document = document
        self.stamp = stamp
        self.sources = sources
    }

    public func write(to writer: DocumentWriter) throws {
        writer.heading(1, "Sources")
        if let document { writer.paragraph("Cited by claims of " + document + ".") }
        if let stamp { writer.paragraph("Generated " + stamp + ".") }
        if sources.isEmpty { writer.paragraph("No sources yet.") }
        var publisher: String?
        var kind: String?
        for source in sources {
            if source.publisher != publisher {
                if kind != nil { writer.endList() }
                publisher = source.publisher
                kind = nil
                writer.heading(2, source.publisher)
            }
            if source.kind != kind {
                if kind != nil { writer.endList() }
                kind = source.kind
                writer.heading(3, SourceKind(rawValue: source.kind)?.title ?? source.kind)
                writer.beginList()
            }
            writer.beginItem(checked: nil)
            writeItem(source, to: writer)
            writer.endItem()
        }
        if kind != nil { writer.endList() }
        try writer.finish()
    }

    private func writeItem(_ source: CitedSource, to writer: DocumentWriter) {
        writer.link(source.title, to: source.url)
        writer.text(".")
        var dates: [String] = []
        if let date = source.published { dates.append("published \(date)") }
        if let date = source.updated { dates.append("updated \(date)") }
        if let date = source.retrieved { dates.append("retrieved \(date)") }
        if !dates.isEmpty {
            let text = dates.joined(separator: ", ")
            writer.text(" ")
            writer.text(text.prefix(1).uppercased() + text.dropFirst())
            writer.text(".")
        }
        if source.citations.isEmpty {
            writer.text(" Cited by no claim.")
        } else {
            writer.text(" Cited by ")
            writer.text(source.citations.map { $0.0 + ($0.1.isEmpty ? "" : " (\($0.1))") }.listed("and"))
            writer.text(".")
        }
        if !source.lacks.isEmpty {
            writer.text(" Says: ")
            writer.text(source.lacks.joined(separator: "; "))
            writer.text(".")
        }
    }
}
