/// Findings as compilers print them, as JSON Lines, or as GitHub Actions
/// workflow commands (annotations on the pull request).
public enum LintOutput {
    public enum Format: String, Vocabulary {
        case text, json, github

        public static let field = "format"
    }

    public static func render(_ findings: [LintFinding], as format: Format) -> String {
        findings.map { line($0, format) + "\n" }.joined()
    }

    static func line(_ finding: LintFinding, _ format: Format) -> String {
        switch format {
        case .text:
            return "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): "
                + ControlCharacters.escaped(finding.message, keepingLineBreaks: false) + " [\(finding.rule.rawValue)]"
        case .json:
            var object = JSONLine()
            object.add("file", finding.file)
            object.add("line", Int64(finding.line))
            object.add("column", Int64(finding.column))
            object.add("severity", finding.severity.rawValue)
            object.add("rule", finding.rule.rawValue)
            object.add("message", finding.message)
            return object.object
        case .github:
            // Workflow commands end at a line break and split properties at ',' and ':'.
            func data(_ text: String) -> String {
                text.replacingEvery("%", with: "%25").replacingEvery("\r", with: "%0D")
                    .replacingEvery("\n", with: "%0A")
            }
            func property(_ text: String) -> String {
                data(text).replacingEvery(":", with: "%3A").replacingEvery(",", with: "%2C")
            }
            return "::\(finding.severity.rawValue) file=\(property(finding.file)),line=\(finding.line),col=\(finding.column),"
                + "title=\(property(finding.rule.rawValue))::\(data(finding.message))"
        }
    }
}
