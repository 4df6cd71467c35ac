extension Tabular {
    /// Writes the rows in `format`.
    public func render(_ format: OutputFormat) -> String {
        switch format {
        case .table: return TableRenderer.render(self)
        case .json: return JSONRenderer.render(self)
        case .csv: return CSVRenderer.render(self)
        }
    }
}
