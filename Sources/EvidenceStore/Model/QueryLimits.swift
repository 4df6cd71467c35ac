/// What one `evidence query` may take: how many rows it prints, how long
/// SQLite may work on it, and how large a value it may build.
public struct QueryLimits: Equatable, Sendable {
    /// The default time: a minute of SQLite's own work.
    public static let defaultSeconds = 60.0
    /// The largest string or blob a query may build: 64 MB, far above any value of a store.
    public static let defaultMaxValueBytes: Int32 = 64 << 20

    /// Rows printed at most; nil for all.
    public var maxRows: Int?
    /// Seconds of SQLite's work at most; nil for no limit.
    public var seconds: Double?
    public var maxValueBytes: Int32

    public init(maxRows: Int?, seconds: Double?, maxValueBytes: Int32 = defaultMaxValueBytes) {
        self.maxRows = maxRows
        self.seconds = seconds
        self.maxValueBytes = maxValueBytes
    }
}

/// How a streamed query ended.
public enum QueryOutcome: Equatable, Sendable {
    /// Every row was handed over.
    case complete(rows: Int)
    /// The row limit was reached with more rows to come.
    case stoppedAtRowLimit(rows: Int)
}
