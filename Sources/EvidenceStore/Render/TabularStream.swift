/// Writes rows in one of the output formats as they come, holding none of
/// them: CSV and JSON row by row; the aligned table pads its columns to the
/// widest cell of the first `alignmentWindow` rows (all of them, for the
/// listings people read) and writes later rows against those widths. Given
/// a terminal's width, the table fits it: the widest columns are narrowed
/// and a cell longer than its column is cut with "…" (CSV and JSON keep
/// every value whole).
public final class TabularStream {
    public static let alignmentWindow = 1000

    private let format: OutputFormat
    private let emit: (String) -> Void
    private var columns: [String] = []
    /// Rows written (or held for the table's widths) so far.
    public private(set) var rowCount = 0
    /// The table's rows, flattened, until the widths are known.
    private var pending: [[String]] = []
    private var widths: [Int]?
    /// The terminal's width the table fits, when it has one.
    private let fit: Int?

    public init(format: OutputFormat, width: Int? = nil, emit: @escaping (String) -> Void) {
        self.format = format
        self.fit = width
        self.emit = emit
    }

    public func begin(columns: [String]) {
        self.columns = columns
        if format == .csv { emit(CSVRenderer.line(columns)) }
    }

    public func row(_ cells: [TableValue]) {
        defer { rowCount += 1 }
        switch format {
        case .csv:
            emit(CSVRenderer.line(cells.map(\.description)))
        case .json:
            emit((rowCount == 0 ? "[\n  " : ",\n  ") + JSONRenderer.object(zip(columns, cells).map { ($0, $1) }))
        case .table:
            let flat = cells.map { TableRenderer.flatten($0.description) }
            if widths == nil {
                pending.append(flat)
                if pending.count == Self.alignmentWindow { settleWidths() }
            } else {
                emit(TableRenderer.line(flat, widths: widths ?? [], cut: fit != nil))
            }
        }
    }

    public func end() {
        switch format {
        case .csv: break
        case .json: emit(rowCount == 0 ? "[]\n" : "\n]\n")
        case .table: if widths == nil { settleWidths() }
        }
    }

    /// Widths from the header and the rows held so far; writes them all.
    private func settleWidths() {
        let header = columns.map(TableRenderer.flatten)
        var widths = header.map(\.count)
        for row in pending {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        if let fit { widths = TableRenderer.fitted(widths, into: fit) }
        self.widths = widths
        let cut = fit != nil
        emit(TableRenderer.line(header, widths: widths, cut: cut))
        emit(TableRenderer.line(widths.map { String(repeating: "-", count: $0) }, widths: widths))
        for row in pending { emit(TableRenderer.line(row, widths: widths, cut: cut)) }
        pending = []
    }
}

extension Tabular {
    /// Writes the rows in `format`; a table fits `width` columns when given.
    public func render(_ format: OutputFormat, width: Int? = nil) -> String {
        var out = ""
        let stream = TabularStream(format: format, width: width) { out += $0 }
        stream.begin(columns: columns)
        for row in rows { stream.row(row) }
        stream.end()
        return out
    }
}
