import Foundation
import Testing

/// What a run of the built `evidence` binary printed and returned.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the `evidence` executable that `swift build` put beside the test bundle.
enum EvidenceBinary {
    /// The built binary: in the same products folder as the running test bundle.
    static var url: URL {
        let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            products.appendingPathComponent("evidence"),
            products.deletingLastPathComponent().appendingPathComponent("evidence"),
            packageRoot.appendingPathComponent(".build/debug/evidence"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs the binary with `arguments` and waits for it.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
        executable: URL? = nil, input: Data? = nil
    ) throws -> ProcessResult {
        try start(arguments, environment: environment, in: folder, executable: executable).finish(input: input)
    }

    /// Starts the binary and returns at once; `finish` waits for it.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil, executable: URL? = nil
    ) throws -> RunningBinary {
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "EVIDENCE_STORE")
        // Timestamps without a zone are read in the machine's: the same one wherever the tests run.
        merged["TZ"] = "UTC"
        for (key, value) in environment { merged[key] = value }
        // Foundation's Process on Linux now and then fails to spawn while many
        // threads spawn at once (the concurrency tests), reporting a stale errno.
        // A spawn that failed ran nothing, so it is tried again, twice at most.
        var attempt = 0
        while true {
            let process = Process()
            process.executableURL = executable ?? url
            process.arguments = arguments
            process.environment = merged
            if let folder { process.currentDirectoryURL = folder }
            let out = Pipe()
            let err = Pipe()
            let inPipe = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = inPipe
            do {
                try process.run()
            } catch where attempt < 2 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            return RunningBinary(process: process, out: out, err: err, inPipe: inPipe)
        }
    }
}

/// A started run of a binary.
struct RunningBinary {
    let process: Process
    let out: Pipe
    let err: Pipe
    let inPipe: Pipe

    var pid: Int32 { process.processIdentifier }

    /// Waits (up to `seconds`) until the process has stopped itself at a fault
    /// point (`EVIDENCE_FAULT_POINT=NAME:stop`); false if it never did.
    func waitUntilStopped(seconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if TestPlatform.isStopped(pid) { return true }
            if !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    func resume() { kill(pid, SIGCONT) }

    /// Gives it `input`, closes its input, and waits for it to end.
    func finish(input: Data? = nil) -> ProcessResult {
        if let input { inPipe.fileHandleForWriting.write(input) }
        try? inPipe.fileHandleForWriting.close()
        let collector = StreamCollector()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            collector.setError(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: collector.error, as: UTF8.self))
    }
}

/// Holds what a background reader collected.
final class StreamCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func setError(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }

    var error: Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}

/// A suite that drives the built binary against a store of its own, in a
/// folder of its own, as one user.
protocol BinarySession {
    var folder: TemporaryFolder { get }
    var store: String { get }
    /// Who the commands run as ($USER).
    var user: String { get }
}

extension BinarySession {
    /// Runs the binary on the suite's store and expects `status`.
    @discardableResult
    func run(_ arguments: [String], expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ProcessResult
    {
        let result = try EvidenceBinary.run(arguments, environment: ["EVIDENCE_STORE": store, "USER": user], in: folder.url)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }
    /// A claim as `claim show --format json` gives it, on the suite's store or `path`.
    func claim(_ key: String, store path: String? = nil) throws -> [String: Any] {
        let shown = try run(["claim", "show", key, "--format", "json"] + (path.map { ["--store", $0] } ?? [])).stdout
        return try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any] ?? [:]
    }
}
