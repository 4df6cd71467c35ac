/// A comparison as a document: its sides, a count per change, and one table.
public struct ComparisonDocument {
    public var comparison: Comparison

    public init(_ comparison: Comparison) {
        self.comparison = comparison
    }

    public func write(to writer: DocumentWriter) throws {
        writer.heading(1, "Comparison")
        writer.paragraph("From \(comparison.from) to \(comparison.to).")
        if comparison.rows.isEmpty {
            writer.paragraph("Nothing changed.")
        } else {
            writer.list(ComparisonChange.allCases.compactMap { change in
                let count = comparison.count(change)
                return count == 0 ? nil : "\(change.rawValue): \(count)"
            })
            writer.table(
                columns: ComparisonRow.columns,
                rows: comparison.rows.map { $0.cells.map(\.description) })
        }
        try writer.finish()
    }
}
