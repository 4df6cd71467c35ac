import FoundationEssentials

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

    /// Runs `executable` with `arguments`: its standard output to `file`
    /// (written as it comes) or kept (up to `limit` bytes), its standard error
    /// kept (its last 64 KB). Stopped after `seconds` when given.
    static func run(_ executable: String, _ arguments: [String], to file: String? = nil, limit: Int = 0, seconds: Double? = nil)
        throws -> Subprocess.Ran
    {
        var sink: (descriptor: OpenFile, path: String)?
        if let file {
            let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw EvidenceError.io(path: file, reason: "cannot be written (\(SystemCall.words(errno)))")
            }
            sink = (OpenFile(descriptor: descriptor), file)
        }
        return try Subprocess.run(executable, arguments, sink: sink, limit: limit, seconds: seconds)
    }
}
