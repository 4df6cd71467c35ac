/// How a listing is written: a table for people, JSON or CSV for scripts.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table
    case json
    case csv

    public init(parsing text: String) throws {
        guard let format = OutputFormat(rawValue: text.lowercased()) else {
            throw EvidenceError.invalidValue(
                field: "format", value: text,
                expected: "one of: " + OutputFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = format
    }
}

/// Rows with named columns, ready for any of the output formats.
public struct Tabular: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[SQLValue]]

    public init(columns: [String], rows: [[SQLValue]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// Writes the rows in `format`.
    public func render(_ format: OutputFormat) -> String {
        switch format {
        case .table: return TableRenderer.render(self)
        case .json: return JSONRenderer.render(self)
        case .csv: return CSVRenderer.render(self)
        }
    }
}
