import CLibXML2
import Foundation

/// Headless Chromium (Debian's `chromium`, which .ci/run installs), run once
/// per page with a profile of its own and every network request sent
/// nowhere: names resolve to nothing and the proxy is a closed port. What
/// the page logs to its console comes back with what was asked for.
struct Chromium {
    let executable: String
    let folder: TemporaryFolder

    /// Where a browser is, or nil; `.ci/run` sets EVIDENCE_REQUIRE_TOOLS so
    /// that CI fails instead of skipping.
    static var path: String? {
        let names = ["chromium", "chromium-browser", "google-chrome"]
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for name in names {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }

    static var required: Bool { ExternalTool.required }

    /// Run the browser tests when a browser is here, or when CI requires them (and then fail without one).
    static var shouldRun: Bool {
        if path == nil && !required {
            print("Skipping the browser tests: no chromium on PATH (.ci/run installs Debian's chromium).")
        }
        return path != nil || required
    }

    init(folder: TemporaryFolder) throws {
        guard let executable = Self.path else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "chromium is missing; .ci/run installs it"])
        }
        self.executable = executable
        self.folder = folder
    }

    struct Page {
        var output: String
        /// Lines the page wrote to its console, errors and CSP violations among them.
        var console: [String]
    }

    /// The page's DOM after it loaded and its script ran. Without JavaScript,
    /// a copy of the page without its script elements is loaded: headless
    /// Chromium's --dump-dom runs scripts whatever its settings say.
    func dumpDOM(_ file: String, fragment: String? = nil, javascript: Bool = true) throws -> Page {
        guard !javascript else { return try run(["--dump-dom"], file, fragment: fragment) }
        var page = try String(contentsOfFile: file, encoding: .utf8)
        while let start = page.range(of: "<script"), let end = page.range(of: "</script>", range: start.upperBound..<page.endIndex) {
            page.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let copy = folder.path("without-scripts-\(UUID().uuidString.prefix(8)).html")
        try page.write(toFile: copy, atomically: true, encoding: .utf8)
        return try run(["--dump-dom"], copy, fragment: fragment)
    }

    /// A screenshot of the page's top at the given size, light or dark.
    func screenshot(_ file: String, to png: String, width: Int, height: Int, dark: Bool) throws -> Page {
        try run(["--screenshot=\(png)", "--window-size=\(width),\(height)", "--hide-scrollbars"] + (dark ? ["--force-dark-mode"] : []), file)
    }

    private func run(_ arguments: [String], _ file: String, fragment: String? = nil) throws -> Page {
        let profile = folder.path("chromium-\(UUID().uuidString.prefix(8))")
        let arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0",
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
        ] + arguments + [URL(fileURLWithPath: file).absoluteString + (fragment.map { "#" + $0 } ?? "")]
        let result = try EvidenceBinary.run(arguments, environment: ["HOME": profile], executable: URL(fileURLWithPath: executable))
        let log = result.stderr
        guard result.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "chromium failed: \(log.suffix(2000))"])
        }
        return Page(
            output: result.stdout,
            console: log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init))
    }
}

/// A page parsed by libxml2's HTML parser, asked questions in XPath.
final class HTMLTree {
    private let document: htmlDocPtr

    init(_ html: String) throws {
        let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let parsed = html.withCString { htmlReadMemory($0, Int32(strlen($0)), "page.html", "UTF-8", options) }
        guard let parsed else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "libxml2 could not parse the page"])
        }
        document = parsed
    }

    deinit { xmlFreeDoc(document) }

    struct Node {
        var name: String
        var text: String
        var attributes: [String: String]
        var children: [Node]

        func attribute(_ name: String) -> String? { attributes[name] }
    }

    /// The nodes an XPath expression selects, in document order.
    func all(_ xpath: String) -> [Node] {
        guard let context = xmlXPathNewContext(document) else { return [] }
        defer { xmlXPathFreeContext(context) }
        guard let result = xpath.withCString({ xmlXPathEvalExpression(UnsafeRawPointer($0).assumingMemoryBound(to: xmlChar.self), context) })
        else { return [] }
        defer { xmlXPathFreeObject(result) }
        guard let set = result.pointee.nodesetval else { return [] }
        return (0..<Int(set.pointee.nodeNr)).compactMap { index in
            set.pointee.nodeTab[index].map { Self.node($0) }
        }
    }

    func count(_ xpath: String) -> Int { all(xpath).count }

    private static func node(_ pointer: xmlNodePtr) -> Node {
        var attributes: [String: String] = [:]
        var attribute = pointer.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            if let value = xmlGetProp(pointer, current.pointee.name) {
                attributes[name] = String(cString: value)
                cxml_free(value)
            }
            attribute = current.pointee.next
        }
        var text = ""
        if let content = xmlNodeGetContent(pointer) {
            text = String(cString: content)
            cxml_free(content)
        }
        var children: [Node] = []
        var child = pointer.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(node(current)) }
            child = current.pointee.next
        }
        return Node(name: pointer.pointee.name.map { String(cString: $0) } ?? "", text: text, attributes: attributes, children: children)
    }
}
