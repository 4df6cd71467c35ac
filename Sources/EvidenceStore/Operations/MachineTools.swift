#if canImport(FoundationEssentials) && !EVIDENCE_FULL_FOUNDATION
    import FoundationEssentials
#else
    import Foundation
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
            if FileSystem.isExecutable(candidate) { return candidate }
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

    /// Runs `executable` with `arguments`: its standard output to `file`
    /// (written as it comes) or kept, either way at most `limit` bytes, its
    /// standard error kept (its last 64 KB). Stopped, with everything it
    /// started, after `seconds`: a tool that hangs, or leaves a child holding
    /// its output, never holds the command up longer.
    static func run(_ executable: String, _ arguments: [String], to file: String? = nil, limit: Int, seconds: Double)
        throws -> ChildProcess.Ran
    {
        var output: OpenFile?
        if let file {
            do {
                output = try FileSystem.open(file, [.write, .create, .truncate])
            } catch {
                throw EvidenceError.io(path: file, reason: "cannot be written (\(error))")
            }
        }
        defer { output?.close() }
        let name = ([PathText.name(of: executable)] + arguments.prefix(3)).joined(separator: " ")
        do {
            return try ChildProcess.run(executable, arguments, limit: limit, seconds: seconds, sink: output.map { file in
                { chunk in try file.write(chunk) }
            })
        } catch {
            switch error {
            case .system(let system):
                throw EvidenceError.io(path: executable, reason: "cannot be run (\(system))")
            case .tooMuchOutput(let limit):
                throw EvidenceError.refused(reason: "'\(name)' printed more than \(limit) bytes; it was stopped (--max-size sets the limit)")
            case .timedOut(let seconds):
                throw EvidenceError.refused(
                    reason: "'\(name)' did not finish within \(NumberText.format(seconds)) seconds; it was stopped with everything it started")
            case .sink(let failure):
                throw EvidenceError.io(path: file ?? executable, reason: "cannot be written (\(SystemCall.words(for: failure)))")
            }
        }
    }
}
