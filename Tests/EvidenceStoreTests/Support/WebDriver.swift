import Foundation

/// Debian's `chromium`, driven through `chromedriver` (the chromium-driver
/// package, which .ci/run installs) over WebDriver on the loopback address:
/// pages are laid out by a real browser at a real window size, and what the
/// tests measure (scroll widths, element boxes, computed styles) is read
/// from the page as the browser drew it. No request leaves the machine.
final class WebDriver {
    let folder: TemporaryFolder
    private let driver: Process
    private let port: Int
    private var session = ""

    static var path: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map(String.init)
        for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/chromedriver") {
            return folder + "/chromedriver"
        }
        return nil
    }

    /// Run the WebDriver tests where chromedriver and chromium are here, or when CI requires them.
    static var shouldRun: Bool {
        if (path == nil || Chromium.path == nil) && !Chromium.required {
            print("Skipping the WebDriver tests: no chromedriver or chromium on PATH (.ci/run installs chromium-driver).")
        }
        return (path != nil && Chromium.path != nil) || Chromium.required
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `dark` asks the page for its dark colours, as a reader's setting would.
    init(folder: TemporaryFolder, width: Int = 1400, height: Int = 1000, dark: Bool = false) throws {
        guard let executable = Self.path, let browser = Chromium.path else {
            throw Failure(description: "chromedriver or chromium is missing; .ci/run installs chromium-driver and chromium")
        }
        self.folder = folder
        let port = try Self.freePort()
        self.port = port
        driver = Process()
        driver.executableURL = URL(fileURLWithPath: executable)
        driver.arguments = ["--port=\(port)", "--allowed-ips=127.0.0.1", "--log-path=" + folder.path("chromedriver.log")]
        driver.standardOutput = FileHandle.nullDevice
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        // Ready once it answers its status. A connection made while it starts
        // can go unanswered, so each try waits a second and the next one
        // opens a new connection.
        let deadline = Date().addingTimeInterval(20)
        var problem = "no answer"
        while true {
            do {
                let status = try request("GET", "/status", nil, wait: 1)
                if let value = status["value"] as? [String: Any], (value["ready"] as? Bool) == true { break }
                problem = "\(status)"
            } catch {
                problem = "\(error)"
            }
            guard Date() < deadline else { throw Failure(description: "chromedriver did not start on port \(port): \(problem)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let profile = folder.path("webdriver-profile-\(UUID().uuidString.prefix(8))")
        let created = try request("POST", "/session", [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": [
                        "binary": browser,
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            "--disable-extensions", "--user-data-dir=\(profile)", "--hide-scrollbars=false",
                            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
                            "--window-size=\(width),\(height)",
                        ] + (dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : []),
                    ],
                ]
            ]
        ])
        guard let value = created["value"] as? [String: Any], let id = value["sessionId"] as? String else {
            throw Failure(description: "no WebDriver session: \(created)")
        }
        session = id
        try setWindow(width: width, height: height)
    }

    deinit {
        if !session.isEmpty { _ = try? request("DELETE", "/session/\(session)", nil) }
        // SIGKILL: the test process's blocked signals are inherited, so SIGTERM may never arrive.
        if driver.isRunning {
            kill(driver.processIdentifier, SIGKILL)
            driver.waitUntilExit()
        }
    }

    /// A port on the loopback address no one listens on now.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "no socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else { throw Failure(description: "cannot bind a port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// One WebDriver command: its JSON answer. HTTP/1.1 over a socket of
    /// its own to the loopback address, closed after the answer.
    @discardableResult
    private func request(_ method: String, _ path: String, _ body: [String: Any]?, wait: Int = 120) throws -> [String: Any] {
        let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if body != nil { head += "Content-Type: application/json\r\n" }
        head += "Content-Length: \(payload.count)\r\n\r\n"
        let answer = try Self.exchange(port: port, Data(head.utf8) + payload, wait: wait)
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else {
            throw Failure(description: "\(method) \(path): no HTTP answer")
        }
        let data = answer[split.upperBound...]
        guard let object = try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any] else {
            throw Failure(description: "\(method) \(path): no JSON")
        }
        if let value = object["value"] as? [String: Any], let problem = value["error"] as? String {
            throw Failure(description: "\(method) \(path): \(problem): \(value["message"] ?? "")")
        }
        return object
    }

    /// Sends `bytes` to the port and reads until the other side closes, or
    /// throws when nothing arrives for `wait` seconds.
    private static func exchange(port: Int, _ bytes: Data, wait: Int) throws -> Data {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "no socket") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: wait, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "cannot connect to port \(port)") }
        var sent = 0
        try bytes.withUnsafeBytes { raw in
            while sent < raw.count {
                let wrote = send(descriptor, raw.baseAddress! + sent, raw.count - sent, 0)
                guard wrote > 0 else { throw Failure(description: "cannot send to port \(port)") }
                sent += wrote
            }
        }
        // chromedriver may keep the connection open after its answer, so the
        // answer ends where its Content-Length says.
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !Self.isComplete(answer) {
            let read = recv(descriptor, &buffer, buffer.count, 0)
            if read < 0 { throw Failure(description: "no answer from port \(port)") }
            if read == 0 { break }
            answer.append(contentsOf: buffer[0..<read])
        }
        return answer
    }

    /// Whether `answer` holds its head and as many body bytes as the head's
    /// Content-Length gives.
    private static func isComplete(_ answer: Data) -> Bool {
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: answer[..<split.lowerBound], as: UTF8.self).lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
            let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
        else { return false }
        return answer.count - split.upperBound >= length
    }

    // MARK: - What a test does

    func setWindow(width: Int, height: Int) throws {
        try request("POST", "/session/\(session)/window/rect", ["width": width, "height": height])
    }

    func open(_ file: String, fragment: String? = nil) throws {
        try request("POST", "/session/\(session)/url", ["url": URL(fileURLWithPath: file).absoluteString + (fragment.map { "#" + $0 } ?? "")])
    }

    /// Runs a script in the page; its return value, as JSON gives it.
    func run(_ script: String, _ arguments: [Any] = []) throws -> Any? {
        try request("POST", "/session/\(session)/execute/sync", ["script": script, "args": arguments])["value"]
    }

    func number(_ script: String) throws -> Double {
        guard let value = try run(script) as? NSNumber else { throw Failure(description: "not a number: \(script)") }
        return value.doubleValue
    }

    func string(_ script: String) throws -> String {
        guard let value = try run(script) as? String else { throw Failure(description: "not a string: \(script)") }
        return value
    }

    /// The page as a PNG, as the window shows it.
    func screenshot() throws -> Data {
        guard let text = try request("GET", "/session/\(session)/screenshot", nil)["value"] as? String,
            let data = Data(base64Encoded: text)
        else { throw Failure(description: "no screenshot") }
        return data
    }

    /// The page printed, as a PDF.
    func printPDF() throws -> Data {
        guard let text = try request("POST", "/session/\(session)/print", ["background": true])["value"] as? String,
            let data = Data(base64Encoded: text)
        else { throw Failure(description: "no PDF") }
        return data
    }

    /// Lays the page out as it prints (CSS `@media print`), through
    /// chromedriver's passage to the DevTools protocol.
    func emulatePrint() throws {
        try request("POST", "/session/\(session)/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": ["media": "print"]])
    }

    /// The pages of a printed PDF (its page objects).
    static func pageCount(_ pdf: Data) -> Int {
        let text = String(decoding: pdf, as: UTF8.self)
        return text.components(separatedBy: "/Type /Page").count - 1 - (text.components(separatedBy: "/Type /Pages").count - 1)
    }

    /// What the page wrote to its console at the level of warnings and errors.
    func consoleProblems() throws -> [String] {
        guard let entries = try? request("POST", "/session/\(session)/se/log", ["type": "browser"])["value"] as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry in
            guard let level = entry["level"] as? String, level == "SEVERE" || level == "WARNING" else { return nil }
            return entry["message"] as? String
        }
    }
}
