import EvidenceStore
#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a command writes: data to standard output, messages to standard error.
final class Output {
    let standardOutput = TextSink(descriptor: ThisProcess.standardOutput, name: "standard output")
    private let standardError = TextSink(descriptor: ThisProcess.standardError, name: "standard error")
    /// Whether standard output takes colour (a terminal that has it, NO_COLOR unset).
    let colour: Bool

    init(environment: [String: String]) {
        colour = ThisProcess.takesColour(ThisProcess.standardOutput, environment: environment)
    }

    /// Writes text to standard output as it is.
    func write(_ text: String) {
        standardOutput.write(text)
    }

    /// Writes rows in `format`: a table on a terminal fits its width.
    func write(_ tabular: Tabular, _ format: OutputFormat) {
        write(tabular.render(format, width: tableWidth))
    }

    /// The width a table fits: the terminal's, when standard output is one.
    var tableWidth: Int? { ThisProcess.terminalColumns(ThisProcess.standardOutput) }

    /// Writes a line to standard error, after what standard output holds so far.
    /// A control character a value brought in (from a result file, say) is
    /// shown escaped, never sent to the terminal.
    func message(_ text: String) {
        try? standardOutput.flush()
        let shown = ControlCharacters.escaped(text, keepingLineBreaks: true)
        standardError.write(shown.hasSuffix("\n") ? shown : shown + "\n")
        try? standardError.flush()
    }

    /// Shows a progress line on standard error, overwriting the last; nil clears it.
    func progress(_ text: String?) {
        try? standardOutput.flush()
        standardError.write("\r\u{1B}[K" + (text ?? ""))
        try? standardError.flush()
    }

    /// Flushes standard output; the error when anything could not be written.
    func finish() -> SystemError? {
        try? standardOutput.flush()
        return standardOutput.failure
    }

    static var standardErrorIsTerminal: Bool { ThisProcess.isTerminal(ThisProcess.standardError) }
}

/// The progress of a long command (ingest, import) on a terminal: a line on
/// standard error, shown once the command has run a second, cleared at the end.
final class ProgressLine {
    private let output: Output
    private let started = Date()
    private var shown = false

    init(_ output: Output) { self.output = output }

    func show(_ text: @autoclosure () -> String) {
        guard Output.standardErrorIsTerminal, Date().timeIntervalSince(started) > 1 else { return }
        shown = true
        output.progress(text())
    }

    func clear() {
        if shown { output.progress(nil) }
    }
}
