import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Xcode's command-line tools on this machine, found on `PATH` as a person's
/// shell finds them (`EVIDENCE_XCRUN` and `EVIDENCE_XCODEBUILD` name others):
/// `xcodebuild -version` for the Xcode version and build, `xcrun simctl list
/// runtimes -j` for simulator runtimes, `xcrun xcresulttool` for result
/// bundles. What a tool prints is read as the fixtures of its output are.
public struct MachineTools: Sendable {
    public var xcrun: String?
    public var xcodebuild: String?

    public init(xcrun: String?, xcodebuild: String?) {
        self.xcrun = xcrun
        self.xcodebuild = xcodebuild
    }

    /// The tools of the environment given (`PATH`, `EVIDENCE_XCRUN`, `EVIDENCE_XCODEBUILD`).
    public init(environment: [String: String]) {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        xcrun = Self.named(environment["EVIDENCE_XCRUN"]) ?? Self.find("xcrun", in: path)
        xcodebuild = Self.named(environment["EVIDENCE_XCODEBUILD"]) ?? Self.find("xcodebuild", in: path)
    }

    private static func named(_ path: String?) -> String? {
        guard let path, !path.isEmpty else { return nil }
        return path
    }

    /// The first executable of that name in the folders of `path`.
    static func find(_ name: String, in path: String) -> String? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = String(folder) + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    // MARK: - What the tools say

    /// `xcodebuild -version`: nil where there is no xcodebuild or it says nothing readable.
    public func xcodeVersion() -> XcodeVersion? {
        guard let xcodebuild, let ran = try? Self.run(xcodebuild, ["-version"], limit: 1 << 20, seconds: 60),
            ran.status == 0
        else { return nil }
        return try? XcodeVersion.parse(String(decoding: ran.output, as: UTF8.self), path: "xcodebuild -version")
    }

    /// `xcrun simctl list runtimes -j`: none where there is no xcrun or it fails.
    public func simulatorRuntimes() -> [SimulatorRuntime] {
        guard let xcrun, let ran = try? Self.run(xcrun, ["simctl", "list", "runtimes", "-j"], limit: 64 << 20, seconds: 60),
            ran.status == 0
        else { return [] }
        return (try? SimulatorRuntime.read(ran.output, path: "xcrun simctl list runtimes -j")) ?? []
    }

    // MARK: - Running a tool

    struct Ran {
        var status: Int32
        var output: Data
        var error: String
    }

    /// Runs `executable` with `arguments`: its standard output to `file`
    /// (written as it comes) or kept (up to `limit` bytes), its standard error
    /// kept (its last 64 KB). Stopped after `seconds` when given.
    static func run(_ executable: String, _ arguments: [String], to file: String? = nil, limit: Int = 0, seconds: Double? = nil)
        throws -> Ran
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let outputPipe = Pipe()
        var sink: FileHandle?
        if let file {
            guard FileManager.default.createFile(atPath: file, contents: nil), let handle = FileHandle(forWritingAtPath: file) else {
                throw EvidenceError.io(path: file, reason: "cannot be written")
            }
            sink = handle
        }
        process.standardOutput = outputPipe
        do {
            try process.run()
        } catch {
            throw EvidenceError.io(path: executable, reason: "cannot be run (\(error.localizedDescription))")
        }
        let collected = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            var tail = Data()
            while true {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                tail.append(chunk)
                if tail.count > 65_536 { tail = tail.suffix(65_536) }
            }
            collected.setError(String(decoding: tail, as: UTF8.self))
            group.leave()
        }
        if let seconds {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak process] in
                if process?.isRunning == true { kill(pid, SIGKILL) }
            }
        }
        var kept = Data()
        var failure: Error?
        let reader = outputPipe.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            guard failure == nil else { continue }
            if let sink {
                do {
                    try sink.write(contentsOf: chunk)
                } catch {
                    failure = EvidenceError.io(path: file ?? "", reason: "cannot be written (\(error.localizedDescription))")
                }
            } else if kept.count + chunk.count > limit {
                failure = EvidenceError.io(path: executable, reason: "printed more than \(limit) bytes")
            } else {
                kept.append(chunk)
            }
        }
        process.waitUntilExit()
        group.wait()
        try sink?.close()
        if let failure { throw failure }
        return Ran(status: process.terminationStatus, output: kept, error: collected.error)
    }

    /// What a background reader collected.
    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""

        func setError(_ value: String) {
            lock.withLock { text = value }
        }

        var error: String { lock.withLock { text } }
    }
}
