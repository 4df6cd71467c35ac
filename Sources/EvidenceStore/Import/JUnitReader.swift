import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads JUnit XML as fastlane trainer/scan, `xcbeautify --report junit`,
/// xcresultparser, xcpretty and `swift test --xunit-output` write it.
///
/// The input is untrusted. A DOCTYPE or entity declaration is refused before
/// parsing (no billion laughs, no external entities), as are NUL bytes and
/// invalid UTF-8. Foundation's XMLParser on Linux parses in libxml2's recover
/// mode and can return true for a truncated or mis-nested file, so success
/// here means: `parse()` returned true, `parserError` is nil, no error
/// callback fired, and every element that opened also closed.
public enum JUnitReader {
    static let maxDepth = 32
    static let maxAttributeLength = 1 << 20
    static let maxMessageLength = 1 << 16

    public static func read(_ data: Data, path: String) throws -> TestReport {
        try UntrustedText.check(data, path: path, what: "XML")
        let declarations = ["<!doctype", "<!entity"]
        if let (line, found) = UntrustedText.findCaseInsensitive(declarations, in: data) {
            throw EvidenceError.badFile(
                path: path, location: String(line),
                reason: "the file has a \(found.uppercased()) declaration; result files with DTDs or entities are refused")
        }
        // FoundationXML on Linux crashes on a processing instruction without data
        // (it reads the NULL data libxml2 passes as a C string), and result files
        // have no use for them: only the XML declaration may start with "<?".
        if let line = UntrustedText.processingInstruction(in: data) {
            throw EvidenceError.badFile(
                path: path, location: String(line),
                reason: "the file has a processing instruction (<?…?>) other than the XML declaration; it is refused")
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let delegate = Delegate(path: path)
        parser.delegate = delegate
        let finished = parser.parse()
        if let failure = delegate.failure {
            throw failure
        }
        if !finished || parser.parserError != nil || !delegate.stack.isEmpty {
            let code = (parser.parserError as NSError?)?.code ?? delegate.errorCode
            var reason = "not well-formed XML: " + describe(code)
            if !delegate.stack.isEmpty {
                reason += "; <\(delegate.stack.last ?? "")> is never closed"
            }
            throw EvidenceError.badFile(
                path: path, location: delegate.errorLocation ?? "\(parser.lineNumber):\(parser.columnNumber)",
                reason: reason)
        }
        guard delegate.sawRoot else {
            throw EvidenceError.badFile(path: path, location: nil, reason: "the file holds no XML element")
        }
        return delegate.report
    }

    /// libxml2's error codes, as XMLParser passes them on, in words.
    static func describe(_ code: Int?) -> String {
        switch code {
        case 1?: return "a value longer than the parser accepts (text and attributes are limited to 10,000,000 bytes)"
        case 4?: return "the document is empty"
        case 5?: return "the document ends before it is complete"
        case 9?: return "a character that XML does not allow"
        case 26?: return "an entity that is not declared"
        case 38?, 39?, 40?, 41?: return "a malformed attribute"
        case 65?, 73?: return "a malformed tag"
        case 76?: return "an end tag that does not match its start tag"
        case 111?: return "an element nested too deeply"
        case let code?: return "libxml2 error \(code)"
        case nil: return "the parser stopped"
        }
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        struct Suite {
            var name: String
            var cases: [Int] = []
            var properties: [(String, String)] = []
        }

        let path: String
        var report = TestReport(format: .junit, shape: "JUnit XML")
        var stack: [String] = []
        var suites: [Suite] = []
        var current: TestReport.TestCase?
        var currentProperties: [(String, String)]?
        /// Properties of <testsuites> itself, which hold for every test case.
        var rootProperties: [(String, String)] = []
        var messageParts: [String] = []
        var collecting = false
        var collected = ""
        var sawRoot = false
        var failure: EvidenceError?
        var errorCode: Int?
        var errorLocation: String?
        weak var parser: XMLParser?

        init(path: String) {
            self.path = path
            report.devices = []
        }

        private func fail(_ parser: XMLParser, _ reason: String) {
            if failure == nil {
                failure = EvidenceError.badFile(path: path, location: "\(parser.lineNumber):\(parser.columnNumber)", reason: reason)
            }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard failure == nil else { return }
            if let (key, value) = attributes.first(where: { $0.value.utf8.count > JUnitReader.maxAttributeLength }) {
                fail(parser, "the attribute '\(key)' of <\(name)> is \(value.utf8.count) bytes long; the limit is \(JUnitReader.maxAttributeLength)")
                return
            }
            if stack.isEmpty {
                guard name == "testsuites" || name == "testsuite" else {
                    fail(parser, "not a JUnit report: the root element is <\(name)>, not <testsuites> or <testsuite>")
                    return
                }
                sawRoot = true
                if let stamp = attributes["timestamp"] { noteTimestamp(stamp, parser) }
            }
            stack.append(name)
            guard stack.count <= JUnitReader.maxDepth else {
                fail(parser, "elements nested deeper than \(JUnitReader.maxDepth) levels")
                return
            }
            switch name {
            case "testsuite":
                suites.append(Suite(name: attributes["name"] ?? ""))
                if let stamp = attributes["timestamp"] { noteTimestamp(stamp, parser) }
            case "testcase":
                guard current == nil else {
                    fail(parser, "a <testcase> inside another <testcase>")
                    return
                }
                let name = attributes["name"] ?? ""
                let classname = attributes["classname"] ?? attributes["class"] ?? ""
                guard !name.isEmpty || !classname.isEmpty else {
                    fail(parser, "a <testcase> with neither a name nor a classname")
                    return
                }
                let identifier = classname.isEmpty ? name : name.isEmpty ? classname : "\(classname)/\(name)"
                var duration: Double?
                if let time = attributes["time"] {
                    guard let seconds = Duration.seconds(time) else {
                        fail(parser, "the time '\(time)' of test '\(identifier)' is not a number of seconds")
                        return
                    }
                    duration = seconds
                }
                current = TestReport.TestCase(
                    identifier: identifier, name: name.isEmpty ? classname : name, outcome: .pass, duration: duration,
                    device: -1)
                messageParts = []
            case "failure", "error":
                guard current != nil else { return }
                current?.outcome = .fail
                if let message = attributes["message"], !message.isEmpty { messageParts.append(message) }
                startCollecting()
            case "skipped":
                guard current != nil else { return }
                if current?.outcome != .fail { current?.outcome = .skipped }
                if let message = attributes["message"], !message.isEmpty { messageParts.append(message) }
                startCollecting()
            case "properties":
                currentProperties = []
            case "property":
                guard let key = attributes["name"] else { return }
                currentProperties?.append((key, attributes["value"] ?? ""))
            default:
                break
            }
        }

        private func startCollecting() {
            collecting = true
            collected = ""
        }

        private func noteTimestamp(_ text: String, _ parser: XMLParser) {
            // JUnit timestamps usually carry no zone; those are taken as UTC.
            let zoned = text.utf8.dropFirst(19).contains { "Zz+-".utf8.contains($0) }
            guard let parsed = try? Timestamp.parse(zoned ? text : text + "Z", field: "timestamp") else { return }
            report.dates.append((parsed, "\(parser.lineNumber):\(parser.columnNumber)"))
            if report.startedAt.map({ parsed < $0 }) ?? true {
                report.startedAt = parsed
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard collecting, collected.utf8.count < JUnitReader.maxMessageLength else { return }
            collected += string
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard collecting, collected.utf8.count < JUnitReader.maxMessageLength else { return }
            collected += String(decoding: block, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard failure == nil else { return }
            guard stack.last == name else {
                fail(parser, "</\(name)> does not close <\(stack.last ?? "")>")
                return
            }
            stack.removeLast()
            switch name {
            case "failure", "error", "skipped":
                if collecting {
                    let body = collected.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !body.isEmpty, !messageParts.contains(body) { messageParts.append(body) }
                    collecting = false
                }
            case "properties":
                guard let properties = currentProperties else { return }
                currentProperties = nil
                if current != nil {
                    current?.properties += properties
                } else if !suites.isEmpty {
                    suites[suites.count - 1].properties += properties
                } else {
                    rootProperties += properties
                }
            case "testcase":
                guard var test = current else { return }
                if !messageParts.isEmpty {
                    var message = messageParts.joined(separator: "\n")
                    if message.utf8.count > JUnitReader.maxMessageLength {
                        message = String(message.prefix(JUnitReader.maxMessageLength)) + "…"
                    }
                    test.message = message
                }
                test.tags = test.properties.filter { $0.0.hasPrefix("tag") }.map(\.1)
                report.tests.append(test)
                if !suites.isEmpty { suites[suites.count - 1].cases.append(report.tests.count - 1) }
                current = nil
            case "testsuite":
                guard let suite = suites.popLast() else { return }
                // A suite's properties may come after its test cases (fastlane
                // trainer writes them last): they apply to the whole suite.
                var device: Int?
                if let value = suite.properties.first(where: { $0.0 == "device" })?.1 {
                    device = deviceIndex(TestReport.Device(trainerProperty: value))
                }
                for index in suite.cases {
                    report.tests[index].properties = suite.properties + report.tests[index].properties
                    if let device, report.tests[index].device == -1 { report.tests[index].device = device }
                }
                if !suites.isEmpty {
                    suites[suites.count - 1].cases += suite.cases
                }
            default:
                break
            }
        }

        private func deviceIndex(_ device: TestReport.Device) -> Int {
            if let index = report.devices.firstIndex(of: device) { return index }
            report.devices.append(device)
            return report.devices.count - 1
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if errorCode == nil {
                errorCode = (parseError as NSError).code
                errorLocation = "\(parser.lineNumber):\(parser.columnNumber)"
            }
        }

        func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {
            self.parser(parser, parseErrorOccurred: validationError)
        }

        func parserDidEndDocument(_ parser: XMLParser) {
            if !rootProperties.isEmpty {
                let device = rootProperties.first { $0.0 == "device" }.map { deviceIndex(TestReport.Device(trainerProperty: $0.1)) }
                for index in report.tests.indices {
                    report.tests[index].properties = rootProperties + report.tests[index].properties
                    if let device, report.tests[index].device == -1 { report.tests[index].device = device }
                }
            }
            // Test cases outside any device-bearing suite run on one unnamed device.
            if report.tests.contains(where: { $0.device == -1 }) || report.devices.isEmpty {
                let index = deviceIndex(TestReport.Device())
                for i in report.tests.indices where report.tests[i].device == -1 { report.tests[i].device = index }
            }
        }
    }
}
